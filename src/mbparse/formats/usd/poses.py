"""USD transforms (``Gf.Matrix4d``, row vectors) as rigid transforms and
per-axis scales (column vectors, as ``mbparse.spatial``)."""
from __future__ import annotations

import math

import numpy as np

from ...spatial import RigidTransform


def matrix(gf_matrix) -> np.ndarray:
    """A Gf.Matrix4d as a 4×4 column-vector transform."""
    return np.array(gf_matrix, dtype=float).T


def split(T: np.ndarray) -> tuple[RigidTransform, tuple[float, float, float], bool]:
    """(rotation and translation, per-axis scale, whether a shear was left
    out) of a 4×4 transform ``T`` = [R·diag(s) | p]."""
    if not np.isfinite(T).all():  # (said where it is used: see finite())
        nan = math.nan
        return RigidTransform(p=(nan, nan, nan)), (nan, nan, nan), False
    L = T[:3, :3]
    s = np.linalg.norm(L, axis=0)
    s[s == 0] = 1.0
    if np.linalg.det(L) < 0:
        s[2] = -s[2]
    R = L / s
    sheared = not np.allclose(R.T @ R, np.eye(3), atol=1e-6)
    if sheared:  # the nearest rotation
        u, _, vt = np.linalg.svd(R)
        R = u @ vt
    rot = tuple(tuple(float(v) for v in row) for row in R)
    return RigidTransform(rot, tuple(float(v) for v in T[:3, 3])), tuple(float(v) for v in s), \
        sheared


def quat_matrix(q) -> tuple:
    """A Gf.Quatf/Quatd as a rotation matrix (rows)."""
    from ...spatial import quaternion_to_matrix
    im = q.GetImaginary()
    return quaternion_to_matrix((float(q.GetReal()), float(im[0]), float(im[1]), float(im[2])))


def pose_of(position, orientation) -> RigidTransform:
    """A joint's local pose (a Gf vector and quaternion); a ValueError for a
    position or quaternion that is not finite, or a quaternion of zero."""
    im = orientation.GetImaginary()
    q = (float(orientation.GetReal()), *(float(v) for v in im))
    p = tuple(float(v) for v in position)
    if not all(math.isfinite(v) for v in q + p) or not any(q):
        raise ValueError(f"its local pose (position {p}, orientation {q}) is not a finite "
                         "position and a non-zero quaternion")
    return RigidTransform(quat_matrix(orientation), p)


def finite(X: RigidTransform) -> bool:
    """Whether a pose holds only finite numbers."""
    return all(math.isfinite(v) for v in X.p) and all(
        math.isfinite(v) for row in X.R for v in row)
