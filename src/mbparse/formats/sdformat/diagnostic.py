"""Located diagnostics for SDFormat: every element knows the file it came
from (included files keep their own name) and its line."""
from __future__ import annotations

from ...spatial import RigidTransform
from ..common.xml import MEMO_LIMIT, XmlDiagnostic, qname as local_name
from . import values


class SdfDiagnostic(XmlDiagnostic):
    """Reports problems at an element's file and line: an element from an
    included file carries that file's name (``xml:base``)."""

    def __init__(self, policy, default_file: str):
        super().__init__(policy, default_file)
        self.default_file = default_file
        # The poses read by (text, rotation_format, degrees), as the memos
        # of XmlDiagnostic: for one file, at most MEMO_LIMIT.
        self._sdf_poses: dict[tuple, RigidTransform] = {}

    def pose(self, pose_el) -> RigidTransform:
        """The pose a ``<pose>`` element holds (its text, rotation_format
        and degrees); raises ValueError as :func:`values.parse_pose` does."""
        text = pose_el.text or ""
        key = (text, pose_el.get("rotation_format"), pose_el.get("degrees"))
        X = self._sdf_poses.get(key)
        if X is None:
            X = values.parse_pose(text, pose_el.get("rotation_format", "euler_rpy"),
                                  values.parse_bool(pose_el.get("degrees", "false")))
            if len(self._sdf_poses) < MEMO_LIMIT:
                self._sdf_poses[key] = X
        return X

    def where(self, el) -> tuple[str, int | None]:
        if el is None:
            return self.default_file, None
        base = el.base if hasattr(el, "base") else None
        return (base or self.default_file), getattr(el, "sourceline", None)


def check_supported(diag: SdfDiagnostic, el, supported: set[str] | frozenset[str],
                    index: dict | None = None) -> dict:
    """Drake's rule for children it does not read: a ``drake:`` element is an
    error, any other a warning (the element is ignored). Returns the
    :func:`child_index` of ``el``, made in the same walk (or ``index``, when
    the caller has it: then when ``el``'s children are all elements of
    different names, all supported, there is nothing to walk)."""
    if index is not None and len(el) == len(index) and supported.issuperset(index):
        return index
    index = {}
    for child in el[:]:
        tag = child.tag
        if tag.__class__ is not str:
            continue
        if tag[0] == "{":
            name = local_name(child)
            if child.prefix:
                index.setdefault(name, child)
        else:
            name = tag
            if tag not in index:
                index[tag] = child
        if name in supported:
            continue
        if name.startswith("drake:"):
            diag.error(child, f"Unsupported SDFormat element in {local_name(el)}: {name}",
                       code="sdf-not-supported")
        else:
            diag.warning(child, f"Ignoring unsupported SDFormat element in {local_name(el)}: "
                                f"{name}", code="sdf-unsupported")
    return index


def child_index(el) -> dict:
    """The first child element of each name, from one walk: a plain name
    maps to what ``el.find(name)`` finds, a prefixed one (``drake:x``) to
    what :func:`~mbparse.formats.common.xml.first_child` finds (a lookup in
    lxml costs microseconds; readers look up several children each)."""
    index: dict = {}
    for child in el[:]:
        tag = child.tag
        if tag.__class__ is not str:
            continue
        if tag[0] == "{":
            if child.prefix:
                index.setdefault(local_name(child), child)
        elif tag not in index:
            index[tag] = child
    return index


def prefixed_children(el) -> dict[str, list]:
    """The child elements written with a prefix (``drake:joint``), by that
    name, each list in document order: from one walk, for a reader that
    looks for several such names among many children (a model's)."""
    out: dict[str, list] = {}
    for child in el[:]:
        tag = child.tag
        if tag.__class__ is not str or (tag[0] != "{" and ":" not in tag):
            continue
        name = local_name(child)
        if ":" in name:
            found = out.get(name)
            if found is None:
                out[name] = [child]
            else:
                found.append(child)
    return out


def all_named(el, tag: str) -> list:
    """Every child named ``tag`` (a plain name), as ``el.findall(tag)``."""
    return [c for c in el[:] if c.tag == tag]


def first_on_path(el, *tags: str):
    """The first element down the path of plain names ``tags``, as
    ``el.find("a/b/c")`` finds it (depth first, in document order)."""
    found = [el]
    for tag in tags:
        found = [c for parent in found for c in parent.iterchildren(tag)]
        if not found:
            return None
    return found[0]


def check_value(diag: SdfDiagnostic, el, child_name: str, expected: str,
                index: dict | None = None) -> None:
    """Warns when ``child_name`` is set to something other than ``expected``
    (``index``: the :func:`child_index` of ``el``, when the caller has it)."""
    child = el.find(child_name) if index is None else index.get(child_name)
    if child is None:
        return
    text = (child.text or "").strip()
    try:
        same = values.parse_bool(text) == values.parse_bool(expected)
    except ValueError:
        same = text == expected
    if not same:
        diag.warning(child, f"Unsupported value for SDFormat element {child_name}: {text}",
                     code="sdf-unsupported")
