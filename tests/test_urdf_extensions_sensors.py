"""iDynTree's URDF <sensor> extension (reference 004): force_torque sensors on
joints, gyroscopes and accelerometers on links, posed in the parent link."""
from __future__ import annotations

import math

import pytest

from conftest import CORPUS, needs_corpus, HEAVY, error_at, parse_file, parse_urdf, robot
from mbparse.spatial import RigidTransform
from mbparse.summary import summarize

IDYNTREE = CORPUS / "idyntree"

LINKS = f"""
  <link name="link1">{HEAVY}</link>
  <link name="link2">{HEAVY}</link>
  <joint name="ft_joint" type="fixed"><parent link="link1"/><child link="link2"/>
    <origin xyz="0 0 0.5" rpy="0 0 1.5707963267948966"/></joint>
"""

FT = """<sensor name="ft" type="force_torque">
    <parent joint="ft_joint"/>
    <force_torque>
      <frame>{frame}</frame>
      <measure_direction>{direction}</measure_direction>
    </force_torque>
    {origin}
  </sensor>"""

GYRO = """<sensor name="dummy_gyro" type="gyroscope">
    <parent link="link2"/>
    <origin xyz="0 -0.01 +0.01" rpy="0 -0 0"/>
  </sensor>"""

ACC = """<sensor name="dummy_accelerometer" type="accelerometer">
    <parent link="link1"/>
    <origin xyz="0.1 0 0" rpy="1.0 0 0"/>
  </sensor>"""


def ft(frame: str = "child", direction: str = "child_to_parent", origin: str = "") -> str:
    return FT.format(frame=frame, direction=direction, origin=origin)


def model(*sensors: str) -> str:
    return robot(LINKS + "\n".join(sensors))


def sensors(parsed) -> dict:
    return {s.name: s for s in parsed.plant.sensors()}




def close(X: RigidTransform, Y: RigidTransform, tol: float = 1e-12) -> bool:
    return (max(abs(a - b) for a, b in zip(X.p, Y.p)) <= tol and
            max(abs(X.R[i][j] - Y.R[i][j]) for i in range(3) for j in range(3)) <= tol)


X_JOINT = RigidTransform.from_rpy_xyz((0, 0, math.pi / 2), (0, 0, 0.5))


# ------------------------------------------------------------ link sensors
@pytest.mark.parametrize("text,name,stype,link,rpy,xyz", [
    (GYRO, "dummy_gyro", "gyroscope", "link2", (0, 0, 0), (0, -0.01, 0.01)),
    (ACC, "dummy_accelerometer", "accelerometer", "link1", (1, 0, 0), (0.1, 0, 0))])
def test_urdf_link_sensor_is_posed_in_its_parent_link(text, name, stype, link, rpy, xyz):
    s = sensors(parse_urdf(model(text)))[name]
    assert (s.type, s.parent, s.parent_link.name) == (stype, link, link)
    assert close(s.X_PS, RigidTransform.from_rpy_xyz(rpy, xyz))
    assert s.parameters == {}


def test_urdf_link_sensor_without_origin_is_at_the_link_frame():
    s = sensors(parse_urdf(model(GYRO.replace('<origin xyz="0 -0.01 +0.01" rpy="0 -0 0"/>',
                                               ""))))["dummy_gyro"]
    assert s.X_PS.is_exactly_identity()


def test_urdf_link_sensor_on_an_unknown_link_is_an_error(write):
    error_at(write, model(GYRO.replace('link="link2"', 'link="ghost"')), '<parent link="ghost"',
             "ghost")


def test_urdf_link_sensor_on_a_joint_is_an_error(write):
    text = model(GYRO.replace('<parent link="link2"/>', '<parent joint="ft_joint"/>'))
    error_at(write, text, '<parent joint="ft_joint"/>\n    <origin', "link")


def test_urdf_link_sensor_without_parent_is_an_error(write):
    error_at(write, model(ACC.replace('<parent link="link1"/>', "")), "<sensor", "parent")


# ------------------------------------------------------------ force-torque sensors
@pytest.mark.parametrize("frame", ["child", "parent", "sensor"])
def test_urdf_force_torque_sensor_pose_follows_its_frame(frame):
    origin = '<origin xyz="0.1 0 0" rpy="0 0 0.5"/>' if frame == "sensor" else ""
    s = sensors(parse_urdf(model(ft(frame, origin=origin))))["ft"]
    assert (s.type, s.parent, s.parent_link.name) == ("force_torque", "ft_joint", "link1")
    expected = {"child": X_JOINT, "parent": RigidTransform(),
                "sensor": X_JOINT @ RigidTransform.from_rpy_xyz((0, 0, 0.5), (0.1, 0, 0))}
    assert close(s.X_PS, expected[frame])
    assert s.parameters["frame"] == frame
    assert s.parameters["child_link"] == "link2"


