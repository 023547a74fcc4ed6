"""What an MJCF file puts into the model: frames, default classes, joints,
sites, actuators, equality constraints, contact filters and includes."""
from __future__ import annotations

import math

import pytest

from conftest import Parsed, new_parser
from mbparse import ParseError


def mjcf(body: str, head: str = "", tail: str = "", name: str = "m") -> str:
    return (f'<mujoco model="{name}">\n{head}\n<worldbody>\n{body}\n</worldbody>\n{tail}\n'
            "</mujoco>\n")


def parse(text: str, **options) -> Parsed:
    parser = new_parser(**options)
    instances = parser.add_models_from_string(text, "xml")
    return Parsed(parser.plant(), parser, instances)


def body(p: Parsed, name: str):
    return p.plant.get_body_by_name(name, p.instance)


def joint(p: Parsed, name: str):
    return p.plant.get_joint_by_name(name, p.instance)


def close(a, b, tol=1e-12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# ------------------------------------------------------------ model and bodies
def test_mjcf_model_instance_is_named_by_the_model_attribute():
    p = parse(mjcf('<body name="b"><geom size="0.1"/></body>', name="robot"))
    assert p.plant.get_model_instance_name(p.instance) == "robot"


def test_mjcf_body_without_joint_is_welded_to_its_parent():
    p = parse(mjcf('<body name="b" pos="1 2 3"><geom size="0.1"/></body>'))
    (j,) = [j for j in p.plant.joints() if j.child_body is body(p, "b")]
    assert j.type_name == "weld" and j.name == "world_welds_to_b"


def test_mjcf_unnamed_bodies_joints_and_geoms_get_drake_names():
    p = parse(mjcf('<body><joint/><geom size="0.1"/></body>'))
    assert p.plant.has_body_named("body1", p.instance)
    assert p.plant.has_joint_named("world-body1", p.instance)
    assert any(g.name == "m::geom0" for g in p.geometries())


def test_mjcf_freejoint_leaves_the_body_floating_at_its_pose():
    p = parse(mjcf('<body name="b" pos="1 2 3"><freejoint name="f"/><geom size="0.1"/>'
                   '</body>'))
    p.plant.finalize()
    b = body(p, "b")
    assert b.is_floating_base_body
    assert p.plant.calc_body_poses_in_world()[b.index].p == (1.0, 2.0, 3.0)


def test_mjcf_inertia_from_a_sphere_geom_uses_density_1000():
    p = parse(mjcf('<body name="b"><joint/><geom size="0.1"/></body>'))
    M = body(p, "b").default_spatial_inertia
    assert M.mass == pytest.approx(1000 * 4 / 3 * math.pi * 0.001)


def test_mjcf_explicit_inertial_wins_over_geoms_by_default():
    p = parse(mjcf('<body name="b"><joint/><inertial pos="0 0 0.1" mass="2" '
                   'diaginertia="1 2 3"/><geom size="0.1"/></body>'))
    M = body(p, "b").default_spatial_inertia
    assert (M.mass, M.com, M.I_cm) == (2.0, (0.0, 0.0, 0.1), (1.0, 2.0, 3.0, 0.0, 0.0, 0.0))


def test_mjcf_inertiafromgeom_true_ignores_the_inertial():
    p = parse(mjcf('<body name="b"><joint/><inertial pos="0 0 0" mass="2" '
                   'diaginertia="1 1 1"/><geom type="box" size="0.1 0.1 0.1" mass="3"/></body>',
                   head='<compiler inertiafromgeom="true"/>'))
    assert body(p, "b").default_spatial_inertia.mass == 3.0


def test_mjcf_fullinertia_is_in_the_body_frame():
    p = parse(mjcf('<body name="b"><joint/><inertial pos="0 0 0" mass="1" '
                   'fullinertia="2 3 4 0.1 0.2 0.3"/></body>'))
    assert body(p, "b").default_spatial_inertia.I_cm == (2.0, 3.0, 4.0, 0.1, 0.2, 0.3)


def test_mjcf_geom_mass_sets_the_density():
    p = parse(mjcf('<body name="b"><joint/><geom type="box" size="1 1 1" mass="8"/></body>'))
    M = body(p, "b").default_spatial_inertia
    assert M.mass == 8.0 and close(M.I_cm[:3], (16 / 3, 16 / 3, 16 / 3))


# ------------------------------------------------------------ frames
def test_mjcf_angles_are_degrees_unless_the_compiler_says_radian():
    deg = parse(mjcf('<body name="b" euler="0 0 90"><geom size="0.1"/></body>'))
    rad = parse(mjcf('<body name="b" euler="0 0 1.5707963267948966"><geom size="0.1"/></body>',
                     head='<compiler angle="radian"/>'))
    for p in (deg, rad):
        p.plant.finalize()
        R = p.plant.calc_body_poses_in_world()[body(p, "b").index].R
        assert close(R[0], (0.0, -1.0, 0.0), 1e-12)


def test_mjcf_more_than_one_orientation_is_an_error():
    with pytest.raises(ParseError, match="more than one orientation"):
        parse(mjcf('<body name="b" euler="0 0 1" quat="1 0 0 0"><geom size="0.1"/></body>'))


def test_mjcf_zaxis_along_minus_z_is_a_half_turn_about_x():
    p = parse(mjcf('<body name="b" zaxis="0 0 -1"><geom size="0.1"/></body>'))
    p.plant.finalize()
    R = p.plant.calc_body_poses_in_world()[body(p, "b").index].R
    assert close([R[0][0], R[1][1], R[2][2]], [1.0, -1.0, -1.0])


def test_mjcf_fromto_places_a_capsule_between_its_points():
    p = parse(mjcf('<body name="b"><joint/><geom name="c" type="capsule" '
                   'fromto="0 0 0 0 0 -2" size="0.1"/></body>'))
    for g in p.geometries():
        assert g.shape.length == 2.0 and g.X_BG.p == (0.0, 0.0, -1.0)


# ------------------------------------------------------------ defaults
def test_mjcf_nested_default_classes_inherit_and_override():
    head = ('<default><geom type="box" size="1 1 1" density="1"/>'
            '<default class="a"><geom density="2"/>'
            '<default class="b"><geom size="2 2 2"/></default></default></default>')
    p = parse(mjcf('<body name="x"><joint/><geom class="b"/></body>', head=head))
    # class b: size from b, density from a, type from main.
    assert body(p, "x").default_spatial_inertia.mass == pytest.approx(2 * 64)


def test_mjcf_childclass_applies_to_the_body_and_its_descendants():
    head = '<default><default class="slider"><joint type="slide"/></default></default>'
    p = parse(mjcf('<body name="a" childclass="slider"><joint name="j1"/><geom size="1"/>'
                   '<body name="b"><joint name="j2"/><geom size="1"/></body></body>'
                   '<body name="c"><joint name="j3"/><geom size="1"/></body>', head=head))
    assert [joint(p, n).type_name for n in ("j1", "j2", "j3")] == \
        ["prismatic", "prismatic", "revolute"]


def test_mjcf_element_class_beats_childclass():
    head = ('<default><default class="slider"><joint type="slide"/></default>'
            '<default class="hinge"><joint type="hinge"/></default></default>')
    p = parse(mjcf('<body childclass="slider"><joint name="j" class="hinge"/><geom size="1"/>'
                   '</body>', head=head))
    assert joint(p, "j").type_name == "revolute"


# ------------------------------------------------------------ joints
def test_mjcf_hinge_range_is_in_degrees_and_limited_by_autolimits():
    p = parse(mjcf('<body><joint name="j" range="-90 45"/><geom size="1"/></body>'))
    j = joint(p, "j")
    assert close(j.pos_lower + j.pos_upper, [-math.pi / 2, math.pi / 4])


def test_mjcf_range_without_limited_is_an_error_without_autolimits():
    with pytest.raises(ParseError, match="autolimits"):
        parse(mjcf('<body><joint range="-1 1"/><geom size="1"/></body>',
                   head='<compiler autolimits="false"/>'))


def test_mjcf_limited_false_ignores_the_range():
    p = parse(mjcf('<body><joint name="j" limited="false" range="-1 1"/><geom size="1"/>'
                   '</body>'))
    assert joint(p, "j").pos_lower == [-math.inf]


def test_mjcf_joint_ref_is_the_default_position_and_keeps_the_body_pose():
    p = parse(mjcf('<body name="b" pos="0 0 1"><joint name="j" axis="0 1 0" ref="30"/>'
                   '<geom size="1"/></body>'))
    assert joint(p, "j").default_positions == pytest.approx([math.pi / 6])
    p.plant.finalize()
    X = p.plant.calc_body_poses_in_world()[body(p, "b").index]
    assert close(X.p, (0.0, 0.0, 1.0)) and close(X.R[0], (1.0, 0.0, 0.0))


def test_mjcf_several_joints_in_a_body_chain_through_massless_bodies():
    p = parse(mjcf('<body name="b"><joint name="x" axis="1 0 0"/><joint name="y" axis="0 1 0"/>'
                   '<joint name="z" type="slide"/><geom size="1"/></body>'))
    assert [b.name for b in p.plant.bodies()[1:]] == ["b", "b0", "b1"]
    assert body(p, "b0").default_spatial_inertia.mass == 0
    assert joint(p, "z").child_body is body(p, "b")


def test_mjcf_damping_and_armature_reach_the_joint_and_its_actuator():
    p = parse(mjcf('<body><joint name="j" damping="0.5" armature="0.2"/><geom size="1"/>'
                   '</body>', tail='<actuator><motor joint="j" gear="2"/></actuator>'))
    assert joint(p, "j").damping == [0.5]
    (a,) = p.plant.actuators()
    assert a.gear_ratio == 2.0 and a.rotor_inertia == pytest.approx(0.05)


def test_mjcf_hinge_stiffness_is_a_revolute_spring():
    p = parse(mjcf('<body><joint name="j" stiffness="3" springref="90"/><geom size="1"/>'
                   '</body>'))
    (spring,) = p.plant.force_elements()
    assert spring.stiffness == 3.0 and spring.nominal_angle == pytest.approx(math.pi / 2)


def test_mjcf_site_is_a_frame_on_its_body():
    p = parse(mjcf('<body name="b"><geom size="1"/><site name="s" pos="0 0 1"/></body>'))
    f = p.plant.get_frame_by_name("s", p.instance)
    assert f.body is body(p, "b") and f.X_BF.p == (0.0, 0.0, 1.0)


# ------------------------------------------------------------ actuators
def test_mjcf_motor_effort_limit_is_the_smaller_of_ctrl_and_force_ranges():
    p = parse(mjcf('<body><joint name="j"/><geom size="1"/></body>',
                   tail='<actuator><motor name="m" joint="j" ctrlrange="-5 5" '
                        'forcerange="-3 3"/></actuator>'))
    assert p.plant.get_joint_actuator_by_name("m", p.instance).effort_limit == 3.0


def test_mjcf_position_actuator_has_pd_gains_and_ignores_ctrlrange_for_effort():
    p = parse(mjcf('<body><joint name="j"/><geom size="1"/></body>',
                   tail='<actuator><position name="a" joint="j" kp="10" kv="2" '
                        'ctrlrange="-1 1"/></actuator>'))
    a = p.plant.get_joint_actuator_by_name("a", p.instance)
    assert (a.controller_gains.p, a.controller_gains.d) == (10.0, 2.0)
    assert a.effort_limit == math.inf


def test_mjcf_general_actuator_with_affine_bias_is_a_position_servo():
    p = parse(mjcf('<body><joint name="j"/><geom size="1"/></body>',
                   tail='<actuator><general name="a" joint="j" gainprm="7" biastype="affine" '
                        'biasprm="0 -7 -1"/></actuator>'))
    a = p.plant.get_joint_actuator_by_name("a", p.instance)
    assert (a.controller_gains.p, a.controller_gains.d) == (7.0, 1.0)


def test_mjcf_actuator_defaults_come_from_the_class():
    head = '<default><motor gear="5" ctrlrange="-1 1"/></default>'
    p = parse(mjcf('<body><joint name="j"/><geom size="1"/></body>', head=head,
                   tail='<actuator><motor joint="j"/></actuator>'))
    (a,) = p.plant.actuators()
    assert a.gear_ratio == 5.0 and a.effort_limit == 1.0


# ------------------------------------------------------------ equality, contact
TWO_BODIES = ('<body name="a"><joint name="ja"/><geom size="1"/></body>'
              '<body name="b" pos="1 0 0"><joint name="jb"/><geom size="1"/></body>')


def test_mjcf_connect_is_a_ball_constraint():
    p = parse(mjcf(TWO_BODIES, tail='<equality><connect body1="a" body2="b" anchor="1 0 0"/>'
                                    '</equality>'))
    (c,) = p.plant.constraints()
    assert c.p_AP == (1.0, 0.0, 0.0) and c.p_BQ == (0.0, 0.0, 0.0)


def test_mjcf_weld_is_a_weld_constraint_at_the_reference_pose():
    p = parse(mjcf(TWO_BODIES, tail='<equality><weld body1="a" body2="b"/></equality>'))
    (c,) = p.plant.constraints()
    assert close(c.X_AP.p, (1.0, 0.0, 0.0))


def test_mjcf_joint_equality_is_a_coupler_constraint():
    p = parse(mjcf(TWO_BODIES, tail='<equality><joint joint1="ja" joint2="jb" '
                                    'polycoef="0.1 2"/></equality>'))
    (c,) = p.plant.constraints()
    assert (c.gear_ratio, c.offset) == (2.0, 0.1)


def test_mjcf_contact_exclude_filters_the_two_bodies():
    far = ('<body name="a"><joint/><geom size="1"/></body>'
           '<body name="b"><joint/><geom size="1"/></body>')
    p = parse(mjcf(far))
    q = parse(mjcf(far, tail='<contact><exclude body1="a" body2="b"/></contact>'))
    sg_p, sg_q = p.plant.scene_graph, q.plant.scene_graph
    assert sg_p.num_collision_candidates() == 1 and sg_q.num_collision_candidates() == 0


def test_mjcf_visual_only_geom_has_no_proximity_role():
    p = parse(mjcf('<body><joint/><geom name="v" size="1" contype="0" conaffinity="0"/>'
                   '</body>'))
    assert [g.instance.roles for g in p.geometries()] == [["illustration", "perception"]]


# ------------------------------------------------------------ include
def test_mjcf_include_splices_the_children_of_the_included_root(write):
    write("part.xml", '<mujoco><body name="inc"><joint/><geom size="1"/></body></mujoco>')
    main = write("main.xml", '<mujoco model="m"><worldbody><include file="part.xml"/>'
                             '</worldbody></mujoco>')
    parser = new_parser()
    instances = parser.add_models(main)
    assert parser.plant().has_body_named("inc", instances[0])


def test_mjcf_inertiagrouprange_leaves_out_geoms_of_other_groups_even_from_a_class():
    head = ('<compiler inertiagrouprange="0 2"/><default><default class="hidden">'
            '<geom group="3"/></default></default>')
    p = parse(mjcf('<body name="b" childclass="hidden"><joint/><geom size="1" mass="5"/>'
                   '<geom size="1" mass="2" group="1"/></body>', head=head))
    assert body(p, "b").default_spatial_inertia.mass == 2.0


def test_mjcf_site_named_like_a_body_gets_a_suffixed_frame_and_a_warning():
    p = parse(mjcf('<body name="b"><geom size="1"/><site name="b" pos="0 0 1"/></body>'))
    assert p.plant.get_frame_by_name("b_site", p.instance).X_BF.p == (0.0, 0.0, 1.0)
    assert any("b_site" in w for w in p.warnings)


def test_mjcf_armature_without_an_actuator_warns():
    p = parse(mjcf('<body><joint name="j" armature="0.2"/><geom size="1"/></body>'))
    assert any("armature" in w for w in p.warnings)
