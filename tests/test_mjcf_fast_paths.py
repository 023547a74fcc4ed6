"""The MJCF reader's shortcuts give what the general code gives: shapes
shared between geoms of one size, a body's single geom summed without a
sum, an identity rotation along +z, no unsupported-attribute loop when
there is nothing to warn about, and the body records freed as soon as the
model is built."""
from __future__ import annotations

import gc
import math

from conftest import Parsed
from mbparse.formats.mjcf.attrs import Attrs
from mbparse.formats.mjcf.bodies import Body, Placed
from mbparse.formats.mjcf.geoms import Geom
from mbparse.formats.mjcf.compiler import z_to_vector
from mbparse.formats.mjcf.inertia import combine
from mbparse.spatial import IDENTITY3, quaternion_to_matrix
from test_mjcf_model import body, mjcf, parse


def signs(values) -> list[float]:
    return [math.copysign(1.0, v) for v in values]


def shape_of(p: Parsed, name: str):
    """The shape of geom ``name`` (its visual and collision geometries share it)."""
    (shape,) = {id(g.shape): g.shape for g in p.geometries() if g.name == name}.values()
    return shape


def test_geoms_of_one_size_share_one_shape_and_keep_their_own_names():
    p = parse(mjcf('<geom name="a" type="box" size="1 2 3"/>'
                   '<geom name="b" type="box" size="1 2 3"/>'
                   '<geom name="c" type="box" size="1 2 4"/>'))
    assert shape_of(p, "a") is shape_of(p, "b")
    assert shape_of(p, "c").size() == (2.0, 4.0, 8.0)


def role(p: Parsed, name: str, role_name: str):
    """The ``role_name`` properties of geom ``name``."""
    (props,) = [g.properties(role_name) for g in p.geometries()
                if g.name.endswith(name) and g.has_role(role_name)]
    return props


def test_geoms_of_one_color_read_one_set_of_values_and_a_change_to_one_stays_its_own():
    p = parse(mjcf('<body name="b"><geom name="a" rgba="1 0 0 1"/><geom name="b" rgba="1 0 0 1"/>'
                   '<geom name="c" rgba="0 1 0 1"/></body>'))
    red = [role(p, n, r) for n in "ab" for r in ("illustration", "perception")]
    assert all(dict(x.items()) == dict(red[0].items()) for x in red)
    assert red[0].get_property("phong", "diffuse").to_list() == [1.0, 0.0, 0.0, 1.0]
    green = role(p, "c", "perception").get_property("phong", "diffuse")
    assert green.to_list() == [0.0, 1.0, 0.0, 1.0]
    red[0].add_property("phong", "diffuse", "changed")
    assert red[0].get_property("phong", "diffuse") == "changed"
    for other in red[1:]:
        assert other.get_property("phong", "diffuse").to_list() == [1.0, 0.0, 0.0, 1.0]


def test_a_geom_of_the_default_friction_has_it_and_a_change_to_its_set_stays_its_own():
    p = parse(mjcf('<body name="b"><geom name="a"/><geom name="b"/><geom name="c" '
                   'friction="0.5"/></body>'))
    a, b, c = (role(p, n, "proximity") for n in "abc")
    assert a.get_property("material", "coulomb_friction").static_friction == 1.0
    assert c.get_property("material", "coulomb_friction").static_friction == 0.5
    a.add_property("material", "coulomb_friction", "changed")
    assert b.get_property("material", "coulomb_friction").static_friction == 1.0
    again = role(parse(mjcf('<body name="b"><geom name="a"/></body>')), "a", "proximity")
    assert again.get_property("material", "coulomb_friction").static_friction == 1.0


def test_a_geom_like_one_read_before_gets_its_values_with_its_own_name_and_line():
    p = parse(mjcf('<body name="b"><joint/>\n<geom name="a" type="box" size="1 2 3" '
                   'pos="1 0 0" euler="0 0 90" rgba="1 0 0 1" mass="2"/>\n<geom name="z" '
                   'type="box" size="1 2 3" pos="1 0 0" euler="0 0 90" rgba="1 0 0 1" '
                   'mass="2"/>\n<geom type="box" size="1 2 3" pos="1 0 0" euler="0 0 90" '
                   'rgba="1 0 0 1" mass="2"/></body>'))
    visuals = [g for g in p.geometries() if g.has_role("illustration")]
    assert [g.name for g in visuals] == ["m::a", "m::z", "m::geom2"]
    assert [g.instance.source[1] for g in visuals] == [5, 6, 7]
    assert len({(g.X_BG.p, g.X_BG.R, g.shape) for g in visuals}) == 1
    assert body(p, "b").default_spatial_inertia.mass == 6.0


def test_a_geom_like_one_that_was_warned_about_is_warned_about_too():
    p = parse(mjcf('<body name="b"><geom name="a" size="1" fitscale="2"/>'
                   '<geom name="c" size="1" fitscale="2"/></body>'))
    told = [w for w in p.warnings if "fitscale" in w]
    assert len(told) == 2


