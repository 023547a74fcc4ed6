"""URDF <force_element> (reference 002): LinearSpringDamper, Wing and Thrust,
in the reference's spelling and in the nested one of older Drake files."""
from __future__ import annotations

import math

import pytest

from conftest import HEAVY, error_at, parse_file, parse_urdf, robot
from mbparse.summary import summarize

LINKS = f"""
  <link name="base">{HEAVY}</link>
  <link name="mass">{HEAVY}</link>
  <joint name="x" type="prismatic"><parent link="base"/><child link="mass"/>
    <axis xyz="1 0 0"/></joint>
"""

SPRING = """<force_element name="spring" type="LinearSpringDamper">
    <link1 link="base" xyz="0 0 1"/>
    <link2 link="mass" xyz="0.5 0 0"/>
    <rest_length value="0.25"/>
    <stiffness value="10"/>
    <damping value="2"/>
  </force_element>"""

WING = """<force_element name="wing" type="Wing">
    <parent link="mass"/>
    <origin xyz="0.1 0 0.2"/>
    <profile value="{profile}"/>
    <chord value="0.4"/>
    <span value="1.5"/>
    <stall_angle value="12"/>
    <nominal_speed value="10"/>
  </force_element>"""

THRUST = """<force_element name="thruster" type="Thrust">
    <parent link="mass"/>
    <origin xyz="0 0 -0.5"/>
    <direction xyz="0 0 1"/>
    <scaleFactor value="3"/>
    <limits value="0 50"/>
  </force_element>"""

XFOIL = "NACA 2412\n1.0 0.0013\n0.5 0.06\n0.0 0.0\n0.5 -0.04\n1.0 -0.0013\n"


def model(*elements: str) -> str:
    return robot(LINKS + "\n".join(elements))


def forces(parsed, ftype: str):
    return [f for f in parsed.plant.force_elements() if f.type == ftype]




def summary_of(parsed) -> dict:
    parsed.plant.finalize()
    return summarize(parsed.plant, parsed.parser, parsed.instances)


# ------------------------------------------------------------ LinearSpringDamper
def test_urdf_linear_spring_damper_force_element_reads_every_parameter():
    (f,) = forces(parse_urdf(model(SPRING)), "linear_spring_damper")
    assert (f.body_A.name, f.p_AP) == ("base", (0.0, 0.0, 1.0))
    assert (f.body_B.name, f.p_BQ) == ("mass", (0.5, 0.0, 0.0))
    assert (f.free_length, f.stiffness, f.damping) == (0.25, 10.0, 2.0)
    assert f.name == "spring"


def test_urdf_linear_spring_damper_defaults_are_zero():
    text = model("""<force_element name="s" type="LinearSpringDamper">
      <link1 link="base"/><link2 link="mass"/></force_element>""")
    (f,) = forces(parse_urdf(text), "linear_spring_damper")
    assert f.p_AP == (0.0, 0.0, 0.0) and f.p_BQ == (0.0, 0.0, 0.0)
    assert (f.free_length, f.stiffness, f.damping) == (0.0, 0.0, 0.0)


def test_urdf_linear_spring_damper_nested_spelling_is_read():
    text = model("""<force_element name="spring">
      <linear_spring_damper stiffness="10" damping="1" rest_length="0.5">
        <link1 link="base" xyz="0 0 0"/><link2 link="mass" xyz="1 0 0"/>
      </linear_spring_damper></force_element>""")
    (f,) = forces(parse_urdf(text), "linear_spring_damper")
    assert (f.free_length, f.stiffness, f.damping) == (0.5, 10.0, 1.0)
    assert f.p_BQ == (1.0, 0.0, 0.0)


def test_urdf_linear_spring_damper_summary_entry():
    summary = summary_of(parse_urdf(model(SPRING)))
    (entry,) = summary["force_elements"]
    assert entry == {"type": "linear_spring_damper", "name": "spring", "body_A": "r::base",
                     "body_B": "r::mass", "p_AP": [0.0, 0.0, 1.0], "p_BQ": [0.5, 0.0, 0.0],
                     "free_length": 0.25, "stiffness": 10.0, "damping": 2.0}


def test_urdf_linear_spring_damper_unknown_link_is_an_error(write):
    error_at(write, model(SPRING.replace('link="mass"', 'link="ghost"')), '<link2', "ghost")


@pytest.mark.parametrize("tag", ["link1", "link2"])
def test_urdf_linear_spring_damper_missing_end_is_an_error(write, tag):
    text = model(SPRING.replace(f"<{tag} ", f"<other_{tag} "))
    error_at(write, text, "<force_element", tag)


def test_urdf_linear_spring_damper_end_without_link_is_an_error(write):
    error_at(write, model(SPRING.replace('<link1 link="base"', "<link1")), "<link1", "link")


@pytest.mark.parametrize("tag", ["rest_length", "stiffness", "damping"])
def test_urdf_linear_spring_damper_negative_value_is_an_error(write, tag):
    text = model(SPRING.replace(f'<{tag} value="', f'<{tag} value="-'))
    error_at(write, text, f"<{tag}", "negative")


