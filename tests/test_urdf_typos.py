"""URDF misspellings: an attribute or child the specification does not give
an element is reported with the name that was probably meant (a warning);
extras that are not close to any known name (vendors' own attributes) are
notes. The loader stays as lenient as Drake: nothing here is an error."""
from __future__ import annotations

import pytest

from conftest import HEAVY, parse_urdf, robot


def _joint(inner: str) -> str:
    return robot(f'<link name="base">{HEAVY}</link><link name="arm">{HEAVY}</link>'
                 f'<joint name="j" type="revolute"><parent link="base"/><child link="arm"/>'
                 f'{inner}</joint>')


def _seen(text: str):
    return parse_urdf(text).parser.diagnostic_policy().warnings_seen


@pytest.mark.parametrize("inner, typo, meant", [
    ('<limit lowr="-1" upper="1" effort="1" velocity="1"/>', "'lowr'", "'lower'"),
    ('<axis xzy="0 0 1"/><limit effort="1" velocity="1"/>', "'xzy'", "'xyz'"),
    ('<origni xyz="0 0 1"/><limit effort="1" velocity="1"/>', "<origni>", "<origin>"),
])
def test_a_misspelling_is_a_warning_that_names_what_was_meant(inner, typo, meant):
    (d,) = [d for d in _seen(_joint(inner)) if d.code.startswith("urdf-unknown")]
    assert typo in d.message and f"Did you mean {meant}?" in d.message
    assert d.severity == "warning" and d.line == 3


def test_the_misspelled_lower_limit_is_left_unset_as_drake_leaves_it():
    parsed = parse_urdf(_joint('<limit lowr="-1" upper="1" effort="1" velocity="1"/>'))
    assert parsed.plant.get_joint_by_name("j").pos_lower[0] == float("-inf")


def test_a_vendor_attribute_far_from_any_known_name_is_only_a_note():
    seen = _seen(_joint('<limit lower="-1" upper="1" effort="1" velocity="1" current="3"/>'))
    assert [d.code for d in seen] == ["urdf-unsupported"] and "'current'" in seen[0].message


def test_a_sensor_parent_joint_is_not_taken_for_a_typo():
    text = robot(f'<link name="a">{HEAVY}</link><sensor name="s" type="gyroscope">'
                 '<parent link="a"/></sensor><sensor name="t" type="accelerometer">'
                 '<parent link="a" joint="x"/></sensor>')
    assert [d for d in _seen(text) if d.code.startswith("urdf-unknown")] == []


def test_a_misspelled_link_child_suggests_the_child_meant():
    (d,) = _seen(robot(f'<link name="a">{HEAVY}<visaul/></link>'))
    assert "Did you mean <visual>?" in d.message


def test_nothing_inside_gazebo_or_a_transmission_is_checked_but_the_same_outside_is():
    foreign = ('<gazebo reference="a"><origin xyz="0 0 1" colour="red"/></gazebo>'
               '<transmission name="t"><type>SimpleTransmission</type><joint name="j">'
               '<hardwareInterface>E</hardwareInterface></joint><actuator name="m"/>'
               '</transmission>')
    inside = _seen(_joint('<limit effort="1" velocity="1"/>') .replace(
        "</robot>", foreign + "</robot>"))
    assert [d for d in inside if d.code.startswith("urdf-unknown") or "colour" in d.message
            or "hardwareInterface" in d.message] == []
    outside = _seen(_joint('<origin xyz="0 0 1" colour="red"/><hardwareInterface/>'
                           '<limit effort="1" velocity="1"/>'))
    assert sorted(d.message.split(";")[0] for d in outside if d.code.startswith("urdf-u")) == [
        "<hardwareInterface> is not a child of <joint> in URDF",
        "<origin> has no attribute 'colour' in URDF"]


def test_a_prefixed_attribute_is_not_checked_but_a_misspelled_one_beside_it_is():
    quiet = _seen(_joint('<limit effort="1" velocity="1" drake:acceleration="2"/>'))
    assert [d for d in quiet if d.code.startswith("urdf-u")] == []
    (d,) = [d for d in _seen(_joint('<limit effort="1" velcity="1" drake:acceleration="2"/>'))
            if d.code.startswith("urdf-unknown")]
    assert "'velcity'" in d.message and "Did you mean 'velocity'?" in d.message


def test_an_error_that_ends_the_parse_keeps_the_warnings_about_what_was_not_read():
    # The reader checks each element as it reads it; an error in the first
    # link ends the reading, and the misspellings after it are still reported.
    from mbparse import MultibodyPlant, Parser, SceneGraph
    from mbparse.diagnostics import ParseError
    text = robot('<link name="a"><visual><geometry><box/></geometry></visual></link>'
                 f'<link name="b"><inertial><mass valeu="1"/></inertial></link>'
                 '<joint name="j" type="fixed"><parent link="a"/><child link="b"/>'
                 '<origin xzy="0 0 1"/></joint>')
    parser = Parser(MultibodyPlant(0.0), SceneGraph())
    parser.diagnostic_policy().emit = False
    with pytest.raises(ParseError, match="no size"):
        parser.add_models_from_string(text, "urdf")
    assert sorted(d.message.split(";")[0] for d in parser.diagnostic_policy().warnings_seen) == [
        "<mass> has no attribute 'valeu'", "<origin> has no attribute 'xzy'"]


@pytest.mark.parametrize("inner", [
    '<visual><origin xyz="0 0 1"/><origin xzy="0 0 1"/><geometry><box size="1 1 1"/></geometry>'
    '</visual>',
    '<visual><geometry><box size="1 1 1"/><sphere radus="1"/></geometry></visual>',
    '<visual><geometry><mesh filename="m.obj"><origin xzy="0 0 1"/></mesh></geometry></visual>',
    '<visual><geometry><box size="1 1 1"/></geometry><material name="m"><color rgba="1 0 0 1" rbga="1"/>'
    '</material></visual>',
    '<collision><geometry><box size="1 1 1"/></geometry><verbose><origin xzy="1"/></verbose>'
    '</collision>',
    '<collision><geometry><box size="1 1 1"/></geometry><geometry><box sise="1 1 1"/></geometry>'
    '</collision>',
])
def test_a_misspelling_the_reader_does_not_read_is_still_reported(inner):
    seen = [d for d in _seen(robot(f'<link name="a">{HEAVY}{inner}</link>'))
            if d.code.startswith("urdf-unknown")]
    assert len(seen) == 1 and "Did you mean" in seen[0].message, seen


def test_an_ignored_joint_or_link_is_still_checked():
    text = robot(f'<link name="a">{HEAVY}</link><link name="b" drake_ignore="true">'
                 '<visual><origin xzy="1 0 0"/></visual></link><joint name="j" type="fixed" '
                 'drake_ignore="true"><origin xyz="0 0 1" rpi="0 0 1"/><parent link="a"/>'
                 '<child lnk="a"/></joint>')
    assert sorted(d.message.split(";")[0] for d in _seen(text)) == [
        "<child> has no attribute 'lnk'", "<origin> has no attribute 'rpi'",
        "<origin> has no attribute 'xzy'"]


def test_strict_parsing_refuses_the_first_misspelling_in_the_file():
    # (warnings are errors: the whole tree is checked before anything is read)
    from mbparse.diagnostics import ParseError
    text = robot('<link name="a"><visual><geometry><box size="1 1 1" colour="r"/></geometry>'
                 f'</visual>{HEAVY}<inertial><mass valeu="1"/></inertial></link>')
    with pytest.raises(ParseError, match="'colour'"):
        parse_urdf(text, strict=True)
