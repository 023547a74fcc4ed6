"""The <gazebo> extension: special elements for links and joints, blob
insertion, and the standard parts of the URDF→SDFormat conversion."""
from __future__ import annotations

import pytest

from mbparse.cli import main
from mbparse.convert import ConvertOptions, urdf_to_sdf_tree
from mbparse.convert.sdf_tree import Node
from mbparse.diagnostics import DiagnosticPolicy, ParseError
from mbparse.workspace import DataSource

INERTIAL = ("<inertial><mass value='1'/>"
            "<inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial>")


def convert(body: str, options: ConvertOptions | None = None, policy=None) -> Node:
    text = f"<robot name='r'>{body}</robot>"
    sdf = urdf_to_sdf_tree(DataSource(contents=text, display_name="t.urdf"), options,
                           policy or DiagnosticPolicy(emit=False))
    return sdf.first("model")


def at(node: Node, path: str) -> Node:
    for step in path.split("/"):
        name, _, wanted = step.partition("@")
        found = [c for c in node.children if c.name == name
                 and (not wanted or c.attrs.get("name") == wanted)]
        assert found, f"no {step} under {node.name}: {[c.name for c in node.children]}"
        node = found[0]
    return node


def link(name: str, extra: str = "") -> str:
    return f"<link name='{name}'>{INERTIAL}{extra}</link>"


BOX = "<geometry><box size='1 2 3'/></geometry>"


def test_contact_and_friction_elements_go_into_every_collision_of_the_link():
    m = convert(link("a", f"<collision>{BOX}</collision><collision>{BOX}</collision>")
                + "<gazebo reference='a'><mu1>0.5</mu1><mu2>0.6</mu2><fdir1>0 1 0</fdir1>"
                  "<kp>1000</kp><kd>10</kd><maxVel>0.1</maxVel><minDepth>0.001</minDepth>"
                  "<laserRetro>2</laserRetro><maxContacts>5</maxContacts></gazebo>")
    for name in ("a_collision", "a_collision_1"):
        c = at(m, f"link@a/collision@{name}")
        assert at(c, "surface/friction/ode/mu").text == "0.5"
        assert at(c, "surface/friction/ode/mu2").text == "0.6"
        assert at(c, "surface/friction/ode/fdir1").text == "0 1 0"
        assert at(c, "surface/contact/ode/kp").text == "1000"
        assert at(c, "surface/contact/ode/kd").text == "10"
        assert at(c, "surface/contact/ode/max_vel").text == "0.1"
        assert at(c, "surface/contact/ode/min_depth").text == "0.001"
        assert at(c, "laser_retro").text == "2"
        assert at(c, "max_contacts").text == "5"


def test_link_elements_turn_gravity_off_set_velocity_decay_and_self_collision():
    m = convert(link("a") + "<gazebo reference='a'><turnGravityOff>true</turnGravityOff>"
                "<dampingFactor>0.25</dampingFactor><selfCollide>true</selfCollide></gazebo>")
    a = at(m, "link@a")
    assert at(a, "gravity").text == "false"
    assert at(a, "velocity_decay/linear").text == "0.25"
    assert at(a, "velocity_decay/angular").text == "0.25"
    assert at(a, "self_collide").text == "1"


def test_gazebo_material_becomes_a_material_script_on_every_visual():
    m = convert(link("a", f"<visual>{BOX}</visual><visual>{BOX}</visual>")
                + "<gazebo reference='a'><material>Gazebo/Red</material></gazebo>")
    for name in ("a_visual", "a_visual_1"):
        script = at(m, f"link@a/visual@{name}/material/script")
        assert at(script, "name").text == "Gazebo/Red"
        assert at(script, "uri").text == "file://media/materials/scripts/gazebo.material"


def test_urdf_colour_gives_diffuse_and_ambient_scaled_as_libsdformat_does():
    m = convert("<material name='grey'><color rgba='0.4 0.4 0.4 1'/></material>"
                + link("a", f"<visual>{BOX}<material name='grey'/></visual>"))
    material = at(m, "link@a/visual@a_visual/material")
    assert [float(v) for v in at(material, "diffuse").text.split()] == pytest.approx(
        [0.5, 0.5, 0.5, 1.0], abs=1e-7)
    assert [float(v) for v in at(material, "ambient").text.split()] == pytest.approx(
        [0.5, 0.5, 0.5, 1.0], abs=1e-7)


def test_unknown_elements_are_inserted_into_model_link_and_joint_as_they_stand():
    m = convert(link("a") + link("b")
                + "<joint name='j' type='revolute'><parent link='a'/><child link='b'/>"
                  "<limit lower='-1' upper='1' effort='1' velocity='1'/></joint>"
                + "<gazebo><plugin name='p' filename='f.so'><x:y>1</x:y></plugin></gazebo>"
                + "<gazebo reference='a'><sensor name='s' type='imu'/></gazebo>"
                + "<gazebo reference='j'><my_tag a='1'>text</my_tag></gazebo>")
    assert at(m, "plugin@p").attrs["filename"] == "f.so"
    assert at(m, "plugin@p/x:y").text == "1"
    assert at(m, "link@a/sensor@s").attrs["type"] == "imu"
    assert at(m, "joint@j/my_tag").text == "text"
    assert at(m, "joint@j/my_tag").attrs == {"a": "1"}


