"""URDF features Drake does not use: the tags that provoke a warning, the tags
ignored silently, and mechanicalReduction's special treatment."""
from __future__ import annotations

import pytest

from conftest import HEAVY, line_of, parse_file, parse_urdf, robot
from mbparse import ParseError

ARM = f"""
  <link name="base">{HEAVY}</link>
  <link name="l1">{HEAVY}</link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/>
    {{joint_extra}}
  </joint>
  {{robot_extra}}
"""


def arm(joint_extra: str = "", robot_extra: str = "") -> str:
    return robot(ARM.format(joint_extra=joint_extra, robot_extra=robot_extra))


def transmission(inside: str = "", actuator_inside: str = "", joint_inside: str = "",
                 attributes: str = "") -> str:
    return f"""<transmission {attributes}>
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j1">{joint_inside}</joint>
    <actuator name="m1">{actuator_inside}</actuator>
    {inside}
  </transmission>"""


def assert_one_warning_at(parsed_text: str, needle: str, words: str, write) -> None:
    """Parsing warns once, at the line of ``needle``, mentioning ``words``;
    strict parsing makes it an error at the same place."""
    path = write("model.urdf", parsed_text)
    parsed = parse_file(path)
    seen = parsed.parser.diagnostic_policy().warnings_seen
    assert len(seen) == 1, [str(d) for d in seen]
    assert words in seen[0].message
    assert seen[0].file == str(path)
    assert seen[0].line == line_of(parsed_text, needle)
    with pytest.raises(ParseError) as info:
        parse_file(path, strict=True)
    assert f"{path}:{line_of(parsed_text, needle)}:" in str(info.value)


# ------------------------------------------------------------ tags that warn
def test_urdf_robot_version_attribute_warns(write):
    text = robot("<link name='a'/>").replace('<robot name="r"', '<robot version="1.0" name="r"')
    assert_one_warning_at(text, "<robot version", "version", write)


def test_urdf_joint_calibration_warns(write):
    text = arm(joint_extra='<calibration rising="0.0"/>')
    assert_one_warning_at(text, "<calibration", "calibration", write)


def test_urdf_joint_safety_controller_warns(write):
    text = arm(joint_extra='<safety_controller k_velocity="10"/>')
    assert_one_warning_at(text, "<safety_controller", "safety_controller", write)


def test_urdf_link_type_attribute_warns(write):
    text = robot('<link name="a" type="legacy"/>')
    assert_one_warning_at(text, 'type="legacy"', "type", write)


def test_urdf_collision_verbose_warns(write):
    text = robot('<link name="a"><collision><verbose value="1"/><geometry><box size="1 1 1"/>'
                 '</geometry></collision></link>')
    assert_one_warning_at(text, "<verbose", "verbose", write)


def test_urdf_transmission_name_attribute_warns(write):
    text = arm(robot_extra=transmission(attributes='name="t1"'))
    assert_one_warning_at(text, 'name="t1"', "name", write)


@pytest.mark.parametrize("tag", ["flexJoint", "gap_joint", "leftActuator", "passive_joint",
                                 "rightActuator", "rollJoint", "use_simulated_gripper_joint"])
def test_urdf_transmission_unsupported_child_warns(write, tag):
    text = arm(robot_extra=transmission(inside=f'<{tag} name="x"/>'))
    assert_one_warning_at(text, f"<{tag}", tag, write)


# ------------------------------------------------------------ tags ignored silently
def test_urdf_gazebo_is_ignored_silently():
    text = arm(robot_extra='<gazebo reference="l1"><material>Gazebo/Grey</material>'
                           '<mu1>0.2</mu1></gazebo><gazebo><plugin name="p"/></gazebo>')
    parsed = parse_urdf(text, strict=True)
    assert parsed.warnings == []


def test_urdf_transmission_hardware_interfaces_are_ignored_silently():
    text = arm(robot_extra=transmission(
        actuator_inside="<hardwareInterface>EffortJointInterface</hardwareInterface>",
        joint_inside="<hardwareInterface>hardware_interface/EffortJointInterface"
                     "</hardwareInterface>"))
    parsed = parse_urdf(text, strict=True)
    assert parsed.warnings == []
    assert parsed.plant.num_actuators() == 1


# ------------------------------------------------------------ mechanicalReduction
@pytest.mark.parametrize("where", ["transmission", "actuator"])
def test_urdf_mechanical_reduction_of_one_is_silent(where):
    tag = "<mechanicalReduction>1</mechanicalReduction>"
    trans = (transmission(inside=tag) if where == "transmission"
             else transmission(actuator_inside=tag))
    parsed = parse_urdf(arm(robot_extra=trans), strict=True)
    assert parsed.warnings == []
    assert parsed.plant.num_actuators() == 1


@pytest.mark.parametrize("where", ["transmission", "actuator"])
def test_urdf_mechanical_reduction_other_than_one_warns(write, where):
    tag = "<mechanicalReduction>50</mechanicalReduction>"
    trans = (transmission(inside=tag) if where == "transmission"
             else transmission(actuator_inside=tag))
    assert_one_warning_at(arm(robot_extra=trans), "<mechanicalReduction", "50", write)


def test_urdf_mechanical_reduction_warning_still_makes_the_actuator():
    trans = transmission(actuator_inside="<mechanicalReduction>2</mechanicalReduction>")
    parsed = parse_urdf(arm(robot_extra=trans))
    assert parsed.plant.num_actuators() == 1
    assert parsed.plant.get_joint_actuator_by_name("m1").gear_ratio == 1.0


# ------------------------------------------------------------ anything else warns
def test_urdf_unknown_robot_child_warns(write):
    text = robot('<link name="a"/><sparkle/>')
    assert_one_warning_at(text, "<sparkle", "sparkle", write)


def test_urdf_unknown_link_child_warns(write):
    text = robot('<link name="a"><sparkle/></link>')
    assert_one_warning_at(text, "<sparkle", "sparkle", write)
