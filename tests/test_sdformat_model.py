"""SDFormat models as Drake builds them: frame semantics (relative_to,
attached_to, __model__, canonical_link, placement_frame, joint frames) with
their errors, nested models and scoped names, links, geometry, joints and
Drake's extension elements."""
from __future__ import annotations

import math

import pytest

from conftest import CORPUS, needs_corpus, line_of, new_parser, parse_sdf, sdf
from mbparse.geometry import HalfSpace
from mbparse import ParseError

NS = 'xmlns:drake="http://drake.mit.edu"'






def frame_pose(plant, name, instance=None):
    return plant.get_frame_by_name(name, instance).X_BF


# ------------------------------------------------------------ frames
def test_sdf_model_frame_is_on_the_canonical_link():
    parsed = parse_sdf(sdf('<model name="m" canonical_link="B"><pose>0 0 1 0 0 0</pose>'
                           '<link name="A"/><link name="B"><pose>1 0 0 0 0 0</pose></link>'
                           '</model>'))
    plant, (m,) = parsed.plant, parsed.instances
    frame = plant.get_frame_by_name("__model__", m)
    assert frame.body.name == "B"
    assert frame.X_BF.p == (-1.0, 0.0, 0.0)


def test_sdf_unknown_canonical_link_is_an_error():
    with pytest.raises(ParseError, match="canonical_link"):
        parse_sdf(sdf('<model name="m" canonical_link="nope"><link name="A"/></model>'))


def test_sdf_pose_relative_to_another_frame():
    plant = parse_sdf(sdf('<model name="m"><link name="A"><pose>1 0 0 0 0 0</pose></link>'
                            '<frame name="F" attached_to="A"><pose>0 1 0 0 0 0</pose></frame>'
                            '<link name="B"><pose relative_to="F">0 0 1 0 0 0</pose></link>'
                            '</model>')).plant
    assert plant.get_body_by_name("B").default_free_body_pose.p == (1.0, 1.0, 1.0)
    F = plant.get_frame_by_name("F")
    assert F.body.name == "A" and F.X_BF.p == (0.0, 1.0, 0.0)


def test_sdf_bad_relative_to_is_a_located_error():
    text = sdf('<model name="m"><link name="A"/>\n<link name="B">'
               '<pose relative_to="nope"/></link></model>')
    with pytest.raises(ParseError, match="nope") as e:
        parse_sdf(text)
    assert e.value.diagnostic.line == line_of(text, 'relative_to="nope"')


def test_sdf_relative_to_cycle_is_an_error():
    with pytest.raises(ParseError, match="cycle"):
        parse_sdf(sdf('<model name="m"><link name="A"/>'
                  '<frame name="F1"><pose relative_to="F2"/></frame>'
                  '<frame name="F2"><pose relative_to="F1"/></frame></model>'))


def test_sdf_attached_to_cycle_is_an_error():
    with pytest.raises(ParseError, match="cycle"):
        parse_sdf(sdf('<model name="m"><link name="A"/>'
                  '<frame name="F1" attached_to="F2"/><frame name="F2" attached_to="F1"/>'
                  '</model>'))


def test_sdf_attached_to_world_inside_a_model_is_an_error():
    with pytest.raises(ParseError, match="world"):
        parse_sdf(sdf('<model name="m"><link name="A"/><frame name="F" attached_to="world"/>'
                  '</model>'))


def test_sdf_placement_frame_places_that_frame_at_the_model_pose():
    plant = parse_sdf(sdf('<world name="w"><model name="m" placement_frame="F">'
                            '<pose>0 0 5 0 0 0</pose><link name="A"/>'
                            '<frame name="F"><pose>0 0 1 0 0 0</pose></frame></model></world>')).plant
    assert plant.get_body_by_name("A").default_free_body_pose.p == (0.0, 0.0, 4.0)


def test_sdf_joint_frame_defaults_to_the_child_frame():
    plant = parse_sdf(sdf('<model name="m"><link name="A"/><link name="B">'
                            '<pose>0 0 1 0 0 0</pose></link>'
                            '<joint name="j" type="revolute"><pose>0 0 0.5 0 0 0</pose>'
                            '<parent>A</parent><child>B</child><axis><xyz>0 1 0</xyz></axis>'
                            '</joint></model>')).plant
    joint = plant.get_joint_by_name("j")
    assert joint.frame_on_parent.X_BF.p == (0.0, 0.0, 1.5)
    assert joint.frame_on_child.X_BF.p == (0.0, 0.0, 0.5)


def test_sdf_joint_child_world_is_an_error():
    with pytest.raises(ParseError, match="child"):
        parse_sdf(sdf('<model name="m"><link name="A"/><joint name="j" type="fixed">'
                  '<parent>A</parent><child>world</child></joint></model>'))


