"""What libsdformat's URDF to SDFormat conversion changes, as losses.

libsdformat's converter (reproduced by :mod:`mbparse.convert`) lumps the
child link of each fixed joint into its parent and removes the joint, names
meshes ``model://`` where the URDF said ``package://``, and has no place for
``<mimic>``, ``<safety_controller>``, ``<calibration>`` or ``<transmission>``.
That is its documented behaviour, but the output is a different model from
the input: each of these differences goes in the loss report, with the URDF
line, so that ``--libsdformat`` never reports ``[]`` for a model it changed.
"""
from __future__ import annotations

from .loss import APPROXIMATED, DROPPED, MERGED, RENAMED, LossReport
from .sdf_tree import Node
from .urdf_model import Link, UrdfModel

WORLD = "world"
WRITTEN_JOINT_TYPES = ("continuous", "revolute", "prismatic", "fixed")
# URDF joint children the converter does not carry into SDFormat.
UNCARRIED_JOINT_CHILDREN = {
    "mimic": "its <mimic> (libsdformat 12's converter has no SDFormat form for it)",
    "safety_controller": "its <safety_controller> (SDFormat has no safety controller)",
    "calibration": "its <calibration> (SDFormat has no calibration)",
}


def report_conversion_losses(model: UrdfModel, robot, sdf: Node, report: LossReport,
                             file: str | None, frames_written: bool) -> None:
    """Adds to ``report`` every difference between the URDF ``model`` (read
    from the ``<robot>`` element ``robot``) and the SDFormat tree ``sdf``
    that libsdformat's conversion made of it, beyond the converter's own
    warnings (links left out for want of mass, unsupported joint types),
    which the caller reports."""
    out = sdf.first("model")
    links = {c.attrs.get("name") for c in out.all("link")} if out is not None else set()
    joints = {c.attrs.get("name") for c in out.all("joint")} if out is not None else set()
    _lumped(model, _masses(robot), links, joints, report, file, frames_written)
    _mesh_uris(model, report, file)
    for joint_el in robot.iter("joint"):
        name = joint_el.get("name")
        for child in joint_el:
            what = UNCARRIED_JOINT_CHILDREN.get(child.tag) if isinstance(child.tag, str) else None
            if what and name in joints:
                report.add(DROPPED, f"joint '{name}'", what, (file, child.sourceline))
    _actuated(robot, out, report, file)
    for tr in robot.iter("transmission"):
        label = f"transmission '{tr.get('name')}'" if tr.get("name") else "a transmission"
        report.add(DROPPED, label,
                   "libsdformat's conversion has no place for a <transmission>",
                   (file, tr.sourceline))


def _host(link: Link, links: set[str]) -> Link | None:
    """The written link that received ``link``'s content, if any."""
    up = link.parent
    while up is not None and up.name not in links:
        up = up.parent
    return up if up is not None and up.name != WORLD else None


def _masses(robot) -> dict[str, float]:
    """Each link's mass as the URDF gives it (the lumping changed the model's)."""
    out = {}
    for el in robot.iter("link"):
        mass = el.find("inertial/mass")
        try:
            out[el.get("name")] = float(mass.get("value")) if mass is not None else 0.0
        except (TypeError, ValueError):
            out[el.get("name")] = 0.0
    return out


def _lumped(model: UrdfModel, masses: dict[str, float], links: set[str], joints: set[str],
            report: LossReport, file: str | None, frames_written: bool) -> None:
    hosts: dict[str, list[Link]] = {}
    for link in model.links.values():
        joint = link.parent_joint
        if link.name in links or link.name == WORLD or joint is None or joint.type != "fixed":
            continue
        if joint.name in joints:
            continue
        host = _host(link, links)
        if host is None:
            continue  # left out with a massless ancestor: the converter's warning says so
        marks = f"; frames '{joint.name}' and '{link.name}' mark where they were" \
            if frames_written else ""
        report.add(MERGED, f"body '{link.name}'",
                   f"libsdformat's fixed-joint lumping merged it into link '{host.name}' (its "
                   f"mass, inertia, visuals and collisions are added to '{host.name}')" + marks,
                   (file, link.line))
        report.add(MERGED, f"joint '{joint.name}'",
                   f"the fixed joint is removed by libsdformat's lumping (link '{link.name}' "
                   f"is part of '{host.name}'); convert without --libsdformat, or give it "
                   "<gazebo reference><preserveFixedJoint>, to keep it", (file, joint.line))
        hosts.setdefault(host.name, []).append(link)
    for name, lumped in hosts.items():
        host = model.links[name]
        mass = host.inertial.mass if host.inertial is not None else 0.0
        own = masses.get(name, 0.0)
        names = ", ".join(f"'{x.name}'" for x in lumped)
        report.add(MERGED, f"body '{name}'",
                   f"holds the lumped link(s) {names}: its mass is {mass:g} kg instead of "
                   f"{own:g} kg, with their centre of mass, inertia and shapes",
                   (file, host.line))
    for joint in model.joints.values():
        if joint.name in joints or joint.type not in WRITTEN_JOINT_TYPES:
            continue  # written, or the converter's warning names it
        child = model.links.get(joint.child_name)
        if child is None or child.name in links or joint.type == "fixed" and _host(child, links):
            continue
        report.add(DROPPED, f"joint '{joint.name}'",
                   f"left out with its child link '{child.name}' (libsdformat's conversion "
                   "leaves out links without mass)", (file, joint.line))


def _actuated(robot, out: Node | None, report: LossReport, file: str | None) -> None:
    """Joints that Drake's SDFormat reader actuates and its URDF reader does
    not: in SDFormat any non-zero effort limit (an absent one is unlimited)
    makes an actuator; in URDF only a <transmission> does."""
    if out is None:
        return
    transmitted = {j.get("name") for tr in robot.iter("transmission") for j in tr.iter("joint")}
    lines = {el.get("name"): el.sourceline for el in robot.iter("joint")}
    for joint in out.all("joint"):
        name = joint.attrs.get("name")
        if joint.attrs.get("type") not in ("revolute", "prismatic") or name in transmitted:
            continue
        axis = joint.first("axis")
        limit = axis.first("limit") if axis is not None else None
        effort = limit.first("effort") if limit is not None else None
        text = effort.value() if effort is not None else "-1"
        try:
            value = float(text)
        except ValueError:
            continue
        if value == 0:
            continue
        said = "an unlimited effort" if value < 0 else f"the effort limit {text}"
        report.add(APPROXIMATED, f"joint '{name}'",
                   f"written with {said}, from which Drake's SDFormat reader makes an actuator "
                   "(the URDF has no <transmission> for it)", (file, lines.get(name)))


def _mesh_uris(model: UrdfModel, report: LossReport, file: str | None) -> None:
    seen: set[str] = set()
    for link in model.links.values():
        for shape in link.visuals + link.collisions:
            uri = shape.geometry.filename
            if shape.geometry.kind != "mesh" or "package://" not in uri or uri in seen:
                continue
            seen.add(uri)
            report.add(RENAMED, f"mesh '{uri}'",
                       "written " + uri.replace("package://", "model://", 1) + " as libsdformat's "
                       "conversion does: it resolves only where a model path holds the package "
                       "(GZ_SIM_RESOURCE_PATH), not from the output's folder; convert without "
                       "--libsdformat for mesh paths that resolve", (file, shape.line))


__all__ = ["report_conversion_losses"]
