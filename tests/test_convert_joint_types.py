"""Joints of several degrees of freedom and Drake's own joint types in each
target: planar, universal, screw, ball and curvilinear joints are written in
the target's idiom and move the bodies as the model does, or are in the loss
report with their file:line."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.convert.roundtrip import read_back
from mbparse.spatial import matrix_to_quaternion, rpy_to_matrix

JOINTS_URDF = """<?xml version="1.0"?>
<robot name="joints" xmlns:drake="http://drake.mit.edu">
  <link name="base"><inertial><mass value="2"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="a"><inertial><origin xyz="0.1 0 0"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="b"><inertial><origin xyz="0 0.1 0"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="c"><inertial><origin xyz="0 0 0.1"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="d"><inertial><origin xyz="0.1 0.1 0"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="fix" type="fixed"><parent link="world"/><child link="base"/></joint>
  <joint name="planar" type="planar"><parent link="base"/><child link="a"/>
    <origin xyz="0.3 0 0" rpy="0.2 0.1 0"/><axis xyz="0 0 1"/>
    <dynamics damping="0.5 0.6 0.7"/></joint>
  <drake:joint name="universal" type="universal"><parent link="a"/><child link="b"/>
    <origin xyz="0 0.3 0" rpy="0 0.4 0"/><dynamics damping="0.2"/></drake:joint>
  <drake:joint name="screw" type="screw"><parent link="b"/><child link="c"/>
    <origin xyz="0 0 0.3" rpy="0.1 0 0.3"/><axis xyz="0 1 0"/>
    <drake:screw_thread_pitch value="0.04"/></drake:joint>
  <drake:joint name="ball" type="ball"><parent link="c"/><child link="d"/>
    <origin xyz="0.2 0 0.3"/></drake:joint>
</robot>
"""


def line_of(text: str, name: str) -> int:
    """The line of the element named ``name`` (the report names it)."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if f'name="{name}"' in line)


LINES = {name: line_of(JOINTS_URDF, name) for name in ("planar", "universal", "screw", "ball")}

CURVILINEAR_SDF = """<?xml version="1.0"?>
<sdf version="1.9" xmlns:drake="http://drake.mit.edu">
  <model name="curv">
    <link name="base"><inertial><mass>2</mass>
      <inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
    <link name="cart"><pose>0.5 0 0 0 0 0</pose><inertial><mass>1</mass>
      <inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial></link>
    <joint name="weld" type="fixed"><parent>world</parent><child>base</child></joint>
    <frame name="track" attached_to="base"><pose>0.5 0 0 0 0 0.3</pose></frame>
    <drake:joint name="curve" type="curvilinear">
      <drake:parent>track</drake:parent>
      <drake:child>cart</drake:child>
      <drake:plane_normal><xyz>0 0 1</xyz></drake:plane_normal>
      <drake:initial_tangent><xyz>1 0 0</xyz></drake:initial_tangent>
      <drake:is_periodic>false</drake:is_periodic>
      <drake:damping>0.3</drake:damping>
      <drake:curves>
        <drake:line_segment><drake:length>1.5</drake:length></drake:line_segment>
        <drake:circular_arc><drake:radius>0.5</drake:radius><drake:angle>1.2</drake:angle>
        </drake:circular_arc>
      </drake:curves>
    </drake:joint>
  </model>
</sdf>
"""
CURVE_LINE = line_of(CURVILINEAR_SDF, "curve")

# A configuration away from zero: planar (x, y, theta), universal, screw, ball (rpy).
Q = {"planar": [0.1, -0.2, 0.5], "universal": [0.3, -0.2], "screw": [0.7],
     "ball": [0.2, -0.1, 0.3]}
PITCH = 0.04


@pytest.fixture
def joints_urdf(tmp_path: Path) -> Path:
    path = tmp_path / "joints.urdf"
    path.write_text(JOINTS_URDF)
    return path


@pytest.fixture
def curvilinear_sdf(tmp_path: Path) -> Path:
    path = tmp_path / "curv.sdf"
    path.write_text(CURVILINEAR_SDF)
    return path


def convert(path: Path, target: str, out: Path, drake_extensions: bool = False):
    result = convert_file(str(path), target, str(out), ConvertFileOptions(
        via_model=True, drake_extensions=drake_extensions))
    out.write_text(result.text)
    return result.report


