"""MJCF mesh assets beyond OBJ: STL files (read with the optional trimesh),
with the mass properties MuJoCo's compiler gives them; the comparison of
every test model with MuJoCo is in test_mjcf_mujoco_agreement.py."""
from __future__ import annotations

import shutil
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import line_of, new_parser, parse_file
from mbparse import ParseError
from mbparse.formats.mjcf.mesh_data import merge_bitwise

DATA = Path(__file__).parent / "data" / "mjcf"
MESHES = DATA / "meshes"
TETRA = [((0, 0, 0), (0, 1, 0), (1, 0, 0)), ((0, 0, 0), (1, 0, 0), (0, 0, 1)),
         ((0, 0, 0), (0, 0, 1), (0, 1, 0)), ((1, 0, 0), (0, 1, 0), (0, 0, 1))]


def binary_stl(path: Path, triangles) -> Path:
    with open(path, "wb") as f:
        f.write(b"test".ljust(80, b" ") + struct.pack("<I", len(triangles)))
        for t in triangles:
            f.write(struct.pack("<12f", 0, 0, 0, *[c for v in t for c in v]) + b"\0\0")
    return path


def one_mesh_model(file: str, mesh_attrs: str = "") -> str:
    return (f'<mujoco model="m">\n<asset>\n<mesh name="m" file="{file}" {mesh_attrs}/>\n'
            '</asset>\n<worldbody>\n<body name="b">\n<freejoint/>\n'
            '<geom type="mesh" mesh="m"/>\n</body>\n</worldbody>\n</mujoco>\n')


def body_mass_properties(path) -> tuple:
    parsed = parse_file(path)
    M = parsed.plant.get_body_by_name("b", parsed.instance).default_spatial_inertia
    return M.mass, M.com, M.I_cm, parsed.warnings


def test_mjcf_ascii_stl_means_the_same_as_binary_and_warns_that_mujoco_refuses_it(tmp_path):
    for name in ("l_bracket.stl", "l_bracket_ascii.stl"):
        shutil.copy(MESHES / name, tmp_path / name)
    (tmp_path / "bin.xml").write_text(one_mesh_model("l_bracket.stl"))
    (tmp_path / "ascii.xml").write_text(one_mesh_model("l_bracket_ascii.stl"))
    mass, com, I, warnings = body_mass_properties(tmp_path / "bin.xml")
    mass2, com2, I2, warnings2 = body_mass_properties(tmp_path / "ascii.xml")
    assert mass > 0 and all("[Drake refuses this;" in w for w in warnings), warnings
    assert np.allclose([mass, *com, *I], [mass2, *com2, *I2], rtol=1e-12, atol=1e-15)
    assert any("MuJoCo itself would refuse" in w for w in warnings2), warnings2


def test_mjcf_stl_mass_matches_mujoco_for_a_tetrahedron(tmp_path):
    mujoco = pytest.importorskip("mujoco")
    binary_stl(tmp_path / "t.stl", TETRA)
    path = tmp_path / "t.xml"
    path.write_text(one_mesh_model("t.stl", 'scale="0.3 0.2 0.1"'))
    m = mujoco.MjModel.from_xml_path(str(path))
    mass, com, _, _ = body_mass_properties(path)
    assert mass == pytest.approx(m.body_mass[1], rel=1e-9)
    assert np.allclose(com, m.body_ipos[1], atol=1e-12)


def ascii_stl(path: Path, triangles) -> Path:
    lines = ["solid t"]
    for t in triangles:
        lines += ["facet normal 0 0 0", "outer loop", *(f"vertex {x} {y} {z}" for x, y, z in t),
                  "endloop", "endfacet"]
    path.write_text("\n".join(lines + ["endsolid t", ""]))
    return path


def test_mjcf_ascii_stl_with_a_broken_trimesh_install_is_a_located_error_naming_it(
        tmp_path, monkeypatch):
    ascii_stl(tmp_path / "t.stl", TETRA)
    text = one_mesh_model("t.stl")
    path = tmp_path / "t.xml"
    path.write_text(text)
    monkeypatch.setitem(sys.modules, "trimesh", None)  # importing it now fails
    with pytest.raises(ParseError) as info:
        new_parser().add_models(path)
    message = str(info.value)
    assert f"{path}:{line_of(text, '<mesh')}:" in message, message
    assert "trimesh" in message, message


def test_mjcf_binary_stl_needs_no_trimesh(tmp_path, monkeypatch):
    binary_stl(tmp_path / "t.stl", TETRA)
    path = tmp_path / "t.xml"
    path.write_text(one_mesh_model("t.stl"))
    monkeypatch.setitem(sys.modules, "trimesh", None)  # importing it now fails
    new_parser().add_models(path)


