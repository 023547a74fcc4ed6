"""Bad MJCF input is a ParseError naming the file and line; MuJoCo-solver
settings are ignored without a word; what Drake does not support warns."""
from __future__ import annotations

import pytest

from conftest import line_of, new_parser
from mbparse import ParseError


def mjcf(body: str, head: str = "", tail: str = "") -> str:
    return f'<mujoco model="m">\n{head}\n<worldbody>\n{body}\n</worldbody>\n{tail}\n</mujoco>\n'


def assert_error_at(write, text: str, needle: str, words: str = "", name="bad.xml"):
    path = write(name, text)
    with pytest.raises(ParseError) as info:
        new_parser().add_models(path)
    message = str(info.value)
    assert f"{path}:{line_of(text, needle)}:" in message, message
    assert words in message, message


def warnings_of(text: str) -> list[str]:
    parser = new_parser()
    parser.add_models_from_string(text, "xml")
    return [d.message for d in parser.diagnostic_policy().warnings_seen]


# ------------------------------------------------------------ located errors
def test_mjcf_unknown_class_is_an_error(write):
    text = mjcf('<body>\n<joint class="nope"/>\n<geom size="1"/>\n</body>')
    assert_error_at(write, text, 'class="nope"', "nope")


def test_mjcf_unknown_childclass_is_an_error(write):
    text = mjcf('<body childclass="nope">\n<geom size="1"/>\n</body>')
    assert_error_at(write, text, 'childclass="nope"', "nope")


def test_mjcf_malformed_number_is_an_error(write):
    text = mjcf('<body>\n<geom size="1"/>\n<body pos="1 x 2">\n<geom size="1"/>\n</body>\n'
                '</body>')
    assert_error_at(write, text, 'pos="1 x 2"', "pos")


def test_mjcf_wrong_count_of_numbers_is_an_error(write):
    text = mjcf('<body>\n<geom size="1" pos="1 2 3 4"/>\n</body>')
    assert_error_at(write, text, 'pos="1 2 3 4"', "3")


def test_mjcf_malformed_number_from_a_default_is_reported_in_the_default(write):
    text = mjcf('<body>\n<joint/>\n<geom size="1"/>\n</body>',
                head='<default>\n<geom density="heavy"/>\n</default>')
    assert_error_at(write, text, 'density="heavy"', "density")


def test_mjcf_fromto_with_zero_length_is_an_error(write):
    text = mjcf('<body>\n<joint/>\n<geom type="capsule" fromto="1 1 1 1 1 1" size="0.1"/>\n'
                '</body>')
    assert_error_at(write, text, "fromto=", "zero length")


def test_mjcf_missing_mesh_file_is_an_error(write):
    text = mjcf('<body>\n<geom type="mesh" mesh="m"/>\n</body>',
                head='<asset>\n<mesh name="m" file="nowhere.obj"/>\n</asset>')
    assert_error_at(write, text, "nowhere.obj", "nowhere.obj")


def test_mjcf_unknown_mesh_name_is_an_error(write):
    text = mjcf('<body>\n<joint/>\n<geom type="mesh" mesh="ghost"/>\n</body>')
    assert_error_at(write, text, 'mesh="ghost"', "ghost")


def test_mjcf_unknown_joint_type_is_an_error(write):
    text = mjcf('<body>\n<joint type="spiral"/>\n<geom size="1"/>\n</body>')
    assert_error_at(write, text, "spiral", "type")


def test_mjcf_limited_joint_without_range_is_an_error(write):
    text = mjcf('<body>\n<joint limited="true"/>\n<geom size="1"/>\n</body>')
    assert_error_at(write, text, 'limited="true"', "range")


def test_mjcf_plane_on_a_moving_body_is_an_error(write):
    text = mjcf('<body>\n<joint/>\n<geom size="1"/>\n<geom type="plane" size="1 1 1"/>\n</body>')
    assert_error_at(write, text, 'type="plane"', "plane")


def test_mjcf_actuator_on_an_unknown_joint_is_an_error(write):
    text = mjcf('<body>\n<joint/>\n<geom size="1"/>\n</body>',
                tail='<actuator>\n<motor joint="ghost"/>\n</actuator>')
    assert_error_at(write, text, 'joint="ghost"', "ghost")