def poses(plant, q: dict[str, list[float]]) -> dict[str, tuple]:
    """World poses of the named bodies with the named joints at ``q``."""
    positions = {plant.scoped_name(j): list(q[j.name]) for j in plant.joints() if j.name in q}
    X = plant.calc_body_poses_in_world(positions)
    return {b.name: (tuple(X[b.index].p), tuple(v for row in X[b.index].R for v in row))
            for b in plant.bodies()[1:]}


def assert_same_poses(want: dict, got: dict, names) -> None:
    for name in names:
        for a, b in zip(want[name][0] + want[name][1], got[name][0] + got[name][1]):
            assert a == pytest.approx(b, abs=1e-9), name


def test_urdf_keeps_planar_universal_screw_and_ball_joints_with_drake_extensions(
        joints_urdf, tmp_path):
    report = convert(joints_urdf, "urdf", tmp_path / "out.urdf", drake_extensions=True)
    original = read_back(str(joints_urdf)).plant
    written = read_back(str(tmp_path / "out.urdf")).plant
    for name in Q:
        assert written.get_joint_by_name(name).type_name == \
            original.get_joint_by_name(name).type_name
    assert written.get_joint_by_name("planar").damping == [0.5, 0.6, 0.7]
    assert written.get_joint_by_name("screw").screw_pitch == PITCH
    assert_same_poses(poses(original, Q), poses(written, Q), "abcd")
    assert not any("'planar'" in x.element or "'screw'" in x.element for x in report.losses)


def test_standard_urdf_writes_several_dof_and_screw_joints_as_chains_that_move_alike(
        joints_urdf, tmp_path):
    out = tmp_path / "out.urdf"
    report = convert(joints_urdf, "urdf", out)
    assert "drake" not in out.read_text()
    for name in ("planar", "universal", "screw", "ball"):
        loss = next(x for x in report.losses if x.element == f"joint '{name}'")
        assert loss.action == "split" and loss.line == LINES[name]
    written = read_back(str(out)).plant
    assert written.get_joint_by_name("screw_translation").type_name == "prismatic"
    assert written.get_joint_by_name("planar_x").damping == [0.5]
    assert written.get_joint_by_name("universal").damping == [0.2]
    (x, y, theta), (u0, u1) = Q["planar"], Q["universal"]
    roll, pitch, yaw = Q["ball"]
    rotation = Q["screw"][0]
    q_written = {"planar_x": [x], "planar_y": [y], "planar": [theta],
                 "universal_x": [u0], "universal": [u1],
                 "screw": [rotation], "screw_translation": [PITCH * rotation / (2 * math.pi)],
                 "ball_z": [yaw], "ball_y": [pitch], "ball": [roll]}
    original = read_back(str(joints_urdf)).plant
    assert_same_poses(poses(original, Q), poses(written, q_written), "abcd")


def test_sdf_keeps_universal_screw_and_ball_joints_as_sdformat_types(joints_urdf, tmp_path):
    convert(joints_urdf, "sdf", tmp_path / "out.sdf")
    text = (tmp_path / "out.sdf").read_text()
    for stype in ("universal", "screw", "ball"):
        assert f'type="{stype}"' in text
    written = read_back(str(tmp_path / "out.sdf")).plant
    for name, kind in (("universal", "universal"), ("screw", "screw"), ("ball", "ball_rpy")):
        assert written.get_joint_by_name(name).type_name == kind


def test_sdf_writes_a_planar_joint_as_a_chain_through_massless_links(joints_urdf, tmp_path):
    report = convert(joints_urdf, "sdf", tmp_path / "out.sdf")
    loss = next(x for x in report.losses if x.element == "joint 'planar'")
    assert loss.action == "split" and loss.line == LINES["planar"]
    written = read_back(str(tmp_path / "out.sdf")).plant
    assert written.get_body_by_name("planar_x_link").default_spatial_inertia.mass == 0
    assert written.get_joint_by_name("planar_x").type_name == "prismatic"
    assert written.get_joint_by_name("planar").type_name == "revolute"
    assert written.get_joint_by_name("planar").damping == [0.7]
    q = dict(Q)
    x, y, theta = q.pop("planar")
    q_written = {**q, "planar_x": [x], "planar_y": [y], "planar": [theta]}
    original = read_back(str(joints_urdf)).plant
    assert_same_poses(poses(original, Q), poses(written, q_written), "abcd")


