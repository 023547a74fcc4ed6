"""The vertices and triangles of an MJCF mesh asset as MuJoCo's compiler
gets them: OBJ files (faces or only vertices) and STL files (binary, as
MuJoCo reads them; ASCII too, with a note, since MuJoCo refuses those).
Meshes without faces get their convex hull's (``hull.py``).

STL files are read with trimesh, an optional dependency (the ``mesh``
extra) imported only when a model has an STL mesh.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ...files import read_regular_file

INSTALL_HINT = "pip install 'mbparse[mesh]'"
MINVAL = 1e-15           # MuJoCo's mjMINVAL
STL_MAX_FACES = 200000   # MuJoCo's STL reader refuses more
STL_MAX_COORDINATE = 2.0 ** 30


class MeshDataError(ValueError):
    """A mesh whose vertices or faces cannot be had."""


@dataclass
class MeshData:
    """Vertices (float32 values, as MuJoCo stores them) and triangles; a
    note when the file is one MuJoCo itself would not read."""

    vertices: np.ndarray
    faces: np.ndarray
    note: str | None = None


def optional(module: str, purpose: str):
    """Imports an optional dependency, or says how to install it."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError:
        package = module.split(".")[0]
        raise MeshDataError(f"{purpose} needs the optional package '{package}', which is not "
                            f"installed; install it with: {INSTALL_HINT}") from None


def merge_bitwise(vertices: np.ndarray, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vertices with the same bits (as float32) made one, as MuJoCo's STL
    reader does (so 0.0 and -0.0 stay apart), keeping first-seen order."""
    V = np.ascontiguousarray(np.asarray(vertices, dtype=np.float32).reshape(-1, 3))
    keys = V.view(np.int32)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)                 # unique rows in first-seen order
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return V[first[order]], rank[np.asarray(inverse).reshape(-1)][np.asarray(faces)]


def read_stl(path: str) -> MeshData:
    """An STL file (binary or ASCII) read with trimesh, its vertices merged
    as MuJoCo merges them."""
    data = read_regular_file(path)
    count = int.from_bytes(data[80:84], "little") if len(data) >= 84 else 0
    # MuJoCo's own reader takes binary files of 1 to 200000 triangles only.
    mujoco_reads = 1 <= count <= STL_MAX_FACES and 84 + 50 * count == len(data)
    trimesh = optional("trimesh", "reading an STL mesh")
    import io
    try:
        loaded = trimesh.load_mesh(io.BytesIO(data), file_type="stl", process=False)
    except Exception as e:  # trimesh raises many kinds on bad data
        raise MeshDataError(f"it is not a readable STL file ({e})") from None
    V = np.asarray(getattr(loaded, "vertices", ()), dtype=np.float64).reshape(-1, 3)
    F = np.asarray(getattr(loaded, "faces", ()), dtype=np.int64).reshape(-1, 3)
    if len(F) == 0:
        raise MeshDataError("the STL file holds no triangle")
    if not np.isfinite(V).all() or np.abs(V).max() > STL_MAX_COORDINATE:
        raise MeshDataError("a vertex of the STL file is not finite or is larger than 2^30")
    note = None
    if not mujoco_reads:
        note = ("MuJoCo itself would refuse this STL file (it reads binary STL files of 1 to "
                f"{STL_MAX_FACES} triangles only, and this one is ASCII or larger); it is "
                "read anyway")
    V, F = merge_bitwise(V, F)
    return MeshData(V, F, note)


def read_obj_data(path: str) -> MeshData:
    """An OBJ file's vertices and triangles (none when it only lists
    vertices: MuJoCo then meshes their convex hull)."""
    from ...geometry.mesh_io import read_obj
    obj = read_obj(path, allow_no_faces=True)
    V = np.asarray(obj.vertices, dtype=np.float32).reshape(-1, 3)
    F = np.asarray(obj.faces, dtype=np.int64).reshape(-1, 3)
    return MeshData(V, F)


def read_file(path: str) -> MeshData:
    """The mesh in an OBJ or STL file; raises MeshDataError (or ObjError)."""
    ext = os.path.splitext(path)[1].lower()
    if ext == ".stl":
        return read_stl(path)
    if ext == ".obj":
        return read_obj_data(path)
    raise MeshDataError(f"'{ext or path}' files cannot be read; meshes must be OBJ or STL")


def check_vertices(V: np.ndarray) -> None:
    """MuJoCo's first checks of a mesh's vertices."""
    if len(V) < 4:
        raise MeshDataError(f"a mesh needs at least 4 vertices; this one has {len(V)}")
    if not np.isfinite(V).all():
        raise MeshDataError("a vertex coordinate is not finite")
