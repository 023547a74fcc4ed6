"""Noise found on good real models, kept out of the default output: another
tool's elements in a URDF are notes (a typo of a URDF element stays a
warning), one unknown element repeated on every link is one finding, a
model with no mass at all is one warning rather than an error per body, and
an MJCF mesh declared in an included file in another folder is found where
MuJoCo finds it."""
from __future__ import annotations

import pytest

from mbparse.lint import lint_file
from mbparse.lint.config import CheckSettings
from mbparse.loading import LoadOptions, load

INERTIAL = ('<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" '
            'iyz="0"/></inertial>')
TETRAHEDRON = ((0, 0, 0), (1, 0, 0), (0, 1, 0)), ((0, 0, 0), (0, 0, 1), (1, 0, 0)), \
    ((0, 0, 0), (0, 1, 0), (0, 0, 1)), ((1, 0, 0), (0, 0, 1), (0, 1, 0))
STL = "solid t\n" + "".join(
    "facet normal 0 0 0\nouter loop\n" + "".join(f"vertex {x} {y} {z}\n" for x, y, z in tri)
    + "endloop\nendfacet\n" for tri in TETRAHEDRON) + "endsolid t\n"


def shown(path) -> list:
    return CheckSettings().chosen(lint_file(str(path)))


def test_other_tools_elements_in_a_urdf_are_notes(tmp_path):
    path = tmp_path / "r.urdf"
    path.write_text(f'<robot name="r"><link name="a">{INERTIAL}<self_filter/><gravity>0</gravity>'
                    '</link><ros2_control name="x" type="system"/><mujoco><compiler '
                    'discardvisual="false"/></mujoco></robot>')
    findings = lint_file(str(path))
    assert shown(path) == []
    assert {f.rule for f in findings} == {"urdf-unsupported"} and len(findings) == 4


def test_a_misspelled_urdf_element_is_still_a_warning_naming_the_one_meant(tmp_path):
    path = tmp_path / "r.urdf"
    path.write_text(f'<robot name="r"><link name="a"><inertail/>{INERTIAL}</link><jiont/></robot>')
    found = {(f.rule, f.message.split("Did you mean ")[-1]) for f in shown(path)}
    assert found == {("urdf-unknown-element", "<inertial>?"), ("urdf-unknown-element", "<joint>?")}


def test_an_unknown_element_repeated_on_every_link_is_one_finding(tmp_path):
    links = "".join(f'<link name="l{i}">{INERTIAL}<inertail/></link>\n' for i in range(5))
    path = tmp_path / "r.urdf"
    path.write_text(f'<robot name="r">\n{links}\n</robot>')
    (finding,) = [f for f in lint_file(str(path)) if f.rule == "urdf-unknown-element"]
    assert "5 times in this file" in finding.message and finding.line == 2


def test_a_model_without_any_mass_is_one_warning(tmp_path):
    path = tmp_path / "r.urdf"
    joints = "".join(f'<joint name="j{i}" type="revolute"><parent link="l{i}"/><child '
                     f'link="l{i + 1}"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" '
                     'effort="1" velocity="1"/></joint>' for i in range(3))
    path.write_text('<robot name="r">' + "".join(f'<link name="l{i}"/>' for i in range(4))
                    + joints + "</robot>")
    findings = shown(path)
    assert [(f.rule, f.severity) for f in findings] == [("mass-none", "warning")]


def test_a_massless_moving_part_of_a_model_with_mass_is_still_an_error(tmp_path):
    path = tmp_path / "r.urdf"
    path.write_text(f'<robot name="r"><link name="a">{INERTIAL}</link><link name="b"/>'
                    '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
                    '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
                    '</joint></robot>')
    assert [f.rule for f in shown(path)] == ["mass-zero-moving"]


def test_an_included_mjcf_mesh_is_found_beside_the_included_file(tmp_path):
    pytest.importorskip("trimesh")
    (tmp_path / "assets").mkdir()
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "part.stl").write_text(STL)
    (tmp_path / "assets" / "assets.xml").write_text(
        '<mujocoinclude><asset><mesh name="part" file="../meshes/part.stl"/></asset>'
        '</mujocoinclude>')
    # MuJoCo looks first under the main file's folder (../meshes from there
    # does not exist), then with the included file's folder in between.
    path = tmp_path / "m.xml"
    path.write_text('<mujoco model="m"><include file="assets/assets.xml"/><worldbody><body '
                    'name="b"><freejoint/><geom type="mesh" mesh="part"/></body></worldbody>'
                    '</mujoco>')
    assert not [f for f in lint_file(str(path)) if f.rule == "mesh-missing"]
    loaded = load(str(path))
    assert loaded.scene_graph.geometries()
    # Drake looks only under the main file's folder.
    drake = [f for f in lint_file(str(path), LoadOptions(like="drake")) if f.severity == "error"]
    assert drake and drake[0].rule == "mesh-missing"


