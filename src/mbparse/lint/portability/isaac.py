"""Isaac Sim's URDF importer (its documented import options): fixed joints
are merged (``merge_fixed_joints``) and the base fixed (``fix_base``) by
default, a link without ``<inertial>`` gets a mass PhysX computes from its
collision shapes (the ``density`` option; 0 computes it), and link and
joint names with characters USD does not allow are renamed."""
from __future__ import annotations

import re
from typing import Iterator

from ..findings import Finding
from .source import merge_findings

NAME = "isaac"
TITLE = "Isaac Sim"
READS = ("urdf", "mjcf", "usd")  # (a USD file is Isaac Sim's own: no finding)
READS_TEXT = "it loads USD, and its importers read URDF and MJCF"
# What a USD prim name may hold; the importer replaces anything else by '_'.
_USD_NAME = re.compile(r"[A-Za-z0-9_]+")


def check(ctx) -> Iterator[Finding]:
    if ctx.urdf is None:
        return
    yield from fixed_base(ctx)
    yield from merged_links(ctx)
    yield from masses(ctx)
    yield from renamed(ctx)


def fixed_base(ctx) -> Iterator[Finding]:
    for name in ctx.urdf.floating_roots():
        yield ctx.finding(
            "for-isaac-base-fixed",
            f"root link '{name}' floats in Drake and pybullet, but Isaac Sim's URDF importer "
            "fixes the base to the world by default (fix_base)",
            ctx.urdf.line(ctx.urdf.links[name]))


def merged_links(ctx) -> Iterator[Finding]:
    yield from merge_findings(
        ctx, "for-isaac-fixed-merged",
        lambda link, joint: (
            f"link '{link}' is merged into its parent by Isaac Sim's URDF importer (fixed joint "
            f"'{joint}'; merge_fixed_joints is on by default), so the stage has no prim of "
            "that name"),
        lambda n, names: (
            f"{n} links on fixed joints ({names}) are merged into their parents by "
            "Isaac Sim's URDF importer (merge_fixed_joints is on by default): the stage has no "
            "prims of these names"))


def masses(ctx) -> Iterator[Finding]:
    urdf = ctx.urdf
    for name, el in urdf.massless_unmerged():
        yield ctx.finding(
            "for-isaac-mass-from-collision",
            f"link '{name}' has no <inertial>: Isaac Sim leaves its mass to PhysX, which "
            "computes one from its collision shapes (the importer's density option), where "
            "Drake gives it none", urdf.line(el))


def renamed(ctx) -> Iterator[Finding]:
    urdf = ctx.urdf
    named = [("link", n, el) for n, el in urdf.links.items()]
    named += [("joint", j.get("name"), j) for j in urdf.joints]
    for kind, name, el in named:
        if not _USD_NAME.fullmatch(name):
            usd = re.sub(r"[^A-Za-z0-9_]", "_", name)
            if usd.startswith("_"):
                usd = "a" + usd
            yield ctx.finding(
                "for-isaac-name-changed",
                f"{kind} '{name}' becomes '{usd}' in Isaac Sim (USD names allow only letters, "
                "digits and '_')", urdf.line(el))