def test_urdf_linear_spring_damper_value_element_without_value_is_an_error(write):
    error_at(write, model(SPRING.replace('<stiffness value="10"/>', "<stiffness/>")),
             "<stiffness", "value")


# ------------------------------------------------------------ Wing
@pytest.mark.parametrize("profile,kind", [("flat plate", "flat_plate"),
                                          ("NACA0012", "naca"), ("naca 2412", "naca")])
def test_urdf_wing_force_element_keeps_every_parameter(profile, kind):
    (f,) = forces(parse_urdf(model(WING.format(profile=profile))), "wing")
    assert f.name == "wing" and f.body.name == "mass"
    assert f.X_BF.p == (0.1, 0.0, 0.2) and f.X_BF.is_exactly_identity() is False
    assert f.parameters["profile"] == profile
    assert f.parameters["profile_kind"] == kind
    for key, value in (("chord", 0.4), ("span", 1.5), ("stall_angle", 12.0),
                       ("nominal_speed", 10.0)):
        assert f.parameters[key] == value


def test_urdf_wing_xfoil_profile_file_is_read_relative_to_the_model(write):
    write("airfoils/ht23.dat", XFOIL)
    path = write("model.urdf", model(WING.format(profile="airfoils/ht23.dat")))
    (f,) = forces(parse_file(path), "wing")
    assert f.parameters["profile_kind"] == "xfoil"
    assert f.parameters["profile_file"] == "ht23.dat"


def test_urdf_wing_mat_profile_file_is_accepted(write):
    write("wing.mat", "not read, only found")
    path = write("model.urdf", model(WING.format(profile="wing.mat")))
    (f,) = forces(parse_file(path), "wing")
    assert f.parameters["profile_kind"] == "matlab"


def test_urdf_wing_missing_profile_file_is_an_error(write):
    error_at(write, model(WING.format(profile="nowhere.dat")), "<profile", "nowhere.dat")


def test_urdf_wing_profile_file_that_is_not_xfoil_is_an_error(write):
    write("bad.dat", "this is\nnot an airfoil\n")
    error_at(write, model(WING.format(profile="bad.dat")), "<profile", "Xfoil")


@pytest.mark.parametrize("profile", ["curved plate", "NACA12", "wing.stl", "Clark Y"])
def test_urdf_wing_unknown_profile_is_an_error(write, profile):
    error_at(write, model(WING.format(profile=profile)), "<profile", profile)


@pytest.mark.parametrize("tag", ["chord", "span", "stall_angle", "nominal_speed", "profile"])
def test_urdf_wing_missing_required_element_is_an_error(write, tag):
    text = model(WING.format(profile="flat plate").replace(f"<{tag} ", f"<x_{tag} "))
    error_at(write, text, "<force_element", tag)


def test_urdf_wing_missing_origin_is_an_error(write):
    text = model(WING.format(profile="flat plate").replace('<origin xyz="0.1 0 0.2"/>', ""))
    error_at(write, text, "<force_element", "origin")


def test_urdf_wing_missing_parent_is_an_error(write):
    text = model(WING.format(profile="flat plate").replace('<parent link="mass"/>', ""))
    error_at(write, text, "<force_element", "parent")


def test_urdf_wing_unknown_link_is_an_error(write):
    text = model(WING.format(profile="flat plate").replace('link="mass"', 'link="ghost"'))
    error_at(write, text, '<parent link="ghost"', "ghost")


@pytest.mark.parametrize("tag", ["chord", "span", "nominal_speed"])
def test_urdf_wing_non_positive_size_is_an_error(write, tag):
    text = model(WING.format(profile="flat plate"))
    start = text.index(f"<{tag} value=")
    text = text[:start] + f'<{tag} value="0"/>' + text[text.index("/>", start) + 2:]
    error_at(write, text, f"<{tag}", "positive")


def test_urdf_wing_origin_rpy_warns_and_is_ignored():
    text = model(WING.format(profile="flat plate").replace('xyz="0.1 0 0.2"',
                                                           'xyz="0.1 0 0.2" rpy="0 0.3 0"'))
    parsed = parse_urdf(text)
    (f,) = forces(parsed, "wing")
    assert f.X_BF.R == ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    assert any("rpy" in w for w in parsed.warnings)


def test_urdf_wing_nested_spelling_is_read():
    text = model("""<force_element name="Wing_force">
      <wing chord=".177" nominal_speed="7" profile="flat plate" span=".5" stall_angle="181"
            visual_geometry="false">
        <parent link="mass"/><origin xyz="0 0 0" rpy="0 0 0"/>
      </wing></force_element>""")
    parsed = parse_urdf(text)
    (f,) = forces(parsed, "wing")
    assert f.parameters["chord"] == 0.177 and f.parameters["stall_angle"] == 181.0
    assert f.parameters["visual_geometry"] is False
    assert parsed.warnings == []


def test_urdf_wing_summary_entry():
    summary = summary_of(parse_urdf(model(WING.format(profile="NACA0012"))))
    (entry,) = summary["force_elements"]
    assert entry["type"] == "wing" and entry["name"] == "wing" and entry["body"] == "r::mass"
    assert entry["X_BF"]["p"] == [0.1, 0.0, 0.2]
    assert entry["profile"] == "NACA0012" and entry["chord"] == 0.4


