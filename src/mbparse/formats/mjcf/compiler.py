"""``<compiler>`` settings and MJCF frames (``pos`` with one of ``quat``,
``axisangle``, ``euler``, ``xyaxes``, ``zaxis``), read as MuJoCo reads them."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

from ...numbers import all_finite, shown
from ...spatial import IDENTITY3, ZERO3, RigidTransform, cross, dot, norm, quaternion_to_matrix
from ..common.xml import MEMO_LIMIT
from .attrs import Attrs, own_values
from .defaults import ORIENTATION, ORIENTATION_SET
from .document import Document

EPS = 1e-14  # MuJoCo's mjEPS


@dataclass
class Compiler:
    """The compiler settings that change the model."""

    degree: bool = True
    eulerseq: str = "xyz"
    inertiafromgeom: str = "auto"
    autolimits: bool = True
    meshdir: str | None = None
    boundmass: float = 0.0
    boundinertia: float = 0.0
    settotalmass: float = -1.0
    balanceinertia: bool = False
    inertiagrouprange: tuple[int, int] = (0, 5)
    # (orientation attribute, its text, degree, eulerseq) → the rotation it
    # gave (see orientation): a model repeats a few orientations.
    rotations: dict = field(default_factory=dict, repr=False, compare=False)

    def angle(self, value: float) -> float:
        """An angle as written, in radians."""
        return value * (math.pi / 180.0) if self.degree else value  # no overflow for 1e308


# Attributes that change nothing in the compiled model (or are solver-only).
# usethread, alignfree, saveinertial and conflict change nothing in the model:
# they are ignored without a word.
_COMPILER_UNSUPPORTED = ("strippath", "fitaabb", "texturedir", "discardvisual", "fusestatic")


def read_compiler(doc: Document, el, c: Compiler) -> None:
    """Applies one ``<compiler>`` element to ``c``."""
    a = Attrs(el, doc, own_values(el))
    c.autolimits = a.boolean("autolimits", c.autolimits)
    if a.has("coordinate") and a.text("coordinate") != "local":
        doc.error(el, f"compiler coordinate='{a.text('coordinate')}' is not supported: MuJoCo "
                      "only reads local coordinates", code="mjcf-not-supported")
    if a.has("angle"):
        c.degree = a.choice("angle", ("degree", "radian"), "degree") == "degree"
    if a.has("eulerseq"):
        seq = a.text("eulerseq")
        if len(seq) != 3 or any(ch not in "xyzXYZ" for ch in seq):
            doc.error(el, f"eulerseq='{seq}' must be three letters from x, y, z, X, Y, Z",
                      code="mjcf-value-invalid")
        c.eulerseq = seq
    if a.has("assetdir"):
        c.meshdir = a.text("assetdir")
    if a.has("meshdir"):
        c.meshdir = a.text("meshdir")
    c.inertiafromgeom = a.choice("inertiafromgeom", ("true", "false", "auto"),
                                 c.inertiafromgeom)
    if doc.policy.like_drake:
        # Drake 1.51 keeps every body's mass and inertia as written.
        for name in ("boundmass", "boundinertia", "settotalmass", "balanceinertia"):
            if a.has(name):
                doc.warning(el, f"The attribute '{name}' found in a 'compiler' tag is currently "
                                "unsupported and will be ignored", code="mjcf-unsupported")
    else:
        c.boundmass = a.scalar("boundmass", c.boundmass)
        c.boundinertia = a.scalar("boundinertia", c.boundinertia)
        c.settotalmass = a.scalar("settotalmass", c.settotalmass)
        c.balanceinertia = a.boolean("balanceinertia", c.balanceinertia)
    if a.has("inertiagrouprange"):
        lo, hi = a.numbers("inertiagrouprange", 2)
        c.inertiagrouprange = (int(lo), int(hi))
    a.warn_unsupported(_COMPILER_UNSUPPORTED)
    for child in doc.kids(el):
        if child in doc.unknown:
            continue
        doc.warning(child, f"<{child.tag}> inside <compiler> is not supported and is ignored",
                    code="mjcf-unsupported")


# ---------------------------------------------------------------- quaternions

def quat_mul(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float, float]:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def z_to_vector(v: Sequence[float]):
    """The shortest-arc rotation taking +z onto v (MuJoCo's rule; a vector
    along -z gives a half turn about x)."""
    x, y, z = v
    # cross((0, 0, 1), v) and its norm, written out term for term
    ax, ay, az = 0.0 * z - 1.0 * y, 1.0 * x - 0.0 * z, 0.0 * y - 0.0 * x
    s = math.sqrt(ax * ax + ay * ay + az * az)
    if s == 0.0 and z > 0:
        return IDENTITY3  # what the formula below gives then, entry for entry
    axis = (1.0, 0.0, 0.0) if s < 1e-10 else (ax / s, ay / s, az / s)
    h = math.atan2(s, z) / 2
    sh = math.sin(h)
    return quaternion_to_matrix((math.cos(h), axis[0] * sh, axis[1] * sh, axis[2] * sh))


def euler_quat(angles: Sequence[float], c: Compiler) -> tuple[float, float, float, float]:
    """The quaternion of Euler angles in the compiler's sequence and unit."""
    q = (1.0, 0.0, 0.0, 0.0)
    for ang, axis in zip(angles, c.eulerseq):
        h = c.angle(ang) / 2
        r = [math.cos(h), 0.0, 0.0, 0.0]
        r["xyz".index(axis.lower()) + 1] = math.sin(h)
        # Lower case: moving axes (post-multiply); upper case: fixed axes.
        q = quat_mul(q, r) if axis.islower() else quat_mul(r, q)
    return q  # type: ignore[return-value]


