"""SDFormat joints Drake refuses only because its joints must form a tree:
a joint that closes a kinematic loop, and a gearbox. The default mode keeps
each as a constraint with a warning that says Drake refuses it; Drake's mode
refuses exactly as Drake does."""
from __future__ import annotations

import math

import pytest

from mbparse import ParseError
from mbparse.plant import ModelError
from mbparse.plant import LoopJointConstraint

from conftest import line_of, parse_file, parse_sdf, sdf


def _link(name: str, pose: str = "0 0 0 0 0 0") -> str:
    return (f'<link name="{name}"><pose>{pose}</pose><inertial><mass>1</mass><inertia>'
            "<ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>")


def _joint(name: str, jtype: str, parent: str, child: str, extra: str = "",
           xyz: str = "0 1 0") -> str:
    return (f'<joint name="{name}" type="{jtype}"><parent>{parent}</parent><child>{child}'
            f"</child><axis><xyz>{xyz}</xyz>{extra}</axis></joint>")


# A planar four-bar linkage: ground, crank, coupler, rocker; 'closing' closes it.
FOUR_BAR = sdf(
    '<model name="four_bar">'
    + _link("ground") + _link("crank", "0 0 0.5 0 0 0") + _link("coupler", "0.5 0 1 0 0 0")
    + _link("rocker", "1 0 0.5 0 0 0")
    + '<joint name="weld" type="fixed"><parent>world</parent><child>ground</child></joint>'
    + _joint("j_crank", "revolute", "ground", "crank", "<limit><lower>-1</lower>"
             "<upper>1</upper></limit>")
    + _joint("j_coupler", "continuous", "crank", "coupler")
    + _joint("j_rocker", "continuous", "ground", "rocker")
    + '<joint name="closing" type="revolute"><pose>0.5 0 0 0 0 0</pose><parent>rocker</parent>'
      "<child>coupler</child><axis><xyz>0 1 0</xyz><limit><lower>-2</lower><upper>2</upper>"
      "</limit><dynamics><damping>0.5</damping></dynamics></axis></joint>"
    + "</model>")


def test_a_revolute_joint_closing_a_loop_is_a_loop_constraint_in_the_default_mode():
    parsed = parse_sdf(FOUR_BAR)
    plant = parsed.plant
    assert not plant.has_joint_named("closing")
    (loop,) = [c for c in plant.constraints() if c.type == "loop_joint"]
    assert isinstance(loop, LoopJointConstraint)
    assert (loop.name, loop.body_A.name, loop.body_B.name) == ("closing", "rocker", "coupler")
    assert loop.axis == pytest.approx((0.0, 1.0, 0.0))
    # The joint frame is 0.5 m along +x of the coupler (at 0.5 0 1): (1, 0, 1) in the
    # world, which is (0, 0, 0.5) in the rocker (at 1 0 0.5).
    assert loop.X_BM.p == pytest.approx((0.5, 0.0, 0.0))
    assert loop.X_AF.p == pytest.approx((0.0, 0.0, 0.5))
    plant.finalize()  # the joints left form a tree
    assert plant.num_joints() == 4


def test_the_loop_warning_is_located_says_drake_refuses_and_what_is_not_kept(write):
    path = write("four_bar.sdf", FOUR_BAR)
    parsed = parse_file(path)
    (diag,) = [d for d in parsed.parser.diagnostic_policy().warnings_seen
               if "closes a kinematic loop" in d.message]
    assert diag.code == "drake-refuses"
    assert (diag.file, diag.line) == (str(path), line_of(FOUR_BAR, '<joint name="closing"'))
    assert "Drake refuses this" in diag.message
    assert "its limits, damping and actuator" in diag.message


def test_drake_mode_adds_the_loop_closing_joint_and_finalize_refuses_the_loop():
    parsed = parse_sdf(FOUR_BAR, like_drake=True)
    assert parsed.plant.has_joint_named("closing")
    assert not [c for c in parsed.plant.constraints() if c.type == "loop_joint"]
    with pytest.raises(ModelError, match="closes a loop"):
        parsed.plant.finalize()


def test_a_loop_closed_by_a_joint_to_the_world_is_a_loop_constraint_too():
    text = sdf('<model name="m">' + _link("a") + _link("b", "1 0 0 0 0 0")
               + _joint("j1", "revolute", "world", "a") + _joint("j2", "revolute", "a", "b")
               + _joint("j3", "continuous", "world", "b") + "</model>")
    plant = parse_sdf(text).plant
    assert [c.name for c in plant.constraints() if c.type == "loop_joint"] == ["j3"]
    plant.finalize()


def _triangle(closing: str) -> str:
    """Two revolute joints from the world and ``closing`` between their links."""
    return sdf('<model name="m">' + _link("a") + _link("b", "1 0 0 0 0 0")
               + _joint("j1", "revolute", "world", "a") + _joint("j2", "revolute", "a", "b")
               + closing + "</model>")


@pytest.mark.parametrize("jtype, joint_type", [
    ("prismatic", "prismatic"), ("ball", "ball"), ("fixed", "fixed")])
def test_prismatic_ball_and_fixed_joints_closing_a_loop_are_loop_constraints(jtype, joint_type):
    axis = "<axis><xyz>1 0 0</xyz></axis>" if jtype == "prismatic" else ""
    parsed = parse_sdf(_triangle(f'<joint name="j3" type="{jtype}"><parent>world</parent>'
                                 f"<child>b</child>{axis}</joint>"))
    (loop,) = parsed.plant.constraints()
    assert (loop.name, loop.joint_type) == ("j3", joint_type)
    if jtype == "prismatic":
        assert loop.axis == pytest.approx((1.0, 0.0, 0.0))
    parsed.plant.finalize()