def test_a_geom_like_one_read_before_but_elsewhere_is_read_for_its_own_place():
    # The same attributes in the world (no mass) and in a body (mass), and
    # under another childclass: each place is read on its own.
    p = parse(mjcf('<geom name="w" type="box" size="1 1 1"/><body name="b"><geom name="g" '
                   'type="box" size="1 1 1"/></body><body name="c" childclass="big"><geom '
                   'name="h" type="box" size="1 1 1"/></body>',
                   head='<default><default class="big"><geom density="2000"/></default>'
                        '</default>'))
    assert body(p, "b").default_spatial_inertia.mass == 8000.0
    assert body(p, "c").default_spatial_inertia.mass == 16000.0


def test_bodies_with_one_inertial_written_alike_each_get_it_and_each_their_warning():
    inertial = '<inertial pos="0 0 1" mass="{m}" diaginertia="1 2 3" euler="0 0 90"/>'
    p = parse(mjcf(f'<body name="a">{inertial.format(m=2)}</body>'
                   f'<body name="b">{inertial.format(m=2)}</body>'
                   f'<body name="c">{inertial.format(m=0)}</body>'
                   f'<body name="d">{inertial.format(m=0)}</body>'))
    a, b = (body(p, n).default_spatial_inertia for n in "ab")
    assert (a.mass, a.com, a.I_cm) == (b.mass, b.com, b.I_cm)
    assert a.mass == 2.0 and a.com == (0.0, 0.0, 1.0)
    assert len([w for w in p.warnings if "has mass 0" in w]) == 2


def test_a_zero_and_a_negative_zero_radius_stay_two_different_spheres():
    p = parse(mjcf('<geom name="a" size="0"/><geom name="b" size="-0"/>'))
    assert signs([shape_of(p, "a").radius, shape_of(p, "b").radius]) == [1.0, -1.0]


def test_every_sphere_without_a_size_is_warned_about_not_only_the_first():
    p = parse(mjcf('<geom name="a"/><geom name="b"/>'))
    told = [w for w in p.warnings if "sphere without a size" in w]
    assert len(told) == 2 and "'a'" in told[0] and "'b'" in told[1]


def test_a_body_of_one_geom_has_the_sum_of_one_term_signed_zeros_included():
    mass, com, inertia = combine([(2.0, (-0.0, 0.5, 0.0), (1.0, 2.0, 3.0, -0.0, 0.0, 0.0))])
    assert mass == 2.0 and com == (0.0, 0.5, 0.0)
    # As sum() of one term gives: 0 + (-0.0) is +0.0.
    assert signs(com) == [1.0, 1.0, 1.0]
    assert inertia == (1.0, 2.0, 3.0, 0.0, 0.0, 0.0)


def test_a_body_of_several_geoms_adds_their_inertias_about_the_common_center():
    mass, com, inertia = combine([(1.0, (1.0, 0.0, 0.0), (0.1,) * 3 + (0.0,) * 3),
                                  (1.0, (-1.0, 0.0, 0.0), (0.1,) * 3 + (0.0,) * 3)])
    assert mass == 2.0 and com == (0.0, 0.0, 0.0)
    assert inertia == (0.2, 2.2, 2.2, 0.0, 0.0, 0.0)


def test_a_direction_along_plus_z_turns_nothing_entry_for_entry():
    for v in [(0.0, 0.0, 0.1), (-0.0, 0.0, 5.0), (0.0, -0.0, 1e-300)]:
        R = z_to_vector(v)
        general = quaternion_to_matrix((1.0, 0.0, 0.0, 0.0))
        assert R is IDENTITY3 and R == general
        assert signs(x for row in R for x in row) == signs(x for row in general for x in row)
    # Along -z it is a half turn, as before.
    assert z_to_vector((0.0, 0.0, -1.0))[2][2] == -1.0


def test_an_unsupported_attribute_of_a_freejoint_is_named_as_a_joints():
    p = parse(mjcf('<body name="b"><freejoint frictionloss="1"/><geom size="0.1"/></body>'))
    assert any(w.startswith("the attribute 'frictionloss' of <joint> is not supported")
               for w in p.warnings)


def test_unsupported_attributes_are_warned_about_in_the_order_of_their_table():
    p = parse(mjcf('<body name="b" sleep="auto" mocap="true"><geom size="0.1" user="1" '
                   'fitscale="2"/></body>'))
    named = [w.split("'")[1] for w in p.warnings if "is not supported and is ignored" in w]
    assert named == ["mocap", "sleep", "fitscale", "user"]


def test_the_body_records_are_freed_when_the_model_is_built_not_left_to_the_collector():
    text = mjcf("".join(f'<body name="b{i}"><joint/><geom size="0.1"/>' for i in range(5))
                + "</body>" * 5)
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        p = parse(text)
        gc.collect()  # keeps in gc.garbage what only the collector could free
        left = [o for o in gc.garbage if isinstance(o, (Body, Placed, Attrs, Geom))]
        assert p.plant.num_bodies() == 6 and not left
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()


