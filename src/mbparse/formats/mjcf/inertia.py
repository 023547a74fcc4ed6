"""Mass properties as MuJoCo's compiler computes them: primitives (solid or
shell), meshes by the volume (or surface) their triangles span, and the sum
of a body's geoms. Values are per unit density unless said otherwise."""
from __future__ import annotations

import math
from typing import Sequence

from ...numbers import all_finite
from ...spatial import Mat3, Vec3, inertia_matrix

PI = math.pi
MINVAL = 1e-15  # MuJoCo's mjMINVAL


def primitive_volume(kind: str, size: Sequence[float], shell: bool) -> float:
    """Volume (or area, for a shell) of a primitive with MuJoCo's half-sizes."""
    if kind == "sphere":
        r = size[0]
        return 4 * PI * r * r if shell else 4 * PI * r * r * r / 3
    if kind == "capsule":
        r, h = size[0], 2 * size[1]
        return 4 * PI * r * r + 2 * PI * r * h if shell else PI * (r * r * h + 4 * r * r * r / 3)
    if kind == "cylinder":
        r, h = size[0], 2 * size[1]
        return 2 * PI * r * r + 2 * PI * r * h if shell else PI * r * r * h
    if kind == "ellipsoid":
        a, b, c = size[:3]
        if shell:  # Thomsen's approximation, as MuJoCo uses
            p = 1.6075
            t = (a * b) ** p + (b * c) ** p + (c * a) ** p
            return 4 * PI * (t / 3) ** (1 / p)
        return 4 * PI * a * b * c / 3
    if kind == "box":
        a, b, c = size[:3]
        return 8 * (a * b + b * c + c * a) if shell else 8 * a * b * c
    return 0.0


def primitive_inertia(kind: str, size: Sequence[float], mass: float, shell: bool) -> Vec3:
    """Principal moments about the center (the geom frame's axes)."""
    if kind == "sphere":
        i = (2 / 3 if shell else 2 / 5) * mass * size[0] * size[0]
        return (i, i, i)
    if kind == "capsule":
        r, hh = size[0], size[1]
        h = 2 * hh
        if not shell:
            ms = mass * 4 * r / (4 * r + 3 * h)
            mc = mass - ms
            ix = mc * (3 * r * r + h * h) / 12 + 2 * ms * r * r / 5 + ms * h * (3 * r + 2 * h) / 8
            iz = mc * r * r / 2 + 2 * ms * r * r / 5
            return (ix, ix, iz)
        a_s, a_c = 4 * PI * r * r, 2 * PI * r * h
        ms = mass * a_s / (a_s + a_c)
        mc = mass - ms
        com, pos = r / 2, hh + r / 2
        ix = mc * (6 * r * r + h * h) / 12 + 2 * ms * r * r / 3 + ms * (pos * pos - com * com)
        iz = mc * r * r + 2 * ms * r * r / 3
        return (ix, ix, iz)
    if kind == "cylinder":
        r, hh = size[0], size[1]
        h = 2 * hh
        if not shell:
            ix = mass * (3 * r * r + h * h) / 12
            return (ix, ix, mass * r * r / 2)
        a_d, a_c = PI * r * r, 2 * PI * r * h
        md = mass * a_d / (2 * a_d + a_c)
        mc = mass - 2 * md
        ix = mc * (6 * r * r + h * h) / 12 + 2 * (md * r * r / 4 + md * hh * hh)
        iz = mc * r * r + 2 * md * r * r / 2
        return (ix, ix, iz)
    if kind == "ellipsoid":
        a, b, c = size[:3]
        if not shell:
            return (mass * (b * b + c * c) / 5, mass * (a * a + c * c) / 5,
                    mass * (a * a + b * b) / 5)
        eps = 1e-6
        va = 4 * PI * a * b * c / 3
        ae, be, ce = a + eps, b + eps, c + eps
        vb = 4 * PI * ae * be * ce / 3
        rho = mass / (vb - va)
        ma, mb = va * rho, vb * rho
        return (mb * (be * be + ce * ce) / 5 - ma * (b * b + c * c) / 5,
                mb * (ae * ae + ce * ce) / 5 - ma * (a * a + c * c) / 5,
                mb * (ae * ae + be * be) / 5 - ma * (a * a + b * b) / 5)
    if kind == "box":
        a, b, c = size[:3]
        if not shell:
            return (mass * (b * b + c * c) / 3, mass * (a * a + c * c) / 3,
                    mass * (a * a + b * b) / 3)
        lx, ly, lz = 2 * a, 2 * b, 2 * c
        A0, A1, A2 = lx * ly, ly * lz, lz * lx
        tot = 2 * (A0 + A1 + A2)
        m0, m1, m2 = mass * A0 / tot, mass * A1 / tot, mass * A2 / tot
        ix = 2 * (m0 * c * c + m2 * b * b + m0 * ly * ly / 12 + m1 * (ly * ly + lz * lz) / 12
                  + m2 * lz * lz / 12)
        iy = 2 * (m0 * c * c + m1 * a * a + m0 * lx * lx / 12 + m1 * lz * lz / 12
                  + m2 * (lx * lx + lz * lz) / 12)
        iz = 2 * (m1 * a * a + m2 * b * b + m0 * (lx * lx + ly * ly) / 12 + m1 * ly * ly / 12
                  + m2 * lx * lx / 12)
        return (ix, iy, iz)
    return (0.0, 0.0, 0.0)


