"""The convex hull MuJoCo meshes when a mesh has no faces (or asks for
``inertia="convex"``), from Qhull through scipy (an optional dependency,
the ``mesh`` extra), with MuJoCo's checks for points that span no solid."""
from __future__ import annotations

import numpy as np

from .mesh_data import MINVAL, MeshDataError, optional


def _degeneracy(V: np.ndarray) -> str | None:
    """Why no solid hull spans the points (MuJoCo's tests), or None."""
    V = V.astype(np.float64)
    d = np.linalg.norm(V[1:] - V[0], axis=1)
    far = np.nonzero(d > MINVAL)[0]
    if len(far) == 0:
        return "all its vertices are at one point"
    v1 = far[0] + 1
    e1 = V[v1] - V[0]
    len1 = d[v1 - 1]
    normal = None
    for i in range(1, len(V)):
        if i == v1:
            continue
        e2 = V[i] - V[0]
        len2 = float(np.linalg.norm(e2))
        if len2 < MINVAL:
            continue
        n = np.cross(e1, e2)
        nn = float(np.linalg.norm(n))
        if nn > MINVAL * len1 * len2:
            normal = n / nn
            break
    if normal is None:
        return "its vertices lie on one line"
    offsets = np.abs(V @ normal - float(normal @ V[0]))
    if not (offsets > MINVAL * len1).any():
        return "its vertices lie in one plane"
    return None


def convex_hull(V: np.ndarray) -> np.ndarray:
    """The triangles of the convex hull of the vertices (indices into
    ``V``), wound outward, from Qhull through scipy."""
    why = _degeneracy(V)
    if why is not None:
        raise MeshDataError(f"its convex hull cannot be computed: {why}")
    spatial = optional("scipy.spatial", "computing a mesh's convex hull")
    P = V.astype(np.float64)
    try:
        hull = spatial.ConvexHull(P)
    except Exception as e:  # QhullError and friends
        raise MeshDataError(f"its convex hull cannot be computed ({e})") from None
    F = np.asarray(hull.simplices, dtype=np.int64)
    a, b, c = P[F[:, 0]], P[F[:, 1]], P[F[:, 2]]
    inward = np.einsum("ij,ij->i", np.cross(b - a, c - a), hull.equations[:, :3]) < 0
    F[inward] = F[inward][:, [0, 2, 1]]
    return F
