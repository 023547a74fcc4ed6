"""MJCF read like Drake 1.51 (``--like drake``) and in the default mode
(MuJoCo's meaning): sites, <joint>/<weld>/<connect> equalities, constraints
on a plant that cannot hold them, and mesh files other than OBJ."""
from __future__ import annotations

import pytest

from conftest import Parsed, line_of, new_parser
from mbparse import ParseError
from test_mjcf_meshes import TETRA, binary_stl, one_mesh_model

SITES = ('<mujoco model="m">\n<worldbody>\n<site name="ws"/>\n'
         '<body name="b"><joint name="j"/><geom size="1"/><site name="s" pos="0 0 1"/>\n'
         '</body>\n</worldbody>\n</mujoco>\n')

EQUALITY = ('<mujoco model="m">\n<worldbody>\n'
            '<body name="a" pos="0 0 1"><joint name="j1"/><geom size="0.1"/><site name="sa"/>\n'
            '<body name="b" pos="0 0 1"><joint name="j2"/><geom size="0.1"/><site name="sb"/>\n'
            '</body></body>\n</worldbody>\n<equality>\n{}\n</equality>\n</mujoco>\n')
JOINT = '<joint joint1="j1" joint2="j2"/>'
WELD = '<weld body1="a" body2="b"/>'
CONNECT = '<connect body1="a" body2="b" anchor="0 0 1"/>'
CONNECT_SITES = '<connect site1="sa" site2="sb"/>'
CONNECT_INACTIVE = '<connect body1="a" body2="b" anchor="0 0 1" active="false"/>'


def parse(text: str, like_drake: bool, **options) -> Parsed:
    parser = new_parser(like_drake=like_drake, **options)
    instances = parser.add_models_from_string(text, "xml")
    return Parsed(parser.plant(), parser, instances)


def constraint_kinds(p: Parsed) -> list[str]:
    return [type(c).__name__ for c in p.plant.constraints()]


# ------------------------------------------------------------ sites
def test_mjcf_sites_are_frames_in_the_default_mode():
    p = parse(SITES, like_drake=False)
    assert p.plant.has_frame_named("s", p.instance) and p.plant.has_frame_named("ws", p.instance)
    assert not p.warnings


def test_mjcf_sites_are_ignored_with_drakes_warning_like_drake():
    p = parse(SITES, like_drake=True)
    assert not p.plant.has_frame_named("s", p.instance)
    assert not p.plant.has_frame_named("ws", p.instance)
    assert sorted(p.warnings) == [
        "The tag 'site' found as a child of 'body' is currently unsupported and will be ignored",
        "The tag 'site' found as a child of 'worldbody' is currently unsupported and will be "
        "ignored"]


# ------------------------------------------------------------ equality, plant holds constraints
@pytest.mark.parametrize("element, kind", [(JOINT, "CouplerConstraint"),
                                           (WELD, "WeldConstraint"),
                                           (CONNECT, "BallConstraint"),
                                           (CONNECT_SITES, "BallConstraint")])
def test_mjcf_equalities_keep_mujocos_meaning_in_the_default_mode(element, kind):
    p = parse(EQUALITY.format(element), like_drake=False)
    assert constraint_kinds(p) == [kind]


@pytest.mark.parametrize("element, tag", [(JOINT, "joint"), (WELD, "weld")])
def test_mjcf_joint_and_weld_equalities_are_ignored_with_drakes_warning_like_drake(element, tag):
    for approximation in ("tamsi", "sap"):
        p = parse(EQUALITY.format(element), like_drake=True, time_step=0.001,
                  approximation=approximation)
        assert constraint_kinds(p) == []
        assert f"The tag '{tag}' found as a child of 'equality' is currently unsupported and " \
               "will be ignored" in p.warnings


def test_mjcf_connect_is_a_ball_constraint_like_drake():
    p = parse(EQUALITY.format(CONNECT), like_drake=True)
    assert constraint_kinds(p) == ["BallConstraint"]


def test_mjcf_connect_between_sites_is_ignored_with_drakes_warning_like_drake():
    p = parse(EQUALITY.format(CONNECT_SITES), like_drake=True)
    assert constraint_kinds(p) == []
    assert any("connect node uses the site1 and site2 specification" in w for w in p.warnings)


def test_mjcf_inactive_connect_is_ignored_by_default_but_kept_like_drake():
    default = parse(EQUALITY.format(CONNECT_INACTIVE), like_drake=False)
    assert constraint_kinds(default) == []
    assert any("inactive" in w for w in default.warnings)
    drake = parse(EQUALITY.format(CONNECT_INACTIVE), like_drake=True)
    assert constraint_kinds(drake) == ["BallConstraint"]
    assert any("The attribute 'active' found in a 'connect' tag" in w for w in drake.warnings)


