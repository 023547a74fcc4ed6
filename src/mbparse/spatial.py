"""Rigid transforms, rotations and inertias.

Small fixed-size linear algebra in plain Python: a model file holds hundreds of
3x3 products, and at that size tuples of floats beat NumPy's per-call cost by
an order of magnitude. ``matrix()`` methods hand NumPy arrays to callers that
want them.

Conventions follow Drake's monogram notation: ``X_AB`` is the pose of frame B
in frame A, ``R_AB`` its rotation, ``p_AoBo_A`` its translation.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

Vec3 = tuple[float, float, float]
Mat3 = tuple[Vec3, Vec3, Vec3]

IDENTITY3: Mat3 = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
ZERO3: Vec3 = (0.0, 0.0, 0.0)


def matmul(a: Mat3, b: Mat3) -> Mat3:
    """The 3x3 product a·b."""
    (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = a
    (b00, b01, b02), (b10, b11, b12), (b20, b21, b22) = b
    return ((a00 * b00 + a01 * b10 + a02 * b20, a00 * b01 + a01 * b11 + a02 * b21,
             a00 * b02 + a01 * b12 + a02 * b22),
            (a10 * b00 + a11 * b10 + a12 * b20, a10 * b01 + a11 * b11 + a12 * b21,
             a10 * b02 + a11 * b12 + a12 * b22),
            (a20 * b00 + a21 * b10 + a22 * b20, a20 * b01 + a21 * b11 + a22 * b21,
             a20 * b02 + a21 * b12 + a22 * b22))


def matvec(a: Mat3, v: Sequence[float]) -> Vec3:
    """The product a·v."""
    x, y, z = v
    return (a[0][0] * x + a[0][1] * y + a[0][2] * z,
            a[1][0] * x + a[1][1] * y + a[1][2] * z,
            a[2][0] * x + a[2][1] * y + a[2][2] * z)


def transpose(a: Mat3) -> Mat3:
    return ((a[0][0], a[1][0], a[2][0]), (a[0][1], a[1][1], a[2][1]),
            (a[0][2], a[1][2], a[2][2]))


def add(u: Sequence[float], v: Sequence[float]) -> Vec3:
    return (u[0] + v[0], u[1] + v[1], u[2] + v[2])


def sub(u: Sequence[float], v: Sequence[float]) -> Vec3:
    return (u[0] - v[0], u[1] - v[1], u[2] - v[2])


def scale(s: float, v: Sequence[float]) -> Vec3:
    return (s * v[0], s * v[1], s * v[2])


def dot(u: Sequence[float], v: Sequence[float]) -> float:
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def cross(u: Sequence[float], v: Sequence[float]) -> Vec3:
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def norm(v: Sequence[float]) -> float:
    return math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])


def normalized(v: Sequence[float]) -> Vec3:
    """``v`` scaled to unit length (ZeroDivisionError for the zero vector).

    A vector whose squares overflow or underflow (``1e200 2 3``) still has a
    direction: its length is then taken without squaring."""
    n = norm(v)
    if not 0.0 < n < math.inf:
        n = math.hypot(v[0], v[1], v[2])
    return (v[0] / n, v[1] / n, v[2] / n)


def rpy_to_matrix(rpy: Sequence[float]) -> Mat3:
    """R = Rz(yaw)·Ry(pitch)·Rx(roll), the URDF and SDFormat convention."""
    r, p, y = rpy
    c0, s0 = math.cos(r), math.sin(r)
    c1, s1 = math.cos(p), math.sin(p)
    c2, s2 = math.cos(y), math.sin(y)
    return ((c2 * c1, c2 * s1 * s0 - s2 * c0, c2 * s1 * c0 + s2 * s0),
            (s2 * c1, s2 * s1 * s0 + c2 * c0, s2 * s1 * c0 - c2 * s0),
            (-s1, c1 * s0, c1 * c0))


def matrix_to_rpy(R: Mat3) -> Vec3:
    """Roll-pitch-yaw angles of a rotation matrix (pitch in [-π/2, π/2]).

    Next to pitch ±π/2, where roll and yaw alone are ill-defined, roll is
    taken from the second and third columns with the yaw taken out, so that
    the angles still give back the matrix to rounding."""
    cos_pitch = math.hypot(R[0][0], R[1][0])
    pitch = math.atan2(-R[2][0], cos_pitch)
    yaw = math.atan2(R[1][0], R[0][0])  # 0 at pitch ±π/2 exactly: roll takes it all
    if cos_pitch > 1e-4:
        return (math.atan2(R[2][1], R[2][2]), pitch, yaw)
    s, c = math.sin(yaw), math.cos(yaw)
    return (math.atan2(s * R[0][2] - c * R[1][2], c * R[1][1] - s * R[0][1]), pitch, yaw)


def quaternion_to_matrix(q: Sequence[float]) -> Mat3:
    """Rotation of the quaternion (w, x, y, z); normalised first."""
    w, x, y, z = q
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return ((1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))


def matrix_to_quaternion(R: Mat3) -> tuple[float, float, float, float]:
    """The quaternion (w, x, y, z), w ≥ 0, of a rotation matrix."""
    if R is IDENTITY3:  # (what the arithmetic below gives it; most poses turn nothing)
        return (1.0, 0.0, 0.0, 0.0)
    tr = R[0][0] + R[1][1] + R[2][2]
    if tr > 0:
        s = math.sqrt(tr + 1.0) * 2
        q = (0.25 * s, (R[2][1] - R[1][2]) / s, (R[0][2] - R[2][0]) / s, (R[1][0] - R[0][1]) / s)
    elif R[0][0] > R[1][1] and R[0][0] > R[2][2]:
        s = math.sqrt(1.0 + R[0][0] - R[1][1] - R[2][2]) * 2
        q = ((R[2][1] - R[1][2]) / s, 0.25 * s, (R[0][1] + R[1][0]) / s, (R[0][2] + R[2][0]) / s)
    elif R[1][1] > R[2][2]:
        s = math.sqrt(1.0 + R[1][1] - R[0][0] - R[2][2]) * 2
        q = ((R[0][2] - R[2][0]) / s, (R[0][1] + R[1][0]) / s, 0.25 * s, (R[1][2] + R[2][1]) / s)
    else:
        s = math.sqrt(1.0 + R[2][2] - R[0][0] - R[1][1]) * 2
        q = ((R[1][0] - R[0][1]) / s, (R[0][2] + R[2][0]) / s, (R[1][2] + R[2][1]) / s, 0.25 * s)
    return q if q[0] >= 0 else (-q[0], -q[1], -q[2], -q[3])


def axis_angle_to_matrix(axis: Sequence[float], angle: float) -> Mat3:
    """Rotation by ``angle`` about the unit vector ``axis`` (Rodrigues)."""
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    t = 1.0 - c
    return ((t * x * x + c, t * x * y - s * z, t * x * z + s * y),
            (t * x * y + s * z, t * y * y + c, t * y * z - s * x),
            (t * x * z - s * y, t * y * z + s * x, t * z * z + c))


def closest_rotation_from_unit_z(z: Sequence[float]) -> Mat3:
    """The rotation R_AB closest to identity whose Bz axis is the unit vector z."""
    ux, uy, uz = z
    # Rotate A's z axis onto u by the shortest arc.
    if uz < -1.0 + 1e-15:  # antiparallel: a half turn about x
        return ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, -1.0))
    k = 1.0 / (1.0 + uz)
    return ((1.0 - ux * ux * k, -ux * uy * k, ux),
            (-ux * uy * k, 1.0 - uy * uy * k, uy),
            (-ux, -uy, uz))


def make_from_one_unit_vector(u: Sequence[float], axis_index: int) -> Mat3:
    """A rotation whose column ``axis_index`` is the unit vector u (Drake's
    RotationMatrix::MakeFromOneUnitVector, so the other two columns match)."""
    absu = [abs(x) for x in u]
    i = absu.index(min(absu))
    j, k = (i + 1) % 3, (i + 2) % 3
    mag = math.sqrt(1 - u[i] * u[i])
    r = 1 / mag
    s = -r * u[i]
    v = [0.0, 0.0, 0.0]
    w = [0.0, 0.0, 0.0]
    v[j], v[k] = -r * u[k], r * u[j]
    w[i], w[j], w[k] = mag, s * u[j], s * u[k]
    cols = [None, None, None]
    cols[axis_index] = tuple(u)
    cols[(axis_index + 1) % 3] = v
    cols[(axis_index + 2) % 3] = w
    return tuple(tuple(cols[c][row] for c in range(3)) for row in range(3))  # type: ignore


class RigidTransform:
    """A pose: rotation ``R`` (3x3 tuple of floats) and translation ``p``
    (a tuple of three floats: the constructor converts what it is given)."""

    __slots__ = ("R", "p")

    def __init__(self, R: Mat3 = IDENTITY3, p: Sequence[float] = ZERO3):
        self.R = R
        # (the default, which SDFormat's reader makes thousands of: no float())
        self.p = p if p is ZERO3 else (float(p[0]), float(p[1]), float(p[2]))

    @classmethod
    def from_rpy_xyz(cls, rpy: Sequence[float], xyz: Sequence[float]) -> "RigidTransform":
        if rpy[0] == 0.0 and rpy[1] == 0.0 and rpy[2] == 0.0:
            return cls(IDENTITY3, xyz)
        return cls(rpy_to_matrix(rpy), xyz)

    @staticmethod
    def of_floats(rpy: Vec3, xyz: Vec3) -> "RigidTransform":
        """:meth:`from_rpy_xyz` for tuples of three floats (a pose read
        from text): the same pose, made without ``__init__``'s float()."""
        X = _new_transform(RigidTransform)
        r, p, y = rpy
        X.R = IDENTITY3 if r == 0.0 and p == 0.0 and y == 0.0 else rpy_to_matrix(rpy)
        X.p = xyz
        return X

    # Products and inverses are what a frame graph computes most (an
    # SDFormat file's poses): written out, the very arithmetic of matmul,
    # matvec, add and scale in the same order (the same bits), and made
    # without __init__, whose float() the sums of floats need not.
    def __matmul__(self, other: "RigidTransform") -> "RigidTransform":
        R = self.R
        x, y, z = self.p
        u, v, w = other.p
        X = _new_transform(RigidTransform)
        if R is IDENTITY3:
            X.R = other.R
            X.p = (x + u, y + v, z + w)
            return X
        (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = R
        (b00, b01, b02), (b10, b11, b12), (b20, b21, b22) = other.R
        X.R = ((a00 * b00 + a01 * b10 + a02 * b20, a00 * b01 + a01 * b11 + a02 * b21,
                a00 * b02 + a01 * b12 + a02 * b22),
               (a10 * b00 + a11 * b10 + a12 * b20, a10 * b01 + a11 * b11 + a12 * b21,
                a10 * b02 + a11 * b12 + a12 * b22),
               (a20 * b00 + a21 * b10 + a22 * b20, a20 * b01 + a21 * b11 + a22 * b21,
                a20 * b02 + a21 * b12 + a22 * b22))
        X.p = (a00 * u + a01 * v + a02 * w + x, a10 * u + a11 * v + a12 * w + y,
               a20 * u + a21 * v + a22 * w + z)
        return X

    def apply(self, v: Sequence[float]) -> Vec3:
        """Transforms the point v: R·v + p."""
        return add(matvec(self.R, v), self.p)

    def inverse(self) -> "RigidTransform":
        (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = self.R
        x, y, z = self.p
        X = _new_transform(RigidTransform)
        X.R = ((a00, a10, a20), (a01, a11, a21), (a02, a12, a22))
        X.p = (-1.0 * (a00 * x + a10 * y + a20 * z), -1.0 * (a01 * x + a11 * y + a21 * z),
               -1.0 * (a02 * x + a12 * y + a22 * z))
        return X

    def is_exactly_identity(self) -> bool:
        return self.p == ZERO3 and (self.R is IDENTITY3 or self.R == IDENTITY3)

    def rpy(self) -> Vec3:
        return matrix_to_rpy(self.R)

    def translation(self):
        """``p`` as a NumPy array of 3 (pydrake's ``translation()``)."""
        import numpy as np
        return np.array(self.p)

    def rotation(self):
        """``R`` as a 3x3 NumPy array (pydrake's ``rotation()`` returns a
        RotationMatrix; its ``matrix()`` is this array)."""
        import numpy as np
        return np.array(self.R)

    def matrix(self):
        """The 4x4 homogeneous matrix as a NumPy array."""
        import numpy as np
        m = np.eye(4)
        m[:3, :3] = self.R
        m[:3, 3] = self.p
        return m

    def __repr__(self) -> str:
        return f"RigidTransform(p={list(self.p)}, rpy={list(self.rpy())})"


IDENTITY = RigidTransform()
_new_transform = object.__new__


# ---------------------------------------------------------------- inertia

Inertia6 = tuple[float, float, float, float, float, float]  # Ixx Iyy Izz Ixy Ixz Iyz


def inertia_matrix(I: Sequence[float]) -> Mat3:
    ixx, iyy, izz, ixy, ixz, iyz = I
    return ((ixx, ixy, ixz), (ixy, iyy, iyz), (ixz, iyz, izz))


def inertia_from_matrix(m: Mat3) -> Inertia6:
    return (m[0][0], m[1][1], m[2][2], m[0][1], m[0][2], m[1][2])


def reexpress_inertia(I: Sequence[float], R_AE: Mat3) -> Inertia6:
    """I expressed in E, re-expressed in A: R·I·Rᵀ."""
    if R_AE is IDENTITY3 or R_AE == IDENTITY3:
        return tuple(float(v) for v in I)  # type: ignore[return-value]
    return inertia_from_matrix(matmul(matmul(R_AE, inertia_matrix(I)), transpose(R_AE)))


def point_mass_inertia(mass: float, p: Sequence[float]) -> Inertia6:
    """Inertia about the origin of a point mass at p: m(|p|²·1 − p·pᵀ)."""
    x, y, z = p
    return (mass * (y * y + z * z), mass * (x * x + z * z), mass * (x * x + y * y),
            -mass * x * y, -mass * x * z, -mass * y * z)


def principal_moments(I: Sequence[float]) -> Vec3:
    """Eigenvalues of the inertia matrix, ascending.

    Worked out by cyclic Jacobi rotations in plain Python: a 3×3 needs a few
    sweeps, its eigenvalues come out to a few units in the last place (as
    LAPACK's do), and a parse that checks one rotated inertia need not
    import NumPy (whose import is some 60 ms, and whose objects every
    collection of the user's program then walks)."""
    ixx, iyy, izz, ixy, ixz, iyz = entries = tuple(float(v) for v in I)
    if ixy == 0.0 and ixz == 0.0 and iyz == 0.0:
        return tuple(sorted((ixx, iyy, izz)))  # type: ignore[return-value]
    largest = max(abs(v) for v in entries)
    if not 0.0 < largest < math.inf:  # (an infinite entry: no scale to take out; NaN stays NaN)
        return tuple(sorted(_jacobi_eigenvalues(*entries)))  # type: ignore[return-value]
    # Worked out at a scale near 1 (a power of two: exact), so that neither
    # huge nor tiny entries overflow or underflow on the way.
    shift = math.frexp(largest)[1]
    down, up = _power_of_two(-shift), _power_of_two(shift)
    scaled = _jacobi_eigenvalues(*(v * down[0] * down[1] for v in entries))
    return tuple(sorted(v * up[0] * up[1] for v in scaled))  # type: ignore[return-value]


def _power_of_two(e: int) -> tuple[float, float]:
    """2^e as two finite factors (2^±1074 is past what one double holds);
    a product past the largest double is inf, not an error (as ldexp's)."""
    half = e // 2
    return 2.0 ** half, 2.0 ** (e - half)


def _jacobi_eigenvalues(a00: float, a11: float, a22: float, a01: float, a02: float,
                        a12: float) -> tuple[float, float, float]:
    """The eigenvalues of the symmetric matrix [[a00 a01 a02] [a01 a11 a12]
    [a02 a12 a22]] (finite entries), unordered: rotations that each zero one
    off-diagonal entry, swept until none is left that would still change a
    diagonal entry it stands beside (the test of Numerical Recipes' ``jacobi``)."""
    d = [a00, a11, a22]
    off = {(0, 1): a01, (0, 2): a02, (1, 2): a12}
    for sweep in range(64):
        if off[0, 1] == 0.0 and off[0, 2] == 0.0 and off[1, 2] == 0.0:
            break
        for (p, q), r in (((0, 1), 2), ((0, 2), 1), ((1, 2), 0)):
            apq = off[p, q]
            if apq == 0.0:
                continue
            g = 100.0 * abs(apq)
            dp, dq = d[p], d[q]
            if sweep > 3 and abs(dp) + g == abs(dp) and abs(dq) + g == abs(dq):
                off[p, q] = 0.0  # below what the diagonal can hold
                continue
            h = dq - dp
            if abs(h) + g == abs(h):
                t = apq / h  # (θ so large that θ² would overflow: t = 1/(2θ))
            else:
                theta = 0.5 * h / apq
                t = 1.0 / (abs(theta) + math.sqrt(1.0 + theta * theta))
                if theta < 0.0:
                    t = -t
            c = 1.0 / math.sqrt(1.0 + t * t)
            s = t * c
            tau = s / (1.0 + c)
            d[p] = dp - t * apq
            d[q] = dq + t * apq
            off[p, q] = 0.0
            # the two entries of row r beside p and q turn with them
            rp, rq = (r, p) if r < p else (p, r), (r, q) if r < q else (q, r)
            grp, hrq = off[rp], off[rq]
            off[rp] = grp - s * (hrq + grp * tau)
            off[rq] = hrq + s * (grp - hrq * tau)
    return d[0], d[1], d[2]


def inertia_invalidity(I: Sequence[float]) -> str | None:
    """Why a rotational inertia cannot be physical, or None when it could be
    (the message of :func:`inertia_problem`)."""
    problem = inertia_problem(I)
    return None if problem is None else problem[1]


def inertia_problem(I: Sequence[float]) -> tuple[str, str] | None:
    """(code, why) a rotational inertia cannot be physical, or None when it
    could be. Codes: ``number-nan``, ``number-not-finite``,
    ``inertia-not-positive``, ``inertia-triangle``.

    The test is Drake's: no NaN, principal moments not below −ε and satisfying
    the triangle inequality within ε = 16·machine-ε·max(1, trace/2).
    """
    ixx, iyy, izz, ixy, ixz, iyz = I[0], I[1], I[2], I[3], I[4], I[5]
    total = ixx + iyy + izz + ixy + ixz + iyz
    if total - total != 0.0:  # one test for the common case (inf - inf, NaN: not 0)
        if any(math.isnan(v) for v in I):
            return "number-nan", "it has a NaN entry"
        if any(math.isinf(v) for v in I):
            return "number-not-finite", "it has an infinite entry"
    trace = ixx + iyy + izz
    half_trace = 0.5 * trace if trace >= 0.0 else -0.5 * trace
    eps = 16 * 2.220446049250313e-16 * (half_trace if half_trace > 1.0 else 1.0)
    # Gershgorin's discs bound the principal moments: when every one lies in
    # [-eps, (trace + eps) / 2] the test below passes (a + b = trace - c), and
    # no eigenvalue solver is needed (most inertias are far from the bounds).
    # (Written without abs/min/max: this runs for every body.)
    axy = ixy if ixy >= 0.0 else -ixy
    axz = ixz if ixz >= 0.0 else -ixz
    ayz = iyz if iyz >= 0.0 else -iyz
    upper = 0.5 * (trace + eps)
    if (ixx - axy - axz >= -eps and iyy - axy - ayz >= -eps and izz - axz - ayz >= -eps
            and ixx + axy + axz <= upper and iyy + axy + ayz <= upper
            and izz + axz + ayz <= upper):
        return None
    a, b, c = principal_moments(I)
    if a < -eps or b < -eps or c < -eps:
        return "inertia-not-positive", (f"its principal moments {a:g} {b:g} {c:g} are invalid "
                                        "since at least one is negative")
    if not (a + b + eps >= c):
        return "inertia-triangle", (f"its principal moments {a:g} {b:g} {c:g} do not satisfy the "
                                    "triangle inequality")
    return None


class SpatialInertia:
    """Mass, center of mass ``com`` (from Bo, in B) and inertia about Bcm in B."""

    # _physical: the I_cm tuple that inertia_problem() accepted (problem()
    # does not test that very tuple again; another one assigned is tested).
    __slots__ = ("mass", "com", "I_cm", "_physical")

    def __init__(self, mass: float, com: Sequence[float] = ZERO3,
                 I_cm: Sequence[float] = (0.0,) * 6):
        self.mass = float(mass)
        self.com = (float(com[0]), float(com[1]), float(com[2]))
        self.I_cm = tuple(map(float, I_cm))
        self._physical = None

    @classmethod
    def with_physical_inertia(cls, mass: float, com: Sequence[float],
                              I_cm: Sequence[float]) -> "SpatialInertia":
        """As the constructor, for an ``I_cm`` the caller has found
        physical (:func:`inertia_problem` gave None for these very values):
        :meth:`problem` does not test it again."""
        M = cls(mass, com, I_cm)
        M._physical = M.I_cm
        return M

    @classmethod
    def zero(cls) -> "SpatialInertia":
        return cls.with_physical_inertia(0.0, ZERO3, (0.0,) * 6)

    @classmethod
    def solid_sphere_with_density(cls, density: float, radius: float,
                                  com: Sequence[float] = ZERO3) -> "SpatialInertia":
        mass = density * 4.0 / 3.0 * math.pi * radius * radius * radius
        i = 0.4 * mass * radius * radius
        return cls(mass, com, (i, i, i, 0.0, 0.0, 0.0))

    def inertia_about_origin(self) -> Inertia6:
        """Rotational inertia about the body origin Bo, expressed in B."""
        shift = point_mass_inertia(self.mass, self.com)
        return tuple(a + b for a, b in zip(self.I_cm, shift))  # type: ignore[return-value]

    def invalidity(self) -> str | None:
        """Why this cannot be a physical spatial inertia, or None."""
        problem = self.problem()
        return None if problem is None else problem[1]

    def problem(self) -> tuple[str, str] | None:
        """(code, why) this cannot be a physical spatial inertia, or None
        (codes as :func:`inertia_problem`'s, and ``mass-negative``)."""
        mass = self.mass
        x, y, z = self.com
        ixx, iyy, izz, ixy, ixz, iyz = I = self.I_cm
        # The sum of the inertia about the origin's entries is finite only
        # when every entry is, and so the mass, the center of mass and I_cm
        # (inf - inf is NaN): then only I_cm's own test is left.
        xx, yy, zz = x * x, y * y, z * z
        total = ((ixx + mass * (yy + zz)) + (iyy + mass * (xx + zz)) + (izz + mass * (xx + yy))
                 + (ixy - mass * x * y) + (ixz - mass * x * z) + (iyz - mass * y * z))
        if mass >= 0.0 and total - total == 0.0:
            if self._physical is I:
                return None
            problem = inertia_problem(I)
            if problem is None:
                self._physical = I
            return problem
        if math.isnan(mass):
            return "number-nan", "the mass is NaN"
        if mass < 0:
            return "mass-negative", f"the mass {mass:g} is negative"
        if math.isinf(mass):
            return "number-not-finite", "the mass is infinite"
        if not all(map(math.isfinite, self.com)):
            return "number-not-finite", f"the center of mass {list(self.com)} is not finite"
        problem = inertia_problem(I)
        if problem is None and not all(map(math.isfinite, self.inertia_about_origin())):
            return ("number-not-finite", f"its inertia about the body origin overflows (the "
                    f"center of mass {list(self.com)} is too far from it)")
        return problem

    def __repr__(self) -> str:
        return f"SpatialInertia(mass={self.mass}, com={list(self.com)}, I_cm={list(self.I_cm)})"


def fast_number(text: str) -> float | None:
    """``text`` as one finite decimal number, or None when it is anything
    else (then the careful reading decides what it is).

    The common case costs one ``float()``: a text that is ASCII, has no ``_``
    (which ``float()`` would accept) and reads as a finite number is a plain
    decimal number by any stricter rule too.
    """
    try:
        value = float(text)
    except ValueError:
        return None
    if value - value == 0.0 and text.isascii() and "_" not in text:  # finite
        return value
    return None


def fast_numbers(text: str, n: int) -> tuple[float, ...] | None:
    """``n`` finite decimal numbers separated by whitespace, or None (see
    :func:`fast_number`)."""
    tokens = text.split(None, n)  # (a megabyte of numbers is not split whole)
    if len(tokens) != n:
        return None
    try:
        values = tuple(map(float, tokens))
    except ValueError:
        return None
    if math.isfinite(sum(values)) and text.isascii() and "_" not in text:
        return values
    return None


_FLOAT_PREFIX = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)")


_PLAIN_NUMBERS = re.compile(r"[\s0-9eE.+-]*")


def parse_float_prefixes(text: str) -> list[float]:
    """Numbers of a whitespace-separated list, read the way C++ streams do.

    Reading stops at the first token that does not begin with a number; a
    token such as ``1.5abc`` yields 1.5 and then stops. ``inf`` and ``nan``
    are not numbers here, as for a C++ stream.
    """
    tokens = text.split()
    if _PLAIN_NUMBERS.fullmatch(text) is not None:
        try:
            return [float(t) for t in tokens]
        except ValueError:
            pass
    out: list[float] = []
    match = _FLOAT_PREFIX.match
    for tok in tokens:
        m = match(tok)
        if m is None:
            break
        out.append(float(m.group()))
        if m.end() != len(tok):
            break
    return out


def vectors_close(a: Iterable[float], b: Iterable[float], tol: float = 1e-12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))
