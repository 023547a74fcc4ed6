"""Poses as libsdformat computes with them.

libsdformat keeps a pose as a position and a quaternion that it never
normalises: a ``quat_xyzw`` pose keeps the four numbers of the file. Most of
its arithmetic does not mind (composing rotates vectors by ``q v q⁻¹`` with
the true inverse, so the scale cancels), but two places do: inverting a
pose rotates the negated position with the expanded unit-quaternion formula
``v + 2w(u×v) + 2u×(u×v)``, and a joint axis is rotated with that same
formula. For a quaternion of squared norm ``s`` that formula gives
``(1 − s)·v + s·R̂·v`` (R̂ the rotation of the normalised quaternion). Drake
then turns the resulting quaternion into a rotation matrix, which normalises
it. So a pose is enough described by a rigid transform with the normalised
rotation and the squared norm ``s`` of its quaternion; :class:`GzPose` keeps
both. When every ``s`` is exactly 1 the results equal plain rigid-transform
arithmetic bit for bit.
"""
from __future__ import annotations

from typing import Sequence

from ...spatial import RigidTransform, Vec3, add, matvec, scale, transpose


def rotate_unnormalised(R: tuple, s: float, v: Sequence[float]) -> Vec3:
    """``v`` rotated by a quaternion of rotation ``R`` and squared norm ``s``
    with the unit-quaternion formula (libsdformat's quaternion × vector)."""
    if s == 1.0:
        return matvec(R, v)
    return add(scale(1.0 - s, v), scale(s, matvec(R, v)))


class GzPose:
    """A pose with the squared norm ``s`` of its (unnormalised) quaternion.
    Never changed once made (a plain class with slots: a frame graph makes
    several per frame); its inverse is kept once asked for."""

    __slots__ = ("X", "s", "_inverse")

    def __init__(self, X: RigidTransform, s: float = 1.0):
        self.X = X
        self.s = s
        self._inverse: GzPose | None = None

    def __matmul__(self, other: "GzPose") -> "GzPose":
        if self is IDENTITY and other is IDENTITY:
            # (the identity rotation kept, 0.0 + 0.0 for each coordinate:
            # itself, bit for bit; most links and models have no <pose>)
            return IDENTITY
        # (made without __init__: a frame graph composes some thirteen a file)
        P = _new_pose(GzPose)
        P.X = self.X @ other.X
        P.s = self.s * other.s
        P._inverse = None
        return P

    def inverse(self) -> "GzPose":
        inverse = self._inverse
        if inverse is not None:
            return inverse
        if self.s == 1.0:
            inverse = GzPose(self.X.inverse(), 1.0)
        else:
            s_inv = 1.0 / self.s
            R_inv = transpose(self.X.R)
            minus_p = scale(-1.0, self.X.p)
            inverse = GzPose(RigidTransform(R_inv, rotate_unnormalised(R_inv, s_inv, minus_p)),
                             s_inv)
        self._inverse = inverse
        return inverse

    def rotate(self, v: Sequence[float]) -> Vec3:
        """``v`` rotated as libsdformat rotates a joint axis by this pose."""
        return rotate_unnormalised(self.X.R, self.s, v)

    def __repr__(self) -> str:
        return f"GzPose({self.X!r}, s={self.s})"


_new_pose = object.__new__
# The identity, shared (poses are never changed once made): the pose of
# every element without a <pose> (ORIGIN, its transform), a scope's own
# frame in itself, and the root of every composition.
ORIGIN = RigidTransform()
IDENTITY = GzPose(ORIGIN)
# The identity relative to itself, IDENTITY.inverse() @ IDENTITY: its
# rotation is the product's (the identity's values, not the IDENTITY3
# object), its translation -0.0 + 0.0 each; made once, shared as IDENTITY is.
IDENTITY_RELATIVE = IDENTITY.inverse() @ IDENTITY
