"""Fixed-joint lumping in the URDF→SDFormat conversion, and its opt-outs."""
from __future__ import annotations

import pytest

from mbparse import spatial
from mbparse.convert import ConvertOptions

from test_convert_gazebo_extensions import BOX, at, convert


def inertial(mass, xyz="0 0 0", rpy="0 0 0", I=(1, 2, 3, 0.1, 0.2, 0.3)):
    ixx, iyy, izz, ixy, ixz, iyz = I
    return (f"<inertial><origin xyz='{xyz}' rpy='{rpy}'/><mass value='{mass}'/>"
            f"<inertia ixx='{ixx}' ixy='{ixy}' ixz='{ixz}' iyy='{iyy}' iyz='{iyz}' "
            f"izz='{izz}'/></inertial>")


def numbers(node):
    return [float(v) for v in node.text.split()]


TWO_LINKS = ("<link name='base'>" + inertial(2, "0.1 0 0", "0.3 0 0") + "</link>"
             "<link name='tool'>" + inertial(1, "0 0.2 0", "0 0.4 0.5", (4, 5, 6, 0, 0, 0))
             + f"<visual>{BOX}</visual><collision><origin xyz='1 0 0'/>{BOX}</collision></link>"
             "<joint name='weld' type='fixed'><parent link='base'/><child link='tool'/>"
             "<origin xyz='0 0 1' rpy='0 0 1.5707963267948966'/></joint>")


