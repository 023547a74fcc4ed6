"""Located diagnostics for SDFormat: every element knows the file it came
from (included files keep their own name) and its line."""
from __future__ import annotations

from typing import Callable, NoReturn, TypeVar

from ...numbers import unreadable_code
from ...spatial import RigidTransform
from ..common.xml import MEMO_LIMIT, XmlDiagnostic, qname as local_name
from . import values


T = TypeVar("T")


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

    def unreadable(self, el, value_type: str, problem: Exception) -> NoReturn:
        """The located error for the text of ``el`` that does not read as a
        ``value_type`` (the document check's)."""
        text = el.text or ""
        self.error(el, f"Cannot read the value of <{el.tag}> as a {value_type}: "
                       f"'{text.strip()}' ({problem}).",
                   code=unreadable_code(text, "sdf-value-invalid"))

    def checked(self, el, value_type: str, read: Callable[[], T], default: T) -> T:
        """``read()`` of a value of ``el`` the document check has read before.
        It fails only in ``check``'s mode, where reading goes on after the
        check's error: the element then takes ``default`` (the check has
        reported the value), as :func:`.frames.read_pose` places an element
        whose pose does not read. Elsewhere a failure is the check's error."""
        try:
            return read()
        except values.ValueError_ as e:
            if self.policy.collect_errors:
                return default
            self.unreadable(el, value_type, e)

    def where(self, el) -> tuple[str, int | None]:
        if el is None:
            return self.default_file, None
        base = el.base if hasattr(el, "base") else None
        return (base or self.default_file), getattr(el, "sourceline", None)


def check_supported(diag: SdfDiagnostic, el, supported: set[str] | frozenset[str],
                    index: dict | None = None) -> dict:
    """Drake's rule for children it does not read: a ``drake:`` element is an
    error, any other a warning (the element is ignored). Returns the
    :func:`.lookup.child_index` of ``el``, made in the same walk (or ``index``, when
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


def check_value(diag: SdfDiagnostic, el, child_name: str, expected: str,
                index: dict | None = None) -> None:
    """Warns when ``child_name`` is set to something other than ``expected``
    (``index``: the :func:`.lookup.child_index` of ``el``, when the caller
    has it)."""
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
