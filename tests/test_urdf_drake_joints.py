"""URDF joints with Drake's extensions: <drake:joint> of type ball, planar,
screw and universal, drake:screw_thread_pitch, drake:acceleration, and the
standard joint types' limits and dynamics."""
from __future__ import annotations

import math

import pytest

from conftest import HEAVY, line_of, parse_urdf, robot
from mbparse import ParseError
from mbparse.plant import (BallRpyJoint, PlanarJoint, PrismaticJoint, RevoluteJoint,
                           ScrewJoint, UniversalJoint, WeldJoint)


def two_links(joint: str) -> str:
    return robot(f'<link name="base">{HEAVY}</link><link name="tip">{HEAVY}</link>\n{joint}')


def joint(tag: str, jtype: str, inside: str = "", name: str = "j") -> str:
    return (f'<{tag} name="{name}" type="{jtype}"><parent link="base"/><child link="tip"/>'
            f"{inside}</{tag}>")


def the_joint(text: str, **options):
    parsed = parse_urdf(text, **options)
    return parsed.plant.get_joint_by_name("j", parsed.instance)


# ------------------------------------------------------------ drake:joint
@pytest.mark.parametrize("jtype, cls, nq", [("ball", BallRpyJoint, 3),
                                            ("universal", UniversalJoint, 2),
                                            ("planar", PlanarJoint, 3)])
def test_urdf_drake_joint_types(jtype, cls, nq):
    j = the_joint(two_links(joint("drake:joint", jtype)), strict=True)
    assert type(j) is cls and j.nq == nq


def test_urdf_drake_joint_screw_with_thread_pitch():
    inside = '<axis xyz="0 0 1"/><drake:screw_thread_pitch value="0.04"/>'
    j = the_joint(two_links(joint("drake:joint", "screw", inside)), strict=True)
    assert type(j) is ScrewJoint
    assert j.screw_pitch == 0.04 and j.axis == (0.0, 0.0, 1.0)


def test_urdf_drake_joint_screw_without_thread_pitch_is_an_error():
    text = two_links(joint("drake:joint", "screw"))
    with pytest.raises(ParseError, match="screw_thread_pitch") as info:
        parse_urdf(text)
    assert f"<string>:{line_of(text, '<drake:joint')}:" in str(info.value)


def test_urdf_drake_screw_thread_pitch_without_value_is_an_error():
    text = two_links(joint("drake:joint", "screw", "<drake:screw_thread_pitch/>"))
    with pytest.raises(ParseError, match="value"):
        parse_urdf(text)


@pytest.mark.parametrize("jtype", ["ball", "screw", "universal"])
def test_urdf_custom_joint_type_in_a_plain_joint_is_an_error(jtype):
    inside = '<drake:screw_thread_pitch value="1"/>' if jtype == "screw" else ""
    with pytest.raises(ParseError, match="drake:joint"):
        parse_urdf(two_links(joint("joint", jtype, inside)))


@pytest.mark.parametrize("jtype", ["revolute", "continuous", "prismatic", "fixed", "floating"])
def test_urdf_standard_joint_type_in_a_drake_joint_is_an_error(jtype):
    with pytest.raises(ParseError, match=jtype):
        parse_urdf(two_links(joint("drake:joint", jtype)))


def test_urdf_planar_joint_may_be_written_either_way():
    for tag in ("joint", "drake:joint"):
        assert type(the_joint(two_links(joint(tag, "planar")), strict=True)) is PlanarJoint


def test_urdf_planar_joint_reads_three_damping_values():
    j = the_joint(two_links(joint("joint", "planar", '<dynamics damping="1 2 3"/>')))
    assert j.damping == [1.0, 2.0, 3.0]


def test_urdf_planar_joint_axis_sets_the_plane_normal():
    j = the_joint(two_links(joint("joint", "planar", '<axis xyz="1 0 0"/>')))
    # The joint's z axis (the plane normal) is the URDF axis, expressed in the child.
    R = j.frame_on_child.X_BF.R
    assert [round(R[i][2], 12) for i in range(3)] == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("jtype", ["ball", "universal"])
def test_urdf_drake_joint_damping_applies_to_every_dof(jtype):
    j = the_joint(two_links(joint("drake:joint", jtype, '<dynamics damping="0.5"/>')))
    assert j.damping == [0.5] * j.nv


def test_urdf_unknown_joint_type_is_an_error():
    with pytest.raises(ParseError, match="wobbly"):
        parse_urdf(two_links(joint("joint", "wobbly")))


# ------------------------------------------------------------ standard joints
@pytest.mark.parametrize("jtype, cls", [("revolute", RevoluteJoint),
                                        ("continuous", RevoluteJoint),
                                        ("prismatic", PrismaticJoint), ("fixed", WeldJoint)])
