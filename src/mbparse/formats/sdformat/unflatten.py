"""Unflattening: libsdformat's step of the 1.7 → 1.8 upgrade that turns
"flattened" nested models back into nested ``<model>`` elements.

Before SDFormat 1.8, tools flattened a nested model ``M1`` into its parent
by prefixing names: ``<link name="M1::L1">``, ``<frame name="M1::F1"
attached_to="M1::__model__">``, ``<joint name="M1::J"><parent>M1::L1``...
and a frame ``M1::__model__`` (attached to M1's canonical link) carried the
nested model's pose. The upgrade of a model that is a child of a
``<world>`` gathers, for the first prefix found, every link, joint, frame,
model and gripper whose name starts with it into a new ``<model>`` appended
to the parent, strips the prefix from the names and from the references
(``relative_to``, ``attached_to``, joint ends, axis ``expressed_in``), turns
the ``M1::__model__`` frame into the new model's pose and canonical link,
and repeats, inside the new model too. The order of the steps, including
libsdformat's quirks (the prefix is compared without its ``::``; a nested
model without ``::`` in its name is unflattened recursively and ends the
scan of its parent), is kept so the result is the same.
"""
from __future__ import annotations

from lxml import etree

from ..common.xml import first_child
from .diagnostic import SdfDiagnostic

FLATTENED_TAGS = ("frame", "joint", "link", "model", "gripper")
DELIMITER = "::"


def unflatten_document(diag: SdfDiagnostic, root) -> None:
    """Unflattens every model that is a child of a world of ``root``."""
    for world in root.findall("world"):
        for model in world.findall("model"):
            unflatten(diag, model)


def _elements(el):
    return [c for c in el if isinstance(c.tag, str)]


def _next_element(el):
    node = el.getnext()
    while node is not None and not isinstance(node.tag, str):
        node = node.getnext()
    return node


def _first_element(el):
    children = _elements(el)
    return children[0] if children else None


def unflatten(diag: SdfDiagnostic, model) -> None:
    """Unflattens the children of ``model`` (libsdformat's order)."""
    first_new = None
    el = _first_element(model)
    while el is not None:
        if el is first_new:
            break
        following = _next_element(el)
        name = el.get("name")
        if el.tag not in FLATTENED_TAGS or name is None:
            el = following
            continue
        found = name.find(DELIMITER)
        if found < 0:
            if el.tag == "model":
                unflatten(diag, el)
                break
            el = following
            continue
        new_model = etree.Element("model", name=name[:found])
        new_model.sourceline = el.sourceline
        if _gather(diag, model, new_model, found + len(DELIMITER)):
            unflatten(diag, new_model)
            model.append(new_model)
            following = _first_element(model)
            if first_new is None:
                first_new = new_model
        el = following


def _strip(diag: SdfDiagnostic, node, value: str, prefix: str, start: int, what: str) -> str:
    if not value.startswith(prefix):
        diag.error(node, f"While unflattening the nested model '{prefix}', its {what} "
                         f"'{value}' does not start with '{prefix}'.", code="sdf-value-invalid")
    return value[start:]


def _strip_pose(diag: SdfDiagnostic, el, prefix: str, start: int, required: bool) -> None:
    pose = first_child(el, "pose")
    if pose is not None and pose.get("relative_to") is not None:
        value = pose.get("relative_to")
        if value.startswith(prefix):
            pose.set("relative_to", value[start:])
        elif required:
            _strip(diag, pose, value, prefix, start, "pose relative_to")
    if required:
        camera = first_child(el, "camera")
        if camera is not None:
            _strip_pose(diag, camera, prefix, start, True)


def _gather(diag: SdfDiagnostic, parent, new_model, start: int) -> bool:
    """Moves the elements of ``parent`` named with the new model's prefix
    into ``new_model``; whether any moved."""
    prefix = new_model.get("name")
    moved_any = False
    el = _first_element(parent)
    while el is not None:
        following = _next_element(el)
        tag = el.tag
        name = el.get("name") or ""
        if (not name or not name.startswith(prefix) or tag not in FLATTENED_TAGS) and (
                tag != "gripper"):
            el = following
            continue
        child_name = None
        if name.startswith(prefix):
            child_name = name[start:]
            el.set("name", child_name)
        _strip_pose(diag, el, prefix, start, False)
        moving = el
        if tag == "frame" and el.get("attached_to") is not None:
            attached = _strip(diag, el, el.get("attached_to"), prefix, start, "attached_to")
            el.set("attached_to", attached)
            if child_name == "__model__":
                # The frame stood for the nested model: it gives the pose
                # and the canonical link, and goes away.
                new_model.set("canonical_link", attached)
                pose = el.find("pose")
                parent.remove(el)
                moving = pose
        elif tag == "link":
            for child in _elements(el):
                _strip_pose(diag, child, prefix, start, True)
        elif tag == "joint":
            for end in ("parent", "child"):
                node = el.find(end)
                if node is not None and node.text is not None:
                    node.text = _strip(diag, node, node.text, prefix, start, f"joint {end}")
            for axis_tag in ("axis", "axis2"):
                xyz = el.find(f"{axis_tag}/xyz")
                if xyz is not None and xyz.get("expressed_in") is not None:
                    xyz.set("expressed_in", _strip(diag, xyz, xyz.get("expressed_in"), prefix,
                                                   start, "axis expressed_in"))
            for sensor in el.findall("sensor"):
                _strip_pose(diag, sensor, prefix, start, True)
        elif tag == "gripper":
            all_prefixed = True
            for g in el.findall("gripper_link"):  # stripped until one lacks the prefix
                if g.text is None:
                    continue
                if not g.text.startswith(prefix):
                    all_prefixed = False
                    break
                g.text = g.text[start:]
            if not all_prefixed:
                el = following
                continue
            palm = el.find("palm_link")
            if palm is not None and palm.text is not None:
                palm.text = _strip(diag, palm, palm.text, prefix, start, "palm_link")
        moved_any = True
        if moving is not None:
            new_model.append(moving)
        el = following
    return moved_any
