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
from .source import merge_findings

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
    lumped = {child for _, child in urdf.fixed_children()
              if child not in kept and _lumped_into(urdf, child, kept) in kept}
    yield from merge_findings(
        ctx, "for-gazebo-fixed-lumped",
        lambda link, joint: (
            f"link '{link}' is lumped into link '{_lumped_into(urdf, link, kept)}' by Gazebo's "
            f"URDF converter (fixed joint '{joint}'): no link or joint of these names exists in "
            "Gazebo, so plugins naming them miss (<gazebo "
            f"reference='{joint}'><preserveFixedJoint>true</preserveFixedJoint></gazebo> keeps "
            "it)"),
        lambda n, names: (
            f"{n} links on fixed joints ({names}) are lumped into their parents by Gazebo's "
            "URDF converter: no links or joints of these names exist in Gazebo, so plugins "
            "naming them miss (<gazebo reference='JOINT'><preserveFixedJoint>true"
            "</preserveFixedJoint></gazebo> keeps one)"),
        only=lumped)
    dropped = {name for name in urdf.links if name not in kept | lumped | {"world"}}
    for name, el in urdf.links.items():
        if name not in dropped:
            continue
        joint = urdf.parent_joint.get(name)
        if joint is not None and urdf.joint_ends(joint)[0] in dropped:
            continue  # left out with the link above it, which says so
        why = "no <inertial>" if not urdf.has_inertial(name) else "no positive mass"
        yield ctx.finding(
            "for-gazebo-link-dropped",
            f"link '{name}' has {why}: Gazebo's URDF converter leaves it out, with its "
            "joint and every link below it", urdf.line(el))


def _lumped_into(urdf, name: str, kept: set[str]) -> str:
    """The link a link on fixed joints is lumped into: up its fixed joints
    to the first link kept (or the last one reached)."""
    seen = set()
    while name not in kept and name not in seen:
        seen.add(name)
        joint = urdf.parent_joint.get(name)
        if joint is None or joint.get("type") != "fixed":
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