class MeshInertiaError(ValueError):
    """A mesh MuJoCo cannot give mass properties to."""


def mesh_properties(vertices, faces, mode: str,
                    scale: Sequence[float] = (1.0, 1.0, 1.0)) -> tuple[float, Vec3, tuple]:
    """(volume or area, centroid, inertia about the centroid per unit
    density) of a triangle mesh under MuJoCo's ``inertia`` mode: ``legacy``
    (tetrahedra from the face centroid, volumes taken positive), ``exact``
    (signed volumes), ``shell`` (the surface), after scaling by ``scale``.
    Vertices are rounded to
    single precision first, as MuJoCo stores them."""
    import numpy as np

    V = np.asarray(vertices, dtype=np.float32).astype(np.float64).reshape(-1, 3)
    F = np.asarray(faces, dtype=np.int64).reshape(-1, 3)
    if len(V) < 4:
        raise MeshInertiaError(f"a mesh needs at least 4 vertices; this one has {len(V)}")
    if len(F) == 0:
        raise MeshInertiaError("the mesh has no faces")
    if mode == "exact":
        _check_orientation(V, F)
    if sum(1 for x in scale if x < 0) % 2:  # a mirror: MuJoCo turns the faces over
        F = F[:, [0, 2, 1]]
    with np.errstate(over="ignore", invalid="ignore"):
        V = V * np.asarray(scale, dtype=np.float64)
        return _mesh_properties_scaled(V, F, mode)


def _mesh_properties_scaled(V, F, mode: str) -> tuple[float, Vec3, tuple]:
    import numpy as np

    shell = mode == "shell"
    legacy = mode == "legacy"

    def triangles(P):
        a, b, c = P[F[:, 0]], P[F[:, 1]], P[F[:, 2]]
        center = (a + b + c) / 3
        n = np.cross(b - a, c - a)
        length = np.linalg.norm(n, axis=1)
        ok = length >= MINVAL
        area = np.where(ok, length / 2, 0.0)
        normal = np.where(ok[:, None], n / np.where(ok, length, 1.0)[:, None], 0.0)
        return a, b, c, center, normal, area

    _, _, _, center, normal, area = triangles(V)
    total_area = area.sum()
    if total_area < MINVAL:
        raise MeshInertiaError("the mesh's surface area is too small")
    facecen = (area[:, None] * center).sum(axis=0) / total_area
    if shell:
        com = (area[:, None] * center).sum(axis=0) / total_area
    else:
        vol = np.einsum("ij,ij->i", center - facecen, normal) * area / 3
        if legacy:
            vol = np.abs(vol)
        total = vol.sum()
        if total < MINVAL:
            raise MeshInertiaError(
                "the mesh's volume is negative (its triangles are wound inward)" if total < 0
                else "the mesh's volume is too small; try inertia='shell' on the mesh asset")
        com = (vol[:, None] * (center * 0.75 + facecen * 0.25)).sum(axis=0) / total
    D, E, G, center, normal, area = triangles(V - com)
    if shell:
        w, C = area, 12.0
    else:
        w, C = np.einsum("ij,ij->i", center, normal) * area / 3, 20.0
        if legacy:
            w = np.abs(w)
    P = np.zeros((3, 3))
    for i in range(3):
        for j in range(i, 3):
            term = (2 * (D[:, i] * D[:, j] + E[:, i] * E[:, j] + G[:, i] * G[:, j])
                    + D[:, i] * E[:, j] + D[:, j] * E[:, i] + D[:, i] * G[:, j]
                    + D[:, j] * G[:, i] + E[:, i] * G[:, j] + E[:, j] * G[:, i])
            P[i, j] = P[j, i] = float((w / C * term).sum())
    measure = float(w.sum())
    I = (P[1, 1] + P[2, 2], P[0, 0] + P[2, 2], P[0, 0] + P[1, 1], -P[0, 1], -P[0, 2], -P[1, 2])
    _require_finite(measure, com, I)
    eig = np.linalg.eigvalsh(np.array(inertia_matrix(I)))
    if eig[2] <= 0:
        raise MeshInertiaError("the mesh's inertia has no positive principal moment")
    a, b, c = eig
    if a + b < c * (1 - 1e-6) - 1e-9:
        raise MeshInertiaError("the mesh's principal moments violate the triangle inequality")
    return measure, (float(com[0]), float(com[1]), float(com[2])), I