def test_joint_elements_set_ode_limits_feedback_and_springs():
    m = convert(link("a") + link("b")
                + "<joint name='j' type='revolute'><parent link='a'/><child link='b'/>"
                  "<limit lower='-1' upper='1' effort='1' velocity='1'/></joint>"
                + "<gazebo reference='j'><stopCfm>0.1</stopCfm><stopErp>0.3</stopErp>"
                  "<provideFeedback>true</provideFeedback><implicitSpringDamper>1"
                  "</implicitSpringDamper><fudgeFactor>0.5</fudgeFactor>"
                  "<springStiffness>7</springStiffness><springReference>0.2</springReference>"
                  "</gazebo>")
    j = at(m, "joint@j")
    assert at(j, "physics/ode/limit/cfm").text == "0.1"
    assert at(j, "physics/ode/limit/erp").text == "0.3"
    assert at(j, "physics/provide_feedback").text == "true"
    assert at(j, "physics/ode/provide_feedback").text == "true"
    assert at(j, "physics/ode/implicit_spring_damper").text == "true"
    assert at(j, "physics/ode/fudge_factor").text == "0.5"
    assert at(j, "axis/dynamics/spring_stiffness").text == "7"
    assert at(j, "axis/dynamics/spring_reference").text == "0.2"


def test_continuous_joint_becomes_revolute_without_position_limits():
    m = convert(link("a") + link("b") + "<joint name='j' type='continuous'><parent link='a'/>"
                "<child link='b'/><axis xyz='0 1 0'/><dynamics damping='0.5'/></joint>")
    j = at(m, "joint@j")
    assert j.attrs["type"] == "revolute"
    assert at(j, "axis/xyz").text == "0 1 0"
    assert float(at(j, "axis/limit/lower").text) == -1e16
    assert float(at(j, "axis/limit/upper").text) == 1e16
    assert at(j, "axis/dynamics/damping").text == "0.5"
    assert at(j, "pose").attrs["relative_to"] == "a"
    assert at(m, "link@b/pose").attrs["relative_to"] == "j"


def test_joint_to_the_world_link_is_posed_relative_to_the_model():
    m = convert("<link name='world'/>" + link("a") + "<joint name='w' type='fixed'>"
                "<parent link='world'/><child link='a'/><origin xyz='0 0 1'/></joint>")
    w = at(m, "joint@w")
    assert at(w, "parent").text == "world"
    assert at(w, "pose").attrs["relative_to"] == "__model__"
    assert [c.attrs.get("name") for c in m.children if c.name == "link"] == ["a"]


def test_package_uri_of_a_mesh_becomes_a_model_uri():
    m = convert(link("a", "<visual><geometry><mesh filename='package://p/m.obj' "
                          "scale='2 2 2'/></geometry></visual>"))
    mesh = at(m, "link@a/visual@a_visual/geometry/mesh")
    assert at(mesh, "uri").text == "model://p/m.obj"
    assert at(mesh, "scale").text == "2 2 2"


def test_massless_link_is_left_out_with_a_warning():
    policy = DiagnosticPolicy(emit=False)
    m = convert(link("a") + "<link name='b'/><joint name='j' type='revolute'><parent link='a'/>"
                "<child link='b'/><limit effort='1' velocity='1'/></joint>", policy=policy)
    assert [c.attrs.get("name") for c in m.children] == ["a"]
    assert any("'b'" in w.message for w in policy.warnings_seen)


def test_revolute_joint_without_limit_is_a_located_error():
    with pytest.raises(ParseError, match=r"t\.urdf:1: .*needs <limit>"):
        convert(link("a") + link("b") + "<joint name='j' type='revolute'><parent link='a'/>"
                "<child link='b'/></joint>")


def test_missing_world_link_is_a_located_error():
    with pytest.raises(ParseError, match="'world'"):
        convert(link("a") + "<joint name='j' type='fixed'><parent link='world'/>"
                "<child link='a'/></joint>")


def test_static_is_written_only_when_given_unless_like_libsdformat_12_3():
    body = link("a") + "<gazebo><plugin name='p' filename='f'/></gazebo>"
    assert convert(body).first("static") is None
    legacy = convert(body, ConvertOptions.like_libsdformat_12_3())
    assert at(legacy, "static").text == "false"


def test_convert_command_writes_sdformat_to_a_file_or_standard_output(tmp_path, capsys):
    urdf = tmp_path / "m.urdf"
    urdf.write_text(f"<robot name='m'>{link('a')}</robot>")
    out = tmp_path / "m.sdf"
    assert main(["convert", str(urdf), "--to", "sdf", "--libsdformat", "-o", str(out)]) == 0
    assert "<model name='m'>" in out.read_text()
    assert main(["convert", str(urdf), "--to", "sdf", "--libsdformat"]) == 0
    assert capsys.readouterr().out.startswith("<sdf version='1.9'>")


def test_convert_command_reports_a_bad_urdf_with_its_location(tmp_path, capsys):
    urdf = tmp_path / "bad.urdf"
    urdf.write_text("<robot name='m'>\n<link name='a'/>\n<link name='a'/></robot>")
    assert main(["convert", str(urdf), "--to", "sdf"]) == 1
    assert "bad.urdf:3:" in capsys.readouterr().err