def orientation(a: Attrs, c: Compiler):
    """The rotation an element's orientation attributes give (None if it has none)."""
    values = a.values
    if ORIENTATION_SET.isdisjoint(values):
        return None
    given = [k for k in ORIENTATION if k in values]
    if len(given) > 1:
        a.error(given[1], f"<{a.el.tag}> has more than one orientation attribute "
                          f"({', '.join(given)}); MJCF allows only one", code="mjcf-structure")
    if not given:
        return None
    kind = given[0]
    key = (kind, values[kind][0], c.degree, c.eulerseq)
    R = c.rotations.get(key)
    if R is None:
        R = _rotation(a, c, kind)
        if len(c.rotations) < MEMO_LIMIT:
            c.rotations[key] = R
    return R


def _rotation(a: Attrs, c: Compiler, kind: str):
    """The rotation of the orientation attribute ``kind`` of ``a``."""
    if kind == "quat":
        q = a.numbers("quat", 4)
        if norm(q[1:]) == 0 and q[0] == 0:
            a.error("quat", "the quaternion is zero", code="axis-zero")
        return quaternion_to_matrix(q)
    if kind == "axisangle":
        x, y, z, ang = a.numbers("axisangle", 4)
        n = norm((x, y, z))
        if n < EPS:
            a.error("axisangle", "the axis of 'axisangle' is (nearly) zero", code="axis-zero")
        h = c.angle(ang) / 2
        s = math.sin(h) / n
        return quaternion_to_matrix((math.cos(h), x * s, y * s, z * s))
    if kind == "euler":
        return quaternion_to_matrix(euler_quat(a.numbers("euler", 3), c))
    if kind == "xyaxes":
        v = a.numbers("xyaxes", 6)
        x, y = v[:3], v[3:]
        nx = norm(x)
        if nx < EPS:
            a.error("xyaxes", "the x axis of 'xyaxes' is (nearly) zero", code="axis-zero")
        x = tuple(t / nx for t in x)
        d = dot(x, y)
        y = tuple(yi - xi * d for xi, yi in zip(x, y))
        ny = norm(y)
        if ny < EPS:
            a.error("xyaxes", "the y axis of 'xyaxes' is (nearly) parallel to the x axis",
                    code="mjcf-value-invalid")
        y = tuple(t / ny for t in y)
        z = cross(x, y)
        nz = norm(z)
        z = tuple(t / nz for t in z)
        return ((x[0], y[0], z[0]), (x[1], y[1], z[1]), (x[2], y[2], z[2]))
    v = a.numbers("zaxis", 3)
    if norm(v) < EPS:
        a.error("zaxis", "'zaxis' is (nearly) zero", code="axis-zero")
    return z_to_vector(v)


def finite_pose(doc: Document, el, X: RigidTransform) -> RigidTransform:
    """``X``, the pose of ``el`` composed with the frames around it, when
    its position is finite; a located error when positions that are each
    finite (1e308 inside a frame at 1e308) add up past what a double holds."""
    if all_finite(X.p):
        return X
    doc.error(el, f"<{el.tag}> is not at a finite place: its position composed with the "
                  f"frames around it is {shown(X.p)}, past what a double "
                  "holds; give smaller numbers", code="number-not-finite")


def frame(a: Attrs, c: Compiler) -> RigidTransform:
    """The pose ``pos`` + orientation gives (identity when absent)."""
    values = a.values
    pos = a.numbers("pos", 3) if "pos" in values else ZERO3
    if ORIENTATION_SET.isdisjoint(values):  # (most elements) no rotation
        return RigidTransform(p=pos)
    R = orientation(a, c)
    return RigidTransform(R, pos) if R is not None else RigidTransform(p=pos)
