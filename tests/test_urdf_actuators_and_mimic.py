"""URDF transmissions become joint actuators (with Drake's actuator
extensions), and <mimic> becomes a coupler constraint where the plant can
hold one."""
from __future__ import annotations

import math

import pytest

from conftest import HEAVY, line_of, parse_urdf, robot
from mbparse import ParseError


def model(joint_type: str = "revolute", limit: str = 'effort="12.5" velocity="1"',
          actuator_inside: str = "", extra: str = "") -> str:
    limit_el = f"<limit {limit}/>" if limit is not None else ""
    return robot(f"""
  <link name="base">{HEAVY}</link>
  <link name="l1">{HEAVY}</link>
  <joint name="j1" type="{joint_type}">
    <parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    {limit_el}
  </joint>
  <transmission>
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j1"/>
    <actuator name="m1">{actuator_inside}</actuator>
  </transmission>
  {extra}""")


# ------------------------------------------------------------ transmissions
def test_urdf_transmission_makes_an_actuator_with_the_joint_effort_limit():
    parsed = parse_urdf(model(), strict=True)
    plant = parsed.plant
    assert plant.num_actuators() == 1
    actuator = plant.get_joint_actuator_by_name("m1", parsed.instance)
    assert actuator.joint is plant.get_joint_by_name("j1", parsed.instance)
    assert actuator.effort_limit == 12.5
    assert actuator.gear_ratio == 1.0 and actuator.rotor_inertia == 0.0
    assert actuator.controller_gains is None


def test_urdf_transmission_on_a_joint_without_limit_has_infinite_effort():
    parsed = parse_urdf(model(joint_type="continuous", limit=None), strict=True)
    assert parsed.plant.get_joint_actuator_by_name("m1").effort_limit == math.inf


def test_urdf_transmission_on_a_joint_with_zero_effort_is_skipped_with_a_warning():
    text = model(limit='effort="0" velocity="1"')
    parsed = parse_urdf(text)
    assert parsed.plant.num_actuators() == 0
    (seen,) = parsed.parser.diagnostic_policy().warnings_seen
    assert "effort" in seen.message
    assert seen.line == line_of(text, '<joint name="j1"/>')


def test_urdf_transmission_on_a_fixed_joint_is_skipped_with_a_warning():
    parsed = parse_urdf(model(joint_type="fixed", limit=None))
    assert parsed.plant.num_actuators() == 0
    assert len(parsed.warnings) == 1 and "fixed" in parsed.warnings[0]


def test_urdf_transmission_type_attribute_form_is_accepted():
    text = model().replace("<transmission>\n    <type>transmission_interface/SimpleTransmission"
                           "</type>", '<transmission type="SimpleTransmission">')
    assert parse_urdf(text, strict=True).plant.num_actuators() == 1


def test_urdf_transmission_that_is_not_simple_is_ignored_with_a_warning():
    text = model().replace("SimpleTransmission", "DifferentialTransmission")
    parsed = parse_urdf(text)
    assert parsed.plant.num_actuators() == 0
    assert any("DifferentialTransmission" in w for w in parsed.warnings)


def test_urdf_transmission_naming_an_unknown_joint_is_an_error_like_drake():
    text = model().replace('<joint name="j1"/>', '<joint name="ghost"/>')
    with pytest.raises(ParseError, match="ghost"):
        parse_urdf(text, like_drake=True)


def test_urdf_drake_rotor_inertia_and_gear_ratio_go_to_the_actuator():
    inside = '<drake:rotor_inertia value="0.25"/><drake:gear_ratio value="80"/>'
    parsed = parse_urdf(model(actuator_inside=inside), strict=True)
    actuator = parsed.plant.get_joint_actuator_by_name("m1")
    assert actuator.rotor_inertia == 0.25
    assert actuator.gear_ratio == 80.0


