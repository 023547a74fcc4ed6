"""finalize(): the offset frames Drake makes to model joints (only where a
joint needs them, forward or reversed), welded groups, and the joint
lookups and limits the readers use."""
from __future__ import annotations

import pytest

from conftest import HEAVY, robot
from mbparse import MultibodyPlant
from mbparse.formats.common.xml import XmlDiagnostic, parse_xml_bytes
from mbparse.diagnostics import DiagnosticPolicy
from mbparse.loading import LoadOptions, load
from mbparse.plant import ModelError, RevoluteJoint, WeldJoint
from mbparse.plant.topology import welded_subgraphs
from mbparse.spatial import RigidTransform


def plant_with(*names: str) -> tuple[MultibodyPlant, dict]:
    plant = MultibodyPlant()
    bodies = {name: plant.add_rigid_body(name, 1) for name in names}
    return plant, bodies


def ephemeral_frames(plant: MultibodyPlant) -> list[str]:
    return [f.name for f in plant.frames() if f.is_ephemeral]


def test_finalize_adds_no_offset_frame_for_forward_joints_on_unit_axes():
    plant, b = plant_with("a", "b", "c")
    plant.add_joint(RevoluteJoint, "ab", b["a"], None, b["b"], None, axis=(0, 0, 1))
    plant.add_joint(RevoluteJoint, "bc", b["b"], None, b["c"], None, axis=(0, 1, 0))
    plant.finalize()
    assert ephemeral_frames(plant) == []


def test_finalize_adds_offset_frames_for_an_axis_that_is_not_a_positive_unit_axis():
    plant, b = plant_with("a", "b")
    plant.add_joint(RevoluteJoint, "ab", b["a"], None, b["b"], None, axis=(0, 0, -1))
    plant.finalize()
    assert ephemeral_frames(plant) == ["ab_a_F", "ab_b_M"]


def test_finalize_adds_offset_frames_for_a_joint_modelled_reversed():
    # b is the child of two joints: the tree is rooted at a (child of none,
    # parent of most), so joint cb is walked from b to c: reversed, its +z
    # axis becomes -z and needs offset frames.
    plant, b = plant_with("a", "b", "c")
    plant.add_joint(RevoluteJoint, "ab", b["a"], None, b["b"], None, axis=(0, 0, 1))
    plant.add_joint(RevoluteJoint, "cb", b["c"], None, b["b"], None, axis=(0, 0, 1))
    plant.finalize()
    assert ephemeral_frames(plant) == ["cb_b_F", "cb_c_M"]


def test_finalize_adds_an_offset_frame_for_a_weld_with_an_offset():
    plant, b = plant_with("a", "b")
    plant.add_joint(WeldJoint, "ab", b["a"], None, b["b"], None,
                    X_FM=RigidTransform(p=(1.0, 0.0, 0.0)))
    plant.finalize()
    assert ephemeral_frames(plant) == ["ab_a_F"]


def test_finalize_floats_each_free_tree_at_its_root_in_order_then_lone_bodies():
    plant, b = plant_with("lone", "c", "d", "a", "b")
    plant.add_joint(RevoluteJoint, "ab", b["a"], None, b["b"], None, axis=(0, 0, 1))
    plant.add_joint(RevoluteJoint, "cd", b["c"], None, b["d"], None, axis=(0, 0, 1))
    plant.finalize()
    floating = [j.child_body.name for j in plant.joints() if j.is_ephemeral]
    # both roots are a child of no joint and a parent of one: lower index first
    assert floating == ["c", "a", "lone"]


def test_welded_subgraphs_without_singletons_lists_only_welded_groups_in_order():
    plant, b = plant_with("a", "b", "c", "d")
    plant.add_joint(WeldJoint, "cd", b["c"], None, b["d"], None)
    plant.add_joint(WeldJoint, "wa", plant.world_body(), None, b["a"], None)
    # bodies: world 0, a 1, b 2, c 3, d 4; groups ordered by their lowest index
    assert welded_subgraphs(plant) == [{0, 1}, {2}, {3, 4}]
    assert welded_subgraphs(plant, singletons=False) == [{0, 1}, {3, 4}]