def test_an_mjcf_body_outside_worldbody_is_ignored_as_mujoco_ignores_it(tmp_path):
    path = tmp_path / "robot.xml"
    path.write_text('<mujoco><body name="b"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>'
                    '<geom class="undefined" size="1"/></body></mujoco>')
    findings = lint_file(str(path))
    assert shown(path) == []
    assert any("outside <worldbody>" in f.message for f in findings)
    loaded = load(str(path))
    assert loaded.plant.num_bodies() == 1


def test_check_dir_skips_mjcf_fragments_but_not_models(tmp_path):
    from mbparse.lint.config import model_files
    (tmp_path / "materials.xml").write_text('<mujoco><asset><texture name="t" builtin="flat" '
                                            'width="8" height="8"/></asset></mujoco>')
    (tmp_path / "robot.xml").write_text('<mujoco><body name="b"/></mujoco>')
    (tmp_path / "scene.xml").write_text('<mujoco model="s"><include file="robot.xml"/>'
                                        '</mujoco>')
    (tmp_path / "model.xml").write_text('<mujoco model="m"><worldbody/></mujoco>')
    found = {p.rsplit("/", 1)[-1] for p in model_files([str(tmp_path)])}
    assert found == {"scene.xml", "model.xml"}
    assert list(model_files([str(tmp_path / "robot.xml")])) == [str(tmp_path / "robot.xml")]


@pytest.mark.parametrize("range_, error", [("", False), ('range="0 0"', False),
                                           ('range="0 90"', False), ('range="1 0"', True)])
def test_a_limited_mjcf_ball_joint_is_refused_only_as_mujoco_refuses_it(tmp_path, range_, error):
    # MuJoCo: a ball joint's range is [0, largest angle]; a limited one without
    # a range ([0, 0], as genesis' three_joint_link.xml has) compiles.
    path = tmp_path / "m.xml"
    path.write_text(f'<mujoco model="m"><worldbody><body name="b"><joint name="j" type="ball" '
                    f'limited="true" {range_}/><geom size="0.1"/></body></worldbody></mujoco>')
    errors = [f.rule for f in lint_file(str(path)) if f.severity == "error"]
    assert errors == (["mjcf-value-invalid"] if error else [])


def test_an_mjcf_site_named_like_a_body_below_it_does_not_take_its_name(tmp_path):
    # dm_control's CMU humanoid: <site name="lwrist"/> then <body name="lwrist">.
    path = tmp_path / "m.xml"
    path.write_text('<mujoco model="m"><worldbody><body name="arm"><joint name="a"/>'
                    '<geom size="0.1"/><site name="wrist"/><body name="wrist"><joint name="w"/>'
                    '<geom size="0.1"/></body></body></worldbody></mujoco>')
    assert [f.rule for f in lint_file(str(path)) if f.severity != "note"] == []
    plant = load(str(path)).plant
    assert plant.has_body_named("wrist") and plant.has_frame_named("wrist_site")


def test_the_massless_bodies_of_a_multi_joint_mjcf_body_take_no_real_bodys_name(tmp_path):
    # dm_control's rodent: vertebra_C1 has two joints, and vertebra_C10 exists.
    path = tmp_path / "m.xml"
    path.write_text('<mujoco model="m"><worldbody><body name="v1"><joint name="x" axis="1 0 0"/>'
                    '<joint name="y" axis="0 1 0"/><geom size="0.1"/><body name="v10">'
                    '<joint name="z"/><geom size="0.1"/></body></body></worldbody></mujoco>')
    assert [f.rule for f in lint_file(str(path)) if f.severity == "error"] == []
    plant = load(str(path)).plant
    assert plant.get_body_by_name("v10").mass > 0 and plant.num_bodies() == 4


def test_a_single_massless_body_is_pybullets_static_object_one_warning(tmp_path):
    path = tmp_path / "plane.urdf"
    path.write_text('<?xml version="0.0" ?>\n<robot name="plane"><link name="p"><inertial>'
                    '<mass value="0"/><inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/>'
                    '</inertial><collision><geometry><box size="200 200 1"/></geometry>'
                    '</collision></link></robot>')
    findings = shown(path)
    assert [(f.rule, f.severity) for f in findings] == [("mass-none", "warning")]
    assert "pybullet" in findings[0].message
    # the odd XML version pybullet's files carry is a note
    assert "xml-version" in {f.rule for f in lint_file(str(path))}
