"""MuJoCo's MJCF schema as named records, read from ``schema.json`` (generated
from MuJoCo's own schema table by ``tools/make_mjcf_schema.py``), and the
check of a document's elements and attributes against it.

MuJoCo refuses a file whose element or attribute its schema does not list
("Schema violation: unrecognized attribute"); mbparse, as lenient as Drake,
reads on and warns, naming the known name a typo was probably meant for
(``rnage`` → ``range``). Rules the table does not hold come from MuJoCo's
reader: ``<worldbody>``, ``<frame>`` and ``<replicate>`` take the children
of ``<body>`` (mjXSchema::NameMatch), a ``<default>`` or ``<body>`` may hold
itself, and ``<include>`` is replaced by the included file's elements
before the check. A ``<body>`` directly under ``<mujoco>``, which MuJoCo
refuses, is let through: mbparse reads it as a body of the world.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache

from ...diagnostics import ParseError
from ..common.suggest import closest


@dataclass(eq=False)
class ElementSpec:
    """An MJCF element: its attributes and its children by name.

    ``multiplicity`` is one of ``one``, ``optional`` (at most one), ``any``
    and ``recursive`` (any number, and the element may hold itself)."""

    name: str
    path: str
    multiplicity: str
    attributes: frozenset[str]
    children: dict[str, "ElementSpec"] = field(default_factory=dict)

    @property
    def recursive(self) -> bool:
        return self.multiplicity == "recursive"

    def __repr__(self) -> str:
        return f"ElementSpec({self.path}, {len(self.attributes)} attributes, " \
               f"{len(self.children)} children)"


@dataclass(frozen=True)
class Schema:
    """The whole schema: its root (``<mujoco>``) and the MuJoCo version it
    was generated from."""

    root: ElementSpec
    mujoco_version: str

    @property
    def body(self) -> ElementSpec:
        return self.root.children["body"]


# What MuJoCo's reader reads ``<frame>`` and ``<replicate>`` with: the table
# gives them no row of their own (they share <body>'s children).
ALIAS_ATTRIBUTES = {
    "frame": frozenset("name childclass pos quat axisangle xyaxes zaxis euler".split()),
    "replicate": frozenset("count offset euler sep childclass".split()),
}


@lru_cache(maxsize=1)
def schema() -> Schema:
    """The schema of ``schema.json``."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema.json")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    specs = [ElementSpec(e["name"], e["path"], e["multiplicity"], frozenset(e["attributes"]))
             for e in data["elements"]]
    for spec, e in zip(specs, data["elements"]):
        spec.children = {specs[c].name: specs[c] for c in e["children"]}
    return Schema(specs[data["root"]], data["mujoco_version"])


@lru_cache(maxsize=1)
def _children_by_spec() -> dict[ElementSpec, dict[str, ElementSpec]]:
    """For every element of the schema, its children by name as the check
    takes them (:meth:`SchemaChecker._child_spec` for every name it knows)."""
    checker = SchemaChecker.__new__(SchemaChecker)
    checker.schema = schema()
    out: dict[ElementSpec, dict[str, ElementSpec]] = {}
    pending = [checker.schema.root]
    while pending:
        spec = pending.pop()
        if spec in out:
            continue
        out[spec] = {name: checker._child_spec(spec, name)
                     for name in checker._known_children(spec)}
        pending.extend(out[spec].values())
    return out


def _foreign(name: str) -> bool:
    """Namespaced names (``xmlns:*``, a tool's ``xacro:*``) are not MJCF's to judge."""
    return ":" in name or "{" in name


class SchemaChecker:
    """Checks a document against the schema, reporting each unknown element
    (not descended into) and attribute once. The elements reported are
    added to the document's ``unknown`` set, so that the readers, which
    skip them, do not report them again."""

    def __init__(self, doc) -> None:
        self.doc = doc
        self.schema = schema()
        self._children = _children_by_spec()

    def check(self, root) -> None:
        """Checks ``root`` (``<mujoco>``) and everything in it, includes included."""
        if root.tag != self.schema.root.name:
            return  # the reader refuses the root itself
        stack = [(root, self.schema.root)]
        children_of = self._children
        kids = self.doc.kids
        while stack:
            el, spec = stack.pop()
            t = el.tag
            known = ALIAS_ATTRIBUTES[t] if t in ALIAS_ATTRIBUTES else spec.attributes
            if not known.issuperset(el.keys()):
                self._attributes(el, spec)
            if not len(el):  # (most elements) no children at all
                continue
            found = kids(el)
            if type(found) is not tuple:  # an <include> inside: expanded child by child
                found = []
                try:
                    for child in kids(el):
                        found.append(child)
                except ParseError:
                    pass  # a broken <include>: the reader reports it where it reads it
            children = children_of[spec]
            for child in reversed(found):
                try:
                    stack.append((child, children[child.tag]))
                except KeyError:
                    self._unknown_element(el, spec, child)

    def _child_spec(self, spec: ElementSpec, name: str) -> ElementSpec | None:
        body = self.schema.body
        if spec is self.schema.root and name == "worldbody":
            return body
        if spec is body and name in ("body", "frame", "replicate"):
            return body
        if spec.recursive and name == spec.name:
            return spec
        return spec.children.get(name)

    def _known_children(self, spec: ElementSpec) -> list[str]:
        names = list(spec.children)
        if spec is self.schema.root:
            names.append("worldbody")
        elif spec is self.schema.body:
            names += ["body", "frame", "replicate"]
        elif spec.recursive:
            names.append(spec.name)
        return names

    def _unknown_element(self, parent, spec: ElementSpec, child) -> None:
        name = child.tag
        if _foreign(name):
            return
        self.doc.unknown.add(child)
        meant = closest(name, self._known_children(spec))
        version = self.schema.mujoco_version
        if meant is not None:
            self.doc.warning(child, f"<{name}> is not an element of <{parent.tag}>: MuJoCo "
                                    f"{version} refuses it, mbparse ignores it. Did you mean "
                                    f"<{meant}>?", code="mjcf-unknown-element")
        else:
            self.doc.warning(child, f"<{name}> is not an element of <{parent.tag}> in MJCF "
                                    f"(MuJoCo {version}'s schema): MuJoCo refuses it, mbparse "
                                    "ignores it", code="mjcf-unknown-element")

    def _attributes(self, el, spec: ElementSpec) -> None:
        known = ALIAS_ATTRIBUTES.get(el.tag, spec.attributes)
        for key in el.attrib:
            if key in known or _foreign(key):
                continue
            self.doc.unknown.add((el, key))
            meant = closest(key, known)
            version = self.schema.mujoco_version
            if meant is not None:
                self.doc.warning(el, f"<{el.tag}> has no attribute '{key}': MuJoCo {version} "
                                     f"refuses it, mbparse ignores it. Did you mean '{meant}'?",
                                 code="mjcf-unknown-attribute")
            else:
                self.doc.warning(el, f"<{el.tag}> has no attribute '{key}' in MJCF (MuJoCo "
                                     f"{version}'s schema): MuJoCo refuses it, mbparse ignores "
                                     "it", code="mjcf-unknown-attribute")