def test_mjcf_stl_with_inconsistent_winding_refuses_exact_inertia_as_mujoco_does(tmp_path):
    flipped = TETRA[:3] + [(TETRA[3][0], TETRA[3][2], TETRA[3][1])]
    binary_stl(tmp_path / "t.stl", flipped)
    path = tmp_path / "t.xml"
    path.write_text(one_mesh_model("t.stl", 'inertia="exact"'))
    with pytest.raises(ParseError, match="wound inconsistently"):
        new_parser().add_models(path)
    mujoco = pytest.importorskip("mujoco")
    with pytest.raises(ValueError, match="inconsistent orientation"):
        mujoco.MjModel.from_xml_path(str(path))


def test_mjcf_unreadable_stl_is_a_located_error(write):
    text = one_mesh_model("bad.stl")
    write("bad.stl", "this is no mesh at all\n")
    path = write("bad.xml", text)
    with pytest.raises(ParseError) as info:
        new_parser().add_models(path)
    assert f"{path}:{line_of(text, '<mesh')}:" in str(info.value)


def test_mjcf_mesh_files_other_than_obj_stl_and_msh_are_an_error(write):
    write("m.ply", "ply\n")
    text = one_mesh_model("m.ply")
    path = write("ply.xml", text)
    with pytest.raises(ParseError, match="not an OBJ, STL or MSH"):
        new_parser().add_models(path)


def test_stl_vertices_merge_by_their_bits_so_zero_and_minus_zero_stay_apart():
    V = np.array([[0, 0, 0], [1, 0, 0], [0.0, -0.0, 0], [1, 0, 0]], dtype=np.float32)
    merged, faces = merge_bitwise(V, np.array([[0, 1, 2], [2, 3, 0]]))
    assert len(merged) == 3
    assert faces.tolist() == [[0, 1, 2], [2, 1, 0]]


def test_stl_vertex_merging_is_first_seen_order_on_many_repeated_vertices():
    # The rule MuJoCo's reader follows, written plainly: each distinct bit
    # pattern gets the next number the first time it is seen.
    rng = np.random.default_rng(7)
    distinct = rng.normal(size=(500, 3)).astype(np.float32)
    distinct[:2] = [[0.0, -0.0, 1.0], [-0.0, 0.0, 1.0]]
    V = distinct[rng.integers(0, len(distinct), size=6000)]
    F = rng.integers(0, len(V), size=(2000, 3))
    numbers: dict[bytes, int] = {}
    for row in V:
        numbers.setdefault(row.tobytes(), len(numbers))
    merged, faces = merge_bitwise(V, F)
    assert [row.tobytes() for row in merged] == list(numbers)
    assert faces.tolist() == [[numbers[V[i].tobytes()] for i in face] for face in F]


def test_mjcf_mesh_file_is_read_once_per_process_and_again_when_it_changes(tmp_path):
    stl = binary_stl(tmp_path / "m.stl", TETRA)
    path = tmp_path / "m.xml"
    path.write_text(one_mesh_model("m.stl"))
    mass, *_ = body_mass_properties(path)
    from mbparse.formats.mjcf.mesh_data import read_file
    assert read_file(str(stl)) is read_file(str(stl))  # (one reading, shared)
    assert not read_file(str(stl)).vertices.flags.writeable
    binary_stl(stl, [tuple(tuple(2 * c for c in v) for v in t) for t in TETRA])
    import os
    os.utime(stl, ns=(0, 10**18))  # (another modification time, whatever the clock)
    assert body_mass_properties(path)[0] == pytest.approx(8 * mass)


def test_mjcf_mesh_file_mass_properties_are_computed_once_per_file_mode_and_scale(
        tmp_path, monkeypatch):
    from mbparse.formats.mjcf import assets
    computed = []

    def counted(*args):
        computed.append(args[2:])
        return mesh_properties(*args)
    mesh_properties = assets.mesh_properties
    monkeypatch.setattr(assets, "mesh_properties", counted)
    binary_stl(tmp_path / "m.stl", TETRA)
    path = tmp_path / "m.xml"
    path.write_text(one_mesh_model("m.stl"))
    first = body_mass_properties(path)
    assert body_mass_properties(path) == first  # (the second load asks the cache)
    assert computed == [("legacy", (1.0, 1.0, 1.0))]
    path.write_text(one_mesh_model("m.stl", 'scale="2 2 2"'))
    assert body_mass_properties(path)[0] == pytest.approx(8 * first[0])
    path.write_text(one_mesh_model("m.stl", 'inertia="shell"'))
    body_mass_properties(path)
    assert computed[1:] == [("legacy", (2.0, 2.0, 2.0)), ("shell", (1.0, 1.0, 1.0))]


def test_mjcf_mesh_file_convex_hull_is_found_once_and_again_when_the_file_changes(
        tmp_path, monkeypatch):
    from mbparse.geometry import meshes
    hulls = []

    def counted(V):
        hulls.append(len(V))
        return convex_hull(V)
    convex_hull = meshes.convex_hull
    monkeypatch.setattr(meshes, "convex_hull", counted)
    stl = binary_stl(tmp_path / "m.stl", TETRA)
    path = tmp_path / "m.xml"
    path.write_text(one_mesh_model("m.stl", 'inertia="convex"'))
    first = body_mass_properties(path)
    assert body_mass_properties(path) == first and hulls == [4]
    binary_stl(stl, [tuple(tuple(2 * c for c in v) for v in t) for t in TETRA])
    import os
    os.utime(stl, ns=(0, 10**18))  # (another modification time, whatever the clock)
    assert body_mass_properties(path)[0] == pytest.approx(8 * first[0])
    assert hulls == [4, 4]


