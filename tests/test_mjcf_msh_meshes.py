"""MuJoCo's binary .msh mesh files: read for mass and inertia, and a file
whose size, counts or face indices are wrong is a located error."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mbparse.diagnostics import ParseError
from mbparse.formats.mjcf.mesh_data import MeshDataError, read_msh
from mbparse.geometry import SceneGraph
from mbparse.parser import Parser
from mbparse.plant import MultibodyPlant

CUBE_V = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)],
                  dtype="<f4")
CUBE_F = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                   [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]], dtype="<i4")


def write_msh(path: Path, counts=(8, 0, 0, 12), V=CUBE_V, F=CUBE_F, extra=b"") -> Path:
    path.write_bytes(np.array(counts, dtype="<i4").tobytes() + V.tobytes() + F.tobytes() + extra)
    return path


def load(tmp_path: Path, msh: str = "cube.msh"):
    xml = tmp_path / "m.xml"
    xml.write_text(f"""<mujoco model="m"><asset><mesh name="c" file="{msh}"/></asset>
<worldbody><body name="b"><freejoint/><geom type="mesh" mesh="c" density="1000"/></body>
</worldbody></mujoco>""")
    plant = MultibodyPlant(0.0)
    Parser(plant, SceneGraph()).add_models(str(xml))
    plant.finalize()
    return plant


def test_msh_cube_gives_the_unit_cube_mass(tmp_path):
    write_msh(tmp_path / "cube.msh")
    plant = load(tmp_path)
    M = next(b for b in plant.bodies() if b.name == "b").default_spatial_inertia
    assert M.mass == pytest.approx(1000.0)
    assert np.allclose(M.com, (0.5, 0.5, 0.5))


def test_msh_normals_and_texcoords_are_skipped(tmp_path):
    normals = np.zeros((8, 3), dtype="<f4")
    uv = np.zeros((8, 2), dtype="<f4")
    path = tmp_path / "cube.msh"
    path.write_bytes(np.array((8, 8, 8, 12), dtype="<i4").tobytes() + CUBE_V.tobytes()
                     + normals.tobytes() + uv.tobytes() + CUBE_F.tobytes())
    data = read_msh(str(path))
    assert np.array_equal(data.vertices, CUBE_V) and np.array_equal(data.faces, CUBE_F)


@pytest.mark.parametrize("counts, extra, words", [
    ((8, 0, 0, 12), b"\0\0\0\0", "needs"),          # one int too many
    ((8, 0, 0, 13), b"", "needs"),                  # header promises more faces
    ((8, -1, 0, 12), b"", "negative"),
])
def test_msh_wrong_size_or_counts_is_an_error(tmp_path, counts, extra, words):
    path = write_msh(tmp_path / "bad.msh", counts, extra=extra)
    with pytest.raises(MeshDataError, match=words):
        read_msh(str(path))


def test_msh_shorter_than_its_header_is_an_error(tmp_path):
    path = tmp_path / "short.msh"
    path.write_bytes(b"\1\0\0\0")
    with pytest.raises(MeshDataError, match="header"):
        read_msh(str(path))


def test_msh_face_index_out_of_range_is_a_located_error(tmp_path):
    F = CUBE_F.copy()
    F[3, 1] = 8
    write_msh(tmp_path / "cube.msh", F=F)
    with pytest.raises(ParseError) as e:
        load(tmp_path)
    d = e.value.diagnostic
    assert d.file.endswith("m.xml") and d.line == 1
    assert "face 3" in d.message and "cube.msh" not in (d.element or "") and d.code == "mesh-unreadable"


def test_msh_is_refused_in_drake_mode_and_read_otherwise(tmp_path):
    write_msh(tmp_path / "cube.msh")
    xml = tmp_path / "m.xml"
    load(tmp_path)      # writes m.xml; default mode reads the .msh
    plant = MultibodyPlant(0.0)
    parser = Parser(plant, SceneGraph())
    parser.set_like_drake()
    with pytest.raises(ParseError, match=r"only supports mesh files in \.obj format") as e:
        parser.add_models(str(xml))
    assert e.value.diagnostic.line == 1