def drake_mesh_properties(vertices, faces,
                          scale: Sequence[float] = (1.0, 1.0, 1.0)) -> tuple[float, Vec3, tuple]:
    """(volume, centroid, inertia about the centroid per unit density) of a
    triangle mesh as Drake's ``CalcSpatialInertia`` computes them: signed
    tetrahedra from the mesh frame's origin, in double precision. A volume
    below 1e-14 or an inertia that is not physically valid raises
    :class:`MeshInertiaError` (Drake then falls back to the convex hull)."""
    import numpy as np

    F = np.asarray(faces, dtype=np.int64).reshape(-1, 3)
    if len(F) == 0:
        raise MeshInertiaError("the mesh has no faces")
    with np.errstate(over="ignore", invalid="ignore"):
        V = np.asarray(vertices, dtype=np.float64).reshape(-1, 3) * np.asarray(scale,
                                                                               dtype=np.float64)
        return _drake_mesh_properties_scaled(V, F)


def _drake_mesh_properties_scaled(V, F) -> tuple[float, Vec3, tuple]:
    import numpy as np

    a, b, c = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    v = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6.0
    volume = float(v.sum())
    if not volume >= 1e-14:
        raise MeshInertiaError(f"the mesh's signed volume {volume} is not positive (an open "
                               "mesh, or faces wound inward)")
    s = a + b + c
    com = (v[:, None] * s).sum(axis=0) / (4.0 * volume)
    # Second moments about the origin: v/20 (aaᵀ + bbᵀ + ccᵀ + ssᵀ) per tetrahedron.
    C = np.einsum("t,ti,tj->ij", v / 20.0, a, a) + np.einsum("t,ti,tj->ij", v / 20.0, b, b) \
        + np.einsum("t,ti,tj->ij", v / 20.0, c, c) + np.einsum("t,ti,tj->ij", v / 20.0, s, s)
    C = C - volume * np.outer(com, com)  # about the centroid
    M = np.trace(C) * np.eye(3) - C
    I = (M[0, 0], M[1, 1], M[2, 2], M[0, 1], M[0, 2], M[1, 2])
    _require_finite(volume, com, I)
    eig = np.linalg.eigvalsh(M)
    tol = 1e-14 * max(1.0, float(abs(eig).max()))
    if eig[0] < -tol or eig[0] + eig[1] < eig[2] - tol:
        raise MeshInertiaError("the mesh's inertia is not physically valid")
    return volume, (float(com[0]), float(com[1]), float(com[2])), tuple(float(x) for x in I)


def _require_finite(measure, com, I) -> None:
    """A mesh scaled past what a double holds (a scale of 1e200, say) has no
    mass properties: its volume, centroid or inertia overflow to infinity or
    become NaN. That is an error, not a number for the model."""
    if not all_finite((measure, *com, *I)):
        raise MeshInertiaError("its volume, centroid or inertia overflows a double at this "
                               "scale; scale the mesh (or its file) down")


