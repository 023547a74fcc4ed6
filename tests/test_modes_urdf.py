"""URDF files Drake refuses for its own rules that real robots break, read
in the default mode with a located warning (Drake's mode keeps the error):
two transmissions naming the same actuator (xArm), a transmission on an
absent joint (TALOS), pybullet's "spherical" joint type."""
from __future__ import annotations

import pytest

from conftest import HEAVY, drake_refusal_at, line_of, parse_file, parse_urdf, robot
from mbparse import ParseError

LIMIT = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'


def transmission(name: str, joint: str, actuator: str) -> str:
    return (f'<transmission name="{name}"><type>transmission_interface/SimpleTransmission</type>'
            f'<joint name="{joint}"/><actuator name="{actuator}"/></transmission>')


TEXT = robot(''.join(f'<link name="{n}">{HEAVY}</link>' for n in "abc")
             + ''.join(f'<joint name="{j}" type="revolute"><parent link="{p}"/><child link="{c}"/>'
                       f'<axis xyz="0 0 1"/>{LIMIT}</joint>' for j, p, c in
                       (("j1", "a", "b"), ("j2", "b", "c")))
             + transmission("t1", "j1", "motor") + transmission("t2", "j2", "motor"))


def test_modes_urdf_second_actuator_of_the_same_name_is_skipped_by_default():
    parsed = parse_urdf(TEXT)
    assert parsed.plant.num_actuators() == 1
    assert any("already has an actuator named 'motor'" in w and "Drake refuses this" in w
               for w in parsed.warnings)


def test_modes_urdf_second_actuator_of_the_same_name_is_an_error_like_drake():
    with pytest.raises(ParseError, match="actuator named 'motor'"):
        parse_urdf(TEXT, like_drake=True)


def test_modes_urdf_spherical_joint_is_a_ball_joint_by_default():
    text = robot(f'<link name="a">{HEAVY}</link><link name="b">{HEAVY}</link>'
                 '<joint name="neck" type="spherical"><parent link="a"/><child link="b"/></joint>')
    parsed = parse_urdf(text)
    assert parsed.plant.get_joint_by_name("neck").type_name == "ball_rpy"
    assert any("spherical" in w and "Drake refuses this" in w for w in parsed.warnings)
    with pytest.raises(ParseError, match="unknown type 'spherical'"):
        parse_urdf(text, like_drake=True)


def test_modes_urdf_transmission_on_an_absent_joint_is_ignored_by_default():
    text = robot(f'<link name="a">{HEAVY}</link>' + transmission("t", "nowhere", "motor"))
    parsed = parse_urdf(text)
    assert parsed.plant.num_actuators() == 0
    assert any("nowhere" in w for w in parsed.warnings)
    with pytest.raises(ParseError, match="nowhere"):
        parse_urdf(text, like_drake=True)


UNNAMED = (f'<?xml version="1.0"?>\n<robot>\n<link name="base">{HEAVY}</link>\n</robot>\n')


def test_modes_urdf_robot_without_a_name_takes_the_file_stem_by_default(tmp_path):
    path = tmp_path / "ur3.urdf"
    path.write_text(UNNAMED)
    parsed = parse_file(path)
    assert [parsed.plant.get_model_instance_name(i) for i in parsed.instances] == ["ur3"]
    seen = parsed.parser.diagnostic_policy().warnings_seen
    assert any(d.file == str(path) and d.line == 2 and "no name attribute" in d.message
               and "Drake refuses this" in d.message and "'ur3'" in d.message for d in seen)


def test_modes_urdf_robot_without_a_name_is_an_error_like_drake(tmp_path):
    path = tmp_path / "ur3.urdf"
    path.write_text(UNNAMED)
    with pytest.raises(ParseError, match="no name attribute") as info:
        parse_file(path, like_drake=True)
    assert f"{path}:2:" in str(info.value)


def test_modes_urdf_robot_without_a_name_given_as_a_string_stays_an_error():
    # no file to name it after
    with pytest.raises(ParseError, match="no name attribute"):
        parse_urdf(UNNAMED)