def test_a_loop_closed_by_a_universal_joint_is_still_refused_at_finalize():
    parsed = parse_sdf(_triangle('<joint name="j3" type="universal"><parent>world</parent>'
                                 "<child>b</child><axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0"
                                 "</xyz></axis2></joint>"))
    with pytest.raises(ModelError, match="'j3' closes a loop"):
        parsed.plant.finalize()


def test_the_summary_names_the_loop_constraints_joint_type():
    from mbparse.summary import summarize
    parsed = parse_sdf(FOUR_BAR)
    parsed.plant.finalize()
    summary = summarize(parsed.plant, parsed.parser, parsed.instances)
    (loop,) = [c for c in summary["constraints"] if c["type"] == "loop_joint"]
    assert (loop["name"], loop["joint_type"]) == ("closing", "revolute")


def test_a_drake_mimic_on_a_loop_closing_joint_is_reported_as_not_kept():
    text = FOUR_BAR.replace('<pose>0.5 0 0 0 0 0</pose><parent>rocker',
                            '<drake:mimic joint="j_crank" multiplier="1" offset="0"/>'
                            '<pose>0.5 0 0 0 0 0</pose><parent>rocker')
    parsed = parse_sdf(text)
    assert any("closes a kinematic loop" in w and "its drake:mimic, limits" in w
               for w in parsed.warnings)
    assert not [c for c in parsed.plant.constraints() if c.type == "coupler"]


# Two gears turning in a base: the gearbox couples j_gear2 to j_gear1.
def _gearbox(ratio: str = "2", axis2: str = "0 0 1", j2_axis: str = "0 0 1",
             j2: str = "base gear2", reference: str = "base") -> str:
    j2_parent, j2_child = j2.split()
    return sdf(
        '<model name="gears">' + _link("base") + _link("gear1", "0 0 1 0 0 0")
        + _link("gear2", "0.3 0 1 0 0 0")
        + '<joint name="fix" type="fixed"><parent>world</parent><child>base</child></joint>'
        + _joint("j_gear1", "revolute", "base", "gear1", xyz="0 0 1")
        + _joint("j_gear2", "revolute", j2_parent, j2_child, xyz=j2_axis)
        + f'<joint name="box" type="gearbox"><parent>gear1</parent><child>gear2</child>'
          f"<gearbox_reference_body>{reference}</gearbox_reference_body>"
          f"<gearbox_ratio>{ratio}</gearbox_ratio><axis><xyz>0 0 1</xyz></axis>"
          f"<axis2><xyz>{axis2}</xyz></axis2></joint>"
        + "</model>")


def test_a_gearbox_couples_its_two_reference_joints_in_the_default_mode():
    parsed = parse_sdf(_gearbox())
    plant = parsed.plant
    assert not plant.has_joint_named("box")
    (coupler,) = plant.constraints()
    assert (coupler.joint0.name, coupler.joint1.name) == ("j_gear2", "j_gear1")
    # theta_2 = -ratio * theta_1 with both joints turning their gear about +z.
    assert (coupler.gear_ratio, coupler.offset) == (-2.0, 0.0)
    assert any("Joint type (gearbox) not supported" in w and "Drake refuses this" in w
               for w in parsed.warnings)
    assert not any("Ignoring unsupported" in w for w in parsed.warnings)  # read, not ignored
    plant.finalize()


def test_a_gearbox_follows_the_direction_of_each_reference_joint():
    # j_gear2 turns about -z, and it is written from gear2 to base: two sign changes.
    (coupler,) = parse_sdf(_gearbox(j2_axis="0 0 -1", j2="gear2 base")).plant.constraints()
    assert coupler.gear_ratio == -2.0
    (coupler,) = parse_sdf(_gearbox(j2_axis="0 0 -1")).plant.constraints()
    assert coupler.gear_ratio == 2.0


def test_drake_mode_refuses_a_gearbox_as_drake_does():
    with pytest.raises(ParseError, match=r"Joint type \(gearbox\) not supported for joint 'box'"):
        parse_sdf(_gearbox(), like_drake=True)


def test_a_gearbox_without_a_joint_to_its_reference_body_is_a_located_error():
    with pytest.raises(ParseError, match="no joint joins them"):
        parse_sdf(_gearbox(reference="gear1"))


def test_a_gearbox_axis_that_is_not_its_joints_axis_is_a_located_error():
    with pytest.raises(ParseError, match="<axis2> is not parallel"):
        parse_sdf(_gearbox(axis2="1 0 0"))


def test_a_gearbox_on_a_plant_without_constraints_is_reported_not_kept():
    parsed = parse_sdf(_gearbox(), time_step=0.001)  # TAMSI holds no constraints
    assert parsed.plant.num_constraints() == 0
    assert any("Gearbox joint 'box' is not kept" in w for w in parsed.warnings)


def test_the_gearbox_ratio_defaults_to_one():
    text = _gearbox().replace("<gearbox_ratio>2</gearbox_ratio>", "")
    (coupler,) = parse_sdf(text).plant.constraints()
    assert coupler.gear_ratio == -1.0
    assert math.isfinite(coupler.gear_ratio)