def test_mjcf_exclude_naming_an_unknown_body_is_an_error(write):
    text = mjcf('<body name="a">\n<joint/>\n<geom size="1"/>\n</body>',
                tail='<contact>\n<exclude body1="a" body2="ghost"/>\n</contact>')
    assert_error_at(write, text, "ghost", "ghost")


def test_mjcf_global_coordinates_are_an_error(write):
    text = mjcf('<body>\n<geom size="1"/>\n</body>', head='<compiler coordinate="global"/>')
    assert_error_at(write, text, "coordinate=", "global")


def test_mjcf_root_must_be_mujoco(write):
    assert_error_at(write, '<robot name="r">\n</robot>\n', "<robot", "mujoco")


def test_mjcf_missing_include_is_an_error(write):
    text = mjcf('<include file="absent.xml"/>')
    assert_error_at(write, text, "absent.xml", "absent.xml")


def test_mjcf_include_cycle_is_an_error(write):
    write("loop.xml", '<mujoco>\n<include file="loop.xml"/>\n</mujoco>\n')
    text = mjcf('<body>\n<geom size="1"/>\n</body>', head='<include file="loop.xml"/>')
    path = write("main.xml", text)
    with pytest.raises(ParseError, match=r"loop\.xml:2:.*cycle"):
        new_parser().add_models(path)


def test_mjcf_error_inside_an_included_file_names_that_file(write):
    write("part.xml", '<mujoco>\n<body>\n<geom size="1 x"/>\n</body>\n</mujoco>\n')
    path = write("main.xml", mjcf('<include file="part.xml"/>'))
    with pytest.raises(ParseError, match=r"part\.xml:3:"):
        new_parser().add_models(path)


# ------------------------------------------------------------ silent and warned
SOLVER_ONLY = mjcf(
    '<body>\n<joint solreflimit="0.02 1" solimplimit="0.9 0.95 0.001" margin="0.1"/>\n'
    '<geom name="g1" size="1" priority="1" solmix="1" solref="0.02 1" solimp="0.9 0.95 0.001" '
    'margin="0" gap="0"/>\n</body>\n<body>\n<joint/>\n<geom name="g2" size="1"/>\n</body>',
    head='<compiler usethread="true" alignfree="false"/>\n<size njmax="100"/>\n'
         '<option solver="Newton" iterations="50" tolerance="1e-8" impratio="1" '
         'jacobian="dense"><flag warmstart="disable"/></option>',
    tail='<contact>\n<pair geom1="g1" geom2="g2" solref="0.02 1" margin="0" gap="0"/>\n'
         '</contact>')


def test_mjcf_solver_settings_are_ignored_without_a_word():
    assert warnings_of(SOLVER_ONLY) == []


@pytest.mark.parametrize("head, body, tail, words", [
    ('<option timestep="0.01"/>', "", "", "timestep"),
    ('<option apirate="100"/>', "", "", "apirate"),
    ('<option integrator="RK4"/>', "", "", "integrator"),
    ('<option cone="elliptic"/>', "", "", "cone"),
    ("", '<camera name="c"/>', "", "camera"),
    ("", '<light name="l"/>', "", "light"),
    ("", "", "<sensor/>", "sensor"),
    ("", "", "<keyframe/>", "keyframe"),
    ('<visual/>', "", "", "visual"),
    ("", "", "<custom/>", "custom"),
    ('<extension/>', "", "", "extension"),
])
def test_mjcf_unsupported_elements_warn_with_their_name(head, body, tail, words):
    found = warnings_of(mjcf(f'<body>\n<geom size="1"/>\n{body}\n</body>', head, tail))
    assert len(found) == 1 and words in found[0]


def test_mjcf_mocap_body_warns():
    found = warnings_of(mjcf('<body mocap="true">\n<geom size="1"/>\n</body>'))
    assert len(found) == 1 and "mocap" in found[0]


def test_mjcf_actuator_plugin_warns():
    found = warnings_of(mjcf('<body>\n<joint/>\n<geom size="1"/>\n</body>',
                             tail='<actuator>\n<plugin plugin="x"/>\n</actuator>'))
    assert len(found) == 1 and "plugin" in found[0]


def test_mjcf_warning_is_located_at_the_element(write):
    text = mjcf('<body>\n<geom size="1"/>\n<camera name="c"/>\n</body>')
    path = write("w.xml", text)
    parser = new_parser()
    parser.add_models(path)
    (d,) = parser.diagnostic_policy().warnings_seen
    assert (d.file, d.line) == (str(path), line_of(text, "<camera"))
