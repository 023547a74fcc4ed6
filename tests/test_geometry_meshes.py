"""The one mesh reader: every format robots ship read into the same
triangles (STL binary and ASCII, Collada with its unit and up axis, glTF and
GLB turned from +y up, OBJ, PLY), scaled, convex hulls, mass properties,
and located refusals for what cannot be read or measured."""
from __future__ import annotations

import numpy as np
import pytest

from mbparse.geometry import Convex, Mesh
from mbparse.geometry.mesh_io import MeshVolumeError
from mbparse.geometry.meshes import (MeshDegenerateError, MeshReadError, read_mesh,
                                     shape_triangles)

trimesh = pytest.importorskip("trimesh")

# A 1 × 2 × 3 box whose centre is at z = 5 (so an axis turn shows).
EXTENTS = (1.0, 2.0, 3.0)


def box():
    b = trimesh.creation.box(extents=EXTENTS)
    b.apply_translation((0.0, 0.0, 5.0))
    return b


def bounds(mesh):
    return mesh.vertices.min(axis=0), mesh.vertices.max(axis=0)


@pytest.mark.parametrize("ext, file_type", [("stl", "stl"), ("stl", "stl_ascii"),
                                            ("ply", "ply"), ("obj", "obj")])
def test_meshes_z_up_formats_keep_their_coordinates(tmp_path, ext, file_type):
    path = tmp_path / f"box.{ext}"
    box().export(path, file_type=file_type)
    lo, hi = bounds(read_mesh(str(path)))
    assert lo == pytest.approx((-0.5, -1.0, 3.5)) and hi == pytest.approx((0.5, 1.0, 6.5))


@pytest.mark.parametrize("ext", ["gltf", "glb"])
def test_meshes_gltf_is_turned_from_y_up_to_z_up(tmp_path, ext):
    path = tmp_path / f"box.{ext}"
    box().export(path)   # the coordinates as written: glTF reads +y as up
    lo, hi = bounds(read_mesh(str(path)))
    # (x, y, z) in the file becomes (x, -z, y)
    assert lo == pytest.approx((-0.5, -6.5, -1.0)) and hi == pytest.approx((0.5, -3.5, 1.0))


def _dae(unit: float, up: str) -> str:
    # One triangle per face of a unit tetrahedron, as a <polylist>.
    return f"""<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit meter="{unit}" name="u"/><up_axis>{up}</up_axis></asset>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="12">0 0 0 10 0 0 0 20 0 0 0 30</float_array>
      <technique_common><accessor source="#pa" count="4" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/>
        <param name="Z" type="float"/></accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <polylist count="4"><input semantic="VERTEX" source="#v" offset="0"/>
      <vcount>3 3 3 3</vcount><p>0 2 1 0 1 3 0 3 2 1 2 3</p></polylist>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n">
    <translate>0 0 0</translate><instance_geometry url="#g"/>
  </node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>"""


@pytest.mark.parametrize("up, top", [("Z_UP", (0.1, 0.2, 0.3)), ("Y_UP", (0.1, -0.3, 0.2))])
def test_meshes_collada_applies_its_unit_and_up_axis(tmp_path, up, top):
    path = tmp_path / "t.dae"
    path.write_text(_dae(0.01, up))
    mesh = read_mesh(str(path))
    assert len(mesh.faces) == 4
    lo, hi = bounds(mesh)
    assert np.max(np.abs(mesh.vertices), axis=0) == pytest.approx(np.abs(top))
    mass = mesh.mass_properties(1000.0)[0]
    assert mass == pytest.approx(1000.0 * 0.1 * 0.2 * 0.3 / 6.0)


def test_meshes_scale_multiplies_each_axis_and_keeps_faces_outward(tmp_path):
    path = tmp_path / "box.stl"
    box().export(path)
    mesh = read_mesh(str(path)).scaled((2.0, -1.0, 0.5))
    mass, com, _ = mesh.mass_properties(1.0)
    assert mass == pytest.approx(6.0)        # |2 × -1 × 0.5| × 6
    assert com == pytest.approx((0.0, 0.0, 2.5))


def test_meshes_mass_properties_of_a_box_match_the_closed_form(tmp_path):
    path = tmp_path / "box.ply"
    box().export(path)
    mass, com, inertia = read_mesh(str(path)).mass_properties(2.0)
    a, b, c = EXTENTS
    m = 2.0 * a * b * c
    assert mass == pytest.approx(m) and com == pytest.approx((0, 0, 5))
    assert inertia[:3] == pytest.approx((m / 12 * (b * b + c * c), m / 12 * (a * a + c * c),
                                         m / 12 * (a * a + b * b)))


