"""``<replicate>`` (MuJoCo 3 model composition), expanded as MuJoCo's
reader expands it: ``count`` copies of its contents, copy ``i`` in a frame
turned by ``i`` times ``euler`` and moved by the offsets of the copies
before it (each ``offset`` turned by its copy's rotation), every name in
copy ``i`` ending in ``sep`` and ``i`` written with as many digits as
``count`` has. Nested replicates expand innermost first, so their
suffixes come first.

The expansion rewrites the XML: each ``<replicate>`` becomes ``count``
``<frame>`` elements holding copies of its children (which keep their
source lines for diagnostics).
"""
from __future__ import annotations

import copy

from ...limits import MAX_REPLICATED_ELEMENTS, current_limits, raise_hint  # noqa: F401 (the default)
from ...spatial import quaternion_to_matrix
from .attrs import Attrs, own_values
from .compiler import Compiler, euler_quat
from .document import Document, tag

# Elements whose children may hold a <replicate>.
CONTAINERS = ("worldbody", "body", "frame", "replicate")
# Replicates make at most the limit max_replicated_elements of elements in
# one file (mbparse.limits; a count of 10**9, or three nested counts of 1000,
# would otherwise fill the memory).


def expand_replicates(doc: Document, roots: list, compiler: Compiler, defaults) -> None:
    """Expands every ``<replicate>`` under ``roots`` (``<worldbody>`` and
    top-level ``<body>`` elements), includes included. Called after the
    schema check, which listed the children of every body, frame and
    replicate: none of them met a ``<replicate>`` or an ``<include>`` in
    most files, which have nothing to expand."""
    if not doc.met_replicate:
        return
    found: list = []
    for root in roots:
        _collect(doc, root, found)
    made = 0
    for el in found:  # innermost first: children were collected before parents
        if el.getparent() is not None:
            made = _expand(doc, el, compiler, defaults, made)


def _collect(doc: Document, el, found: list) -> None:
    for child in doc.kids(el):
        if tag(child) in CONTAINERS:
            _collect(doc, child, found)
            if tag(child) == "replicate":
                found.append(child)


def _expand(doc: Document, el, compiler: Compiler, defaults, made: int) -> int:
    """Replaces ``el`` by its copies; returns ``made`` plus the elements made."""
    a = Attrs(el, doc, own_values(el))
    if not a.has("count"):
        doc.error(el, "<replicate> needs a 'count' attribute", code="mjcf-attribute-missing")
    count = a.integer("count", 0)
    if count < 0:
        a.error("count", f"the 'count' of <replicate> cannot be negative ({count})",
                code="value-out-of-range")
    offset = a.numbers("offset", 3, (0.0, 0.0, 0.0))
    euler = a.numbers("euler", 3, (0.0, 0.0, 0.0))
    sep = a.text("sep", "")
    childclass = a.text("childclass")
    if childclass is not None:
        defaults.check_class(el, childclass)
    per_copy = 1 + sum(1 for child in el for _ in child.iter())
    most = current_limits().max_replicated_elements
    if most and made + count * per_copy > most:
        doc.error(el, f"this <replicate> would make {count * per_copy:,} elements "
                  f"({count:,} copies of {per_copy - 1:,})"
                  + (f" after the {made:,} that replicates made already" if made else "")
                  + f"; mbparse expands at most {most:,} in a file; "
                  + raise_hint("max_replicated_elements"),
                  code="size-limit")
    digits = len(str(count))
    parent = el.getparent()
    at = parent.index(el)
    pos = [0.0, 0.0, 0.0]
    frames = []
    for i in range(count):
        turned = [i * e for e in euler]
        frame = el.makeelement("frame", {})
        frame.sourceline = el.sourceline
        frame.set("pos", " ".join(repr(float(v)) for v in pos))
        frame.set("euler", " ".join(repr(float(v)) for v in turned))
        if childclass is not None:
            frame.set("childclass", childclass)
        suffix = sep + str(i).rjust(digits, "0")
        for child in el:
            copied = copy.deepcopy(child)
            if isinstance(copied.tag, str):
                for node in copied.iter():
                    if isinstance(node.tag, str) and node.get("name") is not None:
                        node.set("name", node.get("name") + suffix)
            frame.append(copied)
        frames.append(frame)
        R = quaternion_to_matrix(euler_quat(turned, compiler))
        for k in range(3):
            pos[k] += sum(R[k][j] * offset[j] for j in range(3))
    parent.remove(el)
    doc.forget_kids(parent)
    for k, frame in enumerate(frames):
        parent.insert(at + k, frame)
    return made + count * per_copy