# ------------------------------------------------------------ equality, TAMSI plant
@pytest.mark.parametrize("element", [JOINT, WELD, CONNECT])
def test_mjcf_equality_on_a_tamsi_plant_is_left_out_with_a_located_warning_by_default(element):
    text = EQUALITY.format(element)
    parser = new_parser(time_step=0.001, approximation="tamsi")
    parser.add_models_from_string(text, "xml")
    assert parser.plant().num_constraints() == 0
    (d,) = [d for d in parser.diagnostic_policy().warnings_seen
            if d.code == "constraint-left-out"]
    assert d.line == line_of(text, element)
    assert "--contact-approximation sap" in d.message and "--time-step 0" in d.message


def test_mjcf_connect_on_a_tamsi_plant_is_refused_like_drake():
    text = EQUALITY.format(CONNECT)
    with pytest.raises(ParseError) as e:
        parse(text, like_drake=True, time_step=0.001, approximation="tamsi")
    assert e.value.diagnostic.line == line_of(text, CONNECT)
    assert e.value.diagnostic.code == "constraint-needs-sap"


# ------------------------------------------------------------ mesh files
def test_mjcf_stl_mesh_loads_with_a_drake_refuses_warning_by_default(tmp_path):
    pytest.importorskip("trimesh")
    binary_stl(tmp_path / "t.stl", TETRA)
    (tmp_path / "t.xml").write_text(one_mesh_model("t.stl"))
    parser = new_parser()
    parser.add_models(str(tmp_path / "t.xml"))
    assert parser.plant().has_body_named("b")
    (d,) = [d for d in parser.diagnostic_policy().warnings_seen if d.code == "drake-refuses"]
    assert "only supports mesh files in .obj format" in d.message and d.line == 3


def test_mjcf_non_obj_mesh_is_refused_with_drakes_message_like_drake(tmp_path):
    binary_stl(tmp_path / "t.stl", TETRA)
    (tmp_path / "t.xml").write_text(one_mesh_model("t.stl"))
    with pytest.raises(ParseError) as e:
        new_parser(like_drake=True).add_models(str(tmp_path / "t.xml"))
    d = e.value.diagnostic
    assert d.line == 3 and d.message.startswith(
        "Drake's MuJoCo parser currently only supports mesh files in .obj format, but the "
        f"meshfile \"{tmp_path / 't.stl'}\" was requested")


def test_mjcf_missing_mesh_is_reported_missing_before_its_format_like_drake(write):
    path = write("m.xml", one_mesh_model("absent.stl"))
    with pytest.raises(ParseError) as e:
        new_parser(like_drake=True).add_models(str(path))
    assert e.value.diagnostic.code == "mesh-missing"


# ------------------------------------------------------------ bodies with several joints
SEVERAL_JOINTS = ('<mujoco model="m">\n<worldbody>\n<body name="b" pos="1 2 3" euler="0 0 90">\n'
                  '<joint name="j1" pos="0.1 0 0" axis="1 0 0"/>\n'
                  '<joint name="j2" type="slide" pos="0 0.2 0" axis="0 1 0"/>\n'
                  '<geom size="0.1"/>\n</body>\n</worldbody>\n</mujoco>\n')


def test_mjcf_several_joints_act_in_the_bodys_frame_by_default():
    p = parse(SEVERAL_JOINTS, like_drake=False)
    j1, j2 = (p.plant.get_joint_by_name(n, p.instance) for n in ("j1", "j2"))
    assert j1.frame_on_parent.X_BF.p == pytest.approx((1.0, 2.1, 3.0))
    assert j2.frame_on_parent.X_BF.p == pytest.approx((0.0, 0.2, 0.0))


def test_mjcf_several_joints_take_the_bodys_pose_on_the_last_joint_like_drake():
    p = parse(SEVERAL_JOINTS, like_drake=True)
    j1, j2 = (p.plant.get_joint_by_name(n, p.instance) for n in ("j1", "j2"))
    assert j1.frame_on_parent.X_BF.p == pytest.approx((0.1, 0.0, 0.0))
    assert j2.frame_on_parent.X_BF.p == pytest.approx((0.8, 2.0, 3.0))


# ------------------------------------------------------------ joint springs, compiler masses
SPRING = ('<mujoco model="m">\n<compiler settotalmass="14"/>\n<worldbody>\n<body name="b">\n'
          '<joint name="j" stiffness="5" springref="10"/>\n<geom size="0.1" mass="1"/>\n'
          '</body>\n</worldbody>\n</mujoco>\n')


