"""The SDFormat 1.12 specification as named records, read from ``schema.json``
(generated from libsdformat's description files by
``tools/make_sdformat_schema.py``)."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache


@dataclass(frozen=True)
class AttributeSpec:
    """An attribute an element may carry: its value type and default."""

    type: str
    default: str
    required: bool


@dataclass(eq=False)
class ElementSpec:
    """An element: its value type and default (for elements holding a value),
    its attributes, and its children with their multiplicity."""

    name: str
    type: str
    default: str
    # The element's children may be anything (libsdformat's copy_data).
    copy_data: bool
    attributes: dict[str, AttributeSpec] = field(default_factory=dict)
    # child name → (its description, one of optional, required, any,
    # "one or more", deprecated)
    children: dict[str, tuple["ElementSpec", str]] = field(default_factory=dict)
    # Derived for the document check, which visits every element: the names
    # of the required attributes, and the value type when its text needs a
    # check ('' for none and for strings, which always read).
    required_attributes: tuple[str, ...] = ()
    checked_type: str = ""
    # No children, no required attribute, and nothing more to do after its
    # own check (not an <include> or <joint>): such an element with no
    # attribute, no child and a text already found readable needs no visit.
    plain_leaf: bool = False
    # For the check's walk over an element's children: each child name's
    # description and what its walk does with such a child (CHILD_VISIT,
    # CHILD_LEAF, CHILD_DEPRECATED, or the value type a plain leaf's text
    # is checked as), from ``children``.
    child_kinds: dict[str, tuple["ElementSpec", str]] = field(default_factory=dict)
    # An element with children of its own whose visit checks nothing but its
    # attributes and children (no required attribute, no value, not an
    # <include> or <joint>, not copy_data): one with no attribute whose
    # children all pass is found fine without a visit (Loader._fine).
    plain_parent: bool = False

    def __repr__(self) -> str:
        return f"ElementSpec(<{self.name}>, {len(self.attributes)} attributes, " \
               f"{len(self.children)} children)"


# What the check's walk does with a child (ElementSpec.child_kinds): visit
# it; nothing more when it has no attribute and no child (a plain leaf whose
# text is a string); warn that it is deprecated, then visit it. (A plain leaf
# with a checked value type has that type as its kind.)
CHILD_VISIT = "visit"
CHILD_LEAF = "leaf"
CHILD_DEPRECATED = "deprecated"

# Value types whose text may fail to read (strings always read).
CHECKED_TYPES = frozenset({"double", "float", "int", "unsigned int", "unsigned long", "uint64_t",
                           "bool", "vector3", "vector2d", "vector2i", "color", "quaternion",
                           "time", "pose"})


@lru_cache(maxsize=1)
def root() -> ElementSpec:
    """The description of ``<sdf>``, from which every other one is reached."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema.json")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    specs = [ElementSpec(e["name"], e["type"], e["default"], e["copy_data"],
                         {k: AttributeSpec(a["type"], a["default"], a["required"])
                          for k, a in e["attributes"].items()})
             for e in data["elements"]]
    for spec, e in zip(specs, data["elements"]):
        spec.children = {k: (specs[c["element"]], c["multiplicity"])
                         for k, c in e["children"].items()}
        # (<sdf version> is checked by the loader itself)
        spec.required_attributes = () if spec.name == "sdf" else tuple(
            k for k, a in spec.attributes.items() if a.required)
        spec.checked_type = spec.type if spec.type in CHECKED_TYPES else ""
        spec.plain_leaf = (not spec.children and not spec.required_attributes
                           and spec.name not in ("include", "joint"))
    for spec in specs:
        spec.plain_parent = (bool(spec.children) and not spec.required_attributes
                             and not spec.checked_type and not spec.copy_data
                             and spec.name not in ("include", "joint"))
        spec.child_kinds = {k: (child, _child_kind(child, multiplicity))
                            for k, (child, multiplicity) in spec.children.items()}
    return specs[data["root"]]


def _child_kind(spec: ElementSpec, multiplicity: str) -> str:
    if multiplicity == "deprecated":
        return CHILD_DEPRECATED
    if not spec.plain_leaf:
        return CHILD_VISIT
    return spec.checked_type or CHILD_LEAF
