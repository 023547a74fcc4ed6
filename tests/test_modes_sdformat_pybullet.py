"""pybullet's SDFormat files that Drake (libsdformat) refuses, read in the
default mode with a located warning (Drake's mode keeps the error): the wsg50
grippers' empty ``<link name='world'>`` (left out, so 'world' is the world
frame; a 'world' link with contents is renamed world_link, as pybullet reads it
as an ordinary link), and kiva_shelf's
collisions that share one name (each later one renamed NAME_1, NAME_2...)."""
from __future__ import annotations

import pytest

from conftest import drake_refusal_at, line_of, parse_sdf, sdf
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
    assert drake_refusal_at(parsed, GRIPPER, "<link name='world'>", "reserved")


def test_modes_sdformat_empty_world_link_is_an_error_like_drake():
    with pytest.raises(ParseError, match="The link name 'world' is reserved"):
        parse_sdf(GRIPPER, like_drake=True)


FREE_BASE = GRIPPER.replace("<link name='world'>\n</link>",
                            f"<link name='world'>{INERTIAL}</link>").replace("'prismatic'", "'fixed'")


def test_modes_sdformat_world_link_with_contents_is_renamed_by_default():
    # pybullet's wsg50_one_motor_gripper*_free_base.sdf: pybullet loads 'world' as an
    # ordinary link, the free-floating base the gripper is welded to
    parsed = parse_sdf(FREE_BASE)
    plant = parsed.plant
    assert sorted(b.name for b in plant.bodies() if b.model_instance != 0) == ["base",
                                                                                "world_link"]
    joint = plant.get_joint_by_name("base_joint")
    assert (joint.parent_body.name, joint.child_body.name) == ("world_link", "base")
    assert joint.parent_body.model_instance != 0
    plant.finalize()
    assert plant.get_body_by_name("world_link").is_floating_base_body
    seen = parsed.parser.diagnostic_policy().warnings_seen
    assert any(d.line == line_of(FREE_BASE, "<link name='world'>") and d.code ==
               "sdf-world-link-renamed" and "renamed 'world_link'" in d.message
               and "'base_joint'" in d.message and "Drake refuses this" in d.message
               for d in seen)


def test_modes_sdformat_world_link_with_contents_is_an_error_like_drake():
    with pytest.raises(ParseError, match="The link name 'world' is reserved") as err:
        parse_sdf(FREE_BASE, like_drake=True)
    assert err.value.diagnostic.line == line_of(FREE_BASE, "<link name='world'>")


def test_modes_sdformat_renamed_world_link_takes_a_free_name():
    text = FREE_BASE.replace("<link name='base'>", f"<link name='world_link'>{INERTIAL}</link>"
                                                   "<link name='base'>")
    parsed = parse_sdf(text)
    joint = parsed.plant.get_joint_by_name("base_joint")
    assert joint.parent_body.name == "world_link_1"


def test_modes_sdformat_only_world_link_with_contents_is_renamed_by_default():
    text = sdf(f"<model name='m'><link name='world'>{INERTIAL}</link></model>", version="1.6")
    parsed = parse_sdf(text)
    assert [b.name for b in parsed.plant.bodies() if b.model_instance != 0] == ["world_link"]


def test_modes_sdformat_empty_only_world_link_stays_an_error_in_both_modes():
    text = sdf("<model name='m'><link name='world'/></model>", version="1.6")
    for like_drake in (False, True):
        with pytest.raises(ParseError, match="The link name 'world' is reserved"):
            parse_sdf(text, like_drake=like_drake)


BOX = "<geometry><box><size>1 1 1</size></box></geometry>"
SHELF = sdf("<model name='shelf'><static>true</static><link name='pod'>\n"
            f"<collision name='c'>{BOX}</collision>\n"
            f"<collision name='c'>{BOX}</collision>\n"
            f"<collision name='c_1'>{BOX}</collision>\n"
            f"<collision name='c'>{BOX}</collision>\n"
            f"<visual name='v'>{BOX}</visual>\n"
            "</link></model>", version="1.6")


def test_modes_sdformat_collisions_sharing_a_name_are_renamed_by_default():
    parsed = parse_sdf(SHELF)
    names = sorted(g.name.split("::")[-1] for g in parsed.geometries())
    assert names == ["c", "c_1", "c_2", "c_3", "v"]
    seen = parsed.parser.diagnostic_policy().warnings_seen
    renames = [d for d in seen if "used more than once" in d.message]
    assert len(renames) == 2
    assert all("Drake refuses this" in d.message for d in renames)
    assert renames[0].line == line_of(SHELF, "<collision name='c'>") + 1


def test_modes_sdformat_collisions_sharing_a_name_are_an_error_like_drake():
    with pytest.raises(ParseError, match="collision name 'c' is used more than once in link 'pod'"):
        parse_sdf(SHELF, like_drake=True)


TWO_ARMS = sdf("<world name='default'>\n"
               f"<model name='arm'><link name='l'>{INERTIAL}</link></model>\n"
               f"<model name='arm'><pose>1 0 0 0 0 0</pose><link name='l'>{INERTIAL}</link></model>\n"
               "</world>", version="1.6")


def test_modes_sdformat_world_models_sharing_a_name_are_renamed_by_default():
    # pybullet's kuka_iiwa/model2.sdf places two arms named 'lbr_iiwa'
    parsed = parse_sdf(TWO_ARMS)
    plant = parsed.plant
    names = [plant.get_model_instance_name(i) for i in range(plant.num_model_instances())]
    assert names[-2:] == ["arm", "arm_1"]
    assert plant.get_body_by_name("l", plant.get_model_instance_by_name("arm_1")).name == "l"
    assert drake_refusal_at(parsed, TWO_ARMS, "<model name='arm'><pose>", "'arm_1'")


def test_modes_sdformat_world_models_sharing_a_name_are_an_error_like_drake():
    with pytest.raises(ParseError, match="The name 'arm' is used 2 times"):
        parse_sdf(TWO_ARMS, like_drake=True)


def test_modes_sdformat_model_and_frame_sharing_a_name_stay_an_error_in_both_modes():
    text = TWO_ARMS.replace("<model name='arm'><pose>", "<frame name='arm'/><model name='arm2'><pose>")
    for like_drake in (False, True):
        with pytest.raises(ParseError, match="The name 'arm' is used 2 times"):
            parse_sdf(text, like_drake=like_drake)
