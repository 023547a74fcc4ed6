"""mbparse view draws every mesh format robots ship (STL, Collada, glTF/GLB,
OBJ, PLY, MuJoCo MSH), says in its panel what it cannot draw (missing mesh
files, MJCF skins, bodies with only collision geometry such as MJCF geoms in
groups 3-5) and clamps the sliders of joints without limits, saying so."""
from __future__ import annotations

import math
import socket
import struct

import numpy as np
import pytest

pytest.importorskip("viser")
trimesh = pytest.importorskip("trimesh")

from mbparse.loading import LoadOptions  # noqa: E402
from mbparse.viewer.app import slider_range  # noqa: E402
from mbparse.viewer.shapes import coloured_mesh  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def open_viewer():
    from mbparse.viewer import Viewer

    made = []

    def make(path, **kw):
        v = Viewer(str(path), LoadOptions(**kw), port=free_port(), watch=False)
        made.append(v)
        return v
    yield make
    for v in made:
        v.close()


def write_msh(path, mesh) -> None:
    V = np.asarray(mesh.vertices, dtype="<f4")
    F = np.asarray(mesh.faces, dtype="<i4")
    path.write_bytes(struct.pack("<4i", len(V), 0, 0, len(F)) + V.tobytes() + F.tobytes())


MESH_SUFFIXES = (".stl", ".dae", ".gltf", ".glb", ".obj", ".ply", ".msh")


def write_meshes(folder) -> None:
    box = trimesh.creation.box((0.1, 0.1, 0.1))
    for suffix in MESH_SUFFIXES:
        if suffix == ".msh":
            write_msh(folder / "part.msh", box)
        else:
            box.export(folder / f"part{suffix}")


def urdf_with_meshes(suffixes, extra: str = "") -> str:
    links, joints = [], []
    for i, suffix in enumerate(suffixes):
        links.append(f'<link name="l{i}"><visual><geometry><mesh filename="part{suffix}"/>'
                     "</geometry></visual></link>")
        joints.append(f'<joint name="j{i}" type="fixed"><parent link="world"/>'
                      f'<child link="l{i}"/><origin xyz="{0.2 * i} 0 0"/></joint>')
    return f'<robot name="meshes">{"".join(links)}{"".join(joints)}{extra}</robot>'


def test_view_draws_a_mesh_of_every_format(open_viewer, tmp_path):
    write_meshes(tmp_path)
    model = tmp_path / "meshes.urdf"
    model.write_text(urdf_with_meshes([s for s in MESH_SUFFIXES if s != ".msh"]))
    v = open_viewer(model)
    assert v.error is None and v.problems == [] and v.not_drawn == []
    assert len(v.drawn) == len(MESH_SUFFIXES) - 1


def test_view_draws_an_msh_mesh_of_an_mjcf_model(open_viewer, tmp_path):
    write_meshes(tmp_path)
    model = tmp_path / "m.xml"
    model.write_text('<mujoco model="m"><asset><mesh name="part" file="part.msh"/></asset>'
                     '<worldbody><body name="b"><freejoint/><geom type="mesh" mesh="part"/>'
                     "</body></worldbody></mujoco>")
    v = open_viewer(model)
    assert v.error is None and v.problems == []
    assert len(v.drawn) == 1


def test_gltf_meshes_keep_their_colours_in_the_frame_the_model_reader_uses(tmp_path):
    from mbparse.geometry.meshes import read_mesh
    box = trimesh.creation.box((0.1, 0.2, 0.4))
    box.visual.face_colors = (200, 30, 30, 255)
    box.export(tmp_path / "tall.glb")
    coloured = coloured_mesh(str(tmp_path / "tall.glb"))
    assert coloured is not None and coloured.visual.kind in ("face", "vertex")
    extent = np.ptp(np.asarray(coloured.vertices), axis=0)
    # glTF is +y up: both the model's reader and the viewer turn +y to +z.
    assert extent == pytest.approx(np.ptp(read_mesh(str(tmp_path / "tall.glb")).vertices, axis=0))
    assert extent == pytest.approx((0.1, 0.4, 0.2))