def test_modes_urdf_xacro_robot_without_a_name_takes_the_stem_without_both_suffixes(tmp_path):
    pytest.importorskip("xacro")
    path = tmp_path / "arm.urdf.xacro"
    path.write_text(UNNAMED.replace("<robot>", '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'))
    parsed = parse_file(path)
    assert [parsed.plant.get_model_instance_name(i) for i in parsed.instances] == ["arm"]
    with pytest.raises(ParseError, match="no name attribute"):
        parse_file(path, like_drake=True)


MIMIC_OF_ABSENT = robot(''.join(f'<link name="{n}">{HEAVY}</link>\n' for n in "ab")
                        + '<joint name="q2" type="revolute"><parent link="a"/><child link="b"/>'
                          f'<axis xyz="0 0 1"/>{LIMIT}\n<mimic joint="q1" multiplier="2"/>'
                          '</joint>')


@pytest.mark.parametrize("approximation", ["sap", "tamsi"])
def test_modes_urdf_mimic_of_an_absent_joint_is_ignored_by_default(approximation):
    # alex_psyonic_hands.urdf: yourdfpy and pybullet read it, the joint moves freely
    parsed = parse_urdf(MIMIC_OF_ABSENT, time_step=0.001, approximation=approximation)
    assert parsed.plant.num_constraints() == 0
    assert parsed.plant.get_joint_by_name("q2").type_name == "revolute"
    assert drake_refusal_at(parsed, MIMIC_OF_ABSENT, "<mimic", "'q1'")


@pytest.mark.parametrize("approximation", ["sap", "tamsi"])
def test_modes_urdf_mimic_of_an_absent_joint_is_an_error_like_drake(approximation):
    with pytest.raises(ParseError, match="names joint 'q1', which this model does not have"):
        parse_urdf(MIMIC_OF_ABSENT, time_step=0.001, approximation=approximation,
                   like_drake=True)


EXTRA_NUMBERS = robot(f'<link name="a">{HEAVY}</link><link name="b">{HEAVY}</link>\n'
                      '<joint name="j" type="fixed"><parent link="a"/><child link="b"/>\n'
                      '<origin rpy="0 0 1.5 0" xyz="1 2 3"/></joint>')


def test_modes_urdf_extra_numbers_are_dropped_with_a_warning_by_default():
    # microtaur.urdf's rpy="-3.14159 1.57079 0 0": yourdfpy and pybullet read the first three
    parsed = parse_urdf(EXTRA_NUMBERS)
    X = parsed.plant.get_joint_by_name("j").frame_on_parent.X_BF
    assert X.p == (1.0, 2.0, 3.0)
    assert X.rpy() == pytest.approx((0.0, 0.0, 1.5))
    assert drake_refusal_at(parsed, EXTRA_NUMBERS, "<origin", "rpy", "not 4")


def test_modes_urdf_extra_numbers_are_an_error_like_drake():
    with pytest.raises(ParseError, match="'rpy' of <origin> should be 3 numbers, not 4"):
        parse_urdf(EXTRA_NUMBERS, like_drake=True)


def test_modes_urdf_too_few_numbers_stay_an_error_in_both_modes():
    text = EXTRA_NUMBERS.replace('rpy="0 0 1.5 0"', 'rpy="0 1.5"')
    for like_drake in (False, True):
        with pytest.raises(ParseError, match="should be 3 numbers"):
            parse_urdf(text, like_drake=like_drake)


COMMAS = EXTRA_NUMBERS.replace('rpy="0 0 1.5 0" xyz="1 2 3"', 'rpy="0 0 0" xyz="0.07, 0, -0.69"')


def test_modes_urdf_commas_between_numbers_are_read_with_a_warning_by_default():
    # pybullet's bicycle/bike.urdf: xyz="0.07, 0, -0.69"; pybullet and iDynTree read it
    # (0.07, 0, -0.69), urdfdom, yourdfpy, MuJoCo and Drake refuse it
    parsed = parse_urdf(COMMAS)
    X = parsed.plant.get_joint_by_name("j").frame_on_parent.X_BF
    assert X.p == pytest.approx((0.07, 0.0, -0.69))
    seen = parsed.parser.diagnostic_policy().warnings_seen
    assert any(d.line == line_of(COMMAS, "<origin") and d.code == "urdf-number-commas"
               and "'xyz' of <origin>" in d.message and "(0.07, 0, -0.69)" in d.message
               and "separate the numbers by spaces" in d.message for d in seen)


