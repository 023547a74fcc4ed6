"""URDF files Drake refuses for its own rules that real robots break, read
in the default mode with a located warning (Drake's mode keeps the error):
two transmissions naming the same actuator (xArm), a transmission on an
absent joint (TALOS), pybullet's "spherical" joint type."""
from __future__ import annotations

import pytest

from conftest import HEAVY, parse_urdf, robot
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
