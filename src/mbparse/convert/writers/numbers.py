"""Numbers as the writers put them in text: the shortest form that reads
back to the same double, and never NaN or infinity."""
from __future__ import annotations

import math
from typing import Iterable

from ..loss import ConvertError


# The text of numbers written already: a model repeats a few values (0.1,
# 1, -1) thousands of times. Bounded: a model of distinct values fills it once.
_TEXT: dict[float, str] = {}
_TEXT_SIZE = 4096


def num(value: float, what: str = "a value") -> str:
    """``value`` as text; a non-finite value is a ConvertError."""
    v = float(value)
    text = _TEXT.get(v)  # (0.0 and -0.0 are one key: both are "0")
    if text is not None:
        return text
    if not math.isfinite(v):
        raise ConvertError(f"{what} is {v}, which no model file can hold; nothing was written")
    if v == 0.0:
        text = "0"
    else:
        text = repr(v)
        if text.endswith(".0"):
            text = text[:-2]
    if len(_TEXT) < _TEXT_SIZE:
        _TEXT[v] = text
    return text


def nums(values: Iterable[float], what: str = "a value") -> str:
    """Numbers separated by spaces; see :func:`num`."""
    return " ".join([num(v, what) for v in values])
