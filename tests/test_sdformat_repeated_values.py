"""SDFormat reading with repeated elements and texts: the document check and
the readers keep what they found readable and look children up once, so
these pin down that a repeat is still judged as a first occurrence would be
(a bad value is reported wherever it stands, an attribute or a child on a
familiar text still counts, the first matching child is the one read)."""
from __future__ import annotations

import pytest

from conftest import line_of, parse_sdf, sdf
from mbparse import ParseError
from mbparse.loading import LoadOptions, load

SPHERE = "<geometry><sphere><radius>0.1</radius></sphere></geometry>"


def _link(name: str, inner: str = "") -> str:
    return f'<link name="{name}">{inner}</link>'


def _errors_in_lint_mode(tmp_path, text: str):
    path = tmp_path / "m.sdf"
    path.write_text(text)
    return load(str(path), LoadOptions(collect_errors=True)).errors


def test_a_bad_number_written_twice_is_reported_at_both_places(tmp_path):
    text = sdf('<model name="m">'
               + _link("a", "<inertial><mass>heavy</mass></inertial>") + "\n"
               + _link("b", "<inertial><mass>heavy</mass></inertial>") + "</model>")
    errors = _errors_in_lint_mode(tmp_path, text)
    lines = {d.line for d in errors if "mass" in d.message}
    assert lines == {line_of(text, '<link name="a">'), line_of(text, '<link name="b">')}


@pytest.mark.parametrize("second, expected", [
    ('<mass colour="red">2</mass>', "'colour'"),  # an attribute
    ("<mass>2<grams/></mass>", "<grams>"),  # a child
])
def test_a_familiar_text_with_something_unknown_on_it_still_warns(second, expected):
    text = sdf('<model name="m">'
               + _link("a", "<inertial><mass>2</mass></inertial>") + "\n"
               + _link("b", f"<inertial>{second}</inertial>") + "</model>")
    assert any(expected in w for w in parse_sdf(text).warnings)


def test_a_pose_text_read_as_euler_angles_is_read_again_as_a_quaternion():
    text = sdf('<model name="m">'
               + _link("a", "<pose>1 2 3 0 0 0</pose>") + "\n"
               + _link("b", '<pose rotation_format="quat_xyzw">1 2 3 0 0 0</pose>')
               + "</model>")
    with pytest.raises(ParseError, match="quat_xyzw") as e:
        parse_sdf(text)
    assert e.value.diagnostic.line == line_of(text, "quat_xyzw")


def test_a_blank_element_text_does_not_make_a_blank_attribute_readable():
    # A blank <static> is its default; a blank boolean attribute is no boolean.
    text = sdf('<model name="m"><static> </static>'
               + _link("a", '<pose degrees=" ">0 0 0 0 0 0</pose>') + "</model>")
    with pytest.raises(ParseError, match="degrees"):
        parse_sdf(text)


def test_every_repeated_unsupported_child_is_warned_at_its_line():
    text = sdf('<model name="m"><link name="a">\n<self_collide>true</self_collide>\n'
               '<self_collide>true</self_collide>\n</link></model>')
    parsed = parse_sdf(text)
    lines = [d.line for d in parsed.parser.diagnostic_policy().warnings_seen
             if "self_collide" in d.message]
    assert lines == [line_of(text, "<self_collide>"), line_of(text, "<self_collide>") + 1]


def test_a_visual_in_another_namespace_is_not_read_as_a_visual():
    text = sdf('<model name="m">' + _link("a", f'<visual name="v" xmlns="urn:other">{SPHERE}'
                                               '</visual>') + "</model>")
    assert parse_sdf(text).geometries() == []


def test_friction_is_read_from_the_first_surface_that_has_one():
    collision = (f'<collision name="c">{SPHERE}<surface/><surface><friction><ode><mu>0.3</mu>'
                 '<mu2>0.2</mu2></ode></friction></surface></collision>')
    parsed = parse_sdf(sdf('<model name="m">' + _link("a", collision) + "</model>"))
    friction = parsed.geometry("m::c").properties("proximity").get_property(
        "material", "coulomb_friction")
    assert (friction.static_friction, friction.dynamic_friction) == (0.3, 0.2)


def test_the_first_of_two_inertials_is_the_one_read():
    text = sdf('<model name="m">' + _link("a", "<inertial><mass>2</mass></inertial>"
                                               "<inertial><mass>5</mass></inertial>") + "</model>")
    plant = parse_sdf(text).plant
    assert plant.get_body_by_name("a").default_spatial_inertia.mass == 2.0
