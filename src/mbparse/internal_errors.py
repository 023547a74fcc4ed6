"""Failures of mbparse itself (a bug, not a problem in the file).

The commands turn each one into a single line naming the file (``inspect``,
``convert``) or an ``internal-error`` finding (``check``). ``--debug`` asks
for Python's traceback instead: the command line calls
:func:`show_tracebacks`, and every place that would catch such a failure
lets it through while :func:`showing_tracebacks` is true.
"""
from __future__ import annotations

_showing = False


def show_tracebacks(on: bool = True) -> None:
    """Lets internal failures through to the caller (``--debug``)."""
    global _showing
    _showing = on


def showing_tracebacks() -> bool:
    """Whether internal failures are let through rather than caught."""
    return _showing
