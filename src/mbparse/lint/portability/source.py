"""The source elements the portability checks look at: a URDF file's links,
joints and meshes as written (what a consumer's own importer reads), with
the line each is on."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterator

from ... import formats
from ...diagnostics import DiagnosticPolicy, ParseError
from ...formats.common.xml import XmlDiagnostic, first_child, load_xml
from ...workspace import DataSource

# Where a URDF's <mesh> sits: visual or collision.
ROLES = ("visual", "collision")


@dataclass(frozen=True)
class MeshUse:
    """One ``<mesh filename=...>`` of a URDF link."""

    link: str
    role: str          # "visual" or "collision"
    filename: str      # as written (package://, relative, file://, ...)
    line: int | None

    def extension(self) -> str:
        return os.path.splitext(self.filename)[1].lower()


@dataclass
class UrdfSource:
    """A URDF file's elements as written (for a xacro file, as expanded)."""

    path: str
    root: object  # lxml element <robot>
    links: dict[str, object] = field(default_factory=dict)
    joints: list = field(default_factory=list)
    # (file, line) in the expanded text → where it was written (xacro).
    locate_expanded: Callable | None = None
    expanded_name: str | None = None

    def __post_init__(self) -> None:
        for el in self.root:
            if el.tag == "link" and el.get("name") is not None:
                self.links.setdefault(el.get("name"), el)
            elif el.tag == "joint" and el.get("name") is not None:
                self.joints.append(el)

    @staticmethod
    def joint_ends(joint) -> tuple[str | None, str | None]:
        parent, child = first_child(joint, "parent"), first_child(joint, "child")
        return (parent.get("link") if parent is not None else None,
                child.get("link") if child is not None else None)

    @cached_property
    def parent_joint(self) -> dict[str, object]:
        """Child link name → the joint that attaches it."""
        out = {}
        for j in self.joints:
            child = self.joint_ends(j)[1]
            if child is not None:
                out.setdefault(child, j)
        return out

    def root_links(self) -> list[str]:
        """The links no joint attaches to a parent, in file order."""
        return [name for name in self.links if name not in self.parent_joint]

    def floating_roots(self) -> list[str]:
        """The root links Drake and pybullet leave free to move: every root
        but a link named ``world`` (which is the world itself)."""
        return [name for name in self.root_links() if name != "world"]

    def has_inertial(self, link: str) -> bool:
        return first_child(self.links[link], "inertial") is not None

    def fixed_children(self) -> list[tuple[object, str]]:
        """(fixed joint, child link) pairs whose parent is not ``world``."""
        out = []
        for j in self.joints:
            parent, child = self.joint_ends(j)
            if j.get("type") == "fixed" and child in self.links and parent != "world":
                out.append((j, child))
        return out

    def welded_group(self, link: str) -> set[str]:
        """The links joined to ``link`` by fixed joints (itself included)."""
        neighbours: dict[str, list[str]] = {}
        for j in self.joints:
            if j.get("type") == "fixed":
                a, b = self.joint_ends(j)
                neighbours.setdefault(a, []).append(b)
                neighbours.setdefault(b, []).append(a)
        group, stack = {link}, [link]
        while stack:
            for other in neighbours.get(stack.pop(), []):
                if other not in group:
                    group.add(other)
                    stack.append(other)
        return group

    def massless_bodies(self) -> list[str]:
        """The links without ``<inertial>`` that no link welded to them
        gives mass (a consumer that merges welded links, or adds their
        masses as Drake does, finds a mass for the others): what each
        consumer fills in its own way. The world and links welded to it are
        left out."""
        out = []
        for name in self.links:
            if name == "world" or self.has_inertial(name):
                continue
            group = self.welded_group(name)
            if "world" in group or any(self.has_inertial(g) for g in group if g in self.links):
                continue
            out.append(name)
        return out


    def massless_unmerged(self) -> Iterator[tuple[str, object]]:
        """(name, element) of the massless links (:meth:`massless_bodies`)
        that an importer merging fixed joints keeps as links of their own."""
        for name in self.massless_bodies():
            joint = self.parent_joint.get(name)
            if joint is None or joint.get("type") != "fixed":
                yield name, self.links[name]
    def mimics(self) -> list[tuple[object, object]]:
        """(joint, its <mimic>) pairs."""
        return [(j, m) for j in self.joints if (m := first_child(j, "mimic")) is not None]

    def loop_joints(self) -> list:
        return [el for el in self.root if el.tag == "loop_joint"]

    def meshes(self) -> list[MeshUse]:
        out = []
        for name, link in self.links.items():
            for role in ROLES:
                for holder in link.iterchildren(role):
                    geometry = first_child(holder, "geometry")
                    mesh = first_child(geometry, "mesh") if geometry is not None else None
                    if mesh is not None and mesh.get("filename"):
                        out.append(MeshUse(name, role, mesh.get("filename").strip(),
                                           mesh.sourceline))
        return out

    def line(self, el) -> int | None:
        return getattr(el, "sourceline", None)

    def locate(self, line: int | None) -> tuple[str, int | None]:
        """The file and line a line of this source was written at."""
        if self.locate_expanded is None:
            return self.path, line
        file, line = self.locate_expanded(self.expanded_name, line)
        return file or self.path, line


