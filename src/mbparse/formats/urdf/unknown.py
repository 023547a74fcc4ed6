"""Warnings for children and attributes an extension element does not read."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..common.xml import attr_names, children, qname

if TYPE_CHECKING:  # pragma: no cover
    from . import UrdfReader


def warn_unknown_children(reader: "UrdfReader", el, known: tuple[str, ...], what: str) -> None:
    for child in children(el):
        if qname(child) not in known:
            reader.diag.warning(child, f"<{qname(child)}> in {what} is not read; it is ignored",
                                code="urdf-unsupported")


def warn_unknown_attributes(reader: "UrdfReader", el, known: tuple[str, ...],
                             what: str) -> None:
    for key in attr_names(el):
        if key not in known:
            reader.diag.warning(el, f"attribute '{key}' of {what} is not read; it is ignored",
                                code="urdf-unsupported")
