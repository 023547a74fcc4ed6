"""URDF model-level Drake extensions: drake:collision_filter_group,
drake:linear_bushing_rpy, drake:ball_constraint and <frame>."""
from __future__ import annotations

import pytest

from conftest import HEAVY, line_of, parse_urdf, robot
from mbparse import ParseError

LINKS = "".join(f'<link name="{n}">{HEAVY}<collision><geometry><box size="1 1 1"/></geometry>'
                f"</collision></link>" for n in "abcd")


def group(name: str, inside: str, attrs: str = "") -> str:
    return (f'<drake:collision_filter_group name="{name}" {attrs}>{inside}'
            "</drake:collision_filter_group>")


def members(*links: str) -> str:
    return "".join(f'<drake:member link="{n}"/>' for n in links)


def ignores(name: str) -> str:
    return f'<drake:ignored_collision_filter_group name="{name}"/>'


def excluded(parsed) -> set[tuple[str, str]]:
    plant, sg = parsed.plant, parsed.plant.scene_graph
    names = {b.index: b.name for b in plant.bodies()}
    out = set()
    for a in range(1, plant.num_bodies()):
        for b in range(a + 1, plant.num_bodies()):
            if sg.is_excluded(a, b):
                out.add((names[a], names[b]))
    return out


# ------------------------------------------------------------ collision filter groups
def test_urdf_collision_filter_group_excluding_itself_filters_within():
    parsed = parse_urdf(robot(LINKS + group("g", members("a", "b", "c") + ignores("g"))),
                        strict=True)
    assert excluded(parsed) == {("a", "b"), ("a", "c"), ("b", "c")}


def test_urdf_collision_filter_groups_excluding_each_other_filter_between():
    text = robot(LINKS + group("g1", members("a", "b") + ignores("g2"))
                 + group("g2", members("c")))
    assert excluded(parse_urdf(text, strict=True)) == {("a", "c"), ("b", "c")}


def test_urdf_collision_filter_group_member_group_brings_its_members():
    text = robot(LINKS + group("inner", members("a"))
                 + group("outer", members("b") + '<drake:member_group name="inner"/>'
                         + ignores("outer")))
    parsed = parse_urdf(text, strict=True)
    assert excluded(parsed) == {("a", "b")}
    groups = parsed.parser.get_collision_filter_groups().groups()
    assert groups["r::outer"] == {"r::a", "r::b"}


def test_urdf_collision_filter_group_with_ignore_true_is_skipped():
    text = robot(LINKS + group("g", members("a", "b") + ignores("g"), 'ignore="true"'))
    parsed = parse_urdf(text, strict=True)
    assert excluded(parsed) == set()
    assert parsed.parser.get_collision_filter_groups().groups() == {}


def test_urdf_collision_filter_group_unknown_member_is_a_located_error():
    text = robot(LINKS + group("g", members("a", "ghost")))
    with pytest.raises(ParseError, match="ghost") as info:
        parse_urdf(text)
    assert f"<string>:{line_of(text, '<drake:collision_filter_group')}:" in str(info.value)


def test_urdf_collision_filter_group_unknown_ignored_group_is_an_error():
    with pytest.raises(ParseError, match="nobody"):
        parse_urdf(robot(LINKS + group("g", members("a") + ignores("nobody"))))


def test_urdf_collision_filter_group_unknown_member_group_is_an_error():
    with pytest.raises(ParseError, match="nobody"):
        parse_urdf(robot(LINKS + group("g", '<drake:member_group name="nobody"/>')))


def test_urdf_collision_filter_group_without_members_is_an_error():
    with pytest.raises(ParseError, match="member"):
        parse_urdf(robot(LINKS + group("g", ignores("g"))))


def test_urdf_collision_filter_group_defined_twice_is_an_error():
    with pytest.raises(ParseError, match="already"):
        parse_urdf(robot(LINKS + group("g", members("a")) + group("g", members("b"))))


def test_urdf_collision_filter_groups_need_a_scene_graph_to_matter():
    text = robot(LINKS.replace("<collision>", "<!--").replace("</collision>", "-->")
                 + group("g", members("a", "b") + ignores("g")))
    parsed = parse_urdf(text, scene_graph=False)
    assert parsed.parser.get_collision_filter_groups().groups() == {}


# ------------------------------------------------------------ frames and bushings
FRAMES = ('<frame name="fa" link="a" xyz="0 0 1" rpy="0 0 0"/>'
          '<frame name="fc" link="b" xyz="1 0 0"/>')