def test_mjcf_joint_stiffness_is_a_spring_and_settotalmass_scales_by_default():
    p = parse(SPRING, like_drake=False)
    assert [type(f).__name__ for f in p.plant.force_elements()][-1] == "RevoluteSpring"
    assert p.plant.get_body_by_name("b", p.instance).default_spatial_inertia.mass == \
        pytest.approx(14.0)


def test_mjcf_joint_stiffness_and_settotalmass_are_ignored_with_drakes_warnings_like_drake():
    p = parse(SPRING, like_drake=True)
    assert not [f for f in p.plant.force_elements() if type(f).__name__ == "RevoluteSpring"]
    assert p.plant.get_body_by_name("b", p.instance).default_spatial_inertia.mass == \
        pytest.approx(1.0)
    for words in ("The attribute 'stiffness' found in a 'joint' tag",
                  "The attribute 'springref' found in a 'joint' tag",
                  "The attribute 'settotalmass' found in a 'compiler' tag"):
        assert any(w.startswith(words) for w in p.warnings), words


# ------------------------------------------------------------ actuators
ACTUATORS = ('<mujoco model="m">\n<worldbody>\n'
             '<body name="p"><joint name="j0"/><geom size="0.1"/>\n'
             '<body name="q"><joint name="j1"/><geom size="0.1"/>\n'
             '<body name="r"><joint name="j2"/><geom size="0.1"/>\n'
             '</body></body></body>\n</worldbody>\n<actuator>\n'
             '<position name="a0" joint="j0" kp="7" kv="3" ctrlrange="-2 2" forcerange="-5 5"/>\n'
             '<velocity name="a1" joint="j1" kv="3"/>\n'
             '<general name="a2" joint="j2"/>\n</actuator>\n</mujoco>\n')


def test_mjcf_position_servo_keeps_its_damping_and_force_range_by_default():
    p = parse(ACTUATORS, like_drake=False)
    a0 = p.plant.get_joint_actuator_by_name("a0", p.instance)
    assert a0.effort_limit == 5.0
    assert (a0.controller_gains.p, a0.controller_gains.d) == (7.0, 3.0)
    assert {a.name for a in p.plant.actuators()} == {"a0", "a1", "a2"}


def test_mjcf_actuators_read_as_drake_does_like_drake():
    p = parse(ACTUATORS, like_drake=True)
    a0 = p.plant.get_joint_actuator_by_name("a0", p.instance)
    assert a0.effort_limit == 2.0
    assert (a0.controller_gains.p, a0.controller_gains.d) == (7.0, 0.0)
    assert [a.name for a in p.plant.actuators()] == ["a0"]
    for t in ("velocity", "general"):
        assert f"The tag '{t}' found as a child of 'actuator' is currently unsupported and " \
               "will be ignored" in p.warnings


# ------------------------------------------------------------ default classes
DEFAULTS = ('<mujoco model="m">\n<default>\n<default class="A"><joint damping="30"/>\n'
            '<default class="B"><geom size="0.2"/>\n'
            '<default class="C"><joint axis="0 1 0"/></default>\n'
            '</default>\n</default>\n</default>\n<worldbody>\n'
            '<body name="p"><joint name="jB" class="B"/><geom size="0.1"/>\n'
            '<body name="q"><joint name="jC" class="C"/><geom size="0.1"/>\n'
            '</body></body>\n</worldbody>\n</mujoco>\n')


def test_mjcf_default_classes_inherit_through_classes_without_that_element_by_default():
    p = parse(DEFAULTS, like_drake=False)
    assert p.plant.get_joint_by_name("jB", p.instance).damping == [30.0]
    assert p.plant.get_joint_by_name("jC", p.instance).damping == [30.0]


def test_mjcf_default_class_without_a_joint_default_breaks_inheritance_like_drake():
    p = parse(DEFAULTS, like_drake=True)
    jB, jC = (p.plant.get_joint_by_name(n, p.instance) for n in ("jB", "jC"))
    assert (jB.damping, jC.damping) == ([0.0], [0.0])
    assert jC.axis == (0.0, 1.0, 0.0)


# ------------------------------------------------------------ actuator defaults
ACTUATOR_DEFAULTS = ('<mujoco model="m"><default><general ctrllimited="true" ctrlrange="-1 1"/>'
                     '<default class="c"><motor ctrllimited="true" ctrlrange="-2 2"/></default>'
                     '</default><worldbody><body name="a"><joint name="j"/><geom size="1"/>'
                     '<body name="b"><joint name="k"/><geom size="1"/></body></body></worldbody>'
                     '<actuator><motor name="plain" joint="j"/>'
                     '<position name="servo" joint="k" class="c"/></actuator></mujoco>')


def effort_limits(p: Parsed) -> dict:
    return {a.name: a.effort_limit for a in p.plant.actuators()}