def test_a_hinge_placed_without_a_frame_gets_the_frames_the_general_products_give():
    # pos and ref are composed without RigidTransform products; the numbers
    # (signed zeros included) are those X_CJ @ RigidTransform(R_ref) gives.
    from mbparse.spatial import RigidTransform, axis_angle_to_matrix
    p = parse(mjcf('<body name="b" pos="1 2 3"><joint name="j" pos="-0 0.5 -0" axis="-1 -1 0" '
                   'ref="0"/><geom size="0.1"/></body>'))
    j = p.plant.get_joint_by_name("j", p.instance)
    axis = j.axis
    X_CJ = RigidTransform(p=(-0.0 + 0.0, 0.5, -0.0 + 0.0))
    want = X_CJ @ RigidTransform(axis_angle_to_matrix(axis, 0.0))
    got = j.frame_on_child.X_BF
    assert got.p == want.p and signs(got.p) == signs(want.p)
    assert [signs(row) for row in got.R] == [signs(row) for row in want.R]
    assert j.default_positions == [0.0] and signs(j.default_positions) == [1.0]


def test_joints_written_alike_each_get_the_same_motion_and_their_own_name_and_place():
    hinge = '<joint name="{n}" pos="0 0 0.5" axis="0 1 1" range="-30 60" ref="10"/>'
    p = parse(mjcf(f'<body name="a" pos="1 0 0">{hinge.format(n="ja")}<geom size="0.1"/></body>'
                   f'<body name="b" pos="0 2 0">{hinge.format(n="jb")}<geom size="0.1"/></body>'
                   '<body name="c" pos="0 0 3"><joint pos="0 0 0.5" axis="0 1 1" '
                   'range="-30 60" ref="10"/><geom size="0.1"/></body>',
                   head='<compiler angle="degree"/>'))
    ja, jb, jc = (p.plant.get_joint_by_name(n, p.instance) for n in ("ja", "jb", "world-c"))
    for j in (ja, jb, jc):
        assert j.pos_lower == [math.radians(-30)] and j.pos_upper == [math.radians(60)]
        assert j.default_positions == [math.radians(10)]
        assert j.axis == ja.axis and j.frame_on_child.X_BF.R == ja.frame_on_child.X_BF.R
    assert [j.frame_on_parent.X_BF.p for j in (ja, jb, jc)] == [
        (1.0, 0.0, 0.5), (0.0, 2.0, 0.5), (0.0, 0.0, 3.5)]


def test_joints_written_alike_are_each_warned_about_and_a_frame_turns_only_its_own():
    p = parse(mjcf('<body name="a"><joint name="ja" axis="1 0 0" damping="1 2"/><geom '
                   'size="0.1"/></body><body name="b"><joint name="jb" axis="1 0 0" '
                   'damping="1 2"/><geom size="0.1"/></body><body name="c"><frame '
                   'euler="0 0 90"><joint name="jc" axis="1 0 0"/></frame><geom size="0.1"/>'
                   '</body><body name="d"><joint name="jd" axis="1 0 0"/><geom size="0.1"/>'
                   '</body>'))
    assert len([w for w in p.warnings if "linear damping" in w]) == 2
    jc, jd = (p.plant.get_joint_by_name(n, p.instance) for n in ("jc", "jd"))
    assert [round(v, 12) for v in jc.axis] == [0.0, 1.0, 0.0] and jd.axis == (1.0, 0.0, 0.0)


def test_a_hinge_with_a_negative_zero_ref_keeps_it():
    p = parse(mjcf('<body name="b"><joint name="j" ref="-0"/><geom size="0.1"/></body>'))
    j = p.plant.get_joint_by_name("j", p.instance)
    assert signs(j.default_positions) == [-1.0]


def test_turning_an_inertia_gives_the_bits_of_the_two_matrix_products():
    import random
    from mbparse.formats.mjcf.inertia import rotate_inertia
    from mbparse.spatial import inertia_from_matrix, inertia_matrix, matmul, transpose
    rng = random.Random(7)
    picks = (0.0, -0.0, 1.0, -1.0, 0.5, 3.0)
    for k in range(2000):
        if k % 2:
            R = quaternion_to_matrix([rng.gauss(0, 1) for _ in range(4)])
            I = tuple(rng.uniform(-1, 1) for _ in range(6))
        else:  # signed zeros everywhere
            R = tuple(tuple(rng.choice(picks) for _ in range(3)) for _ in range(3))
            I = tuple(rng.choice(picks) for _ in range(6))
        want = inertia_from_matrix(matmul(matmul(R, inertia_matrix(I)), transpose(R)))
        got = rotate_inertia(I, R)
        assert got == want and signs(got) == signs(want)

