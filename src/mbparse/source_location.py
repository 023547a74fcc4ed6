"""Where the model element being added was written.

A reader declares the element it is reading (``declared_at(file, line)``,
which ``XmlDiagnostic.located`` does for it); the plant records that place
as the ``source`` of every body, frame, joint, actuator, constraint, force
element, sensor and geometry it adds meanwhile. Tools such as ``mbparse
check`` then point at the element without reading the files again.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from collections.abc import Iterator

Source = tuple[str | None, int | None]
UNKNOWN: Source = (None, None)

# The element being read; set through declared_at() (or, for speed, by
# XmlDiagnostic.located, which sets and resets it itself).
CURRENT_SOURCE: ContextVar[Source] = ContextVar("mbparse_source", default=UNKNOWN)


def current_source() -> Source:
    """(file, line) of the element being read, or (None, None)."""
    return CURRENT_SOURCE.get()


@contextmanager
def declared_at(file: str | None, line: int | None) -> Iterator[None]:
    """Model elements added inside the block were written at ``file:line``."""
    token = CURRENT_SOURCE.set((file, line))
    try:
        yield
    finally:
        CURRENT_SOURCE.reset(token)