def test_modes_urdf_commas_between_numbers_are_an_error_like_drake():
    with pytest.raises(ParseError, match="'xyz' of <origin> should be 3 numbers separated by "
                                         "spaces, not '0.07, 0, -0.69'") as err:
        parse_urdf(COMMAS, like_drake=True)
    assert err.value.diagnostic.line == line_of(COMMAS, "<origin")


def test_modes_urdf_commas_in_an_rgba_are_read_by_default():
    text = robot(f'<link name="a">{HEAVY}<visual><geometry><box size="1, 1, 1"/></geometry>'
                 '<material name="m"><color rgba="1, 0, 0, 1"/></material></visual></link>')
    parsed = parse_urdf(text)
    (geometry,) = parsed.geometries()
    assert geometry.shape.size() == pytest.approx((1.0, 1.0, 1.0))
    assert sum(w.count("separates its numbers by commas") for w in parsed.warnings) == 2


@pytest.mark.parametrize("xyz", ["0.07,0,-0.69", "0.07, 0", "0.07, 0, -0.69, 1", "0.07, a, 1",
                                 "0.07 ,0 ,1", "0.07,, 0, 1"])
def test_modes_urdf_other_comma_forms_stay_an_error_in_both_modes(xyz):
    text = COMMAS.replace('xyz="0.07, 0, -0.69"', f'xyz="{xyz}"')
    for like_drake in (False, True):
        with pytest.raises(ParseError, match="'xyz' of <origin> should be 3 numbers"):
            parse_urdf(text, like_drake=like_drake)


def test_modes_urdf_comma_separated_number_that_overflows_is_an_error():
    text = COMMAS.replace('xyz="0.07, 0, -0.69"', 'xyz="1e999, 0, 0"')
    with pytest.raises(ParseError, match="not finite"):
        parse_urdf(text)


@pytest.mark.parametrize("xyz", ["$(optenv HUSKY_IMU_XYZ 0.19 0 0.149)", "${offset} 0 0"])
def test_modes_urdf_xacro_substitution_in_a_plain_urdf_is_an_error_that_says_so(xyz):
    # pybullet's husky/husky.urdf: Drake, urdfdom and yourdfpy refuse it too
    text = COMMAS.replace('xyz="0.07, 0, -0.69"', f'xyz="{xyz}"')
    for like_drake in (False, True):
        with pytest.raises(ParseError, match=r"should be 3 numbers.*is a xacro substitution, "
                                             r"which only xacro expands") as err:
            parse_urdf(text, like_drake=like_drake)
        assert err.value.diagnostic.line == line_of(text, "<origin")


PYBULLET_SHAPE = robot(f'<link name="ground">{HEAVY}\n'
                       '<visual><geometry><box size="1 1 1"/></geometry></visual>\n'
                       '<collision><geometry>\n<plane normal="0 0 1"/></geometry></collision>\n'
                       '<collision><geometry><sphere radius="0.5"/></geometry></collision>'
                       '</link>')


def test_modes_urdf_pybullet_shape_is_left_out_with_a_warning_by_default():
    # plane_implicit.urdf's <plane normal>, concave_box.urdf's <cdf>: pybullet's own
    # shapes, which Drake, urdfdom and yourdfpy refuse; the rest of the link loads
    parsed = parse_urdf(PYBULLET_SHAPE)
    assert sorted(g.shape.type_name for g in parsed.geometries()) == ["Box", "Sphere"]
    assert drake_refusal_at(parsed, PYBULLET_SHAPE, "<geometry>\n<plane", "<plane>",
                            "leaves this geometry out")


def test_modes_urdf_pybullet_shape_is_an_error_like_drake():
    with pytest.raises(ParseError, match="holds no shape this reader knows.*<plane>"):
        parse_urdf(PYBULLET_SHAPE, like_drake=True)


def test_modes_urdf_empty_geometry_stays_an_error_in_both_modes():
    text = PYBULLET_SHAPE.replace('<plane normal="0 0 1"/>', '')
    for like_drake in (False, True):
        with pytest.raises(ParseError, match="holds no shape this reader knows"):
            parse_urdf(text, like_drake=like_drake)