def test_mjcf_every_actuator_reads_the_one_actuator_default_of_its_class_by_default():
    # MuJoCo: <general> and <motor> defaults write the same slot; a position
    # servo takes no effort limit from its control range.
    p = parse(ACTUATOR_DEFAULTS, like_drake=False)
    assert effort_limits(p) == {"plain": 1.0, "servo": float("inf")}


def test_mjcf_an_actuator_reads_only_the_defaults_of_its_own_element_like_drake():
    # Drake 1.51 keeps defaults per element name: <general> does not reach a
    # <motor>, nor <motor> a <position> (whose ctrlrange it reads as a force range).
    p = parse(ACTUATOR_DEFAULTS, like_drake=True)
    assert effort_limits(p) == {"plain": float("inf"), "servo": float("inf")}


# ------------------------------------------------------------ replicate
REPLICATE = ('<mujoco model="m"><worldbody><replicate count="3" offset="1 0 0">'
             '<body name="d"><freejoint/><geom size="0.1"/></body></replicate>'
             '<body name="e"><freejoint/><geom size="0.1"/></body></worldbody></mujoco>')


def test_mjcf_replicate_is_expanded_by_default_and_ignored_with_a_warning_like_drake():
    mine = parse(REPLICATE, like_drake=False)
    assert {"d0", "d1", "d2", "e"} <= {b.name for b in mine.plant.bodies()}
    drake = parse(REPLICATE, like_drake=True)
    assert [b.name for b in drake.plant.bodies() if b.model_instance == drake.instance] == ["e"]
    assert any("<replicate>" in w for w in drake.warnings)


# ------------------------------------------------------------ mesh inertia
def obj_model(tmp_path, faces: str) -> str:
    (tmp_path / "shape.obj").write_text(
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 1 1 1\n" + faces)
    return (f'<mujoco model="m"><compiler meshdir="{tmp_path}"/><asset>'
            '<mesh name="shape" file="shape.obj"/></asset><worldbody><body name="b">'
            '<freejoint/><geom type="mesh" mesh="shape" density="6"/></body></worldbody>'
            '</mujoco>')


def test_mjcf_an_open_obj_mesh_is_measured_by_its_convex_hull_with_drakes_warning_like_drake(
        tmp_path):
    # A tetrahedron with one face missing: its signed volume is not the solid's.
    text = obj_model(tmp_path, "f 1 3 2\nf 1 2 4\nf 1 4 3\n")
    p = parse(text, like_drake=True)
    # The hull of all five points (vertex 5 is listed but used by no face):
    # the tetrahedron (1/6) and the one on its far face up to (1,1,1) (1/3).
    assert p.plant.get_body_by_name("b").default_spatial_inertia.mass == pytest.approx(3.0)
    assert any("convex hull as a fallback" in w for w in p.warnings)


def test_mjcf_a_closed_obj_mesh_has_drakes_signed_volume_like_drake(tmp_path):
    text = obj_model(tmp_path, "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    p = parse(text, like_drake=True)
    assert p.plant.get_body_by_name("b").default_spatial_inertia.mass == pytest.approx(1.0)
    assert not any("convex hull" in w for w in p.warnings)


# ------------------------------------------------------------ massless <inertial>
MASSLESS = ('<mujoco model="m">\n<worldbody>\n<body name="a"><joint name="j"/><geom size="0.1"/>\n'
            '<body name="b">\n<inertial diaginertia="0 0 0" mass="0" pos="0.1 0 0"/></body>\n'
            '</body>\n</worldbody>\n</mujoco>\n')


def test_mjcf_inertial_of_mass_zero_is_a_massless_body_in_the_default_mode():
    # robosuite's sawyer/robot.xml: MuJoCo compiles it; Drake 1.51 stops on
    # "condition 'mass > 0' failed"
    p = parse(MASSLESS, like_drake=False)
    assert p.plant.get_body_by_name("b").mass == 0
    seen = p.parser.diagnostic_policy().warnings_seen
    assert any(d.line == line_of(MASSLESS, "<inertial") and d.code == "drake-refuses"
               and "has mass 0" in d.message for d in seen)


def test_mjcf_inertial_of_mass_zero_is_an_error_like_drake():
    with pytest.raises(ParseError, match="<inertial> of body 'b' has mass 0") as err:
        parse(MASSLESS, like_drake=True)
    assert err.value.diagnostic.line == line_of(MASSLESS, "<inertial")


def test_mjcf_inertial_of_mass_zero_is_not_read_when_inertia_comes_from_geoms():
    text = MASSLESS.replace("<worldbody>", '<compiler inertiafromgeom="true"/>\n<worldbody>')
    parse(text, like_drake=True)  # Drake does not read the <inertial> then