def test_urdf_drake_controller_gains_go_to_the_actuator():
    parsed = parse_urdf(model(actuator_inside='<drake:controller_gains p="100" d="5"/>'),
                        strict=True)
    gains = parsed.plant.get_joint_actuator_by_name("m1").controller_gains
    assert (gains.p, gains.d) == (100.0, 5.0)


@pytest.mark.parametrize("gains", ['p="100"', 'd="5"'])
def test_urdf_drake_controller_gains_need_both_p_and_d(gains):
    with pytest.raises(ParseError, match="controller_gains"):
        parse_urdf(model(actuator_inside=f"<drake:controller_gains {gains}/>"))


@pytest.mark.parametrize("gains", ['p="0" d="1"', 'p="-1" d="1"', 'p="1" d="-1"'])
def test_urdf_drake_controller_gains_must_be_valid(gains):
    text = model(actuator_inside=f"<drake:controller_gains {gains}/>")
    with pytest.raises(ParseError) as info:
        parse_urdf(text)
    assert f"<string>:{line_of(text, '<drake:controller_gains')}:" in str(info.value)


# ------------------------------------------------------------ mimic
MIMIC = robot(f"""
  <link name="base">{HEAVY}</link>
  <link name="l1">{HEAVY}</link>
  <link name="l2">{HEAVY}</link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="j2" type="revolute">
    <parent link="l1"/><child link="l2"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="j1" multiplier="2.5" offset="0.1"/>
  </joint>""")


@pytest.mark.parametrize("plant_options", [{"time_step": 0.0},
                                           {"time_step": 0.001, "approximation": "sap"},
                                           {"time_step": 0.001, "approximation": "lagged"}],
                         ids=["continuous", "sap", "lagged"])
def test_urdf_mimic_becomes_a_coupler_constraint(plant_options):
    parsed = parse_urdf(MIMIC, strict=True, **plant_options)
    plant = parsed.plant
    assert plant.num_constraints() == 1
    (c,) = plant.constraints()
    assert c.type == "coupler"
    assert c.joint0 is plant.get_joint_by_name("j2")
    assert c.joint1 is plant.get_joint_by_name("j1")
    assert (c.gear_ratio, c.offset) == (2.5, 0.1)


def test_urdf_mimic_defaults_to_multiplier_one_offset_zero():
    text = MIMIC.replace(' multiplier="2.5" offset="0.1"', "")
    (c,) = parse_urdf(text).plant.constraints()
    assert (c.gear_ratio, c.offset) == (1.0, 0.0)


def test_urdf_mimic_is_ignored_with_a_warning_on_a_discrete_tamsi_plant():
    parsed = parse_urdf(MIMIC, time_step=0.001, approximation="tamsi")
    assert parsed.plant.num_constraints() == 0
    (seen,) = parsed.parser.diagnostic_policy().warnings_seen
    assert "mimic" in seen.message
    assert seen.line == line_of(MIMIC, "<mimic")


def test_urdf_mimic_of_an_unknown_joint_is_an_error_like_drake():
    # the default mode ignores it with a warning (tests/test_modes_urdf.py)
    with pytest.raises(ParseError, match="ghost"):
        parse_urdf(MIMIC.replace('mimic joint="j1"', 'mimic joint="ghost"'), like_drake=True)


def test_urdf_mimic_without_joint_attribute_is_an_error():
    with pytest.raises(ParseError, match="joint"):
        parse_urdf(MIMIC.replace('mimic joint="j1"', "mimic"))


def test_urdf_mimic_may_name_a_joint_declared_later():
    # Mimic tags are read after every joint, so order in the file does not matter.
    reordered = robot(f"""
  <link name="base">{HEAVY}</link><link name="l1">{HEAVY}</link><link name="l2">{HEAVY}</link>
  <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/>
    <mimic joint="j1"/></joint>
  <joint name="j1" type="continuous"><parent link="base"/><child link="l1"/></joint>""")
    assert parse_urdf(reordered).plant.num_constraints() == 1
