"""The model: accessors, finalize (floating joints for free bodies, loops
rejected), forward kinematics, and inertia validation."""
from __future__ import annotations

import math

import pytest

from conftest import HEAVY, parse_urdf, robot
from mbparse import MultibodyPlant
from mbparse.plant import ModelError, QuaternionFloatingJoint, RevoluteJoint, WeldJoint
from mbparse.spatial import RigidTransform, SpatialInertia

ARM = robot(f"""
  <link name="base">{HEAVY}</link>
  <link name="upper">{HEAVY}</link>
  <link name="lower">{HEAVY}</link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/>
    <origin xyz="0 0 1"/><axis xyz="0 0 1"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="upper"/><child link="lower"/>
    <origin xyz="1 0 0"/><axis xyz="0 0 1"/>
  </joint>
  <transmission><type>SimpleTransmission</type><joint name="shoulder"/>
    <actuator name="motor"/></transmission>
  <frame name="tool" link="lower" xyz="0.5 0 0"/>
""", name="arm")


def close(a, b, tol=1e-12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# ------------------------------------------------------------ accessors
def test_plant_accessors_after_parsing():
    parsed = parse_urdf(ARM, strict=True)
    plant, mi = parsed.plant, parsed.instance
    assert plant.get_model_instance_name(mi) == "arm"
    assert plant.num_bodies() == 4  # world + 3
    assert plant.num_joints() == 2
    assert plant.num_actuators() == 1
    assert plant.num_constraints() == 0
    # A body frame per body, the joint frame "shoulder_parent", "elbow_parent" and "tool".
    assert plant.num_frames() == 4 + 2 + 1
    assert plant.get_body_by_name("upper", mi).name == "upper"
    assert isinstance(plant.get_joint_by_name("elbow", mi), RevoluteJoint)
    assert plant.get_frame_by_name("tool", mi).body is plant.get_body_by_name("lower", mi)
    assert plant.get_joint_actuator_by_name("motor", mi).joint.name == "shoulder"


def test_plant_lookup_of_unknown_name_is_a_model_error():
    parsed = parse_urdf(ARM)
    with pytest.raises(ModelError, match="ghost"):
        parsed.plant.get_body_by_name("ghost", parsed.instance)
    with pytest.raises(ModelError, match="ghost"):
        parsed.plant.get_joint_by_name("ghost")


def test_plant_lookup_without_instance_needs_a_unique_name():
    plant = MultibodyPlant(0.0)
    a, b = plant.add_model_instance("a"), plant.add_model_instance("b")
    plant.add_rigid_body("link", a)
    plant.add_rigid_body("link", b)
    with pytest.raises(ModelError, match="not unique"):
        plant.get_body_by_name("link")
    assert plant.get_body_by_name("link", b).model_instance == b


def test_plant_duplicate_body_name_in_an_instance_is_a_model_error():
    plant = MultibodyPlant(0.0)
    mi = plant.add_model_instance("m")
    plant.add_rigid_body("b", mi)
    with pytest.raises(ModelError, match="'b'"):
        plant.add_rigid_body("b", mi)


def test_plant_world_and_default_model_instances_exist():
    plant = MultibodyPlant(0.0)
    assert plant.get_model_instance_name(0) == "WorldModelInstance"
    assert plant.get_model_instance_name(1) == "DefaultModelInstance"
    assert plant.world_body().name == "world" and plant.num_bodies() == 1


def test_plant_finalized_refuses_additions():
    plant = MultibodyPlant(0.0)
    plant.finalize()
    with pytest.raises(ModelError, match="finalized"):
        plant.add_rigid_body("late")


# ------------------------------------------------------------ finalize
def test_plant_finalize_gives_a_free_body_a_quaternion_floating_joint_named_after_it():
    parsed = parse_urdf(robot(f'<link name="rock">{HEAVY}</link>', "m"))
    plant = parsed.plant
    plant.finalize()
    joint = plant.get_joint_by_name("rock", parsed.instance)
    assert isinstance(joint, QuaternionFloatingJoint)
    assert joint.parent_body.is_world() and joint.child_body.name == "rock"
    assert joint.default_positions == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert plant.get_body_by_name("rock").is_floating_base_body


def test_plant_finalize_floats_only_the_base_of_a_free_tree():
    parsed = parse_urdf(ARM)
    parsed.plant.finalize()
    floating = [j for j in parsed.plant.joints() if isinstance(j, QuaternionFloatingJoint)]
    assert [j.name for j in floating] == ["base"]
    assert [j.child_body.name for j in floating] == ["base"]


def test_plant_finalize_floating_joint_name_avoids_a_taken_joint_name():
    text = robot(f'<link name="base">{HEAVY}</link><link name="tip">{HEAVY}</link>'
                 '<joint name="base" type="fixed"><parent link="base"/><child link="tip"/>'
                 "</joint>")
    parsed = parse_urdf(text)
    parsed.plant.finalize()
    assert parsed.plant.has_joint_named("_base", parsed.instance)


def test_plant_finalize_leaves_a_body_welded_to_the_world_alone():
    text = robot(f'<link name="world"/><link name="base">{HEAVY}</link>'
                 '<joint name="weld" type="fixed"><parent link="world"/><child link="base"/>'
                 "</joint>")
    parsed = parse_urdf(text)
    parsed.plant.finalize()
    assert [type(j) for j in parsed.plant.joints()] == [WeldJoint]


def test_plant_finalize_rejects_a_loop_of_joints_naming_the_joint():
    text = robot(f"""<link name="a">{HEAVY}</link><link name="b">{HEAVY}</link>
      <link name="c">{HEAVY}</link>
      <joint name="ab" type="continuous"><parent link="a"/><child link="b"/></joint>
      <joint name="bc" type="continuous"><parent link="b"/><child link="c"/></joint>
      <joint name="ca" type="continuous"><parent link="c"/><child link="a"/></joint>""")
    parsed = parse_urdf(text)
    with pytest.raises(ModelError, match="'ca'.*loop"):
        parsed.plant.finalize()


def test_plant_finalize_filters_collisions_between_jointed_bodies():
    box = '<collision><geometry><box size="1 1 1"/></geometry></collision>'
    text = robot(f'<link name="a">{HEAVY}{box}</link><link name="b">{HEAVY}{box}</link>'
                 f'<link name="c">{HEAVY}{box}</link>'
                 '<joint name="ab" type="continuous"><parent link="a"/><child link="b"/></joint>')
    parsed = parse_urdf(text)
    sg = parsed.plant.scene_graph
    a, b, c = (parsed.plant.get_body_by_name(n).index for n in "abc")
    assert not sg.is_excluded(a, b)
    parsed.plant.finalize()
    assert sg.is_excluded(a, b) and not sg.is_excluded(a, c)


# ------------------------------------------------------------ forward kinematics
def test_plant_forward_kinematics_at_default_positions():
    parsed = parse_urdf(ARM)
    plant = parsed.plant
    plant.finalize()
    poses = plant.calc_body_poses_in_world()
    lower = plant.get_body_by_name("lower")
    assert close(poses[lower.index].p, (1.0, 0.0, 1.0))


def test_plant_forward_kinematics_for_given_joint_positions():
    parsed = parse_urdf(ARM)
    plant = parsed.plant
    plant.finalize()
    poses = plant.calc_body_poses_in_world({"arm::shoulder": [math.pi / 2],
                                            "arm::elbow": [math.pi / 2]})
    upper, lower = plant.get_body_by_name("upper"), plant.get_body_by_name("lower")
    assert close(poses[upper.index].p, (0.0, 0.0, 1.0))
    assert close(poses[lower.index].p, (0.0, 1.0, 1.0))
    # Two quarter turns about z: the lower link's x axis points along world -x.
    R = poses[lower.index].R
    assert close((R[0][0], R[1][0], R[2][0]), (-1.0, 0.0, 0.0))
    tool = plant.get_frame_by_name("tool")
    assert close(plant.calc_frame_pose_in_world(tool, {"arm::shoulder": [math.pi / 2],
                                                       "arm::elbow": [math.pi / 2]}).p,
                 (-0.5, 1.0, 1.0))


def test_plant_forward_kinematics_of_a_prismatic_joint():
    text = robot(f'<link name="world"/><link name="slider">{HEAVY}</link>'
                 '<joint name="s" type="prismatic"><parent link="world"/><child link="slider"/>'
                 '<axis xyz="0 1 0"/></joint>', "m")
    parsed = parse_urdf(text)
    parsed.plant.finalize()
    poses = parsed.plant.calc_body_poses_in_world({"m::s": [0.25]})
    assert close(poses[parsed.plant.get_body_by_name("slider").index].p, (0.0, 0.25, 0.0))


def test_plant_forward_kinematics_of_a_free_body_uses_its_default_pose():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("rock", plant.add_model_instance("m"),
                                SpatialInertia(1.0, (0, 0, 0), (0.1, 0.1, 0.1, 0, 0, 0)))
    plant.set_default_free_body_pose(body, RigidTransform(p=(1.0, 2.0, 3.0)))
    plant.finalize()
    assert close(plant.calc_body_poses_in_world()[body.index].p, (1.0, 2.0, 3.0))


def test_plant_forward_kinematics_needs_a_finalized_plant():
    with pytest.raises(ModelError, match="finalized"):
        parse_urdf(ARM).plant.calc_body_poses_in_world()


def test_plant_joint_added_directly_to_the_plant():
    plant = MultibodyPlant(0.0)
    mi = plant.add_model_instance("m")
    M = SpatialInertia(1.0, (0, 0, 0), (0.1, 0.1, 0.1, 0, 0, 0))
    a, b = plant.add_rigid_body("a", mi, M), plant.add_rigid_body("b", mi, M)
    joint = plant.add_joint(RevoluteJoint, "j", a, RigidTransform(p=(0, 0, 2)), b, None,
                            (1, 0, 0))
    assert joint.frame_on_parent.name == "j_parent"
    assert plant.get_frame_by_name("j_parent", mi).X_BF.p == (0, 0, 2)


# ------------------------------------------------------------ inertia
def test_plant_inertia_from_urdf_is_about_the_body_origin():
    text = robot('<link name="a"><inertial><origin xyz="0 0 2"/><mass value="3"/>'
                 '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>')
    body = parse_urdf(text, strict=True).plant.get_body_by_name("a")
    M = body.default_spatial_inertia
    assert M.mass == 3.0 and M.com == (0.0, 0.0, 2.0)
    assert close(M.inertia_about_origin(), (1 + 12.0, 1 + 12.0, 1.0, 0, 0, 0))


def test_plant_inertia_rotated_by_the_inertial_origin():
    text = robot('<link name="a"><inertial><origin rpy="0 0 1.5707963267948966"/>'
                 '<mass value="1"/><inertia ixx="1" iyy="2" izz="3" ixy="0" ixz="0" iyz="0"/>'
                 "</inertial></link>")
    M = parse_urdf(text).plant.get_body_by_name("a").default_spatial_inertia
    assert close(M.I_cm, (2.0, 1.0, 3.0, 0.0, 0.0, 0.0), 1e-12)


def test_plant_inertia_violating_the_triangle_inequality_warns_and_is_made_plausible():
    text = robot('<link name="a"><inertial><mass value="2"/>'
                 '<inertia ixx="1" iyy="1" izz="5" ixy="0" ixz="0" iyz="0"/></inertial></link>')
    parsed = parse_urdf(text)
    assert len(parsed.warnings) == 1 and "triangle" in parsed.warnings[0]
    M = parsed.plant.get_body_by_name("a").default_spatial_inertia
    assert M.invalidity() is None
    assert math.isclose(M.mass, 2.0)
    assert M.I_cm[0] == M.I_cm[1] == M.I_cm[2] > 0


def test_plant_negative_principal_inertia_warns():
    text = robot('<link name="a"><inertial><mass value="1"/>'
                 '<inertia ixx="-1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>')
    parsed = parse_urdf(text)
    assert len(parsed.warnings) == 1 and "negative" in parsed.warnings[0]


def test_plant_link_without_inertial_is_massless():
    body = parse_urdf(robot('<link name="a"/>'), strict=True).plant.get_body_by_name("a")
    assert body.mass == 0.0


def test_plant_rejects_an_invalid_spatial_inertia():
    plant = MultibodyPlant(0.0)
    with pytest.raises(ModelError, match="negative"):
        plant.add_rigid_body("a", 1, SpatialInertia(-1.0))
