"""Numbers that are not meaningful (NaN, infinities, 1e400 which overflows)
are located errors naming the value and why, in every format; numbers only
partly written (``1,2``, ``0x1p3``) are read as Drake reads them, with a
located warning -- never a silently different model."""
from __future__ import annotations

import math

import pytest

from mbparse.diagnostics import ParseError
from mbparse.loading import LoadOptions, load
from conftest import HEAVY, parse_urdf, robot

TWO_LINKS = ('<link name="a"/><link name="b">' + HEAVY + '</link>'
             '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>{joint}</joint>')


def urdf_error(body: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_urdf(robot(body))
    return info.value


@pytest.mark.parametrize("value", ["1e400", "-1e400", "1e400 0 0"])
def test_urdf_rpy_that_overflows_is_a_located_error(value):
    rpy = value if " " in value else f"0 0 {value}"
    e = urdf_error(TWO_LINKS.format(joint=f'<origin rpy="{rpy}"/><axis xyz="0 0 1"/>'))
    assert e.diagnostic.line == 3 and e.diagnostic.code == "number-not-finite"
    assert "1e400" in str(e) and "overflows" in str(e)


@pytest.mark.parametrize("where", [
    '<link name="c"><inertial><mass value="1e400"/></inertial></link>',
    '<link name="c"><inertial><mass value="1"/><inertia ixx="1e999" iyy="1" izz="1" ixy="0" '
    'ixz="0" iyz="0"/></inertial></link>',
    TWO_LINKS.format(joint='<axis xyz="1e400 0 0"/>'),
    TWO_LINKS.format(joint='<axis xyz="0 0 1"/><limit lower="-1e400" upper="1"/>'),
    TWO_LINKS.format(joint='<axis xyz="0 0 1"/><dynamics damping="1e400"/>'),
])
def test_urdf_non_finite_values_never_reach_the_model(where):
    e = urdf_error(where)
    assert e.diagnostic.code == "number-not-finite" and "not a finite number" in str(e)


def test_urdf_number_with_a_comma_is_read_as_drake_reads_it_with_a_warning():
    parsed = parse_urdf(robot('<link name="a"><inertial><mass value="1,2"/><inertia ixx="1" '
                              'iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'))
    body = parsed.plant.get_body_by_name("a")
    assert body.default_spatial_inertia.mass == 1.0
    (w,) = [w for w in parsed.parser.diagnostic_policy().warnings_seen
            if w.code == "number-malformed"]
    assert "'1,2' is read as 1" in w.message and w.line == 3


def test_urdf_hex_float_is_not_silently_zero():
    parsed = parse_urdf(robot('<link name="a"><inertial><mass value="0x1p3"/><inertia ixx="1" '
                              'iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'))
    assert any("'0x1p3' is read as 0" in w for w in parsed.warnings)


def test_urdf_empty_mass_is_an_error_not_the_default():
    e = urdf_error('<link name="a"><inertial><mass value=""/></inertial></link>')
    assert "should be one number" in str(e)


def test_urdf_curvilinear_zero_angle_and_zero_tangent_are_located_errors():
    joint = ('<drake:joint name="c" type="curvilinear"><parent link="a"/><child link="b"/>'
             '{extra}<drake:curves><drake:circular_arc radius="1" angle="{angle}"/>'
             '</drake:curves></drake:joint>')
    links = '<link name="a"/><link name="b">' + HEAVY + '</link>'
    e = urdf_error(links + joint.format(extra="", angle="0"))
    assert "angle must not be zero" in str(e) and e.diagnostic.line is not None
    e = urdf_error(links + joint.format(extra='<drake:initial_tangent xyz="0 0 0"/>', angle="1"))
    assert "zero vector" in str(e) and e.diagnostic.line is not None


def test_a_long_attribute_is_not_echoed_whole():
    e = urdf_error(TWO_LINKS.format(joint='<axis xyz="' + "9" * 1_000_000 + '"/>'))
    assert len(str(e)) < 1000 and "characters" in str(e)


def sdf(body: str) -> str:
    return f'<sdf version="1.9"><model name="m">{body}</model></sdf>'


@pytest.mark.parametrize("pose", ["0 0 0 0 0 1e400", "nan 0 0 0 0 0", "0 0 0 0 0 inf"])
def test_sdf_non_finite_pose_is_a_located_error(write, pose):
    path = write("m.sdf", sdf(f'<link name="l"><pose>{pose}</pose></link>'))
    with pytest.raises(ParseError) as info:
        load(str(path))
    assert info.value.diagnostic.line == 1 and "finite" in str(info.value)


def test_sdf_quaternion_of_huge_components_is_a_located_error(write):
    path = write("m.sdf", sdf('<link name="l"><pose rotation_format="quat_xyzw">'
                              '0 0 0 1e200 0 0 1</pose></link>'))
    with pytest.raises(ParseError) as info:
        load(str(path))
    assert "too large" in str(info.value) and info.value.diagnostic.line == 1


def revolute(dynamics: str, limit: str = "") -> str:
    return sdf('<link name="a"/><link name="b"><inertial><mass>1</mass></inertial></link>'
               '<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis>'
               f'<xyz>0 0 1</xyz>{limit}<dynamics>{dynamics}</dynamics></axis></joint>')


@pytest.mark.parametrize("dynamics", ["<damping>Infinity</damping>", "<damping>-inf</damping>",
                                      "<spring_stiffness>inf</spring_stiffness>",
                                      "<spring_reference>inf</spring_reference>"])
def test_sdf_infinite_joint_dynamics_are_a_located_error(write, dynamics):
    with pytest.raises(ParseError) as info:
        load(str(write("m.sdf", revolute(dynamics))))
    d = info.value.diagnostic
    assert d.code == "number-not-finite" and d.line == 1 and "finite" in d.message


@pytest.mark.parametrize("damping", ["0.2 Infinity 0.2", "0.1 0.1 -inf"])
def test_sdf_infinite_planar_joint_damping_is_a_located_error(write, damping):
    text = sdf('<link name="a"/><link name="b"><inertial><mass>1</mass></inertial></link>'
               '<drake:joint name="p" type="planar"><drake:parent>a</drake:parent>'
               f'<drake:child>b</drake:child><drake:damping>{damping}</drake:damping>'
               '</drake:joint>')
    with pytest.raises(ParseError) as info:
        load(str(write("m.sdf", text)))
    d = info.value.diagnostic
    assert d.code == "number-not-finite" and d.line == 1 and "<drake:damping>" in d.message


@pytest.mark.parametrize("angle,radius", [("0", "1"), ("1e-200", "1e-200")])
def test_sdf_curvilinear_arc_of_no_length_is_a_located_error(write, angle, radius):
    text = sdf('<link name="a"/><link name="b"><inertial><mass>1</mass></inertial></link>'
               '<drake:joint name="c" type="curvilinear"><drake:parent>a</drake:parent>'
               '<drake:child>b</drake:child><drake:curves>\n<drake:circular_arc>'
               f'<drake:radius>{radius}</drake:radius><drake:angle>{angle}</drake:angle>'
               '</drake:circular_arc></drake:curves></drake:joint>')
    with pytest.raises(ParseError) as info:
        load(str(write("m.sdf", text)))
    d = info.value.diagnostic
    assert d.code == "value-out-of-range" and d.line == 2 and "no length" in d.message


def test_sdf_blank_static_is_its_default_false(write):
    static = load(str(write("s.sdf", sdf('<static>true</static><link name="l"/>'))))
    blank = load(str(write("m.sdf", sdf('<static> </static><link name="l"/>'))))
    assert any("static" in j.name for j in static.plant.joints())
    assert not any("static" in j.name for j in blank.plant.joints())


def test_sdf_infinite_joint_limits_still_mean_no_limit(write):
    loaded = load(str(write("m.sdf", revolute("<damping>0.5</damping>",
                                              "<limit><lower>-inf</lower><upper>inf</upper>"
                                              "<velocity>inf</velocity></limit>"))))
    joint = loaded.plant.get_joint_by_name("j")
    assert list(joint.pos_lower) == [-math.inf] and list(joint.pos_upper) == [math.inf]
    assert list(joint.damping) == [0.5]


def plane(normal: str) -> str:
    return sdf(f'<link name="l"><collision name="c"><geometry><plane><normal>{normal}</normal>'
               '</plane></geometry></collision></link>')


def test_sdf_plane_normal_whose_squares_overflow_keeps_its_direction(write):
    loaded = load(str(write("m.sdf", plane("1e200 2 3"))))
    (geometry,) = loaded.plant.scene_graph.geometries()
    z_axis = [row[2] for row in geometry.X_BG.R]
    assert z_axis == pytest.approx([1.0, 0.0, 0.0])


@pytest.mark.parametrize("normal", ["0 0 0", "1e-11 0 0", "1e-300 1e-300 0"])
def test_sdf_plane_normal_of_no_length_is_a_located_error(write, normal):
    with pytest.raises(ParseError) as info:
        load(str(write("m.sdf", plane(normal))))
    d = info.value.diagnostic
    assert d.code == "axis-zero" and d.line == 1 and "<normal>" in d.message


def test_sdf_non_number_in_a_deformable_element_is_a_located_error(write):
    path = write("m.sdf", '<sdf version="1.9"><model name="m"><link name="l">'
                 '<drake:deformable_properties xmlns:drake="http://drake.mit.edu">'
                 '<drake:youngs_modulus>abc</drake:youngs_modulus>'
                 '</drake:deformable_properties><collision name="c"><geometry><sphere>'
                 '<radius>1</radius></sphere></geometry></collision></link></model></sdf>')
    with pytest.raises(ParseError) as info:
        load(str(path))
    assert "abc" in str(info.value) and info.value.diagnostic.file == str(path)


def mjcf(body: str) -> str:
    return f'<mujoco model="m"><worldbody>{body}</worldbody></mujoco>'


@pytest.mark.parametrize("attrs", ['euler="inf 0 0"', 'pos="0 0 1e400"', 'quat="nan 0 0 1"'])
def test_mjcf_non_finite_attribute_is_a_located_error(write, attrs):
    path = write("m.xml", mjcf(f'<body name="b" {attrs}><geom size="1"/></body>'))
    with pytest.raises(ParseError) as info:
        load(str(path))
    assert info.value.diagnostic.code in ("number-not-finite", "number-nan")
    assert info.value.diagnostic.line == 1


@pytest.mark.parametrize("size", [None, ""])
def test_mjcf_sphere_without_a_size_loads(write, size):
    attr = "" if size is None else f' size="{size}"'
    path = write("m.xml", mjcf(f'<body name="b"><joint type="hinge"/><geom{attr}/>'
                               '<geom type="box" size="1 1 1"/></body>'))
    loaded = load(str(path))
    assert loaded.plant.get_body_by_name("b").default_spatial_inertia.mass > 0


def test_mjcf_huge_sizes_are_a_located_error_not_an_overflow(write):
    path = write("m.xml", mjcf('<body name="b"><joint type="hinge"/><geom size="1e200"/></body>'))
    with pytest.raises(ParseError) as info:
        load(str(path))
    assert "not finite" in str(info.value)


TETRAHEDRON_OBJ = ("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
                   "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")


@pytest.mark.parametrize("like", ["default", "drake"])
def test_mjcf_mesh_scaled_past_a_double_is_a_located_error_not_a_linalg_crash(write, like):
    """A mesh whose scale overflows its volume and inertia (1e200 cubed) has
    no mass properties. It was numpy's "Eigenvalues did not converge" from
    inside mbparse. Drake 1.51 refuses the file too (its hull fails);
    MuJoCo 3 compiles it into a body of mass 0, which is no model at all,
    so here mbparse follows Drake, not the format's owner."""
    write("tet.obj", TETRAHEDRON_OBJ)
    path = write("m.xml", '<mujoco model="m"><asset><mesh name="t" file="tet.obj" '
                          'scale="1e200 1e200 1e200"/></asset><worldbody><body name="b">'
                          '<geom type="mesh" mesh="t"/></body></worldbody></mujoco>')
    with pytest.raises(ParseError) as info:
        load(str(path), LoadOptions(like=like))
    assert info.value.diagnostic.code == "mesh-unreadable"
    assert info.value.diagnostic.line == 1
    assert "overflows a double" in str(info.value)


@pytest.mark.parametrize("rotation", ["!Rpy { deg: [0, 0, 1e400] }", "!Rpy { deg: [0, 0, .nan] }"])
def test_dmd_non_finite_angle_is_a_located_error(write, rotation):
    path = write("d.dmd.yaml", "directives:\n- add_frame:\n    name: f\n    X_PF:\n"
                 f"      base_frame: world\n      rotation: {rotation}\n")
    with pytest.raises(ParseError) as info:
        load(str(path))
    assert info.value.diagnostic.line == 6 and "not a finite number" in str(info.value)


def obj(vertex: str) -> str:
    return f"v 0 0 0\nv 1 0 0\n{vertex}\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


@pytest.mark.parametrize("value", ["1e400", "nan", "-inf"])
def test_obj_non_finite_vertex_is_a_located_error(write, value):
    path = write("m.obj", obj(f"v 0 {value} 0"))
    with pytest.raises(ParseError) as info:
        load(str(path))
    assert info.value.diagnostic.line == 3 and value in str(info.value)


def test_obj_partial_number_warns_with_its_line(write):
    path = write("m.obj", obj("v 0 1,5 0"))
    loaded = load(str(path))
    (w,) = [w for w in loaded.warnings if "'1,5' is read as 1" in w.message]
    assert w.line == 3


def test_obj_huge_numbers_are_not_an_overflow(write):
    path = write("m.obj", obj("v 0 1e200 0"))
    with pytest.raises(ParseError) as info:
        load(str(path))
    assert info.value.diagnostic.file == str(path)


def test_all_loaded_numbers_are_finite_for_a_plain_model(write):
    path = write("m.urdf", robot(TWO_LINKS.format(joint='<axis xyz="0 0 1"/>')))
    loaded = load(str(path))
    M = loaded.plant.get_body_by_name("b").default_spatial_inertia
    assert all(math.isfinite(v) for v in (M.mass, *M.com, *M.I_cm))


@pytest.mark.parametrize("xyz", ["0 1 Infinity", "0 0 inf", "-inf 0 0"])
@pytest.mark.parametrize("axis", ["axis", "axis2"])
def test_an_sdf_vector_of_an_infinity_is_refused_as_libsdformat_refuses_it(write, xyz, axis):
    # A universal joint's axis2 of 0 1 Infinity, expressed in the model
    # frame, once gave its frames NaN rotations (fuzz seed 41 input 63462).
    text = sdf('<link name="a"/><link name="b"/>\n<joint name="j" type="universal"><parent>a'
               '</parent><child>b</child>\n' + ('<axis><xyz>1 0 0</xyz></axis>\n'
                                                '<axis2><xyz expressed_in="__model__">'
                                                f'{xyz}</xyz></axis2>' if axis == "axis2" else
                                                f'<axis><xyz>{xyz}</xyz></axis>\n<axis2><xyz>0 1 0'
                                                '</xyz></axis2>') + '</joint>')
    with pytest.raises(ParseError) as info:
        load(str(write("m.sdf", text)))
    d = info.value.diagnostic
    assert (d.code, d.line) == ("number-not-finite", 3 if axis == "axis" else 4)
    assert "<xyz>" in d.message and "not a finite number" in d.message


@pytest.mark.parametrize("normal", ["0 0 inf", "Infinity 0 1", "0 1e400 1"])
def test_an_sdf_plane_normal_of_an_infinity_is_a_located_error(write, normal):
    with pytest.raises(ParseError) as info:
        load(str(write("m.sdf", plane(normal))))
    d = info.value.diagnostic
    assert (d.code, d.line) == ("number-not-finite", 1) and "<normal>" in d.message
