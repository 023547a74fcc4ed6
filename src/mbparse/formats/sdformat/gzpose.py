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

from dataclasses import dataclass
from typing import Sequence

from ...spatial import RigidTransform, Vec3, add, matvec, scale, transpose


def rotate_unnormalised(R: tuple, s: float, v: Sequence[float]) -> Vec3:
    """``v`` rotated by a quaternion of rotation ``R`` and squared norm ``s``
    with the unit-quaternion formula (libsdformat's quaternion × vector)."""
    if s == 1.0:
        return matvec(R, v)
    return add(scale(1.0 - s, v), scale(s, matvec(R, v)))


@dataclass(frozen=True)
class GzPose:
    """A pose with the squared norm ``s`` of its (unnormalised) quaternion."""

    X: RigidTransform
    s: float = 1.0

    def __matmul__(self, other: "GzPose") -> "GzPose":
        return GzPose(self.X @ other.X, self.s * other.s)

    def inverse(self) -> "GzPose":
        if self.s == 1.0:
            return GzPose(self.X.inverse(), 1.0)
        s_inv = 1.0 / self.s
        R_inv = transpose(self.X.R)
        minus_p = scale(-1.0, self.X.p)
        return GzPose(RigidTransform(R_inv, rotate_unnormalised(R_inv, s_inv, minus_p)), s_inv)

    def rotate(self, v: Sequence[float]) -> Vec3:
        """``v`` rotated as libsdformat rotates a joint axis by this pose."""
        return rotate_unnormalised(self.X.R, self.s, v)
