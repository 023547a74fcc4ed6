"""Drake's two-body elements (bushings, spring-dampers, ball and distance
constraints) mean the same in URDF and SDFormat: one reader, one message."""
from __future__ import annotations

import pytest

from mbparse import MultibodyPlant, Parser
from mbparse.diagnostics import ParseError

URDF = """<robot name="r" xmlns:drake="http://drake.mit.edu">
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <drake:distance_constraint>
    <drake:distance_constraint_body_A name="a"/>
    <drake:distance_constraint_body_B name="b"/>
    <drake:distance_constraint_p_AP value="0 0 0"/>
    <drake:distance_constraint_p_BQ value="0 0 0"/>
    <drake:distance_constraint_distance value="{distance}"/>
    <drake:distance_constraint_stiffness value="1"/>
    <drake:distance_constraint_damping value="0"/>
  </drake:distance_constraint>
</robot>
"""

SDF = """<sdf version="1.9" xmlns:drake="http://drake.mit.edu"><model name="r">
  <link name="a"/>
  <link name="b"/>
  <drake:distance_constraint>
    <drake:distance_constraint_body_A>a</drake:distance_constraint_body_A>
    <drake:distance_constraint_body_B>b</drake:distance_constraint_body_B>
    <drake:distance_constraint_p_AP>0 0 0</drake:distance_constraint_p_AP>
    <drake:distance_constraint_p_BQ>0 0 0</drake:distance_constraint_p_BQ>
    <drake:distance_constraint_distance>{distance}</drake:distance_constraint_distance>
    <drake:distance_constraint_stiffness>1</drake:distance_constraint_stiffness>
    <drake:distance_constraint_damping>0</drake:distance_constraint_damping>
  </drake:distance_constraint>
</model></sdf>
"""


def _parse(text: str, kind: str):
    plant = MultibodyPlant(0.0)
    Parser(plant).add_models_from_string(text, kind)
    return plant


@pytest.mark.parametrize("template, kind", [(URDF, "urdf"), (SDF, "sdf")])
def test_a_distance_constraint_is_read_the_same_in_both_formats(template, kind):
    (c,) = _parse(template.format(distance=0.5), kind).constraints()
    assert (c.body_A.name, c.body_B.name, c.distance, c.stiffness, c.damping) == \
        ("a", "b", 0.5, 1.0, 0.0)


@pytest.mark.parametrize("template, kind", [(URDF, "urdf"), (SDF, "sdf")])
def test_a_non_positive_distance_is_one_message_at_the_child_line(template, kind):
    with pytest.raises(ParseError) as info:
        _parse(template.format(distance=-1), kind)
    d = info.value.diagnostic
    assert d.message == "<drake:distance_constraint_distance> must be positive; it is -1"
    assert d.line == 9 and d.code == "value-out-of-range"
