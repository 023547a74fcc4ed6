"""mbparse view without a browser: the scene, sliders, frames on demand,
collision stand-ins, reloading, and the advice when viser is missing."""
from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from mbparse.loading import LoadOptions
from mbparse.cli import main
from mbparse.commands import view as view_command

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
ACROBOT = CORPUS / "drake" / "examples" / "acrobot" / "Acrobot.urdf"
PANDA = CORPUS / "drake_models" / "franka_description" / "urdf" / "panda_arm_hand.urdf"

needs_corpus = pytest.mark.skipif(not ACROBOT.is_file(), reason="the shared corpus is absent")

ARM = """<robot name="arm">
  <material name="red"><color rgba="0.9 0.1 0.1 1"/></material>
  <link name="base"><visual><geometry><box size="0.2 0.2 0.1"/></geometry></visual></link>
  <link name="upper">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0 0 0.25"/><geometry><cylinder radius="0.03" length="0.5"/></geometry>
      <material name="red"/></visual>
  </link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.05"/><axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" effort="1" velocity="1"/></joint>
  <joint name="fix" type="fixed"><parent link="world"/><child link="base"/></joint>
</robot>
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def options(**extra) -> LoadOptions:
    return LoadOptions(**extra)


@pytest.fixture
def open_viewer():
    from mbparse.viewer import Viewer

    made = []

    def make(path, **kw):
        v = Viewer(str(path), options(**kw), port=free_port(), watch=False)
        made.append(v)
        return v
    yield make
    for v in made:
        v.close()


@needs_corpus
def test_view_has_a_slider_per_joint_and_a_node_per_body(open_viewer):
    v = open_viewer(ACROBOT)
    assert v.error is None and v.problems == []
    assert [(s.joint, s.index) for s in v._sliders] == [("Acrobot::shoulder", 0),
                                                        ("Acrobot::elbow", 0)]
    assert len(v._body_nodes) == 4  # world and three links
    assert v.url.startswith("http://localhost:")


@needs_corpus
def test_view_moving_a_joint_moves_the_bodies_beyond_it(open_viewer):
    v = open_viewer(ACROBOT)
    plant = v._plant
    lower = plant.get_body_by_name("lower_link").index
    upper = plant.get_body_by_name("upper_link").index
    before_lower = tuple(v._body_nodes[lower].wxyz)
    before_upper = tuple(v._body_nodes[upper].position)
    v.set_position("Acrobot::shoulder", 0, 1.0)
    assert tuple(v._body_nodes[lower].wxyz) != before_lower
    assert tuple(v._body_nodes[upper].position) == pytest.approx(before_upper)
    assert v.positions["Acrobot::shoulder"] == [1.0]


def test_view_frames_are_shown_on_demand(open_viewer, tmp_path):
    model = tmp_path / "arm.urdf"
    model.write_text(ARM)
    v = open_viewer(model)
    kinds = [k for k, _ in v._frame_nodes]
    assert kinds.count("body") == 3  # world, base, upper
    assert not any(h.visible for _, h in v._frame_nodes)
    v._show_bodies.value = True
    v._update_frame_visibility()
    assert all(h.visible for k, h in v._frame_nodes if k == "body")
    assert not any(h.visible for k, h in v._frame_nodes if k == "frame")


@needs_corpus
def test_view_undrawable_visual_meshes_are_listed_and_collision_stands_in(open_viewer):
    if not any(p.suffix == ".bin" for p in (PANDA.parents[1] / "meshes" / "visual").iterdir()):
        v = open_viewer(PANDA)
        assert v.error is None
        assert any("link0" in p for p in v.problems)
        stand_ins = [h for body, h in v._collision_nodes if body in v._undrawn_bodies]
        assert stand_ins and all(h.visible for h in stand_ins)
    else:  # the glTF buffers are present: everything is drawn
        v = open_viewer(PANDA)
        assert v.problems == []


def test_view_reloads_a_changed_file_and_keeps_joint_positions(open_viewer, tmp_path):
    model = tmp_path / "arm.urdf"
    model.write_text(ARM)
    v = open_viewer(model)
    v.set_position("arm::shoulder", 0, 0.7)
    assert not v.changed()
    model.write_text(ARM.replace('length="0.5"', 'length="0.6"'))
    os.utime(model, ns=(1, 1))  # a different modification time, whatever the clock says
    assert v.changed()
    generation = v.generation
    assert v.reload() is True
    assert v.generation == generation + 1
    assert v.positions["arm::shoulder"] == [0.7]
    assert not v.changed()


def test_view_keeps_the_old_model_when_the_file_breaks(open_viewer, tmp_path):
    model = tmp_path / "arm.urdf"
    model.write_text(ARM)
    v = open_viewer(model)
    nodes = dict(v._body_nodes)
    model.write_text(ARM.replace('type="revolute"', 'type="bogus"'))
    assert v.reload() is False
    assert v.error and "arm.urdf" in v.error
    assert v._body_nodes == nodes
    assert "Cannot load" in v._status.content


def test_view_without_viser_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setattr(view_command, "missing_dependencies", lambda: ["viser"])
    assert main(["view", "--no-browser", "model.urdf"]) == 2
    assert "pip install 'mbparse[view]'" in capsys.readouterr().err


def test_view_of_a_broken_file_is_a_located_error(capsys, tmp_path):
    model = tmp_path / "arm.urdf"
    model.write_text(ARM.replace('type="revolute"', 'type="bogus"'))
    status = main(["view", "--no-browser", "--port", str(free_port()), str(model)])
    assert status == 1
    assert f"{model}:" in capsys.readouterr().err
