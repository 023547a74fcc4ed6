"""MuJoCo's URDF importer (as MuJoCo 3/4 compiles a URDF): the root link is
fixed to the world, bodies joined by fixed joints are fused
(``fusestatic``) and visuals discarded (``discardvisual``) unless the file's
``<mujoco><compiler>`` says otherwise, a link without ``<inertial>`` gets a
mass from its collision shapes, ``package://`` is not resolved, and only
STL, OBJ and MSH meshes can be decoded. MJCF is MuJoCo's own format: what
its compiler refuses and Drake reads (``mjcf-mujoco-refuses``, an unknown
element or attribute, a file included twice: warnings in check's default
output) is an error here."""
from __future__ import annotations

from typing import Iterator

from ...formats.common.xml import first_child
from ...formats.mjcf.mujoco_refuses import CODE as REFUSES_CODE
from ..findings import Finding, rule_finding
from .source import merge_findings

NAME = "mujoco"
TITLE = "MuJoCo"
READS = ("mjcf", "urdf")
READS_TEXT = "it reads MJCF and URDF"
MESH_FORMATS = (".stl", ".obj", ".msh")
# The findings on an MJCF file that MuJoCo's compiler refuses: what Drake
# reads and MuJoCo does not, elements and attributes its schema does not
# have, a file included twice. Each becomes a for-mujoco-refuses error.
REFUSAL_RULES = frozenset((REFUSES_CODE, "mjcf-unknown-element", "mjcf-unknown-attribute",
                           "mjcf-include-repeated"))


def check(ctx) -> Iterator[Finding]:
    if ctx.format == "mjcf":
        yield from refusals(ctx)
        return
    if ctx.urdf is None:
        return
    compiler = _compiler(ctx.urdf)
    yield from welded_roots(ctx)
    if compiler.get("fusestatic", "true") != "false":
        yield from fused_links(ctx)
    if compiler.get("discardvisual", "true") != "false":
        yield from discarded_visuals(ctx)
    yield from masses(ctx)
    yield from meshes(ctx, compiler.get("discardvisual", "true") == "false")


def refusals(ctx) -> Iterator[Finding]:
    """What MuJoCo's compiler refuses in an MJCF file that mbparse read as
    Drake does: each reader warning of it, as an error at its place."""
    for f in ctx.findings:
        if f.rule in REFUSAL_RULES:
            yield rule_finding("for-mujoco-refuses", f.message, f.file, f.line, f.column)


def _compiler(urdf) -> dict:
    mujoco = first_child(urdf.root, "mujoco")
    compiler = first_child(mujoco, "compiler") if mujoco is not None else None
    return dict(compiler.attrib) if compiler is not None else {}


def welded_roots(ctx) -> Iterator[Finding]:
    for name in ctx.urdf.floating_roots():
        yield ctx.finding(
            "for-mujoco-root-welded",
            f"root link '{name}' floats in Drake and pybullet, but MuJoCo's URDF importer "
            "fixes it to the world (it adds no free joint)", ctx.urdf.line(ctx.urdf.links[name]))


def fused_links(ctx) -> Iterator[Finding]:
    yield from merge_findings(
        ctx, "for-mujoco-fixed-fused",
        lambda link, joint: (
            f"link '{link}' is fused into its parent by MuJoCo (fixed joint '{joint}'; the "
            "compiler's fusestatic is on for URDF), so MuJoCo has no body of that name (<mujoco><compiler fusestatic=\"false\"/></mujoco> "
            "keeps it)"),
        lambda n, names: (
            f"{n} links on fixed joints ({names}) are fused into their parents by MuJoCo "
            "(fusestatic is on for URDF): MuJoCo has no bodies of these names "
            "(<mujoco><compiler fusestatic=\"false\"/></mujoco> keeps them)"))


def discarded_visuals(ctx) -> Iterator[Finding]:
    for name, el in ctx.urdf.links.items():
        visual = first_child(el, "visual")
        if visual is not None:
            yield ctx.finding(
                "for-mujoco-visual-discarded",
                "MuJoCo discards the <visual> elements of a URDF (the compiler's discardvisual "
                "is on for URDF); its model shows the collision shapes "
                "(<mujoco><compiler discardvisual=\"false\"/></mujoco> keeps them)",
                ctx.urdf.line(visual))
            return


def masses(ctx) -> Iterator[Finding]:
    urdf = ctx.urdf
    for name, el in urdf.massless_unmerged():
        if first_child(el, "collision") is not None:
            what = ("MuJoCo computes its mass and inertia from its collision shapes (at "
                    "density 1000 kg/m³)")
        else:
            what = "and no collision shape: MuJoCo refuses a moving body without mass"
        yield ctx.finding("for-mujoco-mass-from-geoms",
                          f"link '{name}' has no <inertial>; {what}, where Drake gives it none",
                          urdf.line(el))


def meshes(ctx, visuals_kept: bool) -> Iterator[Finding]:
    """The meshes MuJoCo opens: the collision ones, and the visual ones when
    visuals are kept."""
    uses = [m for m in ctx.urdf.meshes() if visuals_kept or m.role == "collision"]
    package = [m for m in uses if m.filename.startswith(("package://", "model://"))]
    if package:
        yield ctx.finding(
            "for-mujoco-package-uri",
            f"{len(package)} mesh URI(s) use {package[0].filename.split('://')[0]}:// (first: "
            f"'{package[0].filename}'); MuJoCo resolves mesh files only against the model's "
            "folder (or the compiler's meshdir) and fails to open these", package[0].line)
    for m in uses:
        if m.extension() not in MESH_FORMATS:
            yield ctx.finding(
                "for-mujoco-mesh-format",
                f"{m.role} mesh '{m.filename}' of link '{m.link}' is a '{m.extension()}' "
                f"file; MuJoCo decodes only {', '.join(MESH_FORMATS)} and refuses the model",
                m.line)
