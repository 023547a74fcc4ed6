"""MJCF that MuJoCo compiles but Drake refuses for limits of its own: MuJoCo's
binary .msh meshes (and STL meshes), and a model without a name. The default
mode reads them as MuJoCo does, with a warning that Drake refuses them;
Drake's mode refuses them as Drake does."""
from __future__ import annotations

import struct

import numpy as np
import pytest

from mbparse import ParseError
from mbparse.geometry.meshes import read_mesh

from conftest import line_of, parse_file

TET_V = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
TET_F = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]


def write_msh(path, vertices, faces, normals: bool = False) -> None:
    """A MuJoCo .msh file: four int32 counts, float32 vertices (and normals),
    int32 faces."""
    V = np.asarray(vertices, dtype="<f4")
    F = np.asarray(faces, dtype="<i4").reshape(-1, 3)
    with open(path, "wb") as f:
        f.write(struct.pack("<4i", len(V), len(V) if normals else 0, 0, len(F)))
        f.write(V.tobytes())
        if normals:
            f.write(np.ones_like(V).tobytes())
        f.write(F.tobytes())


def model(mesh_file: str, name: str = ' model="m"', extra: str = "") -> str:
    return (f"<mujoco{name}>\n"
            f'  <asset><mesh name="shape" file="{mesh_file}" {extra}/></asset>\n'
            '  <worldbody><body name="b" pos="0 0 1"><freejoint/>\n'
            '    <geom type="mesh" mesh="shape" density="1000"/></body></worldbody>\n'
            "</mujoco>\n")


def test_msh_files_are_read_as_triangles_by_the_one_mesh_reader(tmp_path):
    path = tmp_path / "tet.msh"
    write_msh(path, TET_V, TET_F, normals=True)
    mesh = read_mesh(str(path))
    assert mesh.vertices.tolist() == [list(map(float, v)) for v in TET_V]
    assert mesh.faces.tolist() == [list(f) for f in TET_F]


def test_an_msh_mesh_in_mjcf_has_mujocos_mass_with_a_drake_refuses_warning(tmp_path):
    mujoco_test = pytest.importorskip("test_mjcf_mujoco_agreement")
    write_msh(tmp_path / "tet.msh", TET_V, TET_F)
    xml = tmp_path / "msh_model.xml"
    xml.write_text(model("tet.msh"))
    assert mujoco_test.differences(xml) == []
    parsed = parse_file(xml)
    body = parsed.plant.get_body_by_name("b")
    assert body.default_spatial_inertia.mass == pytest.approx(1000 / 6)
    (diag,) = [d for d in parsed.parser.diagnostic_policy().warnings_seen
               if d.code == "drake-refuses"]
    assert "only supports mesh files in .obj format" in diag.message
    assert (diag.file, diag.line) == (str(xml), line_of(model("tet.msh"), "<mesh"))


def test_an_msh_file_of_vertices_only_is_measured_by_its_hull_as_mujoco_does(tmp_path):
    mujoco_test = pytest.importorskip("test_mjcf_mujoco_agreement")
    cube = [(x, y, z) for x in (0, 2) for y in (0, 1) for z in (0, 1)] + [(1, 0.5, 0.5)]
    write_msh(tmp_path / "cube.msh", cube, [])
    xml = tmp_path / "cube.xml"
    xml.write_text(model("cube.msh", extra='scale="1 1 0.5"'))
    assert mujoco_test.differences(xml) == []
    mass = parse_file(xml).plant.get_body_by_name("b").default_spatial_inertia.mass
    assert mass == pytest.approx(1000.0)


def test_an_unnamed_model_takes_the_file_stem_by_default_and_drake_mode_refuses(tmp_path):
    xml = tmp_path / "my_robot.xml"
    xml.write_text('<mujoco>\n  <worldbody><body name="b"><freejoint/>'
                   '<geom type="sphere" size="0.1"/></body></worldbody>\n</mujoco>\n')
    parsed = parse_file(xml)
    assert parsed.plant.get_model_instance_name(parsed.instance) == "my_robot"
    assert any("has no name" in w and "Drake refuses this" in w for w in parsed.warnings)
    with pytest.raises(ParseError, match="has no name") as info:
        parse_file(xml, like_drake=True)
    assert f"{xml}:1:" in str(info.value)