def mujoco_poses(path: Path, qpos: dict[str, list[float]]) -> dict[str, tuple]:
    mujoco = pytest.importorskip("mujoco")
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    for name, values in qpos.items():
        adr = m.jnt_qposadr[m.joint(name).id]
        d.qpos[adr:adr + len(values)] = values
    mujoco.mj_kinematics(m, d)
    return {m.body(i).name: (tuple(d.xpos[i]), tuple(d.xmat[i])) for i in range(1, m.nbody)}


def test_mjcf_writes_planar_universal_and_screw_as_hinges_and_slides_in_one_body(
        joints_urdf, tmp_path):
    out = tmp_path / "out.xml"
    report = convert(joints_urdf, "mjcf", out)
    for name in ("planar", "universal", "screw"):
        loss = next(x for x in report.losses if x.element == f"joint '{name}'")
        assert loss.action == "split" and loss.line == LINES[name]
    text = out.read_text()
    assert 'type="ball"' in text
    assert 'joint1="screw_translation" joint2="screw_rotation"' in text
    x, y, theta = Q["planar"]
    rotation = Q["screw"][0]
    qpos = {"planar_x": [x], "planar_y": [y], "planar_theta": [theta],
            "universal_x": [Q["universal"][0]], "universal_y": [Q["universal"][1]],
            "screw_rotation": [rotation],
            "screw_translation": [PITCH * rotation / (2 * math.pi)],
            "ball": list(matrix_to_quaternion(rpy_to_matrix(Q["ball"])))}
    got = mujoco_poses(out, qpos)
    original = read_back(str(joints_urdf)).plant
    assert_same_poses(poses(original, Q), got, "abcd")


def test_mjcf_gives_each_written_joint_its_share_of_the_damping(joints_urdf, tmp_path):
    mujoco = pytest.importorskip("mujoco")
    out = tmp_path / "out.xml"
    convert(joints_urdf, "mjcf", out)
    m = mujoco.MjModel.from_xml_path(str(out))
    damping = {m.joint(i).name: float(m.dof_damping[m.jnt_dofadr[i]]) for i in range(m.njnt)}
    assert (damping["planar_x"], damping["planar_y"], damping["planar_theta"]) == (0.5, 0.6, 0.7)
    assert damping["universal_x"] == damping["universal_y"] == 0.2


def test_curvilinear_joint_is_kept_in_urdf_and_sdf_with_drake_extensions(
        curvilinear_sdf, tmp_path):
    original = read_back(str(curvilinear_sdf)).plant
    q = {"curve": [1.9]}  # on the arc
    for target, name in (("urdf", "out.urdf"), ("sdf", "out.sdf")):
        report = convert(curvilinear_sdf, target, tmp_path / name, drake_extensions=True)
        written = read_back(str(tmp_path / name)).plant
        joint = written.get_joint_by_name("curve")
        assert joint.type_name == "curvilinear" and joint.damping == [0.3]
        assert joint.breaks == pytest.approx([0, 1.5, 2.1])
        assert_same_poses(poses(original, q), poses(written, q), ["cart"])
        if target == "sdf":  # Drake's SDFormat joint has no pose: two frames carry it
            assert [x.action for x in report.losses] == ["split"]


def test_mjcf_reports_a_curvilinear_joint_with_its_line(curvilinear_sdf, tmp_path):
    report = convert(curvilinear_sdf, "mjcf", tmp_path / "out.xml")
    loss = next(x for x in report.losses if x.element == "joint 'curve'")
    assert loss.action == "approximated" and loss.line == CURVE_LINE
    assert "curvilinear" in loss.what


def test_mjcf_writes_a_nonzero_default_of_a_several_dof_joint_at_zero_and_says_so(
        joints_urdf):
    from mbparse.convert.writers import write
    loaded = read_back(str(joints_urdf))
    loaded.plant.get_joint_by_name("universal").default_positions = [0.3, 0.1]
    _, report = write(loaded.plant, loaded.scene_graph, "mjcf")
    loss = next(x for x in report.losses if x.element == "joint 'universal'"
                and x.action == "dropped")
    assert "default positions" in loss.what and loss.line == LINES["universal"]