def _check_orientation(V, F) -> None:
    """MuJoCo refuses exact inertia when two faces run along the same edge
    in the same direction (faces wound inconsistently); faces of (nearly)
    no area are left out, as it leaves them out."""
    import numpy as np

    n = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
    length = np.linalg.norm(n, axis=1)
    area = np.where(length < MINVAL, 0.0, length / 2)
    G = F[area > math.sqrt(MINVAL)]
    edges = np.concatenate([G[:, [0, 1]], G[:, [1, 2]], G[:, [2, 0]]])
    if len(edges) == 0:
        return
    lo = int(edges.min())
    span = int(edges.max()) - lo + 1
    if span < 2 ** 31:
        # Each edge as one integer, in the same order as the pairs: a sort of
        # numbers, not np.unique(axis=0)'s sort of rows (ten times slower).
        keys, counts = np.unique((edges[:, 0] - lo) * span + (edges[:, 1] - lo),
                                 return_counts=True)
        unique = np.stack([keys // span + lo, keys % span + lo], axis=1)
    else:
        unique, counts = np.unique(edges, axis=0, return_counts=True)
    if (counts > 1).any():
        a, b = unique[np.argmax(counts > 1)]
        raise MeshInertiaError(f"faces are wound inconsistently (two run from vertex {a + 1} "
                               f"to vertex {b + 1}); exact inertia needs consistent faces")


def rotate_inertia(I: Sequence[float], R: Mat3) -> tuple:
    """R·I·Rᵀ of a 6-vector inertia (the two 3x3 products written out, term
    for term in the order matmul() adds them, so the same bits)."""
    ixx, iyy, izz, ixy, ixz, iyz = I
    (r00, r01, r02), (r10, r11, r12), (r20, r21, r22) = R
    # M = R·I, I's rows being (ixx ixy ixz), (ixy iyy iyz), (ixz iyz izz).
    m00 = r00 * ixx + r01 * ixy + r02 * ixz
    m01 = r00 * ixy + r01 * iyy + r02 * iyz
    m02 = r00 * ixz + r01 * iyz + r02 * izz
    m10 = r10 * ixx + r11 * ixy + r12 * ixz
    m11 = r10 * ixy + r11 * iyy + r12 * iyz
    m12 = r10 * ixz + r11 * iyz + r12 * izz
    m20 = r20 * ixx + r21 * ixy + r22 * ixz
    m21 = r20 * ixy + r21 * iyy + r22 * iyz
    m22 = r20 * ixz + r21 * iyz + r22 * izz
    # (M·Rᵀ)[i][j] = M[i][0]·R[j][0] + M[i][1]·R[j][1] + M[i][2]·R[j][2]
    return (m00 * r00 + m01 * r01 + m02 * r02, m10 * r10 + m11 * r11 + m12 * r12,
            m20 * r20 + m21 * r21 + m22 * r22, m00 * r10 + m01 * r11 + m02 * r12,
            m00 * r20 + m01 * r21 + m02 * r22, m10 * r20 + m11 * r21 + m12 * r22)


def combine(parts: list[tuple[float, Vec3, tuple]]) -> tuple[float, Vec3, tuple]:
    """Mass, center of mass and inertia about it of several (mass, com,
    inertia about own com), all in one frame."""
    if len(parts) == 1:  # (most bodies) the sums below, of one term: 0 + term
        m, c, I = parts[0]
        mass = 0 + m
        if mass <= 0:
            return 0.0, (0.0, 0.0, 0.0), (0.0,) * 6
        cx, cy, cz = (0 + m * c[0]) / mass, (0 + m * c[1]) / mass, (0 + m * c[2]) / mass
        dx, dy, dz = c[0] - cx, c[1] - cy, c[2] - cz
        return mass, (cx, cy, cz), (0.0 + (I[0] + m * (dy * dy + dz * dz)),
                                    0.0 + (I[1] + m * (dx * dx + dz * dz)),
                                    0.0 + (I[2] + m * (dx * dx + dy * dy)),
                                    0.0 + (I[3] + -m * dx * dy), 0.0 + (I[4] + -m * dx * dz),
                                    0.0 + (I[5] + -m * dy * dz))
    mass = sum(m for m, _, _ in parts)
    if mass <= 0:
        return 0.0, (0.0, 0.0, 0.0), (0.0,) * 6
    com = tuple(sum(m * c[k] for m, c, _ in parts) / mass for k in range(3))
    cx, cy, cz = com
    t0 = t1 = t2 = t3 = t4 = t5 = 0.0
    for m, c, I in parts:
        dx, dy, dz = c[0] - cx, c[1] - cy, c[2] - cz
        t0 += I[0] + m * (dy * dy + dz * dz)
        t1 += I[1] + m * (dx * dx + dz * dz)
        t2 += I[2] + m * (dx * dx + dy * dy)
        t3 += I[3] + -m * dx * dy
        t4 += I[4] + -m * dx * dz
        t5 += I[5] + -m * dy * dz
    return mass, com, (t0, t1, t2, t3, t4, t5)
