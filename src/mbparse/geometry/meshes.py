"""Mesh files as triangles: one reader for every format robots ship.

=========  ==============================================================
``.obj``   ``mesh_io`` (tinyobjloader's reading and triangulation, as
           Drake sees OBJ files)
``.stl``   binary STL (nearly every robot's) read here: its fixed layout
           is an 84-byte header and 50 bytes per triangle, taken as trimesh
           takes them, without importing trimesh for it; ASCII STL (and a
           file whose length does not match its count) with trimesh
``.dae``   Collada, with pycollada: every geometry the scene places, in
           the scene's node transforms, scaled by ``<unit meter>`` and
           turned so that the file's ``<up_axis>`` becomes +z
``.gltf``  glTF and binary ``.glb`` with trimesh, turned from glTF's +y
``.glb``   up to +z (as Drake does)
``.ply``   with trimesh
``.msh``   MuJoCo's binary mesh (read here: four int32 counts, then
           float32 vertices, normals and texture coordinates, int32 faces)
=========  ==============================================================

Files are read only when something needs their triangles (a convex hull,
an inertia, the viewer) and each file once per process (a cache keyed on
path, size and modification time). Convex hulls come from Qhull through
scipy, the library MuJoCo and Drake use. trimesh, pycollada and scipy are
imported on first use so that loading a model that never measures a mesh
does not pay for them. (Importing trimesh takes some 0.4 s and leaves
50,000 objects, a third of them scipy's, for every later garbage
collection of the program to walk: a robot of binary STL meshes, the common
case, is read without it.)
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..files import read_regular_file, regular_file_problem
from ..limits import SizeLimits, current_limits

# Formats read here, by file extension.
MESH_EXTENSIONS = (".obj", ".stl", ".dae", ".gltf", ".glb", ".ply", ".msh")
MINVAL = 1e-15  # distances below this are "one point" for hull degeneracy


class MeshError(ValueError):
    """A mesh that cannot serve what it is needed for."""


class MeshReadError(MeshError):
    """A mesh file that cannot be had as triangles (missing, unreadable,
    an unknown format, or holding no triangle)."""


class MeshDegenerateError(MeshError):
    """A mesh that spans no solid where a solid is needed (a hull, a mass)."""


@dataclass(frozen=True, eq=False)
class TriangleMesh:
    """Vertices (n×3 float64) and triangles (m×3 indices into them)."""

    vertices: np.ndarray
    faces: np.ndarray

    def scaled(self, scale) -> "TriangleMesh":
        """The mesh with each axis scaled; a mirroring scale (an odd number
        of negative factors) turns the faces so they still face outward."""
        s = np.asarray(scale, dtype=float).reshape(3)
        F = self.faces
        if np.count_nonzero(s < 0) % 2:  # (the signs: a product of 1e200s overflows)
            F = F[:, [0, 2, 1]]
        with np.errstate(over="ignore"):  # an overflow is found where it is used
            return TriangleMesh(self.vertices * s, F)

    def convex_hull(self) -> "TriangleMesh":
        """The convex hull of the vertices, wound outward (Qhull)."""
        F = convex_hull(self.vertices)
        used = np.unique(F)
        remap = np.full(len(self.vertices), -1, dtype=np.int64)
        remap[used] = np.arange(len(used))
        return TriangleMesh(self.vertices[used], remap[F])

    def mass_properties(self, density: float):
        """(mass, centre of mass, inertia about it as Ixx, Iyy, Izz, Ixy,
        Ixz, Iyz) of the enclosed solid; raises ``mesh_io.MeshVolumeError``
        when the mesh encloses no positive volume."""
        from .mesh_io import mass_properties
        return mass_properties(self.vertices, self.faces, density)


def read_mesh(path: str) -> TriangleMesh:
    """The triangles of a mesh file (see the module's table); raises
    MeshReadError (with ``mesh_io.ObjError`` as the cause for OBJ files)."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise MeshReadError(f"the mesh file '{path}' cannot be read: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):  # /dev/zero or a FIFO would be read forever
        raise MeshReadError(regular_file_problem(path) or f"'{path}' is not a regular file")
    # (the limits are part of the key: a mesh read under a raised limit is
    # not handed out under a lower one)
    return _read_cached(os.path.abspath(path), st.st_size, st.st_mtime_ns, current_limits())


