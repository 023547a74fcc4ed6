"""Gazebo (gz-sim): a URDF is turned into SDFormat by libsdformat's
converter (reference 003), which mbparse reproduces (:mod:`mbparse.convert`):
links without mass are left out, the child links of fixed joints are lumped
into their parents, ``package://`` URIs are found only on Gazebo's resource
path, and meshes must be in a format gz-common reads."""
from __future__ import annotations

from typing import Iterator

from ...convert import urdf_to_sdf_tree
from ...diagnostics import DiagnosticPolicy, ParseError
from ..findings import Finding

NAME = "gazebo"
TITLE = "Gazebo"
READS = ("sdformat", "urdf")
READS_TEXT = "it reads SDFormat, and URDF through libsdformat's converter"
# The mesh files gz-common's mesh manager loads.
MESH_FORMATS = (".dae", ".stl", ".obj", ".gltf", ".glb", ".fbx")


def check(ctx) -> Iterator[Finding]:
    if ctx.urdf is None:
        return
    yield from converted_links(ctx)
    yield from package_uris(ctx)
    yield from mesh_formats(ctx)


def converted_links(ctx) -> Iterator[Finding]:
    """``for-gazebo-fixed-lumped`` for each link merged into its parent,
    ``for-gazebo-link-dropped`` for each link the converter leaves out."""
    urdf = ctx.urdf
    try:
        sdf = urdf_to_sdf_tree(ctx.path, policy=DiagnosticPolicy(emit=False))
    except (ParseError, OSError):
        return  # check's own findings say why the file cannot be read
    model = sdf.first("model")
    kept = {link.attrs.get("name") for link in model.all("link")} if model is not None else set()
    for name, el in urdf.links.items():
        if name in kept or name == "world":
            continue
        joint = urdf.parent_joint.get(name)
        if joint is not None and joint.get("type") == "fixed":
            into = _lumped_into(urdf, name, kept)
            yield ctx.finding(
                "for-gazebo-fixed-lumped",
                f"link '{name}' is lumped into link '{into}' by Gazebo's URDF converter (fixed "
                f"joint '{joint.get('name')}'); there is no link or joint of these names in "
                "Gazebo, so plugins and sensors naming them miss (add <gazebo "
                f"reference='{joint.get('name')}'><preserveFixedJoint>true</preserveFixedJoint>"
                "</gazebo> to keep it)", urdf.line(el))
        else:
            why = "no <inertial>" if not urdf.has_inertial(name) else "no positive mass"
            yield ctx.finding(
                "for-gazebo-link-dropped",
                f"link '{name}' has {why}: Gazebo's URDF converter leaves it out, with its "
                "joint and every link below it", urdf.line(el))


def _lumped_into(urdf, name: str, kept: set[str]) -> str:
    seen = set()
    while name not in kept and name not in seen:
        seen.add(name)
        joint = urdf.parent_joint.get(name)
        if joint is None:
            break
        name = urdf.joint_ends(joint)[0] or name
    return name


def package_uris(ctx) -> Iterator[Finding]:
    """One finding for the file: Gazebo reads ``package://`` as
    ``model://`` and finds the package only on its resource path."""
    uses = [m for m in ctx.urdf.meshes() if m.filename.startswith("package://")]
    if uses:
        first = uses[0]
        package = first.filename[len("package://"):].split("/", 1)[0]
        yield ctx.finding(
            "for-gazebo-package-uri",
            f"{len(uses)} mesh URI(s) use package:// (first: '{first.filename}'); Gazebo has no "
            f"ROS package map: it finds '{package}' only when the folder holding it is on "
            "GZ_SIM_RESOURCE_PATH", first.line)


def mesh_formats(ctx) -> Iterator[Finding]:
    for m in ctx.urdf.meshes():
        if m.extension() not in MESH_FORMATS:
            yield ctx.finding(
                "for-gazebo-mesh-format",
                f"{m.role} mesh '{m.filename}' of link '{m.link}' is a '{m.extension()}' file, "
                f"which Gazebo's mesh loader does not read ({', '.join(MESH_FORMATS)})", m.line)