# ------------------------------------------------------------ Thrust
def test_urdf_thrust_force_element_keeps_every_parameter():
    (f,) = forces(parse_urdf(model(THRUST)), "thrust")
    assert f.name == "thruster" and f.body.name == "mass"
    assert f.X_BF.p == (0.0, 0.0, -0.5)
    assert f.parameters == {"direction": [0.0, 0.0, 1.0], "scale_factor": 3.0,
                            "limits": [0.0, 50.0]}


def test_urdf_thrust_limits_default_to_unbounded():
    (f,) = forces(parse_urdf(model(THRUST.replace('<limits value="0 50"/>', ""))), "thrust")
    assert f.parameters["limits"] == [-math.inf, math.inf]


def test_urdf_thrust_limits_may_be_written_high_then_low_or_infinite():
    (f,) = forces(parse_urdf(model(THRUST.replace('"0 50"', '"inf -2"'))), "thrust")
    assert f.parameters["limits"] == [-2.0, math.inf]


def test_urdf_thrust_non_unit_direction_is_an_error(write):
    error_at(write, model(THRUST.replace('xyz="0 0 1"', 'xyz="0 0 2"')), "<direction", "unit")


def test_urdf_thrust_nearly_unit_direction_is_normalized():
    (f,) = forces(parse_urdf(model(THRUST.replace('xyz="0 0 1"', 'xyz="0.7071 0 0.7071"'))),
                  "thrust")
    assert math.hypot(*f.parameters["direction"]) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("tag", ["direction", "scaleFactor", "origin", "parent"])
def test_urdf_thrust_missing_required_element_is_an_error(write, tag):
    error_at(write, model(THRUST.replace(f"<{tag} ", f"<x_{tag} ")), "<force_element", tag)


def test_urdf_thrust_unknown_link_is_an_error(write):
    error_at(write, model(THRUST.replace('link="mass"', 'link="ghost"')), '<parent link="ghost"',
             "ghost")


def test_urdf_thrust_bad_limits_are_an_error(write):
    error_at(write, model(THRUST.replace('"0 50"', '"0"')), "<limits", "2 numbers")


def test_urdf_thrust_nested_spelling_normalizes_its_axis():
    text = model("""<force_element name="t">
      <thrust lower_limit="0" upper_limit="255">
        <parent link="mass"/><axis xyz="-1 0 1"/><origin xyz="0 0 -.5"/>
      </thrust></force_element>""")
    (f,) = forces(parse_urdf(text), "thrust")
    d = f.parameters["direction"]
    assert d == pytest.approx([-math.sqrt(0.5), 0.0, math.sqrt(0.5)])
    assert f.parameters["scale_factor"] == 1.0  # the older tools' default
    assert f.parameters["limits"] == [0.0, 255.0]


def test_urdf_thrust_nested_lower_limit_above_upper_is_an_error(write):
    text = model("""<force_element name="t">
      <thrust lower_limit="5" upper_limit="1"><parent link="mass"/></thrust>
      </force_element>""")
    error_at(write, text, "<thrust", "lower_limit")


def test_urdf_thrust_summary_entry():
    summary = summary_of(parse_urdf(model(THRUST.replace('<limits value="0 50"/>', ""))))
    (entry,) = summary["force_elements"]
    assert entry["type"] == "thrust" and entry["body"] == "r::mass"
    assert entry["direction"] == [0.0, 0.0, 1.0] and entry["scale_factor"] == 3.0
    assert entry["limits"] == ["-inf", "inf"]


# ------------------------------------------------------------ the element itself
def test_urdf_force_element_of_unknown_type_warns_and_is_ignored(write):
    text = model('<force_element name="f" type="Propeller"/>')
    parsed = parse_urdf(text)
    assert parsed.plant.num_force_elements() == 0
    assert any("Propeller" in w for w in parsed.warnings)


def test_urdf_force_element_of_an_unread_nested_kind_warns_and_is_ignored():
    text = model("""<force_element name="knee_spring">
      <torsional_spring stiffness="2300" rest_angle="0"><joint name="x"/></torsional_spring>
      </force_element>""")
    parsed = parse_urdf(text)
    assert parsed.plant.num_force_elements() == 0
    assert any("torsional_spring" in w for w in parsed.warnings)


def test_urdf_force_element_without_type_or_content_is_an_error(write):
    error_at(write, model('<force_element name="f"/>'), "<force_element", "type")


def test_urdf_force_element_without_name_is_an_error(write):
    error_at(write, model(THRUST.replace(' name="thruster"', "")), "<force_element", "name")


def test_urdf_force_element_names_must_be_unique(write):
    text = model(SPRING, THRUST.replace('name="thruster"', 'name="spring"'))
    error_at(write, text, '<force_element name="spring" type="Thrust"', "spring")


def test_urdf_force_element_unknown_child_warns():
    parsed = parse_urdf(model(THRUST.replace("<limits", "<sparkle/><limits")))
    assert any("sparkle" in w for w in parsed.warnings)