# ------------------------------------------------------------ convex hulls
def inline_model(mesh_attrs: str, geom_attrs: str = "") -> str:
    return (f'<mujoco model="m">\n<asset>\n<mesh name="m" {mesh_attrs}/>\n</asset>\n'
            '<worldbody>\n<body name="b">\n<freejoint/>\n'
            f'<geom type="mesh" mesh="m" {geom_attrs}/>\n</body>\n</worldbody>\n</mujoco>\n')


@pytest.mark.parametrize("model", ["own_hull.xml", "own_stl.xml"])
def test_mjcf_mesh_inertias_match_mujoco_relatively_even_when_tiny(model):
    """The agreement test's tolerance is absolute below 1; the cubelets'
    inertias are about 1e-7, so compare them relatively here."""
    mujoco = pytest.importorskip("mujoco")
    m = mujoco.MjModel.from_xml_path(str(DATA / model))
    parsed = parse_file(DATA / model)
    for i in range(1, m.nbody):
        M = parsed.plant.get_body_by_name(m.body(i).name, parsed.instance).default_spatial_inertia
        R = np.zeros(9)
        mujoco.mju_quat2Mat(R, m.body_iquat[i])
        R = R.reshape(3, 3)
        want = R @ np.diag(m.body_inertia[i]) @ R.T
        ixx, iyy, izz, ixy, ixz, iyz = M.I_cm
        have = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        assert M.mass == pytest.approx(m.body_mass[i], rel=1e-9)
        assert np.max(np.abs(have - want)) <= 1e-6 * np.max(np.abs(want)), m.body(i).name


def test_mjcf_mesh_given_by_vertices_counts_its_hull_mass_and_warns_it_has_no_shape(write):
    text = inline_model('vertex="0 0 0  1 0 0  0 1 0  0 0 1  0.1 0.1 0.1"', 'density="6"')
    parsed = parse_file(write("v.xml", text))
    M = parsed.plant.get_body_by_name("b", parsed.instance).default_spatial_inertia
    assert M.mass == pytest.approx(1.0)  # the hull is the unit corner tetrahedron: 1/6
    assert np.allclose(M.com, 0.25)
    assert list(parsed.geometries()) == []
    assert any("no shape can hold" in w for w in parsed.warnings), parsed.warnings


def test_mjcf_obj_file_of_points_is_registered_as_its_convex_hull():
    parsed = parse_file(DATA / "own_hull.xml")
    shapes = [g.shape for g in parsed.geometries()
              if "point_cloud" in getattr(g.shape, "filename", "")]
    assert shapes and all(type(s).__name__ == "Convex" for s in shapes)
    assert not any("convex" in w and "not supported" in w for w in parsed.warnings)


def test_mjcf_mesh_of_coplanar_vertices_is_a_located_error_as_in_mujoco(write):
    text = inline_model('vertex="0 0 0  1 0 0  0 1 0  1 1 0"')
    path = write("flat.xml", text)
    with pytest.raises(ParseError) as info:
        new_parser().add_models(path)
    assert f"{path}:{line_of(text, '<mesh')}:" in str(info.value)
    assert "one plane" in str(info.value)
    mujoco = pytest.importorskip("mujoco")
    with pytest.raises(ValueError, match="coplanar"):
        mujoco.MjModel.from_xml_path(str(path))


def test_mjcf_hull_with_a_broken_scipy_install_is_a_located_error_naming_it(
        write, monkeypatch):
    text = inline_model('vertex="0 0 0  1 0 0  0 1 0  0 0 1"')
    path = write("v.xml", text)
    monkeypatch.setitem(sys.modules, "scipy.spatial", None)
    with pytest.raises(ParseError) as info:
        new_parser().add_models(path)
    assert f"{path}:{line_of(text, '<mesh')}:" in str(info.value)
    assert "scipy" in str(info.value)


@pytest.mark.parametrize("attrs, needle, words", [
    ('vertex="0 0 0  1 0 0  0 1 0  0 0 1" face="0 1 4"', 'face=', "vertex 4"),
    ('vertex="0 0 0  1 0 0  0 1 0  0 0 1" face="0 1"', 'face=', "three"),
    ('file="x.obj" vertex="0 0 0  1 0 0  0 1 0  0 0 1"', 'vertex=', "file"),
])
def test_mjcf_bad_mesh_vertices_or_faces_are_located_errors(write, attrs, needle, words):
    write("x.obj", "v 0 0 0\n")
    text = inline_model(attrs)
    path = write("bad.xml", text)
    with pytest.raises(ParseError) as info:
        new_parser().add_models(path)
    assert f"{path}:{line_of(text, needle)}:" in str(info.value)
    assert words in str(info.value)
