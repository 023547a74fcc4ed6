"""Meshes travel to MJCF: MuJoCo reads OBJ, binary STL and MSH only, so a
Collada, glTF, PLY or text STL mesh is written as an OBJ in the
``--copy-meshes`` folder, or without it in ``<model>_meshes`` beside the
output (reported as approximated: materials stay behind), never dropped.
Every mesh is one MuJoCo compiles."""
from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest

from mbparse.cli import main
from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.geometry.meshes import read_mesh

trimesh = pytest.importorskip("trimesh")

URDF = """<robot name="meshes">
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="{mesh}"/></geometry></visual>
  </link>
</robot>
"""


def model_with_mesh(folder: Path, name: str, mesh) -> Path:
    mesh.export(str(folder / name))
    path = folder / "model.urdf"
    path.write_text(URDF.format(mesh=name))
    return path


def box():
    return trimesh.creation.box((0.2, 0.1, 0.05))


@pytest.mark.parametrize("name", ["box.dae", "box.gltf", "box.glb", "box.ply"])
def test_a_mesh_mujoco_cannot_read_becomes_an_obj_in_the_copy_folder(tmp_path, name):
    source = tmp_path / "src"
    source.mkdir()
    model = model_with_mesh(source, name, box())
    out = tmp_path / "out" / "model.xml"
    result = convert_file(str(model), "mjcf", str(out),
                          ConvertFileOptions(copy_meshes=str(tmp_path / "out" / "meshes")))
    assert 'file="meshes/box.obj"' in result.text
    obj = tmp_path / "out" / "meshes" / "box.obj"
    converted, original = read_mesh(str(obj)), read_mesh(str(source / name))
    assert converted.vertices.tolist() == original.vertices.tolist()
    assert converted.faces.tolist() == original.faces.tolist()
    [loss] = result.report.losses
    assert loss.action == "approximated" and loss.line == 4
    assert "written as the OBJ 'meshes/box.obj'" in loss.what


