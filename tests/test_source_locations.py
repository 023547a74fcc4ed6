"""Every element a reader adds to the model knows where it was declared
(file, line), so that tools point at it without reading the file again."""
from __future__ import annotations

import textwrap

from mbparse import MultibodyPlant, Parser, SceneGraph
from mbparse.source_location import current_source, declared_at


def parse(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    plant = MultibodyPlant(0.0)
    parser = Parser(plant, SceneGraph())
    parser.diagnostic_policy().emit = False
    parser.add_models(str(path))
    return str(path), plant


def line(path: str, text: str) -> int:
    return next(i for i, l in enumerate(open(path).read().splitlines(), 1) if text in l)


INERTIA = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'


def test_declared_at_is_the_source_of_what_is_added_inside():
    assert current_source() == (None, None)
    with declared_at("a.urdf", 3):
        with declared_at("b.urdf", 7):
            assert current_source() == ("b.urdf", 7)
        assert current_source() == ("a.urdf", 3)
    assert current_source() == (None, None)


def test_urdf_bodies_joints_frames_geometries_actuators_constraints_have_sources(tmp_path):
    path, plant = parse(tmp_path, "r.urdf", f"""
        <robot name="r">
          <link name="a">{INERTIA}
            <visual><geometry><box size="1 1 1"/></geometry></visual>
          </link>
          <link name="b">{INERTIA}</link>
          <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
            <origin xyz="0 0 1"/><axis xyz="0 0 1"/>
            <limit lower="-1" upper="1" effort="5" velocity="1"/></joint>
          <transmission type="SimpleTransmission" name="t">
            <actuator name="m"/><joint name="j"/><mechanicalReduction>1</mechanicalReduction>
          </transmission>
          <frame name="tool" link="b" xyz="0 0 1" rpy="0 0 0"/>
          <drake:ball_constraint>
            <drake:ball_constraint_body_A name="a"/><drake:ball_constraint_body_B name="b"/>
            <drake:ball_constraint_p_AP value="0 0 0"/><drake:ball_constraint_p_BQ value="0 0 0"/>
          </drake:ball_constraint>
        </robot>""")
    assert plant.get_body_by_name("a").source == (path, line(path, '<link name="a">'))
    assert plant.get_body_by_name("b").body_frame.source == (path, line(path, '<link name="b">'))
    joint = plant.get_joint_by_name("j")
    assert joint.source == (path, line(path, '<joint name="j"'))
    assert joint.frame_on_parent.source == joint.source
    assert plant.get_frame_by_name("tool").source == (path, line(path, '<frame name="tool"'))
    assert plant.get_joint_actuator_by_name("m").source[1] in range(
        line(path, "<transmission"), line(path, "</transmission>") + 1)
    (constraint,) = plant.constraints()
    assert constraint.source[1] == line(path, "<drake:ball_constraint>")
    (visual,) = plant.scene_graph.geometries()
    assert visual.instance.source == (path, line(path, "<visual>"))


def test_sdf_links_joints_and_frames_have_sources(tmp_path):
    path, plant = parse(tmp_path, "m.sdf", """
        <sdf version="1.9"><model name="m">
          <link name="a"/>
          <link name="b"><pose>0 0 1 0 0 0</pose></link>
          <joint name="j" type="revolute"><parent>a</parent><child>b</child>
            <axis><xyz>0 0 1</xyz></axis></joint>
          <frame name="f" attached_to="b"/>
        </model></sdf>""")
    assert plant.get_body_by_name("b").source == (path, line(path, '<link name="b">'))
    assert plant.get_joint_by_name("j").source == (path, line(path, '<joint name="j"'))
    assert plant.get_frame_by_name("f").source == (path, line(path, '<frame name="f"'))


def test_mjcf_bodies_joints_sites_and_actuators_have_sources(tmp_path):
    path, plant = parse(tmp_path, "m.xml", """
        <mujoco model="m"><worldbody>
          <body name="a">
            <joint name="h" type="hinge"/>
            <geom type="sphere" size="0.1"/>
            <site name="s"/>
          </body>
        </worldbody>
        <actuator><motor name="mot" joint="h"/></actuator></mujoco>""")
    assert plant.get_body_by_name("a").source == (path, line(path, '<body name="a">'))
    assert plant.get_joint_by_name("h").source == (path, line(path, '<joint name="h"'))
    assert plant.get_frame_by_name("s").source == (path, line(path, '<site name="s"'))
    assert plant.get_joint_actuator_by_name("mot").source == (path, line(path, "<motor"))


def test_model_directive_welds_and_frames_have_the_directives_line(tmp_path):
    (tmp_path / "r.urdf").write_text(f'<robot name="r"><link name="base">{INERTIA}</link></robot>')
    path, plant = parse(tmp_path, "d.dmd.yaml", f"""
        directives:
        - add_model:
            name: robot
            file: file://{tmp_path}/r.urdf
        - add_frame:
            name: robot::tool
            X_PF:
              base_frame: robot::base
        - add_weld:
            parent: world
            child: robot::base
        """)
    weld = next(j for j in plant.joints() if j.type_name == "weld")
    assert weld.source == (path, line(path, "- add_weld:"))
    assert plant.get_frame_by_name("tool").source == (path, line(path, "- add_frame:"))
    assert plant.get_body_by_name("base").source == (str(tmp_path / "r.urdf"), 1)
