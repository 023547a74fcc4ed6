"""Where the model element being added was written.

A reader declares the element it is reading (``declared_at(file, line)``,
which ``XmlDiagnostic.located`` does for it); the plant records that place
as the ``source`` of every body, frame, joint, actuator, constraint, force
element, sensor and geometry it adds meanwhile. Tools such as ``mbparse
check`` then point at the element without reading the files again.
"""
from __future__ import annotations

from contextvars import ContextVar

Source = tuple[str | None, int | None]
UNKNOWN: Source = (None, None)

# The element being read; set through declared_at() (or, for speed, by
# XmlDiagnostic.located, which sets and resets it itself).
CURRENT_SOURCE: ContextVar[Source] = ContextVar("mbparse_source", default=UNKNOWN)


def current_source() -> Source:
    """(file, line) of the element being read, or (None, None)."""
    return CURRENT_SOURCE.get()


class declared_at:
    """``with declared_at(file, line):`` -- model elements added inside the
    block were written at ``file:line``. (A class, not a generator: entered
    once a directive, and contextlib stays unimported.)"""

    __slots__ = ("_source", "_token")

    def __init__(self, file: str | None, line: int | None) -> None:
        self._source = (file, line)

    def __enter__(self) -> None:
        self._token = CURRENT_SOURCE.set(self._source)

    def __exit__(self, *exc) -> None:
        CURRENT_SOURCE.reset(self._token)
