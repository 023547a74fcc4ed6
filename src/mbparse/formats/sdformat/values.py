"""Typed values of SDFormat elements and attributes, read as libsdformat
reads them: doubles, vectors, colours (stored as 32-bit floats), booleans
and poses (Euler angles in radians or degrees, or a quaternion)."""
from __future__ import annotations

import math
import re
import struct

from ...numbers import all_finite, non_finite_problem, quote
from ...spatial import (RigidTransform, fast_number, fast_numbers, quaternion_to_matrix,
                        rpy_to_matrix)

_BOOLS = {"true": True, "1": True, "false": False, "0": False}


class ValueError_(ValueError):
    """A value that does not read as its declared type."""


_NUMBER_PREFIX = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)")


def _float(token: str) -> float:
    """A number read as a C++ stream reads it: a numeric prefix is enough
    (``2.5"`` reads 2.5); ``inf`` and ``nan`` are accepted."""
    v = fast_number(token)  # (the common case: a plain finite decimal number)
    return v if v is not None else _careful_float(token)


def _careful_float(token: str) -> float:
    t = token.strip()
    low = t.lower()
    if low in ("inf", "+inf", "infinity"):
        return math.inf
    if low in ("-inf", "-infinity"):
        return -math.inf
    try:
        v = float(t)
    except ValueError:
        m = _NUMBER_PREFIX.match(t)
        if m is None:
            raise ValueError_(f"'{quote(token)}' is not a number") from None
        v = float(m.group())
    if not math.isfinite(v):
        # NaN is never a meaningful value; 1e400 overflows (libsdformat refuses it).
        raise ValueError_(non_finite_problem(t, [v]))
    return v


def as_float32(v: float) -> float:
    """``v`` rounded to the nearest 32-bit float, as libsdformat keeps colours."""
    return struct.unpack("f", struct.pack("f", v))[0]


def parse_double(text: str) -> float:
    return _float(text)


def parse_bool(text: str) -> bool:
    value = _BOOLS.get(text.strip().lower())
    if value is None:
        raise ValueError_(f"'{text}' is not a boolean")
    return value


def parse_numbers(text: str, n: int) -> tuple[float, ...]:
    values = fast_numbers(text, n)
    if values is not None:
        return values
    tokens = text.split()
    if len(tokens) != n:
        raise ValueError_(f"expected {n} numbers, got '{quote(text)}'")
    values = tuple(_float(t) for t in tokens)
    if not all_finite(values):
        # libsdformat refuses a vector of inf or Infinity as it does 1e400
        raise ValueError_(non_finite_problem(text, values))
    return values


# A colour's 3 or 4 numbers rounded to 32-bit floats at once (as_float32
# for each, in one pack and one unpack: colours are read twice per visual).
_FLOAT32S = {3: struct.Struct("3f"), 4: struct.Struct("4f")}


def parse_color(text: str) -> tuple[float, float, float, float]:
    tokens = text.split()
    n = len(tokens)
    if n not in (3, 4):
        raise ValueError_(f"a colour needs 3 or 4 numbers, got '{text}'")
    numbers = fast_numbers(text, n)  # (the common case, read at once)
    if numbers is None:
        numbers = [_float(t) for t in tokens]
    float32s = _FLOAT32S[n]
    values = list(float32s.unpack(float32s.pack(*numbers)))
    if n == 3:
        values.append(1.0)
    if any(not (0.0 <= v <= 1.0) for v in values):
        raise ValueError_(f"colour components must lie in [0, 1], got '{text}'")
    return tuple(values)  # type: ignore[return-value]


def parse_pose(text: str, rotation_format: str = "euler_rpy",
               degrees: bool = False) -> RigidTransform:
    """A pose ``x y z roll pitch yaw`` or ``x y z qx qy qz qw``."""
    return parse_pose_with_norm(text, rotation_format, degrees)[0]


def parse_pose_with_norm(text: str, rotation_format: str = "euler_rpy",
                         degrees: bool = False) -> tuple[RigidTransform, float]:
    """The pose and the squared norm of its quaternion as written (1 for
    Euler angles): libsdformat keeps a ``quat_xyzw`` quaternion unnormalised."""
    if rotation_format == "euler_rpy" and not degrees:
        v = fast_numbers(text, 6)  # (the common case, read at once)
        if v is not None:
            if v[3] == 0.0 and v[4] == 0.0 and v[5] == 0.0:
                return RigidTransform(p=v[:3]), 1.0
            return RigidTransform(rpy_to_matrix(v[3:6]), v[:3]), 1.0
    tokens = text.split()
    if not tokens:
        return RigidTransform(), 1.0
    if rotation_format == "quat_xyzw":
        if degrees:
            raise ValueError_("a quaternion pose cannot be in degrees")
        if len(tokens) != 7:
            raise ValueError_(f"a quat_xyzw pose needs 7 numbers, got '{text}'")
        v = [_float(t) for t in tokens]
        _require_finite(text, v)
        x, y, z, w = v[3:7]
        if x == 0 and y == 0 and z == 0 and w == 0:
            raise ValueError_("a pose quaternion cannot be zero")
        norm2 = w * w + x * x + y * y + z * z
        if not math.isfinite(norm2) or norm2 == 0:
            raise ValueError_(f"the quaternion of the pose '{quote(text)}' is too "
                              f"{'large' if norm2 else 'small'}: its squared norm "
                              f"{'overflows' if norm2 else 'underflows to zero'}")
        n = math.sqrt(norm2)
        return (RigidTransform(quaternion_to_matrix((w / n, x / n, y / n, z / n)), v[:3]),
                norm2)
    if rotation_format != "euler_rpy":
        raise ValueError_(f"unknown rotation_format '{rotation_format}'")
    if len(tokens) != 6:
        raise ValueError_(f"a pose needs 6 numbers, got '{text}'")
    v = [_float(t) for t in tokens]
    _require_finite(text, v)
    rpy = v[3:6]
    if degrees:
        rpy = [math.radians(a) for a in rpy]
    if rpy[0] == 0.0 and rpy[1] == 0.0 and rpy[2] == 0.0:
        return RigidTransform(p=v[:3]), 1.0
    return RigidTransform(rpy_to_matrix(rpy), v[:3]), 1.0


def _require_finite(text: str, vals) -> None:
    problem = non_finite_problem(text, vals)
    if problem is not None:
        raise ValueError_(f"a pose must be finite: {problem}")


def check(value_type: str, text: str) -> None:
    """Raises ValueError when ``text`` is not a value of ``value_type``."""
    t = text.strip()
    if value_type in ("double", "float"):
        _float(t)
    elif value_type in ("int", "unsigned int", "unsigned long", "uint64_t"):
        if t.lower().startswith(("0x", "-0x")):
            v = int(t, 16)
        else:
            m = re.match(r"[+-]?\d+", t)
            if m is None:
                raise ValueError_(f"'{text}' is not an integer")
            v = int(m.group())
        if value_type != "int" and v < 0:
            raise ValueError_(f"'{text}' is negative")
    elif value_type == "bool":
        parse_bool(t)
    elif value_type == "vector3":
        parse_numbers(t, 3)
    elif value_type in ("vector2d", "vector2i"):
        parse_numbers(t, 2)
    elif value_type == "color":
        parse_color(t)
    elif value_type == "quaternion":
        if len(t.split()) not in (3, 4):
            raise ValueError_(f"bad quaternion '{text}'")
        [_float(x) for x in t.split()]
    elif value_type == "time":
        [_float(x) for x in t.split()]
    # pose is checked with its attributes by the caller; strings always read.
