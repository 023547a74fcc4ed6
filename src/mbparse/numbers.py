"""What is wrong with a number as written: shared by every reader so that the
same text gets the same verdict in URDF, SDFormat, MJCF, DMD and OBJ.

Two verdicts:

- :func:`non_finite_problem` -- a value that is NaN or infinite (``nan``,
  ``inf``, or ``1e400`` which overflows a double). Such a number is never
  meaningful in a model (a pose, mass, inertia, axis, damping); readers
  refuse it, saying which value and why. Limits, where infinity means
  "unlimited", are the readers' own exception.
- :func:`partial_number_problem` -- a token of which only a prefix is a
  number (``1,2`` reads as 1, ``0x1p3`` as 0, ``1.5abc`` as 1.5), as a C++
  stream reads it. Drake accepts such text silently; mbparse says so.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable

# Longest text quoted back in a message (a value can be a megabyte long).
QUOTE_LIMIT = 80

_NUMBER_PREFIX = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)")
_PLAIN = re.compile(r"[\s0-9eE.+-]*")
_WHOLE_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` for a message: cut to ``limit`` characters with the length said."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def all_finite(values: Iterable[float]) -> bool:
    return all(map(math.isfinite, values))


def non_finite_code(values: Iterable[float]) -> str:
    """The diagnostic code for values that are not all finite: ``number-nan``
    when one is NaN, else ``number-not-finite``."""
    return "number-nan" if any(map(math.isnan, values)) else "number-not-finite"


def unreadable_code(text: str, otherwise: str) -> str:
    """The code of a value that could not be read: ``number-nan`` or
    ``number-not-finite`` when one of its words is a NaN or an infinity
    (which Drake's stream reading stops at), else ``otherwise``."""
    for token in text.split():
        try:
            value = float(token)
        except ValueError:
            continue
        if math.isnan(value):
            return "number-nan"
        if math.isinf(value):
            return "number-not-finite"
    return otherwise


def why_not_finite(token: str, value: float) -> str:
    """The reason, in words, that ``value`` (read from ``token``) is not finite."""
    if math.isnan(value):
        return "it is not a number (NaN)"
    low = token.strip().lower().lstrip("+-")
    if low.startswith("inf"):
        return "it is infinite"
    return "it is too large for a double and overflows to infinity"


def non_finite_problem(text: str, values: Iterable[float]) -> str | None:
    """A message naming the first non-finite value of ``values`` (read from
    the whitespace-separated ``text``), or None when all are finite."""
    values = list(values)
    if all_finite(values):
        return None
    tokens = text.split()
    for i, v in enumerate(values):
        if not math.isfinite(v):
            token = tokens[i] if i < len(tokens) else str(v)
            return f"the value '{quote(token)}' is not a finite number: {why_not_finite(token, v)}"
    return None


def partial_number_problem(text: str) -> str | None:
    """A message for the first token of ``text`` that only begins with a
    number (``1,2``, ``0x1p3``), or None when every token reads whole (or
    reading stops at a token that is no number at all)."""
    if _PLAIN.fullmatch(text) is not None:  # the common case, checked fast
        try:
            for tok in text.split():
                float(tok)
            return None
        except ValueError:
            pass
    for tok in text.split():
        if _WHOLE_NUMBER.fullmatch(tok):
            continue
        m = _NUMBER_PREFIX.match(tok)
        if m is None:
            return None
        return (f"the number '{quote(tok)}' is read as {float(m.group()):g}: reading stops at "
                f"'{quote(tok[m.end():], 20)}'")
    return None
