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
# Where a word that reads as an infinity can start, besides the words nan
# and inf: an exponent of three or more digits, or a run of 200 or more
# digits (a mantissa that long overflows with a two-digit exponent). Both
# wider than needed on purpose: they only let a scan skip ahead.
_NAN_OR_INF = re.compile(r"[nN][aA][nN]|[iI][nN][fF]")
_LONG_EXPONENT = re.compile(r"[eE][+_]?[\d_]{3}")
_LONG_RUN = 200
_DIGIT_RUN = re.compile(r"[\d_]{%d}" % _LONG_RUN)
_TWO_DIGITS = re.compile(r"[\d_]{2}")


def _first_maybe_not_finite(text: str) -> int:
    """A position at or before the first word of ``text`` that could read as
    NaN or an infinity (``len(text)`` when none can), found by C-speed
    scans: a ``float()`` per word of a long value would take seconds."""
    if text.isascii():  # (lower() keeps every position)
        low = text.lower()
        found = [i for i in (low.find("nan"), low.find("inf")) if i >= 0]
    else:
        word = _NAN_OR_INF.search(text)
        found = [] if word is None else [word.start()]
    m = _LONG_EXPONENT.search(text)
    if m is not None:
        found.append(m.start())
    # A run of _LONG_RUN digits holds two neighbouring points of a stride
    # of half that; only where two such points are digits is it looked for.
    stride = _LONG_RUN // 2
    sample = text[::stride]
    pos = 0
    while (m := _TWO_DIGITS.search(sample, pos)) is not None:
        start = m.start() * stride
        if found and start > min(found):
            break
        run = _DIGIT_RUN.search(text, max(0, start - _LONG_RUN), start + 2 * _LONG_RUN)
        if run is not None:
            found.append(run.start())
            break
        pos = m.start() + 1
    return min(found) if found else len(text)


_WHOLE_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` for a message: cut to ``limit`` characters with the length said."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def all_finite(values: Iterable[float]) -> bool:
    return all(map(math.isfinite, values))


def shown(values: Iterable[float]) -> str:
    """Numbers as a message shows them: ``(1, 2.5, inf)``."""
    return f"({', '.join(f'{v:g}' for v in values)})"


def non_finite_code(values: Iterable[float]) -> str:
    """The diagnostic code for values that are not all finite: ``number-nan``
    when one is NaN, else ``number-not-finite``."""
    return "number-nan" if any(map(math.isnan, values)) else "number-not-finite"


def unreadable_code(text: str, otherwise: str) -> str:
    """The code of a value that could not be read: ``number-nan`` or
    ``number-not-finite`` when one of its words is a NaN or an infinity
    (which Drake's stream reading stops at), else ``otherwise``. Only the
    words from the first that could be one on are read: a value of a
    hundred megabytes of ordinary numbers costs one regular-expression
    scan, not a float() per word."""
    start = _first_maybe_not_finite(text)
    if start == len(text):
        return otherwise
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    for token in text[start:].split():
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