def test_find_joint_gives_the_joint_or_none():
    plant, b = plant_with("a", "b")
    joint = plant.add_joint(RevoluteJoint, "ab", b["a"], None, b["b"], None, axis=(0, 0, 1))
    assert plant.find_joint("ab", 1) is joint
    assert plant.find_joint("nope", 1) is None
    with pytest.raises(ModelError, match="no model instance with index 7"):
        plant.find_joint("ab", 7)


def test_find_joint_actuator_gives_the_actuator_or_none():
    plant, b = plant_with("a", "b")
    joint = plant.add_joint(RevoluteJoint, "ab", b["a"], None, b["b"], None, axis=(0, 0, 1))
    actuator = plant.add_joint_actuator("m", joint)
    assert plant.find_joint_actuator("m", 1) is actuator
    assert plant.find_joint_actuator("n", 1) is None


def test_velocity_and_acceleration_limits_in_one_call():
    plant, b = plant_with("a", "b")
    joint = plant.add_joint(RevoluteJoint, "ab", b["a"], None, b["b"], None, axis=(0, 0, 1))
    joint.set_velocity_and_acceleration_limits(2.0, 3.0)
    assert (joint.vel_lower, joint.vel_upper, joint.acc_lower, joint.acc_upper) == (
        [-2.0], [2.0], [-3.0], [3.0])
    with pytest.raises(ModelError, match="velocity lower limit 1.0 is greater than the upper "
                                         "limit -1.0"):
        joint.set_velocity_and_acceleration_limits(-1.0, 3.0)
    with pytest.raises(ModelError, match="acceleration lower limit 1.0 is greater"):
        joint.set_velocity_and_acceleration_limits(2.0, -1.0)


def test_xml_scalars_reads_several_attributes_as_scalar_does():
    root = parse_xml_bytes(b'<robot xmlns:drake="http://drake.mit.edu"><limit lower="-1" '
                           b'upper="2" drake:acceleration="4"/></robot>')[0]
    diag = XmlDiagnostic(DiagnosticPolicy(), "f.urdf")
    limit = root[0]
    names = ("lower", "upper", "velocity", "drake:acceleration")
    defaults = [0.0, 0.0, 9.0, 0.0]
    assert diag.scalars(limit, names, list(defaults)) == [-1.0, 2.0, 9.0, 4.0]
    assert diag.scalars(limit, names, list(defaults)) == [
        diag.scalar(limit, n, d) for n, d in zip(names, defaults)]
    for xml in (b'<limit lower="-1" upper="2"/>', b'<limit lower="-1" current="5"/>',
                b'<limit drake:acceleration="3"/>'):
        root = parse_xml_bytes(b'<robot xmlns:drake="http://drake.mit.edu">' + xml +
                               b'</robot>')[0]
        assert diag.scalars(root[0], names, list(defaults)) == [
            diag.scalar(root[0], n, d) for n, d in zip(names, defaults)]


def test_urdf_mimic_on_a_joint_without_a_name_is_a_located_warning_when_errors_are_collected(
        tmp_path):
    path = tmp_path / "nameless.urdf"
    path.write_text(robot(f"""
  <link name="base">{HEAVY}</link><link name="a">{HEAVY}</link><link name="b">{HEAVY}</link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/></joint>
  <joint type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <mimic joint="j1"/></joint>"""))
    loaded = load(str(path), LoadOptions(collect_errors=True), finalize=False)
    assert [(e.line, e.message) for e in loaded.errors] == [(6, "<joint> has no name attribute")]
    assert [(w.line, w.code) for w in loaded.warnings] == [(7, "urdf-unsupported")]
