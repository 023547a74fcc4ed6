"""The vertices and triangles of an MJCF mesh asset as MuJoCo's compiler
gets them: OBJ files (faces or only vertices), STL files (binary, as
MuJoCo reads them; ASCII too, with a note, since MuJoCo refuses those) and
MuJoCo's own binary MSH files.
Meshes without faces get their convex hull (``geometry.meshes``).

The triangles come from the project's one mesh reader
(``geometry.meshes``); this module adds what MuJoCo does with them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...files import regular_file_problem

STL_MAX_FACES = 200000   # MuJoCo's STL reader refuses more
STL_MAX_COORDINATE = 2.0 ** 30


class MeshDataError(ValueError):
    """A mesh whose vertices or faces cannot be had."""


@dataclass(frozen=True)
class MeshData:
    """Vertices (float32 values, as MuJoCo stores them) and triangles; a
    note when the file is one MuJoCo itself would not read."""

    vertices: np.ndarray
    faces: np.ndarray
    note: str | None = None


def merge_bitwise(vertices: np.ndarray, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vertices with the same bits (as float32) made one, as MuJoCo's STL
    reader does (so 0.0 and -0.0 stay apart), keeping first-seen order."""
    V = np.ascontiguousarray(np.asarray(vertices, dtype=np.float32).reshape(-1, 3))
    n = len(V)
    if n == 0:  # (a face then names a vertex there is not: IndexError, as before)
        return V, np.arange(0)[np.asarray(faces)]
    # Each vertex's 96 bits as two integer keys, sorted with lexsort (stable:
    # a run of equal vertices starts at its first-seen one). np.unique(axis=0)
    # gives the same groups but sorts rows as structured values, ten times slower.
    bits = V.view(np.uint32).astype(np.uint64)
    high = (bits[:, 0] << np.uint64(32)) | bits[:, 1]
    low = bits[:, 2]
    order = np.lexsort((low, high))
    high, low = high[order], low[order]
    starts = np.empty(n, dtype=bool)
    starts[0] = True
    np.not_equal(high[1:], high[:-1], out=starts[1:])
    starts[1:] |= low[1:] != low[:-1]
    inverse = np.empty(n, dtype=np.intp)
    inverse[order] = np.cumsum(starts) - 1    # each vertex's group
    first = order[starts]                     # each group's first-seen vertex
    by_first = np.argsort(first)              # groups in first-seen order
    rank = np.empty_like(by_first)
    rank[by_first] = np.arange(len(by_first))
    return V[first[by_first]], rank[inverse][np.asarray(faces)]


def read_stl(path: str) -> MeshData:
    """An STL file (binary or ASCII), its vertices merged as MuJoCo merges
    them."""
    problem = regular_file_problem(path)
    if problem is not None:
        raise MeshDataError(problem)
    with open(path, "rb") as f:
        data = f.read(84)
    size = os.path.getsize(path)
    count = int.from_bytes(data[80:84], "little") if len(data) >= 84 else 0
    # MuJoCo's own reader takes binary files of 1 to 200000 triangles only.
    mujoco_reads = 1 <= count <= STL_MAX_FACES and 84 + 50 * count == size
    from ...geometry.meshes import MeshReadError, read_mesh
    try:
        loaded = read_mesh(path)
    except MeshReadError as e:
        raise MeshDataError(str(e)) from None
    V, F = np.asarray(loaded.vertices), np.asarray(loaded.faces)
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


def read_msh(path: str) -> MeshData:
    """MuJoCo's own binary mesh file (``geometry.meshes.read_msh_arrays``
    reads and checks it): its float32 vertices and its triangles, none when
    it lists only vertices (MuJoCo then meshes their convex hull)."""
    problem = regular_file_problem(path)
    if problem is not None:
        raise MeshDataError(problem)
    from ...geometry.meshes import MeshReadError, read_msh_arrays
    try:
        V, F = read_msh_arrays(path)
    except MeshReadError as e:
        raise MeshDataError(str(e)) from None
    return MeshData(V, F)


def read_file(path: str) -> MeshData:
    """The mesh in an OBJ, STL or MSH file; raises MeshDataError (or ObjError),
    also for a file larger than a model file may be. Each file is read once
    per process, as ``geometry.meshes`` reads its files (a cache keyed on
    its path, size and modification time, and the size limits): a model
    loaded again, or robots sharing meshes, do not read and merge them
    again. The arrays handed out are read-only."""
    from ...limits import current_limits
    limits = current_limits()
    try:
        st = os.stat(path)
    except OSError:
        return _read_file(path, 0, limits)  # (each reader says why it cannot read the file)
    return _read_file_cached(os.path.abspath(path), st.st_size, st.st_mtime_ns, limits)


@lru_cache(maxsize=256)
def _read_file_cached(path: str, size: int, mtime: int, limits) -> MeshData:
    data = _read_file(path, size, limits)
    data.vertices.setflags(write=False)
    data.faces.setflags(write=False)
    return data


def _read_file(path: str, size: int, limits) -> MeshData:
    """The mesh of a file of ``size`` bytes, read under ``limits``."""
    from ...limits import raise_hint
    most = limits.max_file_bytes
    if most and size > most:
        raise MeshDataError(f"the mesh file is {size:,} bytes, more than the {most:,} bytes "
                            f"mbparse reads of a mesh; {raise_hint('max_file_bytes')}")
    ext = os.path.splitext(path)[1].lower()
    if ext == ".msh":
        return read_msh(path)
    if ext == ".stl":
        return read_stl(path)
    if ext == ".obj":
        return read_obj_data(path)
    raise MeshDataError(f"'{ext or path}' files cannot be read; meshes must be OBJ, STL or MSH")


def check_vertices(V: np.ndarray) -> None:
    """MuJoCo's first checks of a mesh's vertices."""
    if len(V) < 4:
        raise MeshDataError(f"a mesh needs at least 4 vertices; this one has {len(V)}")
    if not np.isfinite(V).all():
        raise MeshDataError("a vertex coordinate is not finite")
