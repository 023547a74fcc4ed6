"""The writers element by element: what each target gets from the model, and
the loss report for what it cannot hold."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from lxml import etree

from mbparse.cli import main
from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.convert.loss import ConvertError
from mbparse.convert.roundtrip import check_conversion
from mbparse.convert.writers import write
from mbparse.geometry import SceneGraph
from mbparse.plant import MultibodyPlant
from mbparse.spatial import RigidTransform, SpatialInertia

DATA = Path(__file__).parent / "data" / "convert"
FEATURES = str(DATA / "features.urdf")


def converted(target: str, path: str = FEATURES, tmp_path: Path | None = None,
              drake_extensions: bool = False):
    out = str(tmp_path / f"out.{target}") if tmp_path else None
    result = convert_file(path, target, out, ConvertFileOptions(
        via_model=True, drake_extensions=drake_extensions))
    return etree.fromstring(result.text.encode()), result.report


def test_urdf_writes_full_inertia_about_the_com_in_body_axes():
    root, _ = converted("urdf")
    inertia = root.find("link[@name='base']/inertial/inertia")
    assert float(inertia.get("ixy")) != 0 and float(inertia.get("iyz")) != 0
    assert root.find("link[@name='base']/inertial/origin").get("rpy") == "0 0 0"


def test_urdf_writes_ball_joint_mimic_frame_and_transmission_with_drake_extensions():
    root, _ = converted("urdf", drake_extensions=True)
    ns = {"drake": "http://drake.mit.edu"}
    assert root.find("drake:joint[@name='wrist']", ns).get("type") == "ball"
    mimic = root.find("joint[@name='slide_b']/mimic")
    assert mimic.get("joint") == "slide_a" and float(mimic.get("multiplier")) == 1
    assert root.find("frame[@name='tool']").get("link") == "arm"
    actuator = root.find("transmission/actuator[@name='shoulder_motor']")
    assert float(actuator.find("drake:gear_ratio", ns).get("value")) == 50
    assert float(root.find("joint[@name='shoulder']/limit").get("effort")) == 50


def test_sdf_writes_links_in_the_model_frame_and_joints_in_the_child():
    root, report = converted("sdf")
    assert root.get("version") == "1.9"
    link = root.find("model/link[@name='base']")
    assert [float(v) for v in link.find("pose").text.split()][:3] == [0, 0, 0.5]
    assert root.find("model/joint[@name='shoulder']/axis/limit/effort").text == "50"
    # the URDF's effort limit without a transmission is kept; Drake's reader
    # makes an actuator of it, which the report says
    assert root.find("model/joint[@name='slide_a']/axis/limit/effort").text == "5"
    assert any(x.element == "joint 'slide_a'" and "makes an actuator" in x.what
               for x in report.losses)
    assert any("names a joint's actuator after the joint" in x.what for x in report.losses)


def test_mjcf_uses_radians_explicit_inertia_default_classes_and_equality():
    root, report = converted("mjcf")
    compiler = root.find("compiler")
    assert compiler.get("angle") == "radian" and compiler.get("inertiafromgeom") == "false"
    assert {d.get("class") for d in root.findall("default/default")} == {"visual", "collision"}
    assert root.find(".//body[@name='base']/inertial").get("fullinertia") is not None
    eq = root.find("equality/joint")
    assert (eq.get("joint1"), eq.get("joint2")) == ("slide_b", "slide_a")
    assert root.find(".//joint[@name='wrist']").get("type") == "ball"
    assert root.find("asset/mesh") is not None
    assert any(x.action == "approximated" and "one friction coefficient" in x.what
               for x in report.losses)


def test_every_loss_names_its_source_line():
    _, report = converted("mjcf")
    assert report.losses and all(x.file == FEATURES for x in report.losses)
    assert all(x.line for x in report.losses if x.element.startswith(("joint", "geometry")))


def test_each_loss_names_a_distinct_element_even_without_names():
    # The cheetah's six joint springs have no names, and its ground plane is a
    # visual and a collision geometry of the same name.
    cheetah = str(Path(__file__).parent / "data" / "mjcf" / "dmc_cheetah.xml")
    _, report = converted("urdf", cheetah)
    labels = [(x.element, x.what) for x in report.losses]
    assert len(labels) == len(set(labels))
    assert "revolute_spring on joint 'bthigh'" in [x.element for x in report.losses]


@pytest.mark.parametrize("target", ["urdf", "sdf", "mjcf"])
def test_features_read_back_to_the_same_bodies_and_joints(target, tmp_path):
    verdict, details = check_conversion(FEATURES, target, str(tmp_path))
    assert verdict in ("faithful", "lossy-ok"), details


def test_mjcf_default_positions_become_ref_and_urdf_reports_them_dropped(tmp_path):
    mjcf = tmp_path / "ref.xml"
    mjcf.write_text("""<mujoco model="r"><worldbody><body name="a"><joint name="j" type="hinge" ref="30"
        axis="0 1 0"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody>
        </mujoco>""")
    root, report = converted("mjcf", str(mjcf))
    assert math.isclose(float(root.find(".//joint[@name='j']").get("ref")), math.pi / 6)
    assert not report
    _, report = converted("urdf", str(mjcf))
    assert any(x.element == "joint 'j'" and x.action == "dropped" for x in report.losses)
    assert check_conversion(str(mjcf), "urdf", str(tmp_path))[0] == "lossy-ok"


def test_a_joint_frame_off_the_child_body_frame_is_split_in_urdf(tmp_path):
    mjcf = tmp_path / "offset.xml"
    mjcf.write_text("""<mujoco model="o"><worldbody><body name="a" pos="0 0 1"><joint name="j"
        type="hinge" pos="0 0 0.2" axis="1 0 0"/><inertial pos="0 0 0" mass="1"
        diaginertia="1 1 1"/></body></worldbody></mujoco>""")
    root, report = converted("urdf", str(mjcf))
    assert root.find("link[@name='j_frame']") is not None
    assert [x.action for x in report.losses] == ["split"]
    assert check_conversion(str(mjcf), "urdf", str(tmp_path))[0] == "lossy-ok"


def test_massless_moving_body_gets_a_tiny_mass_for_mujoco_and_is_reported(tmp_path):
    urdf = tmp_path / "massless.urdf"
    urdf.write_text("""<robot name="m"><link name="world"/><link name="a"/><link name="b">
      <inertial><mass value="1"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/>
      </inertial></link>
      <joint name="j" type="continuous"><parent link="world"/><child link="a"/></joint>
      <joint name="k" type="continuous"><parent link="a"/><child link="b"/></joint></robot>""")
    _, report = converted("mjcf", str(urdf))
    assert {x.element for x in report.losses} == {"body 'a'", "body 'b'"}
    pytest.importorskip("mujoco")
    assert check_conversion(str(urdf), "mjcf", str(tmp_path))[0] == "lossy-ok"


def test_an_empty_model_is_an_error_not_output():
    plant = MultibodyPlant(0.0)
    with pytest.raises(ConvertError, match="no rigid bodies"):
        write(plant, SceneGraph(), "mjcf")


def test_a_non_finite_number_is_an_error_not_output():
    plant = MultibodyPlant(0.0)
    body = plant.add_rigid_body("b", spatial_inertia=SpatialInertia(1, (0, 0, 0), (1, 1, 1, 0, 0, 0)))
    plant.add_frame("far", body.body_frame, RigidTransform(p=(math.inf, 0, 0)))
    for target in ("urdf", "sdf", "mjcf"):
        with pytest.raises(ConvertError, match="inf"):
            write(plant, SceneGraph(), target)


def test_cli_report_json_and_strict(tmp_path):
    report = tmp_path / "loss.json"
    out = tmp_path / "out.xml"
    assert main(["convert", FEATURES, "--to", "mjcf", "-o", str(out),
                 "--report", str(report)]) == 0
    data = json.loads(report.read_text())
    assert data["target"] == "mjcf" and data["losses"]
    assert {"element", "what", "action", "file", "line"} <= set(data["losses"][0])
    assert main(["convert", FEATURES, "--to", "mjcf", "-o", str(tmp_path / "s.xml"),
                 "--strict"]) == 1
    assert not (tmp_path / "s.xml").exists()


def test_mesh_paths_are_rewritten_relative_to_the_output(tmp_path):
    out = tmp_path / "deep" / "down" / "features.urdf"
    assert main(["convert", FEATURES, "--to", "urdf", "--via-model", "-o", str(out)]) == 0
    filename = etree.parse(str(out)).find(".//mesh").get("filename")
    assert not filename.startswith("/") and (out.parent / filename).resolve() == \
        (DATA / "meshes" / "cube.obj").resolve()
    assert check_conversion(str(out), "sdf", str(tmp_path))[0] != "error"


def test_copy_meshes_puts_them_beside_the_output(tmp_path):
    out = tmp_path / "features.xml"
    assert main(["convert", FEATURES, "--to", "mjcf", "-o", str(out),
                 "--copy-meshes", str(tmp_path / "meshes")]) == 0
    assert (tmp_path / "meshes" / "cube.obj").is_file()
    assert etree.parse(str(out)).find("asset/mesh").get("file") == "meshes/cube.obj"


@pytest.mark.parametrize("target", ["urdf", "sdf", "mjcf"])
def test_a_model_of_world_geometry_only_is_written_not_refused(target, tmp_path):
    arena = tmp_path / "arena.xml"
    arena.write_text('<mujoco model="arena"><worldbody>'
                     '<geom name="floor" type="plane" size="5 5 0.1"/>'
                     '<geom name="wall" type="box" size="0.1 5 1" pos="5 0 1"/>'
                     '</worldbody></mujoco>')
    out = tmp_path / ("out" + {"urdf": ".urdf", "sdf": ".sdf", "mjcf": ".xml"}[target])
    result = convert_file(str(arena), target, str(out))
    out.write_text(result.text)
    from mbparse.convert.roundtrip import read_back
    written = read_back(str(out))
    shapes = sorted(g.shape.type_name for g in written.scene_graph.geometries())
    if target == "urdf":  # URDF has no half space: the floor is a large box, reported
        assert shapes == ["Box", "Box", "Box", "Box"]  # the wall and floor, visual and collision
        floor = [g for g in written.scene_graph.geometries() if "floor" in g.name]
        assert [g.shape.size() for g in floor] == [(1000.0, 1000.0, 1000.0)] * 2
        assert all(g.instance.X_BG.p[2] == -500.0 for g in floor)  # (top face: the plane)
        assert {(x.element, x.action) for x in result.report.losses} == {
            ("geometry 'floor' (illustration, perception)", "approximated"),
            ("geometry 'floor' (proximity)", "approximated")}
    else:
        assert shapes == ["Box", "Box", "HalfSpace", "HalfSpace"]
    name = root_name = etree.fromstring(result.text.encode())
    name = root_name.get("name") or root_name.get("model") or root_name.find("model").get("name")
    assert name == "arena"


@pytest.mark.parametrize("pitch_offset", [0.0, 1e-15, 8e-12, 1e-9, 1e-6, 1e-4, 1e-2])
def test_rpy_written_next_to_pitch_90_degrees_gives_back_the_rotation(pitch_offset):
    from mbparse.spatial import matrix_to_rpy, rpy_to_matrix
    for sign in (1, -1):
        R = rpy_to_matrix((2.07, sign * (math.pi / 2 - pitch_offset), -3.1))
        back = rpy_to_matrix(matrix_to_rpy(R))
        assert max(abs(a - b) for r, s in zip(R, back) for a, b in zip(r, s)) < 1e-14
