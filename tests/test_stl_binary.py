"""Binary STL, the mesh format of nearly every robot, is read without
importing trimesh (some 0.4 s and 50,000 objects): the same vertices and
triangles trimesh gives, and ASCII STL still read by trimesh."""
from __future__ import annotations

import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mbparse.geometry import meshes

DATA = Path(__file__).parent / "data" / "mjcf"


def _binary_stl(path: Path, triangles, header: bytes = b"mbparse test") -> Path:
    out = header.ljust(80, b" ") + struct.pack("<I", len(triangles))
    for k, tri in enumerate(triangles):
        out += struct.pack("<3f", 0.0, 0.0, 1.0)
        out += struct.pack("<9f", *(c for corner in tri for c in corner))
        out += struct.pack("<H", k)
    path.write_bytes(out)
    return path


def _same_as_trimesh(path: Path) -> None:
    mine = meshes._read_stl(str(path))
    theirs = meshes._read_with_trimesh(str(path), "stl")
    for a, b, dtype in ((mine[0], theirs[0], np.float64), (mine[1], theirs[1], np.int64)):
        a = np.asarray(a, dtype=dtype).reshape(-1, 3)
        b = np.asarray(b, dtype=dtype).reshape(-1, 3)
        assert a.shape == b.shape and np.array_equal(a, b)


@pytest.mark.parametrize("name", ["l_bracket.stl", "l_bracket_ascii.stl"])
def test_stl_files_read_as_trimesh_reads_them(name):
    _same_as_trimesh(DATA / "meshes" / name)


def test_a_binary_stl_whose_header_says_solid(tmp_path):
    # (a binary file may begin with "solid": its length decides, as in trimesh)
    tris = [((0, 0, 0), (1, 0, 0), (0, 1, 0)), ((0, 0, 0), (0, 1, 0), (0, 0, 1.5)),
            ((1e-7, -3.25, 2.0), (4.0, 5.0, 6.0), (7.0, 8.0, 9.0))]
    path = _binary_stl(tmp_path / "s.stl", tris, header=b"solid but binary")
    _same_as_trimesh(path)
    V, F = meshes._read_stl(str(path))
    assert np.asarray(V).shape == (9, 3) and F.tolist() == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_a_binary_stl_with_no_triangle_is_refused(tmp_path):
    path = _binary_stl(tmp_path / "empty.stl", [])
    with pytest.raises(meshes.MeshReadError, match="holds no triangle"):
        meshes.read_mesh(str(path))


def test_a_truncated_binary_stl_goes_to_trimesh(tmp_path):
    path = _binary_stl(tmp_path / "cut.stl", [((0, 0, 0), (1, 0, 0), (0, 1, 0))] * 4)
    path.write_bytes(path.read_bytes()[:-7])
    with pytest.raises(meshes.MeshReadError):  # (trimesh finds it neither binary nor ASCII)
        meshes.read_mesh(str(path))


def test_a_robot_of_binary_stl_meshes_is_read_without_trimesh():
    script = textwrap.dedent(f"""
        import sys
        from mbparse import MultibodyPlant, Parser, SceneGraph
        plant = MultibodyPlant(0.0)
        Parser(plant, SceneGraph()).add_models({str(DATA / "own_stl.xml")!r})
        plant.finalize()
        print(plant.num_bodies() > 1, "trimesh" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "False"]