def test_sdf_joint_unknown_parent_is_an_error():
    with pytest.raises(ParseError, match="nope"):
        parse_sdf(sdf('<model name="m"><link name="A"/><joint name="j" type="fixed">'
                  '<parent>nope</parent><child>A</child></joint></model>'))


# ------------------------------------------------------------ nested models
NESTED = sdf('''<model name="outer">
  <link name="base"/>
  <model name="B"><pose>1 0 0 0 0 0</pose>
    <link name="L"/>
    <model name="C"><link name="L"/><frame name="frame"><pose>0 0 1 0 0 0</pose></frame></model>
  </model>
  <joint name="j" type="fixed"><parent>base</parent><child>B::C::L</child></joint>
  <frame name="F" attached_to="B::C::frame"/>
</model>''')


def test_sdf_nested_models_become_scoped_instances():
    parsed = parse_sdf(NESTED)
    plant, instances = parsed.plant, parsed.instances
    names = [plant.get_model_instance_name(i) for i in instances]
    assert names == ["outer", "outer::B", "outer::B::C"]


def test_sdf_scoped_names_reach_into_nested_models():
    plant = parse_sdf(NESTED).plant
    joint = plant.get_joint_by_name("j")
    assert joint.child_body.model_instance == plant.get_model_instance_by_name("outer::B::C")
    frame = plant.get_frame_by_name("F")
    # A frame joins the model instance of the frame it is attached to.
    assert frame.model_instance == plant.get_model_instance_by_name("outer::B::C")


def test_sdf_upward_references_are_errors():
    with pytest.raises(ParseError):
        parse_sdf(sdf('<model name="outer"><link name="base"/><model name="inner">'
                  '<link name="L"/><frame name="F" attached_to="base"/></model></model>'))


def test_sdf_static_model_is_welded_to_the_world():
    plant = parse_sdf(sdf('<model name="m"><static>true</static><pose>0 0 2 0 0 0</pose>'
                            '<link name="A"/></model>')).plant
    joint = plant.get_joint_by_name("sdformat_model_static_world_welds_to_A")
    assert joint.X_FM_fixed.p == (0.0, 0.0, 2.0)


# ------------------------------------------------------------ links, geometry
def test_sdf_link_inertial_pose_and_defaults():
    plant = parse_sdf(sdf('<model name="m"><link name="A"/><link name="B"><inertial>'
                            '<pose>0 0 1 0 0 0</pose><mass>2</mass><inertia><ixx>1</ixx>'
                            '<iyy>1</iyy><izz>1</izz></inertia></inertial></link></model>')).plant
    assert plant.get_body_by_name("A").mass == 1.0  # libsdformat's default inertial
    B = plant.get_body_by_name("B").default_spatial_inertia
    assert B.mass == 2.0 and tuple(B.com) == (0.0, 0.0, 1.0)


def test_sdf_kinematic_and_gravity_other_than_default_warn():
    parser = parse_sdf(sdf('<model name="m"><link name="A"><kinematic>true</kinematic>'
                             '<gravity>false</gravity></link></model>')).parser
    messages = [d.message for d in parser.diagnostic_policy().warnings_seen]
    assert any("kinematic" in m for m in messages) and any("gravity" in m for m in messages)


def test_sdf_plane_becomes_a_half_space_posed_by_its_normal():
    parsed = parse_sdf(sdf('<model name="m"><link name="A"><collision name="c">'
                                 '<geometry><plane><normal>1 0 0</normal></plane></geometry>'
                                 '</collision></link></model>'))
    plant = parsed.plant
    (g,) = plant.scene_graph.geometries()
    assert isinstance(g.shape, HalfSpace)
    assert [row[2] for row in g.X_BG.R] == pytest.approx([1.0, 0.0, 0.0])


@pytest.mark.parametrize("normal", ["1 2 Infinity", "nan 0 1", "1e400 0 0"])
def test_sdf_plane_normal_that_is_not_finite_is_a_located_error(normal):
    text = sdf('<model name="m"><link name="A"><visual name="v">\n<geometry><plane>'
               f'<normal>{normal}</normal></plane></geometry></visual></link></model>')
    with pytest.raises(ParseError, match="not a finite number") as info:
        parse_sdf(text)
    assert info.value.diagnostic.line == line_of(text, "<normal>")


def test_sdf_surface_friction_and_colours():
    plant = parse_sdf(sdf('<model name="m"><link name="A"><collision name="c"><geometry>'
                            '<sphere><radius>0.1</radius></sphere></geometry><surface>'
                            '<friction><ode><mu>0.8</mu><mu2>0.5</mu2></ode></friction>'
                            '</surface></collision><visual name="v"><geometry><box><size>1 1 1'
                            '</size></box></geometry><material><diffuse>0.7 0 0 1</diffuse>'
                            '</material></visual></link></model>')).plant
    c = [g for g in plant.scene_graph.geometries() if g.name == "m::c"][0]
    friction = c.properties("proximity").get_property("material", "coulomb_friction")
    assert (friction.static_friction, friction.dynamic_friction) == (0.8, 0.5)
    v = [g for g in plant.scene_graph.geometries() if g.name == "m::v"][0]
    assert v.properties("illustration").get_property("phong", "diffuse").r == pytest.approx(
        0.699999988079071, abs=0)