def test_urdf_force_torque_sensor_frame_sensor_without_origin_is_the_child_frame():
    s = sensors(parse_urdf(model(ft("sensor"))))["ft"]
    assert close(s.X_PS, X_JOINT)


@pytest.mark.parametrize("direction", ["parent_to_child", "child_to_parent"])
def test_urdf_force_torque_sensor_keeps_its_measure_direction(direction):
    s = sensors(parse_urdf(model(ft(direction=direction))))["ft"]
    assert s.parameters["measure_direction"] == direction


def test_urdf_force_torque_sensor_origin_with_another_frame_warns_and_is_ignored():
    parsed = parse_urdf(model(ft("child", origin='<origin xyz="1 2 3"/>')))
    assert close(sensors(parsed)["ft"].X_PS, X_JOINT)
    assert any("origin" in w for w in parsed.warnings)


def test_urdf_force_torque_sensor_on_an_unknown_joint_is_an_error(write):
    error_at(write, model(ft().replace('joint="ft_joint"', 'joint="ghost"')), '<parent joint',
             "ghost")


def test_urdf_force_torque_sensor_on_a_link_is_an_error(write):
    error_at(write, model(ft().replace('<parent joint="ft_joint"/>', '<parent link="link1"/>')),
             '<parent link="link1"/>\n    <force_torque', "joint")


def test_urdf_force_torque_sensor_without_force_torque_element_is_an_error(write):
    text = model('<sensor name="ft" type="force_torque"><parent joint="ft_joint"/></sensor>')
    error_at(write, text, '<sensor name="ft"', "force_torque")


@pytest.mark.parametrize("tag", ["frame", "measure_direction"])
def test_urdf_force_torque_sensor_missing_setting_is_an_error(write, tag):
    text = model(ft().replace(f"<{tag}>", f"<x_{tag}>").replace(f"</{tag}>", f"</x_{tag}>"))
    error_at(write, text, "<force_torque>", tag)


@pytest.mark.parametrize("frame,direction,needle", [
    ("world", "child_to_parent", "<frame>"), ("child", "sideways", "<measure_direction>")])
def test_urdf_force_torque_sensor_unknown_setting_is_an_error(write, frame, direction, needle):
    error_at(write, model(ft(frame, direction)), needle, "should be one of")


# ------------------------------------------------------------ the sensor element itself
def test_urdf_sensor_names_must_be_unique(write):
    text = model(GYRO, ACC.replace('name="dummy_accelerometer"', 'name="dummy_gyro"'))
    error_at(write, text, '<sensor name="dummy_gyro" type="accelerometer"', "dummy_gyro")


def test_urdf_sensor_without_name_is_an_error(write):
    error_at(write, model(GYRO.replace(' name="dummy_gyro"', "")), "<sensor", "name")


def test_urdf_sensor_without_type_is_an_error(write):
    error_at(write, model(GYRO.replace(' type="gyroscope"', "")), "<sensor", "type")


def test_urdf_sensor_of_unsupported_type_warns_and_is_ignored():
    parsed = parse_urdf(model(GYRO.replace('"gyroscope"', '"imu"')))
    assert parsed.plant.sensors() == []
    assert any("imu" in w for w in parsed.warnings)


def test_urdf_sensor_unknown_child_warns():
    parsed = parse_urdf(model(GYRO.replace("<origin", "<update_rate>100</update_rate><origin")))
    assert "dummy_gyro" in sensors(parsed)
    assert any("update_rate" in w for w in parsed.warnings)


def test_urdf_sensors_inside_gazebo_are_ignored_silently():
    text = model(f'<gazebo reference="link1">{GYRO}</gazebo>')
    parsed = parse_urdf(text)
    assert parsed.plant.sensors() == [] and parsed.warnings == []


def test_urdf_sensors_summary_lists_every_sensor():
    parsed = parse_urdf(model(ft("parent"), GYRO))
    parsed.plant.finalize()
    summary = summarize(parsed.plant, parsed.parser, parsed.instances)
    by_name = {s["name"]: s for s in summary["sensors"]}
    assert by_name["ft"]["type"] == "force_torque" and by_name["ft"]["parent"] == "ft_joint"
    assert by_name["ft"]["parent_link"] == "r::link1"
    assert by_name["ft"]["frame"] == "parent"
    assert by_name["ft"]["measure_direction"] == "child_to_parent"
    assert by_name["dummy_gyro"]["X_PS"]["p"] == [0.0, -0.01, 0.01]


def test_urdf_sensors_do_not_change_what_drake_compares():
    with_sensors = parse_urdf(model(ft(), GYRO, ACC))
    without = parse_urdf(model())
    for parsed in (with_sensors, without):
        parsed.plant.finalize()
    a = summarize(with_sensors.plant, with_sensors.parser, with_sensors.instances)
    b = summarize(without.plant, without.parser, without.instances)
    assert "sensors" not in b
    del a["sensors"]
    assert a == b


