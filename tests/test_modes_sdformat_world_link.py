"""pybullet's gripper files declare an empty ``<link name='world'>`` so that a
joint can name 'world' as its parent. Drake (libsdformat) refuses the reserved
name; the default mode leaves that empty link out with a located warning, so
'world' is the world frame; a 'world' link with contents stays refused."""
from __future__ import annotations

import pytest

from conftest import line_of, parse_sdf, sdf
from mbparse import ParseError

INERTIAL = "<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>"
GRIPPER = sdf("<world name='default'><model name='gripper'>\n"
              "<pose>0 0 0.26 0 0 0</pose>\n"
              "<link name='world'>\n</link>\n"
              "<joint name='base_joint' type='prismatic'><parent>world</parent>"
              "<child>base</child><axis><xyz>0 0 1</xyz></axis></joint>\n"
              f"<link name='base'>{INERTIAL}</link>\n"
              "</model></world>", version="1.6")


def test_modes_sdformat_empty_world_link_is_left_out_by_default():
    parsed = parse_sdf(GRIPPER)
    plant = parsed.plant
    joint = plant.get_joint_by_name("base_joint")
    assert joint.type_name == "prismatic"
    assert joint.parent_body.name == "world"
    assert joint.parent_body.model_instance == 0  # the world's own instance
    assert sorted(b.name for b in plant.bodies() if b.model_instance != 0) == ["base"]
    seen = parsed.parser.diagnostic_policy().warnings_seen
    assert any(d.line == line_of(GRIPPER, "<link name='world'>") and "reserved" in d.message
               and "Drake refuses this" in d.message for d in seen)


def test_modes_sdformat_empty_world_link_is_an_error_like_drake():
    with pytest.raises(ParseError, match="The link name 'world' is reserved"):
        parse_sdf(GRIPPER, like_drake=True)


def test_modes_sdformat_world_link_with_contents_stays_an_error_in_both_modes():
    text = GRIPPER.replace("<link name='world'>\n</link>", f"<link name='world'>{INERTIAL}</link>")
    for like_drake in (False, True):
        with pytest.raises(ParseError, match="The link name 'world' is reserved"):
            parse_sdf(text, like_drake=like_drake)