def test_sdf_all_shapes_are_read():
    shapes = ('<box><size>1 2 3</size></box>', '<sphere><radius>1</radius></sphere>',
              '<cylinder><radius>1</radius><length>2</length></cylinder>',
              '<capsule><radius>1</radius><length>2</length></capsule>',
              '<ellipsoid><radii>1 2 3</radii></ellipsoid>', '<plane/>',
              '<drake:capsule><radius>1</radius><length>2</length></drake:capsule>',
              '<drake:ellipsoid><a>1</a><b>2</b><c>3</c></drake:ellipsoid>')
    visuals = "".join(f'<visual name="v{i}"><geometry>{s}</geometry></visual>'
                      for i, s in enumerate(shapes))
    plant = parse_sdf(sdf(f'<model name="m"><link name="A">{visuals}</link></model>')).plant
    kinds = [type(g.shape).__name__ for g in plant.scene_graph.geometries()]
    assert kinds == ["Box", "Sphere", "Cylinder", "Capsule", "Ellipsoid", "HalfSpace",
                     "Capsule", "Ellipsoid"]


def test_sdf_unsupported_elements_warn_with_their_location():
    text = sdf('<model name="m"><link name="A">\n<sensor name="s" type="imu"/></link>'
               '<plugin name="p" filename="x.so"/></model>')
    parser = parse_sdf(text).parser
    warnings = parser.diagnostic_policy().warnings_seen
    sensor = [d for d in warnings if "sensor" in d.message]
    assert sensor and sensor[0].line == line_of(text, "<sensor")
    assert any("plugin" in d.message for d in warnings)


# ------------------------------------------------------------ joints
def joint_model(jtype: str, inside: str = "") -> str:
    return sdf(f'<model name="m"><link name="A"/><link name="B"/>'
               f'<joint name="j" type="{jtype}"><parent>A</parent><child>B</child>{inside}'
               f'</joint></model>')


AXIS = ('<axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>2</upper><effort>3</effort>'
        '<velocity>4</velocity></limit><dynamics><damping>0.5</damping></dynamics></axis>')


def test_sdf_revolute_joint_limits_damping_and_actuator():
    plant = parse_sdf(joint_model("revolute", AXIS)).plant
    joint = plant.get_joint_by_name("j")
    assert (joint.pos_lower, joint.pos_upper, joint.vel_upper) == ([-1.0], [2.0], [4.0])
    assert joint.damping == [0.5]
    assert plant.get_joint_actuator_by_name("j").effort_limit == 3.0


def test_sdf_zero_effort_means_no_actuator():
    plant = parse_sdf(joint_model("prismatic", AXIS.replace("<effort>3", "<effort>0"))).plant
    assert plant.num_actuators() == 0


def test_sdf_spring_stiffness_becomes_a_revolute_spring():
    plant = parse_sdf(joint_model("revolute", '<axis><xyz>0 0 1</xyz><dynamics>'
                                    '<spring_reference>0.2</spring_reference>'
                                    '<spring_stiffness>5</spring_stiffness></dynamics></axis>')).plant
    (spring,) = plant.force_elements()
    assert (spring.nominal_angle, spring.stiffness) == (0.2, 5.0)


@pytest.mark.parametrize("jtype, type_name", [("fixed", "weld"), ("continuous", "revolute"),
                                              ("ball", "ball_rpy")])
def test_sdf_joint_types(jtype, type_name):
    inside = "" if jtype in ("fixed", "ball") else '<axis><xyz>1 0 0</xyz></axis>'
    plant = parse_sdf(joint_model(jtype, inside)).plant
    assert plant.get_joint_by_name("j").type_name == type_name


def test_sdf_universal_joint_needs_two_axes():
    plant = parse_sdf(joint_model("universal", '<axis><xyz>1 0 0</xyz></axis>'
                                    '<axis2><xyz>0 1 0</xyz></axis2>')).plant
    assert plant.get_joint_by_name("j").type_name == "universal"
    with pytest.raises(ParseError, match="axis2"):
        parse_sdf(joint_model("universal", '<axis><xyz>1 0 0</xyz></axis>'))


def test_sdf_screw_joint_reads_screw_thread_pitch():
    plant = parse_sdf(joint_model("screw", '<axis><xyz>0 0 1</xyz></axis>'
                                    '<screw_thread_pitch>0.04</screw_thread_pitch>')).plant
    assert plant.get_joint_by_name("j").screw_pitch == 0.04


