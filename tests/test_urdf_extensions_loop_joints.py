"""URDF <loop_joint> (reference 002): a continuous loop joint closes a
kinematic loop as a constraint, never as a joint of the tree."""
from __future__ import annotations

import pytest

from conftest import HEAVY, error_at, parse_urdf, robot
from mbparse.summary import summarize

# A four-bar: base -> a -> b -> c as a tree; the loop joint ties c back to base.
FOUR_BAR = f"""
  <link name="base"/>
  <link name="a">{HEAVY}</link>
  <link name="b">{HEAVY}</link>
  <link name="c">{HEAVY}</link>
  <joint name="j0" type="continuous"><parent link="base"/><child link="a"/>
    <axis xyz="0 1 0"/></joint>
  <joint name="j1" type="continuous"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1"/><axis xyz="0 1 0"/></joint>
  <joint name="j2" type="continuous"><parent link="b"/><child link="c"/>
    <origin xyz="1 0 0"/><axis xyz="0 1 0"/></joint>
  {{loop}}
"""

LOOP = """<loop_joint name="j3" type="continuous">
    <link1 link="c"><origin xyz="0 0 -1" rpy="0 0 0.5"/></link1>
    <link2 link="base"><origin xyz="1 0 0"/></link2>
    <axis xyz="0 2 0"/>
  </loop_joint>"""


def four_bar(loop: str = LOOP) -> str:
    return robot(FOUR_BAR.format(loop=loop))


def loop_constraints(parsed):
    return [c for c in parsed.plant.constraints() if c.type == "loop_joint"]




def test_urdf_loop_joint_becomes_a_loop_constraint_between_its_two_frames():
    parsed = parse_urdf(four_bar())
    (c,) = loop_constraints(parsed)
    assert c.name == "j3"
    assert c.body_A.name == "c" and c.body_B.name == "base"
    assert c.X_AF.p == (0.0, 0.0, -1.0)
    assert c.X_AF.R[0][1] == pytest.approx(-0.479425538604203)  # -sin(0.5)
    assert c.X_BM.p == (1.0, 0.0, 0.0)
    assert c.axis == (0.0, 1.0, 0.0)  # normalized


def test_urdf_loop_joint_is_not_a_joint_and_finalize_accepts_the_loop():
    parsed = parse_urdf(four_bar())
    assert not parsed.plant.has_joint_named("j3")
    parsed.plant.finalize()  # a joint closing the loop would be refused here
    assert not parsed.plant.has_joint_named("j3")
    assert not any({j.parent_body.name, j.child_body.name} == {"c", "base"}
                   for j in parsed.plant.joints())


def test_urdf_loop_joint_is_allowed_on_a_discrete_tamsi_plant():
    parsed = parse_urdf(four_bar(), time_step=0.001, approximation="tamsi")
    assert len(loop_constraints(parsed)) == 1


def test_urdf_loop_joint_defaults_are_identity_origins_and_x_axis():
    loop = """<loop_joint name="j3" type="continuous">
      <link1 link="c"/><link2 link="base"/></loop_joint>"""
    (c,) = loop_constraints(parse_urdf(four_bar(loop)))
    assert c.X_AF.is_exactly_identity() and c.X_BM.is_exactly_identity()
    assert c.axis == (1.0, 0.0, 0.0)


def test_urdf_loop_joint_reads_xyz_rpy_written_on_the_link_elements():
    # The spelling of Drake's older example files (FourBar.urdf).
    loop = """<loop_joint name="j3" type="continuous"><axis xyz="0 1 0"/>
      <link1 link="c" rpy="0 0 0" xyz="0 0 2.6"/><link2 link="base" xyz="0.5 0 0"/>
    </loop_joint>"""
    (c,) = loop_constraints(parse_urdf(four_bar(loop)))
    assert c.X_AF.p == (0.0, 0.0, 2.6)
    assert c.X_BM.p == (0.5, 0.0, 0.0)


def test_urdf_loop_joint_may_end_on_the_world():
    loop = """<loop_joint name="j3" type="continuous">
      <link1 link="c"/><link2 link="world"/></loop_joint>"""
    (c,) = loop_constraints(parse_urdf(four_bar(loop)))
    assert c.body_B.is_world()


def test_urdf_loop_joint_appears_in_the_summary_constraints():
    parsed = parse_urdf(four_bar())
    parsed.plant.finalize()
    summary = summarize(parsed.plant, parsed.parser, parsed.instances)
    (entry,) = [c for c in summary["constraints"] if c["type"] == "loop_joint"]
    assert entry["name"] == "j3"
    assert entry["body_A"] == "r::c" and entry["body_B"] == "r::base"
    assert entry["X_BM"]["p"] == [1.0, 0.0, 0.0]
    assert entry["axis"] == [0.0, 1.0, 0.0]


@pytest.mark.parametrize("jtype", ["revolute", "prismatic", "fixed", "ball"])
def test_urdf_loop_joint_of_another_type_is_an_error(write, jtype):
    text = four_bar(LOOP.replace('type="continuous"', f'type="{jtype}"'))
    error_at(write, text, "<loop_joint", jtype)


def test_urdf_loop_joint_without_type_is_an_error(write):
    error_at(write, four_bar(LOOP.replace(' type="continuous"', "")), "<loop_joint", "type")


def test_urdf_loop_joint_without_name_is_an_error(write):
    error_at(write, four_bar(LOOP.replace(' name="j3"', "")), "<loop_joint", "name")


@pytest.mark.parametrize("tag", ["link1", "link2"])
def test_urdf_loop_joint_without_an_end_is_an_error(write, tag):
    loop = LOOP.replace(f"<{tag} ", f"<not_{tag} ").replace(f"</{tag}>", f"</not_{tag}>")
    error_at(write, four_bar(loop), "<loop_joint", tag)


def test_urdf_loop_joint_end_without_link_attribute_is_an_error(write):
    error_at(write, four_bar(LOOP.replace('<link2 link="base">', "<link2>")), "<link2",
             "link")


def test_urdf_loop_joint_to_an_unknown_link_is_an_error(write):
    error_at(write, four_bar(LOOP.replace('link="base"', 'link="nowhere"')), "<link2",
             "nowhere")


def test_urdf_loop_joint_from_a_link_to_itself_is_an_error(write):
    error_at(write, four_bar(LOOP.replace('link="base"', 'link="c"')), "<loop_joint",
             "itself")


def test_urdf_loop_joint_with_a_zero_axis_is_an_error(write):
    error_at(write, four_bar(LOOP.replace('xyz="0 2 0"', 'xyz="0 0 0"')), '<axis xyz="0 0 0"', "zero")


def test_urdf_loop_joint_with_its_pose_given_twice_is_an_error(write):
    error_at(write, four_bar(LOOP.replace('<link2 link="base">', '<link2 link="base" xyz="1 0 0">')),
             "<link2", "twice")


def test_urdf_loop_joint_named_as_a_joint_is_an_error(write):
    error_at(write, four_bar(LOOP.replace('name="j3"', 'name="j1"')), "<loop_joint", "j1")


def test_urdf_loop_joint_dynamics_warns_and_is_ignored():
    loop = LOOP.replace("<axis", '<dynamics damping="1"/><axis')
    parsed = parse_urdf(four_bar(loop))
    assert len(loop_constraints(parsed)) == 1
    assert any("dynamics" in w for w in parsed.warnings)