@lru_cache(maxsize=256)
def _read_cached(path: str, size: int, mtime: int, limits: SizeLimits) -> TriangleMesh:
    ext = os.path.splitext(path)[1].lower()
    reader = _READERS.get(ext)
    if reader is None:
        raise MeshReadError(f"'{ext or os.path.basename(path)}' mesh files cannot be read; "
                            f"the formats read are {', '.join(MESH_EXTENSIONS)}")
    try:
        V, F = reader(path)
    except MeshReadError:
        raise
    except Exception as e:  # the libraries raise many kinds on bad data
        from .mesh_io import ObjError
        where = f" (line {e.line})" if isinstance(e, ObjError) and e.line else ""
        why = str(e) or f"its reader stopped with {type(e).__name__}; the file is malformed"
        raise MeshReadError(f"the mesh file '{path}' cannot be read{where}: {why}") from e
    V = np.ascontiguousarray(np.asarray(V, dtype=np.float64).reshape(-1, 3))
    F = np.ascontiguousarray(np.asarray(F, dtype=np.int64).reshape(-1, 3))
    if len(F) == 0:
        raise MeshReadError(f"the mesh file '{path}' holds no triangle")
    if not np.isfinite(V).all():
        raise MeshReadError(f"the mesh file '{path}' has a vertex that is not finite")
    if F.min() < 0 or F.max() >= len(V):
        raise MeshReadError(f"the mesh file '{path}' has a face naming a vertex it lacks")
    V.setflags(write=False)
    F.setflags(write=False)
    return TriangleMesh(V, F)


def _read_obj(path: str):
    from .mesh_io import read_obj
    obj = read_obj(path)
    return obj.vertices, obj.faces


def _read_with_trimesh(path: str, file_type: str, resolver=None):
    import trimesh
    loaded = trimesh.load(path, file_type=file_type, process=False, force="mesh",
                          resolver=resolver)
    return loaded.vertices, loaded.faces


def beside_resolver(path: str, anywhere: bool = False):
    """A trimesh resolver for the files a mesh names (glTF buffers and images,
    OBJ materials and textures): only regular files are read -- never a FIFO
    or a device, which would be read forever -- and, unless ``anywhere``,
    only those in the mesh's folder or below it (never ``../../etc/..``)."""
    from trimesh.resolvers import FilePathResolver

    class RegularFiles(FilePathResolver):
        def get(self, name: str) -> bytes:
            folder = Path(self.parent).resolve()
            target = (folder / name.strip()).resolve()
            if not anywhere and not target.is_relative_to(folder):
                raise MeshReadError(f"it names the file '{name}', outside its own folder "
                                    f"'{folder}'; only files beside it or below are read")
            problem = regular_file_problem(str(target))
            if problem is not None:
                raise MeshReadError(problem)
            return read_regular_file(str(target))

    return RegularFiles(path)


# A binary STL triangle: its normal, its three corners (little-endian
# float32) and two attribute bytes, after an 80-byte header and a uint32 count.
_STL_TRIANGLE = np.dtype([("normal", "<f4", (3,)), ("corners", "<f4", (3, 3)),
                          ("attributes", "<u2")])
_STL_HEADER_BYTES = 84


def _read_stl(path: str):
    """A binary STL's corners, three vertices per triangle in file order
    (what trimesh gives unprocessed); anything else is trimesh's to read."""
    data = read_regular_file(path)
    if len(data) >= _STL_HEADER_BYTES:
        count = int.from_bytes(data[80:84], "little")
        if len(data) - _STL_HEADER_BYTES == count * _STL_TRIANGLE.itemsize:
            triangles = np.frombuffer(data, dtype=_STL_TRIANGLE, offset=_STL_HEADER_BYTES)
            return (triangles["corners"].reshape(-1, 3),
                    np.arange(3 * count, dtype=np.int64).reshape(-1, 3))
    return _read_with_trimesh(path, "stl")  # ASCII (or not STL: trimesh says why)