def _obj_with_material(folder, mtllib: str) -> str:
    path = folder / "tri.obj"
    path.write_text(f"mtllib {mtllib}\nusemtl red\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    return str(path)


def test_view_reads_a_mesh_material_from_a_sibling_folder(tmp_path):
    (tmp_path / "meshes").mkdir()
    (tmp_path / "materials").mkdir()
    (tmp_path / "materials" / "red.mtl").write_text("newmtl red\nKd 1 0 0\n")
    coloured = coloured_mesh(_obj_with_material(tmp_path / "meshes", "../materials/red.mtl"))
    assert coloured is not None


def test_view_does_not_read_a_mesh_material_that_is_a_fifo(tmp_path):
    import os
    os.mkfifo(tmp_path / "red.mtl")
    # Reading the FIFO would wait forever; the mesh is drawn without colours.
    assert coloured_mesh(_obj_with_material(tmp_path, "red.mtl")) is None


def test_view_panel_lists_a_missing_mesh_file(open_viewer, tmp_path):
    write_meshes(tmp_path)
    model = tmp_path / "missing.urdf"
    model.write_text(urdf_with_meshes([".stl", "_gone.stl"]))
    v = open_viewer(model)
    assert v.error is None
    assert len(v.drawn) == 1
    assert len(v.not_drawn) == 1 and "part_gone.stl" in v.not_drawn[0]
    assert "missing.urdf:1:" in v.not_drawn[0]
    assert "Not drawn (left out of the model)" in v._status.content


SKINNED_MJCF = """<mujoco model="skinned">
  <asset>
    <skin name="cloth" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"/>
  </asset>
  <worldbody>
    <body name="hidden" pos="0 0 1"><freejoint/>
      <geom type="box" size="0.1 0.1 0.1" group="3"/>
    </body>
    <body name="shown" pos="1 0 1"><freejoint/><geom type="sphere" size="0.1"/></body>
  </worldbody>
</mujoco>
"""


def test_view_panel_says_skins_are_not_drawn_and_collision_stands_in_for_hidden_groups(
        open_viewer, tmp_path):
    model = tmp_path / "skinned.xml"
    model.write_text(SKINNED_MJCF)
    v = open_viewer(model)
    assert v.error is None
    assert any("skinned.xml:3:" in n and "<skin>" in n for n in v.not_drawn)
    assert v.stand_ins == ["skinned::hidden"]
    hidden = v._plant.get_body_by_name("hidden").index
    stand_ins = [h for body, h in v._collision_nodes if body == hidden]
    assert stand_ins and all(h.visible for h in stand_ins)
    assert "groups 3-5" in v._status.content and "skinned::hidden" in v._status.content


def _link(name: str) -> str:
    return (f'<link name="{name}"><inertial><mass>1</mass></inertial>'
            '<visual name="v"><geometry><sphere><radius>0.1</radius></sphere></geometry>'
            "</visual></link>")


UNLIMITED_SDF = ('<?xml version="1.0"?><sdf version="1.9"><model name="free">'
                 + _link("base") + _link("wheel") + _link("slide") + _link("half_link")
                 + '<joint name="fix" type="fixed"><parent>world</parent><child>base</child>'
                 "</joint>"
                 '<joint name="spin" type="continuous"><parent>base</parent><child>wheel</child>'
                 "<axis><xyz>0 0 1</xyz></axis></joint>"
                 '<joint name="push" type="prismatic"><parent>base</parent><child>slide</child>'
                 "<axis><xyz>1 0 0</xyz></axis></joint>"
                 '<joint name="half" type="revolute"><parent>wheel</parent><child>half_link'
                 "</child><axis><xyz>0 0 1</xyz><limit><lower>5</lower></limit></axis></joint>"
                 "</model></sdf>")


def test_view_clamps_sliders_of_unlimited_joints_and_says_so(open_viewer, tmp_path):
    model = tmp_path / "free.sdf"
    model.write_text(UNLIMITED_SDF)
    v = open_viewer(model)
    assert v.error is None
    plant = v._plant
    spin = plant.get_joint_by_name("spin")
    push = plant.get_joint_by_name("push")
    half = plant.get_joint_by_name("half")
    assert slider_range(spin, 0) == (-math.pi, math.pi)
    assert slider_range(push, 0) == (-1.0, 1.0)
    assert slider_range(half, 0) == (5.0, 5.0 + 2 * math.pi)
    handles = {s.joint: s.handle for s in v._sliders}
    assert (handles["free::spin"].min, handles["free::spin"].max) == (-math.pi, math.pi)
    assert "no limit" in handles["free::push"].hint
    assert sorted(v.unlimited) == ["half", "push", "spin"]
    assert "without limits" in v._status.content
