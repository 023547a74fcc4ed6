"""URDF materials: named materials under <robot>, reuse by name inside a
<visual>, consistency of repeated definitions, and the default colour."""
from __future__ import annotations

import pytest

from conftest import line_of, parse_file, parse_urdf, robot
from mbparse import ParseError
from mbparse.geometry import Rgba
from mbparse.geometry.properties import ILLUSTRATION, PERCEPTION

RED = '<material name="red"><color rgba="1 0 0 1"/></material>'


def visual(material: str, name: str = "v") -> str:
    return (f'<link name="a"><visual name="{name}"><geometry><box size="1 1 1"/></geometry>'
            f'{material}</visual></link>')


def diffuse(parsed, name: str = "r::v", role: str = ILLUSTRATION):
    return parsed.geometry(name).properties(role).get_property("phong", "diffuse")


def test_urdf_named_material_is_reused_by_name_in_a_visual():
    parsed = parse_urdf(robot(RED + visual('<material name="red"/>')), strict=True)
    assert diffuse(parsed) == Rgba(1, 0, 0, 1)
    assert diffuse(parsed, role=PERCEPTION) == Rgba(1, 0, 0, 1)


def test_urdf_visual_may_define_its_own_named_material_for_later_visuals():
    text = robot('<link name="a">'
                 '<visual name="v1"><geometry><box size="1 1 1"/></geometry>'
                 '<material name="blue"><color rgba="0 0 1 1"/></material></visual>'
                 '<visual name="v2"><geometry><box size="1 1 1"/></geometry>'
                 '<material name="blue"/></visual></link>')
    parsed = parse_urdf(text, strict=True)
    assert diffuse(parsed, "r::v2") == Rgba(0, 0, 1, 1)


def test_urdf_material_color_inline_without_name():
    parsed = parse_urdf(robot(visual('<material><color rgba="0.1 0.2 0.3 0.4"/></material>')))
    assert diffuse(parsed) == Rgba(0.1, 0.2, 0.3, 0.4)


def test_urdf_material_same_definition_again_in_a_visual_is_fine():
    parsed = parse_urdf(robot(RED + visual(RED)), strict=True)
    assert diffuse(parsed) == Rgba(1, 0, 0, 1)


def test_urdf_material_conflicting_definition_is_an_error_like_drake(write):
    text = robot(RED + visual('<material name="red"><color rgba="0 1 0 1"/></material>'))
    path = write("m.urdf", text)
    with pytest.raises(ParseError, match="red") as info:
        parse_file(path, like_drake=True)
    assert f"{path}:{line_of(text, '<visual')}:" in str(info.value)


def test_urdf_material_conflicting_definition_colours_its_visual_by_default(write):
    text = robot(RED + visual('<material name="red"><color rgba="0 1 0 1"/></material>'))
    parsed = parse_file(write("m.urdf", text))
    (g,) = parsed.geometries()
    assert g.properties(ILLUSTRATION).get_property("phong", "diffuse") == Rgba(0, 1, 0, 1)
    (w,) = parsed.warnings
    assert "defined twice" in w and "Drake refuses this" in w


def test_urdf_material_defined_twice_under_robot_is_an_error_like_drake():
    with pytest.raises(ParseError, match="red"):
        parse_urdf(robot(RED + "\n" + RED + '<link name="a"/>'), like_drake=True)


def test_urdf_material_undefined_name_is_an_error_in_drakes_mode(write):
    text = robot(visual('<material name="nowhere"/>'))
    path = write("m.urdf", text)
    with pytest.raises(ParseError, match="nowhere") as info:
        parse_file(path, like_drake=True)
    assert f"{path}:{line_of(text, '<material')}:" in str(info.value)


def test_urdf_material_undefined_name_loads_uncoloured_with_a_warning_by_default(write):
    # pybullet_data and genesis models name materials they never define;
    # urdfdom and yourdfpy read them, Drake refuses them.
    text = robot(visual('<material name="nowhere"/>'))
    parsed = parse_file(write("m.urdf", text))
    assert diffuse(parsed) is None
    (d,) = parsed.parser.diagnostic_policy().warnings_seen
    assert d.code == "drake-refuses" and "nowhere" in d.message
    assert d.line == line_of(text, "<material")


def test_urdf_material_under_robot_needs_a_name():
    with pytest.raises(ParseError, match="name"):
        parse_urdf(robot('<material><color rgba="1 0 0 1"/></material><link name="a"/>'))


def test_urdf_material_with_only_a_texture_defaults_to_transparent_black(write, tmp_path):
    write("tex.png", "not really a png; never read")
    text = robot('<material name="skin"><texture filename="tex.png"/></material>'
                 + visual('<material name="skin"/>'))
    parsed = parse_file(write("m.urdf", text), strict=True)
    props = parsed.geometry("r::v").properties(ILLUSTRATION)
    assert props.get_property("phong", "diffuse") == Rgba(0, 0, 0, 0)
    assert props.get_property("phong", "diffuse_map") == str(tmp_path / "tex.png")


def test_urdf_visual_without_material_has_no_diffuse_colour():
    parsed = parse_urdf(robot(visual("")), strict=True)
    assert diffuse(parsed) is None


def test_urdf_drake_diffuse_map_is_an_error_in_urdf():
    text = robot(visual('<material name="m"><drake:diffuse_map>x.png</drake:diffuse_map>'
                        '</material>'))
    with pytest.raises(ParseError, match="diffuse_map"):
        parse_urdf(text)


def test_urdf_material_color_needs_four_numbers():
    with pytest.raises(ParseError, match="rgba"):
        parse_urdf(robot(visual('<material><color rgba="1 0 0"/></material>')))