def test_urdf_standard_joint_types(jtype, cls):
    assert type(the_joint(two_links(joint("joint", jtype)), strict=True)) is cls


def test_urdf_floating_joint_leaves_the_child_free_with_a_warning():
    parsed = parse_urdf(two_links(joint("joint", "floating")))
    assert not parsed.plant.has_joint_named("j")
    assert any("floating" in w for w in parsed.warnings)


def test_urdf_revolute_joint_limits_axis_and_damping():
    inside = ('<axis xyz="0 2 0"/><limit lower="-1" upper="2" effort="3" velocity="4"/>'
              '<dynamics damping="0.7"/>')
    j = the_joint(two_links(joint("joint", "revolute", inside)), strict=True)
    assert j.axis == (0.0, 1.0, 0.0)
    assert (j.pos_lower, j.pos_upper) == ([-1.0], [2.0])
    assert (j.vel_lower, j.vel_upper) == ([-4.0], [4.0])
    assert j.damping == [0.7]


def test_urdf_joint_without_limit_is_unbounded():
    j = the_joint(two_links(joint("joint", "continuous")))
    assert (j.pos_lower, j.pos_upper) == ([-math.inf], [math.inf])
    assert (j.vel_lower, j.acc_upper) == ([-math.inf], [math.inf])


@pytest.mark.parametrize("jtype", ["revolute", "continuous", "prismatic"])
def test_urdf_drake_acceleration_limit(jtype):
    inside = '<limit effort="1" velocity="1" drake:acceleration="9.5"/>'
    j = the_joint(two_links(joint("joint", jtype, inside)), strict=True)
    assert (j.acc_lower, j.acc_upper) == ([-9.5], [9.5])


@pytest.mark.parametrize("jtype", ["revolute", "continuous"])
def test_urdf_joint_lower_limit_above_upper_is_a_located_error_like_drake(jtype):
    text = two_links(joint("joint", jtype, '<limit lower="2" upper="1"/>'))
    with pytest.raises(ParseError) as info:
        parse_urdf(text, like_drake=True)
    assert f"<string>:{line_of(text, '<joint')}:" in str(info.value)


@pytest.mark.parametrize("jtype", ["prismatic", "continuous"])
def test_urdf_joint_lower_limit_above_upper_is_unlimited_with_a_located_warning_by_default(jtype):
    # pybullet's models (cube_no_rotation.urdf: prismatic and continuous joints)
    # write lower > upper for "no limit".
    text = two_links(joint("joint", jtype, '<limit lower="1" upper="-1"/>'))
    p = parse_urdf(text)
    j = p.plant.get_joint_by_name("j", p.instance)
    assert (j.pos_lower, j.pos_upper) == ([-math.inf], [math.inf])
    (d,) = [d for d in p.parser.diagnostic_policy().warnings_seen if d.code == "limit-inverted"]
    assert d.line == line_of(text, "<joint") and "Drake refuses" in d.message


def test_urdf_joint_zero_axis_is_an_error():
    with pytest.raises(ParseError, match="axis"):
        parse_urdf(two_links(joint("joint", "revolute", '<axis xyz="0 0 0"/>')))


def test_urdf_joint_friction_warns():
    parsed = parse_urdf(two_links(joint("joint", "revolute", '<dynamics friction="0.3"/>')))
    assert any("friction" in w for w in parsed.warnings)


def test_urdf_joint_origin_places_the_parent_frame():
    j = the_joint(two_links(joint("joint", "revolute", '<origin xyz="0 0 1"/>')))
    assert j.frame_on_parent.name == "j_parent"
    assert j.frame_on_parent.X_BF.p == (0.0, 0.0, 1.0)
    assert j.frame_on_child is j.child_body.body_frame


def test_urdf_joint_at_identity_still_has_its_own_parent_frame_as_in_drake():
    j = the_joint(two_links(joint("joint", "revolute")))
    assert j.frame_on_parent.name == "j_parent"
    assert j.frame_on_parent.body is j.parent_body and j.frame_on_parent.X_BF.is_exactly_identity()
    assert j.frame_on_child is j.child_body.body_frame


def test_urdf_joint_to_world_link():
    text = robot(f'<link name="world"/><link name="tip">{HEAVY}</link>'
                 '<joint name="j" type="fixed"><parent link="world"/><child link="tip"/></joint>')
    j = the_joint(text, strict=True)
    assert j.parent_body.is_world()


def test_urdf_duplicate_joint_name_is_an_error():
    text = robot('<link name="a"/><link name="b"/><link name="c"/>'
                 '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>'
                 '<joint name="j" type="fixed"><parent link="b"/><child link="c"/></joint>')
    with pytest.raises(ParseError, match="'j'"):
        parse_urdf(text)