# ------------------------------------------------------------ iDynTree's own models
@needs_corpus
def test_urdf_sensors_of_idyntree_two_links_model():
    # twoLinks.urdf, read by hand: two accelerometers and a gyroscope.
    parsed = parse_file(IDYNTREE / "src/tests/data/twoLinks.urdf", scene_graph=False)
    got = {s.name: (s.type, s.parent, s.X_PS) for s in parsed.plant.sensors()}
    assert set(got) == {"dummy_accl1", "dummy_gyro", "dummy_accl2"}
    expected = {"dummy_accl1": ("accelerometer", "link1", (1.0, 0, 0), (0.01, 0, 0)),
                "dummy_gyro": ("gyroscope", "link2", (0, 0, 0), (0, -0.01, 0.01)),
                "dummy_accl2": ("accelerometer", "link2", (0, 0, 0), (0.1, 0, 0))}
    for name, (stype, link, rpy, xyz) in expected.items():
        assert got[name][:2] == (stype, link)
        assert close(got[name][2], RigidTransform.from_rpy_xyz(rpy, xyz))


@needs_corpus
def test_urdf_sensors_of_idyntree_icub_force_torque_sensors():
    # iCubGenova02.urdf, read by hand: six F/T sensors, each named as its
    # fixed joint, expressed in the child frame, measuring child to parent.
    parsed = parse_file(IDYNTREE / "src/tests/data/iCubGenova02.urdf", scene_graph=False)
    got = sensors(parsed)
    names = {"l_arm_ft_sensor", "r_arm_ft_sensor", "l_leg_ft_sensor", "r_leg_ft_sensor",
             "l_foot_ft_sensor", "r_foot_ft_sensor"}
    assert set(got) == names
    for name in names:
        s = got[name]
        joint = parsed.plant.get_joint_by_name(name)
        assert s.parent == name and s.parent_link is joint.parent_body
        assert s.parameters["frame"] == "child"
        assert s.parameters["measure_direction"] == "child_to_parent"
        assert close(s.X_PS, joint.frame_on_parent.X_BF)


def _idyntree_sensors(path) -> dict:
    """The sensors iDynTree's own loader finds: name -> (type, parent, link, 4x4)."""
    idt = pytest.importorskip("idyntree.bindings")
    loader = idt.ModelLoader()
    if not loader.loadModelFromFile(str(path)):
        pytest.skip(f"idyntree cannot load {path.name}")
    found = {}
    sensor_list = loader.sensors()
    for i in range(sensor_list.getNrOfSensors(idt.SIX_AXIS_FORCE_TORQUE)):
        s = sensor_list.getSixAxisForceTorqueSensor(i)
        X = idt.Transform()
        assert s.getLinkSensorTransform(s.getFirstLinkIndex(), X)
        found[s.getName()] = ("force_torque", s.getParentJoint(), s.getFirstLinkName(),
                              X.asHomogeneousTransform().toNumPy())
    for kind, get, name in ((idt.ACCELEROMETER, sensor_list.getAccelerometerSensor,
                             "accelerometer"),
                            (idt.GYROSCOPE, sensor_list.getGyroscopeSensor, "gyroscope")):
        for i in range(sensor_list.getNrOfSensors(kind)):
            s = get(i)
            found[s.getName()] = (name, s.getParentLink(), s.getParentLink(),
                                  s.getLinkSensorTransform().asHomogeneousTransform().toNumPy())
    return found


@pytest.mark.parametrize("path", sorted(IDYNTREE.rglob("*.urdf")) if IDYNTREE.is_dir() else [],
                         ids=lambda p: str(p.relative_to(IDYNTREE)))
def test_urdf_sensors_agree_with_idyntree(path):
    theirs = _idyntree_sensors(path)
    ours = sensors(parse_file(path, scene_graph=False))
    assert set(ours) == set(theirs)
    for name, (stype, parent, link, H) in theirs.items():
        s = ours[name]
        assert (s.type, s.parent, s.parent_link.name) == (stype, parent, link)
        assert abs(s.X_PS.matrix() - H).max() <= 1e-9, name


@pytest.mark.parametrize("path", sorted(IDYNTREE.rglob("*.urdf")) if IDYNTREE.is_dir() else [],
                         ids=lambda p: str(p.relative_to(IDYNTREE)))
def test_urdf_sensors_inspect_json_lists_idyntree_sensors_in_the_default_mode(path, capsys):
    """``mbparse inspect --json`` loads every iDynTree model (their meshes
    are not shipped: left out with a warning) and lists the sensors
    iDynTree's own loader finds."""
    import json
    from mbparse.cli import main
    theirs = _idyntree_sensors(path)
    status = main(["inspect", "--json", str(path)])
    summary = json.loads(capsys.readouterr().out.splitlines()[0])
    assert status == 0, summary.get("error")
    assert {s["name"]: (s["type"], s["parent"]) for s in summary.get("sensors", [])} == \
        {name: (stype, parent) for name, (stype, parent, _, _) in theirs.items()}