def _read_ply(path: str):
    return _read_with_trimesh(path, "ply")


MSH_HEADER_BYTES = 16   # four int32 counts: vertices, normals, texcoords, faces


def read_msh_arrays(path: str) -> tuple[np.ndarray, np.ndarray]:
    """The float32 vertices and the triangles (possibly none) of a MuJoCo
    ``.msh`` file, checked as MuJoCo's compiler checks it: four little-endian
    int32 counts (vertices, normals, texture coordinates, faces), at least 4
    vertices, normals and texture coordinates either absent or one per
    vertex, then float32 vertices (3 each), normals (3), texture coordinates
    (2) and int32 faces (3 vertex indices each), and nothing more."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < MSH_HEADER_BYTES:
        raise MeshReadError(f"the MSH file has {len(data)} bytes, fewer than its 16-byte header "
                            "(four int32 counts)")
    nv, nn, nt, nf = (int(c) for c in np.frombuffer(data[:MSH_HEADER_BYTES], dtype="<i4"))
    counts = f"vertices {nv}, normals {nn}, texcoords {nt}, faces {nf}"
    if min(nv, nn, nt, nf) < 0:
        raise MeshReadError(f"the MSH header has a negative count ({counts})")
    if nv < 4 or nn not in (0, nv) or nt not in (0, nv):
        raise MeshReadError(f"the MSH header's counts are invalid ({counts}): MuJoCo wants at "
                            "least 4 vertices, and as many normals and texture coordinates as "
                            "vertices, or none")
    expected = MSH_HEADER_BYTES + 4 * (3 * nv + 3 * nn + 2 * nt + 3 * nf)
    if expected != len(data):
        raise MeshReadError(f"the MSH file has {len(data)} bytes but its header ({counts}) "
                            f"needs {expected}")
    V = np.frombuffer(data, dtype="<f4", count=3 * nv, offset=MSH_HEADER_BYTES).reshape(-1, 3)
    face_offset = MSH_HEADER_BYTES + 4 * (3 * nv + 3 * nn + 2 * nt)
    F = np.frombuffer(data, dtype="<i4", count=3 * nf, offset=face_offset).reshape(-1, 3)
    if len(F) and (F.min() < 0 or F.max() >= nv):
        bad = int(np.argmax((F < 0).any(axis=1) | (F >= nv).any(axis=1)))
        raise MeshReadError(f"face {bad} of the MSH file uses vertex index {F[bad].tolist()}, "
                            f"outside 0..{nv - 1}")
    return V.astype(np.float32), F.astype(np.int64)


def _read_msh(path: str):
    return read_msh_arrays(path)


# glTF is +y up; Drake (and this reader) turn it so +y becomes +z.
_Y_UP_TO_Z_UP = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
_X_UP_TO_Z_UP = np.array([[0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])


def _read_gltf(path: str):
    ext = os.path.splitext(path)[1].lower()
    V, F = _read_with_trimesh(path, ext[1:], beside_resolver(path))
    return np.asarray(V, dtype=float) @ _Y_UP_TO_Z_UP.T, F


def _dae_unbound_instances(doc) -> list:
    """(primitive, node transform) of each geometry a scene node places
    that pycollada left out of the scene (it drops an instance whose bound
    material is missing, where assimp, and so RViz and Gazebo, read the
    triangles): the geometry's own primitives and the node's matrix."""
    from collada import scene, tag
    out = []
    stack = [(node, np.eye(4)) for node in doc.scene.nodes]
    while stack:
        node, M = stack.pop()
        if not isinstance(node, scene.Node):
            continue
        M = M @ np.asarray(node.matrix, dtype=float)
        kept = {id(c.geometry) for c in node.children if isinstance(c, scene.GeometryNode)}
        xml = getattr(node, "xmlnode", None)
        for inst in (xml.findall(tag("instance_geometry")) if xml is not None else ()):
            geometry = doc.geometries.get(inst.get("url", "").lstrip("#"))
            if geometry is not None and id(geometry) not in kept:
                out.extend((p, M) for p in geometry.primitives)
        stack.extend((child, M) for child in node.children)
    return out


def _read_dae(path: str):
    import collada
    from collada import polylist, triangleset
    from collada.common import DaeBrokenRefError, DaeUnsupportedError
    doc = collada.Collada(path, ignore=[DaeUnsupportedError, DaeBrokenRefError])
    parts_V, parts_F, count = [], [], 0
    if doc.scene is not None:
        primitives = [(p, None) for g in doc.scene.objects("geometry") for p in g.primitives()]
        primitives += _dae_unbound_instances(doc)
    else:
        primitives = [(p, None) for g in doc.geometries for p in g.primitives]
    for prim, M in primitives:
        if isinstance(prim, (polylist.Polylist, polylist.BoundPolylist)):
            prim = prim.triangleset()
        if not isinstance(prim, (triangleset.TriangleSet, triangleset.BoundTriangleSet)):
            continue  # lines and points bound no solid
        V = np.asarray(prim.vertex, dtype=float).reshape(-1, 3)
        if M is not None:
            V = V @ M[:3, :3].T + M[:3, 3]
        F = np.asarray(prim.vertex_index, dtype=np.int64).reshape(-1, 3)
        if len(F) == 0:
            continue
        parts_V.append(V)
        parts_F.append(F + count)
        count += len(V)
    if not parts_F:
        raise MeshReadError(f"the Collada file '{path}' holds no triangle")
    V = np.concatenate(parts_V)
    unit = doc.assetInfo.unitmeter if doc.assetInfo is not None else None
    if unit:
        V = V * float(unit)
    up = str(getattr(doc.assetInfo, "upaxis", "") or "").upper()
    if up.startswith("Y"):
        V = V @ _Y_UP_TO_Z_UP.T
    elif up.startswith("X"):
        V = V @ _X_UP_TO_Z_UP.T
    return V, np.concatenate(parts_F)


_READERS = {".obj": _read_obj, ".stl": _read_stl, ".ply": _read_ply, ".gltf": _read_gltf,
            ".glb": _read_gltf, ".dae": _read_dae, ".msh": _read_msh}


def hull_degeneracy(V: np.ndarray) -> str | None:
    """Why no solid hull spans the points (MuJoCo's tests: one point, one
    line, one plane), or None."""
    V = np.asarray(V, dtype=np.float64).reshape(-1, 3)
    if len(V) < 4:
        return f"it has {len(V)} vertices, and a solid needs at least 4"
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
    """The triangles of the convex hull of the points (indices into ``V``),
    wound outward; raises MeshDegenerateError when they span no solid."""
    why = hull_degeneracy(V)
    if why is not None:
        raise MeshDegenerateError(f"its convex hull cannot be computed: {why}")
    try:
        from scipy.spatial import ConvexHull
    except ImportError as e:
        raise MeshError(f"computing a convex hull needs scipy, which cannot be imported ({e}); "
                        "reinstall mbparse with its dependencies") from None
    P = np.asarray(V, dtype=np.float64).reshape(-1, 3)
    try:
        hull = ConvexHull(P)
    except Exception as e:  # QhullError and friends
        raise MeshDegenerateError(f"its convex hull cannot be computed ({e})") from None
    F = np.asarray(hull.simplices, dtype=np.int64)
    a, b, c = P[F[:, 0]], P[F[:, 1]], P[F[:, 2]]
    inward = np.einsum("ij,ij->i", np.cross(b - a, c - a), hull.equations[:, :3]) < 0
    F[inward] = F[inward][:, [0, 2, 1]]
    return F


def shape_triangles(shape) -> TriangleMesh:
    """The triangles of a Mesh or Convex shape, scaled (the hull for a
    Convex); reads the file on first use."""
    from .shapes import Convex
    mesh = read_mesh(shape.filename).scaled(shape.scale)
    return mesh.convex_hull() if isinstance(shape, Convex) else mesh
