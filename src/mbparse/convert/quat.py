"""Quaternion poses with the arithmetic of the URDF→SDFormat converter.

The converter in libsdformat keeps rotations as quaternions and turns them
back into roll-pitch-yaw in two slightly different ways (the URDF model's
``getRPY`` and the math library's ``Euler``); near gimbal lock they pick
different but equivalent angles. To write the same numbers, this module keeps
poses as (position, quaternion) and offers both conversions. Plain Python
floats; the quaternion is (x, y, z, w).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Vec3 = tuple[float, float, float]
HALF_PI = 1.57079632679489661923


@dataclass(frozen=True)
class Quat:
    """A rotation quaternion; not necessarily normalised (as in the original)."""

    x: float = 0.0
    y: float = 0.0
    z: float = 0.0
    w: float = 1.0

    @staticmethod
    def from_rpy(roll: float, pitch: float, yaw: float) -> "Quat":
        """The rotation Rz(yaw)·Ry(pitch)·Rx(roll), normalised."""
        phi, the, psi = roll / 2.0, pitch / 2.0, yaw / 2.0
        sp, cp = math.sin(phi), math.cos(phi)
        st, ct = math.sin(the), math.cos(the)
        ss, cs = math.sin(psi), math.cos(psi)
        return Quat(sp * ct * cs - cp * st * ss, cp * st * cs + sp * ct * ss,
                    cp * ct * ss - sp * st * cs, cp * ct * cs + sp * st * ss).normalized()

    def normalized(self, tolerance: float = 0.0) -> "Quat":
        """Unit quaternion; identity when the norm is zero (or within tolerance of it)."""
        n2 = self.x * self.x + self.y * self.y + self.z * self.z + self.w * self.w
        n = math.sqrt(n2)
        if n2 <= 0.0 or abs(n) <= tolerance:
            return Quat()
        return Quat(self.x / n, self.y / n, self.z / n, self.w / n)

    def __mul__(self, o: "Quat") -> "Quat":
        return Quat(self.w * o.x + self.x * o.w + self.y * o.z - self.z * o.y,
                    self.w * o.y - self.x * o.z + self.y * o.w + self.z * o.x,
                    self.w * o.z + self.x * o.y - self.y * o.x + self.z * o.w,
                    self.w * o.w - self.x * o.x - self.y * o.y - self.z * o.z)

    def inverse(self) -> "Quat":
        s = self.x * self.x + self.y * self.y + self.z * self.z + self.w * self.w
        if s == 0.0:
            return Quat()
        return Quat(-self.x / s, -self.y / s, -self.z / s, self.w / s)

    def rotate(self, v: Vec3) -> Vec3:
        """The vector v rotated by this quaternion (q·v·q⁻¹)."""
        r = self * (Quat(v[0], v[1], v[2], 0.0) * self.inverse())
        return (r.x, r.y, r.z)

    def urdf_rpy(self) -> Vec3:
        """Roll, pitch, yaw as the URDF model computes them (snaps near ±90° pitch)."""
        x, y, z, w = self.x, self.y, self.z, self.w
        sarg = -2.0 * (x * z - w * y)
        if sarg <= -0.99999:
            return (0.0, -HALF_PI, 2.0 * math.atan2(x, -y))
        if sarg >= 0.99999:
            return (0.0, HALF_PI, 2.0 * math.atan2(-x, y))
        return (math.atan2(2.0 * (y * z + w * x), w * w - x * x - y * y + z * z),
                math.asin(sarg),
                math.atan2(2.0 * (x * y + w * z), w * w + x * x - y * y - z * z))

    def euler(self) -> Vec3:
        """Roll, pitch, yaw as the math library computes them (for written poses)."""
        q = self.normalized(1e-6)
        x, y, z, w = q.x, q.y, q.z, q.w
        sqw, sqx, sqy, sqz = w * w, x * x, y * y, z * z
        sarg = -2.0 * (x * z - w * y)
        if sarg <= -1.0:
            pitch = -0.5 * math.pi
        elif sarg >= 1.0:
            pitch = 0.5 * math.pi
        else:
            pitch = math.asin(sarg)
        if abs(sarg - 1.0) < 1e-15:
            return (math.atan2(2.0 * (x * y - z * w), sqw - sqx + sqy - sqz), pitch, 0.0)
        if abs(sarg + 1.0) < 1e-15:
            return (math.atan2(-2.0 * (x * y - z * w), sqw - sqx + sqy - sqz), pitch, 0.0)
        return (math.atan2(2.0 * (y * z + w * x), sqw - sqx - sqy + sqz), pitch,
                math.atan2(2.0 * (x * y + w * z), sqw + sqx - sqy - sqz))

    def matrix(self) -> tuple[Vec3, Vec3, Vec3]:
        """The 3x3 rotation matrix of the normalised quaternion."""
        q = self.normalized()
        x, y, z, w = q.x, q.y, q.z, q.w
        return ((1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
                (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
                (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))


@dataclass(frozen=True)
class Pose:
    """Position and rotation of a frame in its parent: X_PF."""

    p: Vec3 = (0.0, 0.0, 0.0)
    q: Quat = Quat()

    @staticmethod
    def from_xyz_rpy(xyz, rpy) -> "Pose":
        return Pose(tuple(float(v) for v in xyz), Quat.from_rpy(*rpy))

    def is_zero(self) -> bool:
        return self.p == (0.0, 0.0, 0.0) and self.q == Quat()

    def in_parent(self, X_PC: "Pose") -> "Pose":
        """This pose (given in frame C) re-expressed in P, where X_PC places C in P."""
        r = X_PC.q.rotate(self.p)
        return Pose((X_PC.p[0] + r[0], X_PC.p[1] + r[1], X_PC.p[2] + r[2]), X_PC.q * self.q)

    def euler_values(self) -> tuple[float, ...]:
        return self.p + self.q.euler()

    def urdf_values(self) -> tuple[float, ...]:
        return self.p + self.q.urdf_rpy()