def test_meshes_convex_hull_of_a_non_convex_mesh_fills_it(tmp_path):
    # Two boxes joined as an L: the hull encloses more than the L.
    a = trimesh.creation.box(extents=(2, 1, 1))
    b = trimesh.creation.box(extents=(1, 2, 1))
    b.apply_translation((-0.5, 0.5, 0))
    path = tmp_path / "l.stl"
    trimesh.util.concatenate([a, b]).export(path)
    hull = read_mesh(str(path)).convex_hull()
    # the L covers 3 of the 4 × 1 square around it; the hull cuts one corner
    assert hull.mass_properties(1.0)[0] == pytest.approx(4.0 - 0.5)


def test_meshes_shape_triangles_read_a_convex_shape_as_its_hull(tmp_path):
    path = tmp_path / "box.obj"
    box().export(path)
    mesh = shape_triangles(Mesh(str(path), (1.0, 1.0, 2.0)))
    hull = shape_triangles(Convex(str(path), (1.0, 1.0, 2.0)))
    assert mesh.mass_properties(1.0)[0] == pytest.approx(12.0)
    assert hull.mass_properties(1.0)[0] == pytest.approx(12.0)
    assert len(hull.vertices) == 8


def test_meshes_a_flat_mesh_has_no_hull(tmp_path):
    path = tmp_path / "flat.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n")
    with pytest.raises(MeshDegenerateError, match="one plane"):
        read_mesh(str(path)).convex_hull()


def test_meshes_an_open_mesh_has_no_mass(tmp_path):
    path = tmp_path / "open.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\n")
    with pytest.raises(MeshVolumeError):
        read_mesh(str(path)).mass_properties(1.0)


@pytest.mark.parametrize("name, text, words", [
    ("absent.stl", None, "cannot be read"),
    ("junk.stl", "solid nothing here\n", "holds no triangle|cannot be read"),
    ("junk.dae", "<COLLADA>", "cannot be read"),
    ("part.3ds", "x", "'.3ds' mesh files cannot be read"),
    ("bad.obj", "v 0 0 0\nf 1 2 3\n", "names vertex 3"),
])
def test_meshes_an_unreadable_file_is_a_mesh_read_error(tmp_path, name, text, words):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    with pytest.raises(MeshReadError, match=words):
        read_mesh(str(path))


def test_meshes_a_file_is_read_again_when_it_changes(tmp_path):
    path = tmp_path / "box.stl"
    box().export(path)
    first = read_mesh(str(path))
    assert read_mesh(str(path)) is first
    big = box()
    big.apply_scale(2.0)
    big.export(path)
    assert read_mesh(str(path)).mass_properties(1.0)[0] == pytest.approx(48.0)


def _gltf_with_buffer(folder, uri: str, buffer: bytes | None = None) -> str:
    """A one-triangle glTF whose vertex buffer is the file ``uri``."""
    import json
    triangle = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype="<f4").tobytes()
    if buffer is None:
        buffer = triangle
    gltf = {"asset": {"version": "2.0"},
            "buffers": [{"byteLength": len(triangle), "uri": uri}],
            "bufferViews": [{"buffer": 0, "byteLength": len(triangle)}],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                           "min": [0, 0, 0], "max": [1, 1, 0]}],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
            "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}
    path = folder / "tri.gltf"
    path.write_text(json.dumps(gltf))
    return str(path)


def test_meshes_gltf_reads_its_buffer_from_beside_it_or_below(tmp_path):
    (tmp_path / "data").mkdir()
    path = _gltf_with_buffer(tmp_path, "data/tri.bin")
    (tmp_path / "data" / "tri.bin").write_bytes(
        np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype="<f4").tobytes())
    assert len(read_mesh(path).faces) == 1


@pytest.mark.parametrize("uri", ["../outside.bin", "/dev/zero"])
def test_meshes_gltf_buffer_outside_its_folder_is_refused(tmp_path, uri):
    inner = tmp_path / "model"
    inner.mkdir()
    (tmp_path / "outside.bin").write_bytes(b"\0" * 36)
    with pytest.raises(MeshReadError, match="outside its own folder"):
        read_mesh(_gltf_with_buffer(inner, uri))


def test_meshes_gltf_buffer_that_is_a_fifo_is_refused_not_read_forever(tmp_path):
    import os
    os.mkfifo(tmp_path / "tri.bin")
    with pytest.raises(MeshReadError, match="is a FIFO, not a regular file"):
        read_mesh(_gltf_with_buffer(tmp_path, "tri.bin"))


def test_meshes_reader_failure_without_a_message_still_says_what_failed(tmp_path):
    import json
    path = tmp_path / "huge.gltf"
    path.write_text(json.dumps({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": 10**15, "uri": "data:application/octet-stream;base64,AAAA"}],
        "bufferViews": [{"buffer": 0, "byteLength": 10**15}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 10**14,
                       "type": "VEC3"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]}))
    with pytest.raises(MeshReadError, match=r"huge\.gltf' cannot be read: \S"):
        read_mesh(str(path))