def test_lumping_sums_mass_and_combines_inertia_about_the_new_center_of_mass():
    m = convert(TWO_LINKS)
    assert [c.attrs.get("name") for c in m.children if c.name == "link"] == ["base"]
    node = at(m, "link@base/inertial")
    assert float(at(node, "mass").text) == pytest.approx(3.0)
    # Independent computation: both inertias about the base origin, in base axes.
    X_B_base_i = spatial.RigidTransform.from_rpy_xyz((0.3, 0, 0), (0.1, 0, 0))
    X_B_J = spatial.RigidTransform.from_rpy_xyz((0, 0, 1.5707963267948966), (0, 0, 1))
    X_B_tool_i = X_B_J @ spatial.RigidTransform.from_rpy_xyz((0, 0.4, 0.5), (0, 0.2, 0))
    parts = [(2.0, X_B_base_i, (1, 2, 3, 0.1, 0.2, 0.3)), (1.0, X_B_tool_i, (4, 5, 6, 0, 0, 0))]
    com = [sum(mass * X.p[k] for mass, X, _ in parts) / 3.0 for k in range(3)]
    pose = numbers(at(node, "pose"))
    assert pose[:3] == pytest.approx(com, abs=1e-12)
    assert pose[3:] == pytest.approx([0.3, 0, 0], abs=1e-12)   # the base's inertial axes
    I_B = [0.0] * 6
    for mass, X, I6 in parts:
        I_cm_B = spatial.reexpress_inertia((I6[0], I6[1], I6[2], I6[3], I6[4], I6[5]), X.R)
        offset = spatial.point_mass_inertia(mass, spatial.sub(X.p, com))
        I_B = [a + b + c for a, b, c in zip(I_B, I_cm_B, offset)]
    R = spatial.rpy_to_matrix((0.3, 0, 0))
    expected = spatial.reexpress_inertia(I_B, spatial.transpose(R))
    inertia = at(node, "inertia")
    got = [float(at(inertia, k).text) for k in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")]
    assert got == pytest.approx(list(expected), abs=1e-12)


def test_lumped_shapes_move_to_the_parent_with_composed_poses_and_lump_names():
    m = convert(TWO_LINKS)
    c = at(m, "link@base/collision@base_fixed_joint_lump__tool_collision")
    assert numbers(at(c, "pose")) == pytest.approx([0, 1, 1, 0, 0, 1.5707963267948966])
    assert at(m, "link@base/visual@base_fixed_joint_lump__tool_visual") is not None


def test_lumping_writes_frames_for_the_removed_joint_and_link():
    m = convert(TWO_LINKS)
    frames = {f.attrs["name"]: f for f in m.all("frame")}
    assert frames["weld"].attrs["attached_to"] == "base"
    assert numbers(at(frames["weld"], "pose")) == pytest.approx([0, 0, 1, 0, 0, 1.5707963267948966])
    assert frames["tool"].attrs["attached_to"] == "weld"


def test_preserve_fixed_joint_keeps_the_joint_fixed_even_with_disable_lumping():
    m = convert(TWO_LINKS + "<gazebo reference='weld'><disableFixedJointLumping>true"
                "</disableFixedJointLumping><preserveFixedJoint>true</preserveFixedJoint></gazebo>")
    assert at(m, "joint@weld").attrs["type"] == "fixed"
    assert at(m, "link@tool/visual@tool_visual") is not None
    assert m.first("frame") is None


def test_disable_fixed_joint_lumping_makes_a_revolute_joint_with_zero_limits():
    m = convert(TWO_LINKS + "<gazebo reference='weld'><disableFixedJointLumping>1"
                "</disableFixedJointLumping></gazebo>")
    j = at(m, "joint@weld")
    assert j.attrs["type"] == "revolute"
    assert at(j, "axis/limit/lower").text == "0"
    assert at(j, "axis/limit/upper").text == "0"


def test_global_option_preserves_every_fixed_joint():
    m = convert(TWO_LINKS, ConvertOptions(preserve_fixed_joints=True))
    assert at(m, "joint@weld").attrs["type"] == "fixed"
    assert float(at(m, "link@base/inertial/mass").text) == 2.0


def test_joints_below_a_lumped_link_are_reattached_to_the_kept_parent():
    m = convert(TWO_LINKS + "<link name='finger'>" + inertial(1) + "</link>"
                "<joint name='slide' type='prismatic'><parent link='tool'/><child link='finger'/>"
                "<origin xyz='1 0 0'/><limit lower='0' upper='1' effort='1' velocity='1'/></joint>")
    j = at(m, "joint@slide")
    assert at(j, "parent").text == "base"
    assert at(j, "pose").attrs["relative_to"] == "base"
    assert numbers(at(j, "pose")) == pytest.approx([0, 1, 1, 0, 0, 1.5707963267948966])


def test_extensions_of_a_lumped_link_follow_it_into_the_parent():
    m = convert(TWO_LINKS + "<gazebo reference='tool'><material>Gazebo/Blue</material>"
                "<sensor name='cam' type='camera'><pose>1 0 0 0 0 0</pose></sensor>"
                "<plugin name='p' filename='f'><bodyName>tool</bodyName></plugin></gazebo>")
    base = at(m, "link@base")
    assert numbers(at(base, "sensor@cam/pose")) == pytest.approx(
        [0, 1, 1, 0, 0, 1.5708], abs=1e-5)
    assert at(base, "plugin@p/bodyName").text == "base"
    assert at(base, "plugin@p/ignition::corrected_offsets").text == "1"
    lumped = at(base, "visual@base_fixed_joint_lump__tool_visual")
    assert at(lumped, "material/script/name").text == "Gazebo/Blue"


def test_a_lumped_joint_named_as_its_lumped_parent_link_is_not_attached_to_itself():
    # pybullet's minitaur: joint 'motor_link' hangs 'leg' from link
    # 'motor_link', itself lumped into 'base'; libsdformat refuses a frame
    # attached to itself ("causing a graph cycle")
    m = convert("<link name='base'>" + inertial(1) + "</link>"
                "<link name='motor_link'>" + inertial(1) + "</link>"
                "<link name='leg'>" + inertial(1) + "</link>"
                "<joint name='motor_joint' type='fixed'><parent link='base'/>"
                "<child link='motor_link'/><origin xyz='0 0 1'/></joint>"
                "<joint name='motor_link' type='fixed'><parent link='motor_link'/>"
                "<child link='leg'/><origin xyz='0 1 0'/></joint>")
    frames = {f.attrs["name"]: f.attrs["attached_to"] for f in m.all("frame")}
    assert frames == {"motor_link": "motor_joint", "leg": "motor_link",
                      "motor_joint": "base"}