def read_urdf(path: str, parser=None) -> UrdfSource | None:
    """The URDF source of ``path``, a URDF file or a xacro file expanded
    with ``parser``'s package map (None for another format, a xacro file
    without a parser, or a file that cannot be read: the reader's findings
    already say why)."""
    fmt = formats.format_of(path)
    if fmt == "xacro":
        return _read_xacro(path, parser) if parser is not None else None
    if fmt != "urdf":
        return None
    try:
        root = load_xml(DataSource(filename=path), XmlDiagnostic(DiagnosticPolicy(emit=False),
                                                                  path))
    except ParseError:
        return None
    if root is None or root.tag != "robot":
        return None
    return UrdfSource(path, root)


def _read_xacro(path: str, parser) -> UrdfSource | None:
    from ...formats import xacro
    workspace = parser.make_workspace()
    workspace.diagnostic = DiagnosticPolicy(emit=False)  # check has its findings already
    try:
        expanded, expansion = xacro.expand(DataSource(filename=path), workspace)
        root = load_xml(expanded, XmlDiagnostic(workspace.diagnostic, expanded.name()))
    except (ParseError, ImportError):
        return None
    if root is None or root.tag != "robot":
        return None
    return UrdfSource(path, root, locate_expanded=expansion.locate,
                      expanded_name=expansion.expanded_name)


# Up to this many links are reported one by one; more are one finding.
LISTED = 5


def each_or_all(ctx, code: str, links: list[str], one: Callable[[str], str],
                many: Callable[[int, str], str]) -> Iterator:
    """Findings about ``links``: one per link (``one(link)``) when there
    are a few, else one for them all (``many(count, names)``) at the first
    -- a consumer's systematic behaviour is said once, not forty times."""
    urdf = ctx.urdf
    if len(links) <= LISTED:
        for link in links:
            yield ctx.finding(code, one(link), urdf.line(urdf.links[link]))
    elif links:
        shown = ", ".join(f"'{n}'" for n in links[:8]) + (", ..." if len(links) > 8 else "")
        yield ctx.finding(code, many(len(links), shown), urdf.line(urdf.links[links[0]]))


def merge_findings(ctx, code: str, merged: Callable[[str, str], str],
                   many: Callable[[int, str], str], only: set[str] | None = None) -> Iterator:
    """:func:`each_or_all` for the links on fixed joints a consumer merges
    into their parents (``merged(link, joint)``); ``only``: the links to
    report (default all)."""
    joints = {child: joint.get("name") for joint, child in ctx.urdf.fixed_children()
              if only is None or child in only}
    yield from each_or_all(ctx, code, list(joints), lambda link: merged(link, joints[link]),
                           many)
