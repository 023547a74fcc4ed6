"""Located diagnostics for SDFormat: every element knows the file it came
from (included files keep their own name) and its line."""
from __future__ import annotations

from ..common.xml import XmlDiagnostic, qname as local_name


class SdfDiagnostic(XmlDiagnostic):
    """Reports problems at an element's file and line: an element from an
    included file carries that file's name (``xml:base``)."""

    def __init__(self, policy, default_file: str):
        super().__init__(policy, default_file)
        self.default_file = default_file

    def where(self, el) -> tuple[str, int | None]:
        if el is None:
            return self.default_file, None
        base = el.base if hasattr(el, "base") else None
        return (base or self.default_file), getattr(el, "sourceline", None)


def check_supported(diag: SdfDiagnostic, el, supported: set[str] | frozenset[str]) -> None:
    """Drake's rule for children it does not read: a ``drake:`` element is an
    error, any other a warning (the element is ignored)."""
    for child in el:
        if not isinstance(child.tag, str):
            continue
        name = local_name(child)
        if name in supported:
            continue
        if name.startswith("drake:"):
            diag.error(child, f"Unsupported SDFormat element in {local_name(el)}: {name}",
                       code="sdf-not-supported")
        else:
            diag.warning(child, f"Ignoring unsupported SDFormat element in {local_name(el)}: "
                                f"{name}", code="sdf-unsupported")


def check_value(diag: SdfDiagnostic, el, child_name: str, expected: str) -> None:
    """Warns when ``child_name`` is set to something other than ``expected``."""
    child = el.find(child_name)
    if child is None:
        return
    text = (child.text or "").strip()
    from .values import parse_bool
    try:
        same = parse_bool(text) == parse_bool(expected)
    except ValueError:
        same = text == expected
    if not same:
        diag.warning(child, f"Unsupported value for SDFormat element {child_name}: {text}",
                     code="sdf-unsupported")
