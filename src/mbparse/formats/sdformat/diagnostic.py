"""Located diagnostics for SDFormat: every element knows the file it came
from (included files keep their own name) and its line."""
from __future__ import annotations

from contextlib import contextmanager

from ...diagnostics import DiagnosticPolicy
from ...geometry import ShapeError
from ...package_map import PackageMapError
from ...plant import ModelError

# Elements Drake reads or that libsdformat consumes without a Drake warning.


class SdfDiagnostic:
    """Reports problems at an element's file and line."""

    def __init__(self, policy: DiagnosticPolicy, default_file: str):
        self.policy = policy
        self.default_file = default_file

    def where(self, el) -> tuple[str, int | None]:
        if el is None:
            return self.default_file, None
        base = el.base if hasattr(el, "base") else None
        return (base or self.default_file), getattr(el, "sourceline", None)

    def error(self, el, message: str) -> None:
        file, line = self.where(el)
        self.policy.error(message, file, line, element=_tag(el))

    def warning(self, el, message: str) -> None:
        file, line = self.where(el)
        self.policy.warning(message, file, line, element=_tag(el))

    @contextmanager
    def located(self, el):
        """Turns the model's refusals inside the block into errors at ``el``."""
        try:
            yield
        except (ModelError, ShapeError, PackageMapError) as e:
            self.error(el, str(e))


def _tag(el) -> str | None:
    tag = getattr(el, "tag", None)
    return tag if isinstance(tag, str) else None


def local_name(el) -> str:
    """``drake:joint`` for a namespaced element, else the tag."""
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    if tag[0] == "{":
        local = tag[tag.index("}") + 1:]
        return f"{el.prefix}:{local}" if el.prefix else local
    return tag


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
            diag.error(child, f"Unsupported SDFormat element in {local_name(el)}: {name}")
        else:
            diag.warning(child, f"Ignoring unsupported SDFormat element in {local_name(el)}: "
                                f"{name}")


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
        diag.warning(child, f"Unsupported value for SDFormat element {child_name}: {text}")