def bushing(frame_a: str = "fa", frame_c: str = "fc", skip: str = "") -> str:
    parts = {"drake:bushing_frameA": f'name="{frame_a}"', "drake:bushing_frameC":
             f'name="{frame_c}"', "drake:bushing_torque_stiffness": 'value="1 2 3"',
             "drake:bushing_torque_damping": 'value="4 5 6"',
             "drake:bushing_force_stiffness": 'value="7 8 9"',
             "drake:bushing_force_damping": 'value="10 11 12"'}
    inside = "".join(f"<{tag} {a}/>" for tag, a in parts.items() if tag != skip)
    return f"<drake:linear_bushing_rpy>{inside}</drake:linear_bushing_rpy>"


def test_urdf_frame_is_added_to_the_link():
    parsed = parse_urdf(robot(LINKS + FRAMES), strict=True)
    frame = parsed.plant.get_frame_by_name("fa", parsed.instance)
    assert frame.body.name == "a" and frame.X_BF.p == (0.0, 0.0, 1.0)


def test_urdf_frame_on_an_unknown_link_is_an_error():
    with pytest.raises(ParseError, match="ghost"):
        parse_urdf(robot(LINKS + '<frame name="f" link="ghost"/>'))


def test_urdf_drake_linear_bushing_rpy():
    parsed = parse_urdf(robot(LINKS + FRAMES + bushing()), strict=True)
    (b,) = parsed.plant.force_elements()
    assert b.type == "linear_bushing_rpy"
    assert (b.frameA.name, b.frameC.name) == ("fa", "fc")
    assert b.torque_stiffness == (1.0, 2.0, 3.0) and b.torque_damping == (4.0, 5.0, 6.0)
    assert b.force_stiffness == (7.0, 8.0, 9.0) and b.force_damping == (10.0, 11.0, 12.0)


def test_urdf_drake_linear_bushing_rpy_may_use_body_frames():
    parsed = parse_urdf(robot(LINKS + bushing("a", "b")), strict=True)
    (b,) = parsed.plant.force_elements()
    assert b.frameA.is_body_frame and b.frameC.body.name == "b"


@pytest.mark.parametrize("missing", ["drake:bushing_frameA", "drake:bushing_torque_damping",
                                     "drake:bushing_force_stiffness"])
def test_urdf_drake_linear_bushing_rpy_missing_part_is_an_error(missing):
    with pytest.raises(ParseError, match=missing):
        parse_urdf(robot(LINKS + FRAMES + bushing(skip=missing)))


def test_urdf_drake_linear_bushing_rpy_unknown_frame_is_an_error():
    with pytest.raises(ParseError, match="nowhere"):
        parse_urdf(robot(LINKS + FRAMES + bushing(frame_a="nowhere")))


# ------------------------------------------------------------ ball constraint
BALL = ('<drake:ball_constraint><drake:ball_constraint_body_A name="a"/>'
        '<drake:ball_constraint_body_B name="b"/>'
        '<drake:ball_constraint_p_AP value="1 2 3"/>'
        '<drake:ball_constraint_p_BQ value="4 5 6"/></drake:ball_constraint>')


@pytest.mark.parametrize("plant_options", [{"time_step": 0.0},
                                           {"time_step": 0.01, "approximation": "sap"}],
                         ids=["continuous", "sap"])
def test_urdf_drake_ball_constraint(plant_options):
    parsed = parse_urdf(robot(LINKS + BALL), strict=True, **plant_options)
    (c,) = parsed.plant.constraints()
    assert c.type == "ball"
    assert (c.body_A.name, c.body_B.name) == ("a", "b")
    assert (c.p_AP, c.p_BQ) == ((1.0, 2.0, 3.0), (4.0, 5.0, 6.0))


def test_urdf_drake_ball_constraint_on_a_discrete_tamsi_plant_is_a_located_error():
    text = robot(LINKS + BALL)
    with pytest.raises(ParseError) as info:
        parse_urdf(text, time_step=0.01, approximation="tamsi")
    assert f"<string>:{line_of(text, '<drake:ball_constraint>')}:" in str(info.value)


def test_urdf_drake_ball_constraint_unknown_body_is_an_error():
    with pytest.raises(ParseError, match="ghost"):
        parse_urdf(robot(LINKS + BALL.replace('body_A name="a"', 'body_A name="ghost"')))


def test_urdf_drake_ball_constraint_needs_both_points():
    text = robot(LINKS + BALL.replace('<drake:ball_constraint_p_BQ value="4 5 6"/>', ""))
    with pytest.raises(ParseError, match="p_BQ"):
        parse_urdf(text)
