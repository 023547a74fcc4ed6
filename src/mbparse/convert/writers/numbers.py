"""Numbers as the writers put them in text: the shortest form that reads
back to the same double, and never NaN or infinity."""
from __future__ import annotations

import math
from typing import Iterable

from ..loss import ConvertError


def num(value: float, what: str = "a value") -> str:
    """``value`` as text; a non-finite value is a ConvertError."""
    v = float(value)
    if not math.isfinite(v):
        raise ConvertError(f"{what} is {v}, which no model file can hold; nothing was written")
    if v == 0.0:
        return "0"
    text = repr(v)
    return text[:-2] if text.endswith(".0") else text


def nums(values: Iterable[float], what: str = "a value") -> str:
    """Numbers separated by spaces; see :func:`num`."""
    return " ".join(num(v, what) for v in values)
