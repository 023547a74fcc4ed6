"""MJCF names and placement as real models use them: a site named like a body
written before that body, a body named like the massless body Drake puts
between two joints, a <body> outside <worldbody>, and a ball joint's range."""
from __future__ import annotations

import pytest

from conftest import Parsed, new_parser
from mbparse import ParseError


def parse(text: str, like_drake: bool = False) -> Parsed:
    parser = new_parser(like_drake=like_drake)
    instances = parser.add_models_from_string(text, "xml")
    return Parsed(parser.plant(), parser, instances)


SITE_FIRST = ('<mujoco model="m"><worldbody><body name="arm"><joint/><geom size="1"/>\n'
              '<site name="wrist" pos="0 0 1"/>\n'
              '<body name="wrist" pos="0 0 1"><joint/><geom size="1"/></body>\n'
              '</body></worldbody></mujoco>\n')


def test_a_site_written_before_a_body_of_the_same_name_leaves_the_body_its_name():
    p = parse(SITE_FIRST)
    assert p.plant.has_body_named("wrist", p.instance)
    assert p.plant.get_frame_by_name("wrist", p.instance).body.name == "wrist"
    assert p.plant.get_frame_by_name("wrist_site", p.instance).X_BF.p == (0.0, 0.0, 1.0)
    assert any("wrist_site" in w for w in p.warnings)


MULTI_JOINT = ('<mujoco model="m"><worldbody>\n'
               '<body name="v1"><joint axis="1 0 0"/><joint axis="0 1 0"/><geom size="1"/>\n'
               '<body name="v10" pos="0 0 1"><joint/><geom size="1"/></body>\n'
               '</body></worldbody></mujoco>\n')


def test_the_massless_body_between_two_joints_yields_its_name_to_a_real_body():
    p = parse(MULTI_JOINT)
    names = {b.name for b in p.plant.bodies() if b.model_instance == p.instance}
    assert {"v1", "v10", "v10_"} <= names
    assert any("Drake refuses" in w and "v10_" in w for w in p.warnings)


def test_drakes_mode_refuses_the_clash_as_drake_does():
    with pytest.raises(ParseError, match="v10"):
        parse(MULTI_JOINT, like_drake=True)


TOP_LEVEL = ('<mujoco model="m">\n<body name="outside" pos="0 0 1"><joint name="j"/>'
             '<geom size="1"/></body>\n<worldbody><body name="inside"><geom size="1"/></body>'
             '</worldbody></mujoco>\n')


def test_a_body_outside_worldbody_is_ignored_with_a_warning_as_mujoco_ignores_it():
    p = parse(TOP_LEVEL)
    assert not p.plant.has_body_named("outside", p.instance)
    assert p.plant.has_body_named("inside", p.instance)
    (d,) = [d for d in p.parser.diagnostic_policy().warnings_seen
            if d.code == "mjcf-body-ignored"]
    assert d.line == 2


def test_drakes_mode_adds_a_body_outside_worldbody_as_a_child_of_the_world_after_the_others():
    p = parse(TOP_LEVEL, like_drake=True)
    bodies = [b.name for b in p.plant.bodies() if b.model_instance == p.instance]
    assert bodies == ["inside", "outside"]
    j = p.plant.get_joint_by_name("j", p.instance)
    assert j.parent_body.name == "world" and j.type_name == "revolute"


@pytest.mark.parametrize("like_drake", [False, True])
def test_a_limited_ball_joint_without_a_range_loads_as_mujoco_and_drake_load_it(like_drake):
    p = parse('<mujoco model="m"><default><joint limited="true"/></default><worldbody>'
              '<body name="b"><joint name="ball" type="ball"/><geom size="1"/></body>'
              '</worldbody></mujoco>', like_drake)
    assert p.plant.get_joint_by_name("ball", p.instance).type_name == "ball_rpy"


def test_a_ball_joint_range_not_starting_at_zero_is_a_located_error_as_in_mujoco():
    with pytest.raises(ParseError, match="must start at 0"):
        parse('<mujoco model="m"><worldbody><body name="b">'
              '<joint type="ball" range="-1 1" limited="true"/><geom size="1"/></body>'
              '</worldbody></mujoco>')