def test_without_a_copy_folder_the_obj_is_written_beside_the_output(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    model = model_with_mesh(source, "box.dae", box())
    out = tmp_path / "out" / "model.xml"
    result = convert_file(str(model), "mjcf", str(out))
    [loss] = result.report.losses
    assert loss.action == "approximated" and loss.line == 4 and ".dae" in loss.what
    assert 'file="meshes_meshes/box.obj"' in result.text  # the model is named "meshes"
    obj = tmp_path / "out" / "meshes_meshes" / "box.obj"
    assert read_mesh(str(obj)).faces.tolist() == read_mesh(str(source / "box.dae")).faces.tolist()
    mujoco = pytest.importorskip("mujoco")
    out.write_text(result.text)
    assert mujoco.MjModel.from_xml_path(str(out)).nmesh == 1


def test_a_second_conversion_rewrites_its_own_obj_and_leaves_other_files_alone(tmp_path):
    model = model_with_mesh(tmp_path, "box.glb", box())
    out = tmp_path / "model.xml"
    folder = tmp_path / "meshes_meshes"
    folder.mkdir()
    (folder / "box.obj").write_text("# someone else's mesh\n")
    first = convert_file(str(model), "mjcf", str(out)).text
    second = convert_file(str(model), "mjcf", str(out)).text
    assert 'file="meshes_meshes/box_1.obj"' in first and first == second
    assert (folder / "box.obj").read_text() == "# someone else's mesh\n"
    assert sorted(p.name for p in folder.iterdir()) == ["box.obj", "box_1.obj"]


def test_a_text_stl_is_converted_and_a_binary_stl_is_kept(tmp_path):
    (tmp_path / "ascii.stl").write_text(trimesh.exchange.stl.export_stl_ascii(box()))
    model = tmp_path / "model.urdf"
    model.write_text(URDF.format(mesh="ascii.stl"))
    result = convert_file(str(model), "mjcf", str(tmp_path / "model.xml"),
                          ConvertFileOptions(copy_meshes=str(tmp_path / "meshes")))
    assert "text (ASCII) STL" in result.report.losses[0].what
    assert 'file="meshes/ascii.obj"' in result.text
    model_with_mesh(tmp_path, "binary.stl", box())
    model.write_text(URDF.format(mesh="binary.stl"))
    result = convert_file(str(model), "mjcf", str(tmp_path / "model.xml"))
    assert not result.report.losses and 'file="binary.stl"' in result.text


def test_an_stl_without_faces_is_reported_not_written(tmp_path):
    (tmp_path / "empty.stl").write_bytes(b"\0" * 80 + struct.pack("<I", 0))
    model = tmp_path / "model.urdf"
    model.write_text(URDF.format(mesh="empty.stl"))
    result = convert_file(str(model), "mjcf", str(tmp_path / "model.xml"))
    [loss] = result.report.losses
    assert loss.action == "dropped" and "<mesh" not in result.text


def test_a_flat_mesh_is_written_so_mujoco_compiles_it(tmp_path):
    mujoco = pytest.importorskip("mujoco")
    plane = trimesh.Trimesh(vertices=[[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]],
                            faces=[[0, 1, 2], [0, 2, 3]])
    model = model_with_mesh(tmp_path, "plane.obj", plane)
    out = tmp_path / "model.xml"
    out.write_text(convert_file(str(model), "mjcf", str(out)).text)
    m = mujoco.MjModel.from_xml_path(str(out))  # MuJoCo refuses it by volume otherwise
    assert m.nmesh == 1 and m.body_mass[1] == 1


def test_converted_meshes_compile_in_mujoco_from_the_command_line(tmp_path):
    mujoco = pytest.importorskip("mujoco")
    model = model_with_mesh(tmp_path, "box.glb", box())
    out = tmp_path / "out" / "model.xml"
    assert main(["convert", str(model), "--to", "mjcf", "-o", str(out), "--copy-meshes",
                 str(tmp_path / "out" / "meshes"), "--report",
                 str(tmp_path / "out" / "loss.json")]) == 0
    m = mujoco.MjModel.from_xml_path(str(out))
    assert m.nmesh == 1 and m.mesh_facenum[0] == 12
    losses = json.loads((tmp_path / "out" / "loss.json").read_text())["losses"]
    assert [x["action"] for x in losses] == ["approximated"]


def test_an_obj_mixing_faces_with_and_without_normals_is_rewritten(tmp_path):
    (tmp_path / "mixed.obj").write_text(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nvn 0 0 1\n"
        "f 1//1 2//1 3//1\nf 1 2 4\nf 1 3 4\nf 2 3 4\n")
    model = tmp_path / "model.urdf"
    model.write_text(URDF.format(mesh="mixed.obj"))
    result = convert_file(str(model), "mjcf", str(tmp_path / "out" / "model.xml"),
                          ConvertFileOptions(copy_meshes=str(tmp_path / "out" / "meshes")))
    [loss] = result.report.losses
    assert "normals for some corners" in loss.what and loss.action == "approximated"
    assert 'file="meshes/mixed.obj"' in result.text
    mujoco = pytest.importorskip("mujoco")
    (tmp_path / "out" / "model.xml").write_text(result.text)
    assert mujoco.MjModel.from_xml_path(str(tmp_path / "out" / "model.xml")).nmesh == 1


def test_a_collada_geometry_whose_material_is_missing_is_still_read_and_converted(tmp_path):
    # pycollada drops a scene's geometry instance when the material it binds
    # is missing (ANYmal B's foot in example-robot-data); assimp, and so RViz
    # and Gazebo, read its triangles, placed by its node's matrix.
    import re
    box().export(str(tmp_path / "ok.dae"))
    text = (tmp_path / "ok.dae").read_text()
    text = re.sub(r'(<instance_material symbol="[^"]*" target=")#[^"]*"', r'\1#missing"', text)
    text = text.replace('<node id="node0" name="node0">',
                        '<node id="node0" name="node0"><matrix>0.5 0 0 1 0 0.5 0 0 0 0 0.5 0 '
                        '0 0 0 1</matrix>')
    (tmp_path / "broken.dae").write_text(text)
    broken, ok = read_mesh(str(tmp_path / "broken.dae")), read_mesh(str(tmp_path / "ok.dae"))
    assert broken.faces.tolist() == ok.faces.tolist()
    assert broken.vertices.tolist() == (ok.vertices * 0.5 + [1, 0, 0]).tolist()
    model = tmp_path / "model.urdf"
    model.write_text(URDF.format(mesh="broken.dae"))
    result = convert_file(str(model), "mjcf", str(tmp_path / "model.xml"))
    assert [x.action for x in result.report.losses] == ["approximated"]
    assert 'file="meshes_meshes/broken.obj"' in result.text


def made_after_looking(monkeypatch, suffix: str) -> None:
    """Files named ``...suffix`` look absent to os.path.exists, as a file
    another conversion makes just after this one looked."""
    real_exists = os.path.exists
    monkeypatch.setattr(os.path, "exists",
                        lambda p: False if str(p).endswith(suffix) else real_exists(p))


def test_a_file_made_at_the_obj_name_while_converting_is_not_written_over(tmp_path, monkeypatch):
    # Two conversions at once (convert -j, Dask) put their meshes in one
    # folder: a file another one made at the name after this one looked is
    # left alone (the name is claimed in one step), and this mesh gets the
    # next name.
    model = model_with_mesh(tmp_path, "box.glb", box())
    folder = tmp_path / "meshes_meshes"
    folder.mkdir()
    (folder / "box.obj").write_text("# another conversion's mesh\n")
    made_after_looking(monkeypatch, "box.obj")
    text = convert_file(str(model), "mjcf", str(tmp_path / "model.xml")).text
    monkeypatch.undo()
    assert 'file="meshes_meshes/box_1.obj"' in text
    assert (folder / "box.obj").read_text() == "# another conversion's mesh\n"
    assert read_mesh(str(folder / "box_1.obj")).faces.tolist() == box().faces.tolist()
    assert sorted(p.name for p in folder.iterdir()) == ["box.obj", "box_1.obj"]


def test_a_copied_mesh_never_takes_a_name_made_while_converting(tmp_path, monkeypatch):
    # The same for --copy-meshes: a file made at the copy's name after this
    # conversion looked is not written over.
    model = model_with_mesh(tmp_path, "box.stl", box())
    copies = tmp_path / "copies"
    copies.mkdir()
    (copies / "box.stl").write_text("solid someone_else\nendsolid\n")
    made_after_looking(monkeypatch, "box.stl")
    convert_file(str(model), "mjcf", str(tmp_path / "out.xml"),
                 ConvertFileOptions(copy_meshes=str(copies)))
    monkeypatch.undo()
    assert (copies / "box.stl").read_text() == "solid someone_else\nendsolid\n"
    assert (copies / "box_1.stl").read_bytes() == (tmp_path / "box.stl").read_bytes()