@pytest.mark.parametrize("jtype", ["revolute2", "gearbox"])
def test_sdf_unsupported_joint_types_are_errors(jtype):
    with pytest.raises(ParseError, match=jtype):
        parse_sdf(joint_model(jtype, '<axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2>'))


def test_sdf_zero_axis_is_an_error():
    with pytest.raises(ParseError, match="zero"):
        parse_sdf(joint_model("revolute", '<axis><xyz>0 0 0</xyz></axis>'))


def test_sdf_drake_mimic_makes_a_coupler_constraint_on_a_sap_plant():
    text = sdf('<model name="m"><link name="A"/><link name="B"/><link name="C"/>'
               '<joint name="j1" type="revolute"><parent>A</parent><child>B</child>'
               '<axis><xyz>0 0 1</xyz></axis></joint>'
               '<joint name="j2" type="revolute"><parent>B</parent><child>C</child>'
               '<axis><xyz>0 0 1</xyz></axis>'
               '<drake:mimic joint="j1" multiplier="2" offset="0.1"/></joint></model>')
    plant = parse_sdf(text, time_step=0.01, approximation="sap").plant
    (c,) = plant.constraints()
    assert (c.gear_ratio, c.offset) == (2.0, 0.1)
    parsed = parse_sdf(text, time_step=0.01, approximation="tamsi")
    plant = parsed.plant
    assert not plant.constraints()


# ------------------------------------------------------------ drake extensions
def test_sdf_drake_planar_joint_between_scoped_frames():
    plant = parse_sdf(sdf('<model name="m"><link name="A"/><link name="B"/>'
                            '<drake:joint name="p" type="planar"><drake:parent>A</drake:parent>'
                            '<drake:child>B</drake:child><drake:damping>1 2 3</drake:damping>'
                            '</drake:joint></model>')).plant
    joint = plant.get_joint_by_name("p")
    assert joint.type_name == "planar" and joint.damping == [1.0, 2.0, 3.0]


def test_sdf_drake_linear_bushing_rpy():
    plant = parse_sdf(sdf('<model name="m"><link name="A"/><link name="B"/>'
                            '<drake:linear_bushing_rpy><drake:bushing_frameA>A'
                            '</drake:bushing_frameA><drake:bushing_frameC>B'
                            '</drake:bushing_frameC>'
                            '<drake:bushing_torque_stiffness>1 1 1</drake:bushing_torque_stiffness>'
                            '<drake:bushing_torque_damping>2 2 2</drake:bushing_torque_damping>'
                            '<drake:bushing_force_stiffness>3 3 3</drake:bushing_force_stiffness>'
                            '<drake:bushing_force_damping>4 4 4</drake:bushing_force_damping>'
                            '</drake:linear_bushing_rpy></model>')).plant
    (bushing,) = plant.force_elements()
    assert bushing.force_damping == (4.0, 4.0, 4.0)


@needs_corpus
def test_sdf_collision_filter_groups_use_scoped_member_names():
    path = (CORPUS / "drake/multibody/parsing/test/sdf_parser_test/"
            "collision_filter_group_parsing_test/test.sdf")
    parser = new_parser()
    parser.package_map().add("collision_filter_group_parsing_test", str(path.parent))
    parser.add_models(str(path))
    groups = parser.get_collision_filter_groups().groups()
    assert any(name.startswith("test::robot1::") for name in groups)
    assert any(member.startswith("test::robot1::") for members in groups.values()
               for member in members)


def test_sdf_collision_filter_group_ignore_that_is_not_a_boolean_is_a_located_error(tmp_path):
    path = tmp_path / "m.sdf"
    path.write_text('<sdf version="1.9"><model name="m"><link name="l"/>\n'
                    '<drake:collision_filter_group ignore="-1 0 0" name="g">'
                    '<drake:member>l</drake:member></drake:collision_filter_group>'
                    '</model></sdf>')
    parser = new_parser()
    with pytest.raises(ParseError) as info:
        parser.add_models(str(path))
    d = info.value.diagnostic
    assert d.line == 2 and d.code == "sdf-value-invalid" and "'-1 0 0'" not in d.message
    assert 'ignore="-1 0 0"' in d.message and "boolean" in d.message


# ------------------------------------------------------------ corpus
@needs_corpus
def test_sdf_corpus_acrobot_matches_drake_pose_of_the_elbow():
    parser = new_parser()
    parser.add_models(str(CORPUS / "drake/examples/acrobot/Acrobot.sdf"))
    plant = parser.plant()
    elbow = plant.get_joint_by_name("elbow")
    assert elbow.frame_on_parent.X_BF.p == pytest.approx((0.0, 0.1, -1.0))
    assert math.isinf(plant.get_joint_actuator_by_name("elbow").effort_limit)
