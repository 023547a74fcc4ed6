"""MJCF output carries what the source said that MJCF can hold, beyond what
Drake's plant keeps (joint friction, armature, springs, effort limits), gives
each joint with an effort limit and no actuator a motor limited to it, keeps
a static model's ground plane, and compiles in MuJoCo."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.convert.roundtrip import check_conversion, mujoco_joint_problems, read_back
from mbparse.description import facts

MJCF_DATA = Path(__file__).parent / "data" / "mjcf"
INERTIAL = ('<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" '
            'ixz="0" iyz="0"/></inertial>')

ARM = f"""<robot name="arm">
  <link name="base">{INERTIAL}</link>
  <link name="a">{INERTIAL}</link>
  <link name="b">{INERTIAL}</link>
  <link name="c">{INERTIAL}</link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="a"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="30" velocity="2"/>
    <dynamics damping="0.5" friction="0.2"/>
    <safety_controller soft_lower_limit="-0.9" soft_upper_limit="0.9" k_position="10"/>
  </joint>
  <joint name="slide" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="0.5" effort="100" velocity="1"/></joint>
  <joint name="free_spin" type="continuous"><parent link="b"/><child link="c"/>
    <axis xyz="0 1 0"/><limit effort="0" velocity="1"/></joint>
  {{transmission}}
</robot>
"""

TRANSMISSION = """<transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="slide"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
    <actuator name="slide_motor"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>"""


def arm(tmp_path: Path, transmission: str = "") -> Path:
    path = tmp_path / "arm.urdf"
    path.write_text(ARM.format(transmission=transmission))
    return path


def mjcf_of(path: Path, tmp_path: Path, **options):
    out = tmp_path / "out.xml"
    result = convert_file(str(path), "mjcf", str(out), ConvertFileOptions(**options))
    out.write_text(result.text)
    return etree.fromstring(result.text.encode()), result.report, out


def test_urdf_effort_and_friction_become_joint_attributes_and_motors(tmp_path):
    root, report, out = mjcf_of(arm(tmp_path), tmp_path)
    shoulder = root.find(".//joint[@name='shoulder']")
    assert shoulder.get("frictionloss") == "0.2" and shoulder.get("damping") == "0.5"
    assert shoulder.get("actuatorfrcrange") == "-30 30"
    motors = {m.get("joint"): m.attrib for m in root.findall("actuator/motor")}
    assert set(motors) == {"shoulder", "slide"}  # a zero effort limit: not actuated
    assert motors["slide"]["forcerange"] == motors["slide"]["ctrlrange"] == "-100 100"
    assert motors["slide"]["ctrllimited"] == motors["slide"]["forcelimited"] == "true"
    # the safety controller has no MJCF form: reported with its line
    [loss] = [x for x in report.losses if "safety controller" in x.what]
    assert loss.element == "joint 'shoulder'" and loss.line == 6 and loss.action == "dropped"
    mujoco = pytest.importorskip("mujoco")
    m = mujoco.MjModel.from_xml_path(str(out))
    assert m.nu == 2 and list(m.actuator_forcerange[0]) == [-30, 30]
    assert m.dof_frictionloss[m.jnt_dofadr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT,
                                                           "shoulder")]] == 0.2


def test_no_actuators_keeps_the_effort_limit_on_the_joint_only(tmp_path):
    root, _, _ = mjcf_of(arm(tmp_path), tmp_path, actuators_from_effort=False)
    assert root.find("actuator") is None
    assert root.find(".//joint[@name='slide']").get("actuatorfrcrange") == "-100 100"


def test_an_actuator_the_model_has_is_written_once_as_it_is(tmp_path):
    root, _, _ = mjcf_of(arm(tmp_path, TRANSMISSION), tmp_path)
    motors = [m.attrib for m in root.findall("actuator/motor")]
    assert [(m["name"], m["joint"]) for m in motors] == [("slide_motor", "slide"),
                                                         ("shoulder", "shoulder")]


def test_the_mjcf_check_compares_joint_facts_with_what_mujoco_compiles(tmp_path):
    pytest.importorskip("mujoco")
    path = arm(tmp_path)
    assert check_conversion(str(path), "mjcf", str(tmp_path))[0] == "lossy-ok"
    _, report, out = mjcf_of(path, tmp_path)
    original = read_back(str(path)).plant
    assert mujoco_joint_problems(original, str(out), report) == []
    text = out.read_text()
    out.write_text(text.replace(' frictionloss="0.2"', "").replace(
        '<motor name="slide" joint="slide"', '<motor name="slide" joint="shoulder"'))
    assert mujoco_joint_problems(original, str(out), report) == [
        "mujoco joint shoulder: frictionloss 0.2 became 0.0",
        "mujoco joint slide: no motor limited to its effort (-100.0, 100.0)"]


MJCF_FACTS = """<mujoco model="facts"><compiler angle="radian"/><worldbody>
  <body name="a"><joint name="h" type="hinge" frictionloss="0.3" armature="0.05"
      actuatorfrcrange="-4 4"/>
    <geom type="sphere" size="0.1" mass="1"/>
    <body name="b" pos="0 0 -0.5"><joint name="s" type="slide" axis="1 0 0" stiffness="20"
        springref="0.1" actuatorfrcrange="-1 3"/>
      <geom type="sphere" size="0.1" mass="1"/></body></body></worldbody>
  <actuator><motor joint="h" ctrlrange="-2 2"/></actuator></mujoco>
"""


def test_the_mjcf_reader_keeps_what_the_plant_drops_in_the_description(tmp_path):
    path = tmp_path / "facts.xml"
    path.write_text(MJCF_FACTS)
    plant = read_back(str(path)).plant
    h, s = plant.get_joint_by_name("h"), plant.get_joint_by_name("s")
    assert facts(h) == {"friction": [0.3], "effort": [4.0]}  # armature: the motor's rotor
    assert plant.actuators()[0].rotor_inertia == 0.05
    assert facts(s) == {"effort_range": [[-1.0, 3.0]], "spring_stiffness": [20.0],
                        "spring_reference": [0.1]}


def test_mjcf_to_mjcf_compiles_to_the_same_joints_in_mujoco(tmp_path):
    mujoco = pytest.importorskip("mujoco")
    path = tmp_path / "facts.xml"
    path.write_text(MJCF_FACTS)
    root, report, out = mjcf_of(path, tmp_path)
    a, b = mujoco.MjModel.from_xml_path(str(path)), mujoco.MjModel.from_xml_path(str(out))
    for field in ("dof_frictionloss", "dof_armature", "jnt_stiffness", "qpos_spring",
                  "jnt_actfrcrange", "jnt_actfrclimited"):
        assert getattr(a, field).tolist() == getattr(b, field).tolist(), field
    # the slide's asymmetric range gets a motor of its own; the hinge keeps its motor
    assert b.nu == 2 and b.actuator_forcerange.tolist() == [[-2, 2], [-1, 3]]
    assert check_conversion(str(path), "mjcf", str(tmp_path))[0] in ("faithful", "lossy-ok")


def test_an_unused_armature_is_kept_for_the_writers(tmp_path):
    path = tmp_path / "armature.xml"
    path.write_text('<mujoco><worldbody><body name="a"><joint name="h" armature="0.2"/>'
                    '<geom type="sphere" size="0.1" mass="1"/></body></worldbody></mujoco>')
    assert facts(read_back(str(path)).plant.get_joint_by_name("h")) == {"armature": [0.2]}
    root, _, _ = mjcf_of(path, tmp_path)
    assert root.find(".//joint[@name='h']").get("armature") == "0.2"


GROUND = """<sdf version="1.9"><world name="w">
  <model name="ground_plane"><static>true</static><link name="link">
    <collision name="collision"><geometry><plane><normal>0 0 1</normal></plane></geometry>
    </collision></link></model>
  <model name="box"><pose>0 0 1 0 0 0</pose><link name="b">
    <inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia>
    </inertial>{moving_plane}
    <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision></link>
  </model></world></sdf>
"""


def test_a_static_models_ground_plane_is_a_plane_in_mjcf(tmp_path):
    path = tmp_path / "ground.sdf"
    path.write_text(GROUND.format(moving_plane=""))
    root, report, out = mjcf_of(path, tmp_path)
    plane = root.find(".//body[@name='ground_plane__link']/geom[@type='plane']")
    assert plane is not None and plane.get("class") == "collision"
    assert root.find(".//body[@name='ground_plane__link']/freejoint") is None
    assert not any(x.action == "dropped" for x in report.losses)
    mujoco = pytest.importorskip("mujoco")
    assert mujoco.MjModel.from_xml_path(str(out)).ngeom == 2
    assert check_conversion(str(path), "mjcf", str(tmp_path))[0] == "lossy-ok"


def test_a_half_space_on_a_moving_body_becomes_a_box_and_is_reported(tmp_path):
    path = tmp_path / "ground.sdf"
    path.write_text(GROUND.format(moving_plane='<collision name="p"><geometry><plane>'
                                               '<normal>0 0 1</normal></plane></geometry>'
                                               '</collision>'))
    root, report, out = mjcf_of(path, tmp_path)
    box = root.find(".//body[@name='box__b']/geom[@name='p']")
    assert box.get("type") == "box" and box.get("pos") == "0 0 -500"
    [loss] = [x for x in report.losses if x.element.startswith("geometry 'box::p'")]
    assert loss.action == "approximated" and "box" in loss.what and loss.line
    mujoco = pytest.importorskip("mujoco")
    assert mujoco.MjModel.from_xml_path(str(out)).ngeom == 3


@pytest.mark.parametrize("name", ["dmc_cheetah.xml", "dmc_humanoid.xml", "dmc_finger.xml"])
def test_mujoco_models_with_joint_facts_convert_to_the_same_joints(name, tmp_path):
    pytest.importorskip("mujoco")
    verdict, details = check_conversion(str(MJCF_DATA / name), "mjcf", str(tmp_path))
    assert verdict in ("faithful", "lossy-ok"), details


def test_the_joints_of_one_mjcf_body_are_written_in_one_body_again(tmp_path):
    # The reader puts a massless body between two joints of one body (Drake
    # does); MuJoCo would refuse such a body moving alone, so it is not
    # written: the joints go back into the body, in their order.
    mujoco = pytest.importorskip("mujoco")
    source = MJCF_DATA / "dmc_humanoid.xml"
    root, report, out = mjcf_of(source, tmp_path)
    waist = root.find(".//body[@name='lower_waist']")
    assert [j.get("name") for j in waist.findall("joint")] == ["abdomen_z", "abdomen_y"]
    assert not any("without mass" in x.what for x in report.losses)
    a, b = mujoco.MjModel.from_xml_path(str(source)), mujoco.MjModel.from_xml_path(str(out))
    assert (a.nbody, a.njnt, a.nu) == (b.nbody, b.njnt, b.nu)
    plant = read_back(str(out)).plant  # the reader makes the same massless bodies again
    assert plant.num_bodies() == read_back(str(source)).plant.num_bodies()


def test_springdamper_free_joint_names_and_body_order_survive_mjcf_to_mjcf(tmp_path):
    mujoco = pytest.importorskip("mujoco")
    path = tmp_path / "order.xml"
    path.write_text("""<mujoco model="order"><worldbody>
      <body name="ball" pos="0 0 1"><freejoint name="ball_free"/>
        <geom type="sphere" size="0.1" mass="1"/></body>
      <body name="arm"><joint name="h" springdamper="0.5 1"/>
        <geom type="capsule" fromto="0 0 0 0 0 -1" size="0.05" mass="2"/></body>
    </worldbody></mujoco>""")
    assert facts(read_back(str(path)).plant.get_joint_by_name("h")) == {
        "spring_damper": [0.5, 1.0]}
    root, report, out = mjcf_of(path, tmp_path)
    a, b = mujoco.MjModel.from_xml_path(str(path)), mujoco.MjModel.from_xml_path(str(out))
    names = [[m.joint(i).name for i in range(m.njnt)] for m in (a, b)]
    assert names[0] == names[1] == ["ball_free", "h"]  # qpos keeps its layout
    assert b.jnt_stiffness.tolist() == a.jnt_stiffness.tolist() and a.jnt_stiffness[1] > 0
    assert b.dof_damping.tolist() == a.dof_damping.tolist()
    # MuJoCo's damping comes from the springdamper, not the plant's: the check knows
    assert check_conversion(str(path), "mjcf", str(tmp_path))[0] == "faithful"


def test_the_armature_of_a_free_joint_is_said_to_be_ignored(tmp_path):
    path = tmp_path / "free.xml"
    path.write_text('<mujoco model="f"><worldbody><body name="b"><joint type="free" '
                    'armature="0.1"/><geom size="0.1" mass="1"/></body></worldbody></mujoco>')
    warned = [str(w) for w in read_back(str(path)).warnings]
    assert any("armature of the free joint of body 'b' is not supported" in w for w in warned)


def test_geometry_and_model_facts_mjcf_cannot_hold_are_reported(tmp_path):
    from mbparse.convert.writers import write
    from mbparse.description import describe
    path = tmp_path / "box.urdf"
    path.write_text(f'<robot name="box"><link name="b">{INERTIAL}<visual><geometry><box '
                    'size="1 1 1"/></geometry></visual></link></robot>')
    loaded = read_back(str(path))
    [g] = loaded.scene_graph.geometries()
    describe(g.instance, "material", "steel")
    model = loaded.plant.model_instance(loaded.plant.bodies()[1].model_instance)
    describe(model, "static", True)  # written: the bodies are welded where they stand
    describe(model, "colour_scheme", "dark")  # a key the MJCF writer does not know
    _, report = write(loaded.plant, loaded.scene_graph, "mjcf", str(tmp_path))
    assert [(x.element, x.what, x.action) for x in report.losses] == [
        ("geometry 'box::Box' (illustration, perception)",
         "material steel: MJCF output has no place for it", "dropped"),
        ("model instance 'box'", "colour scheme dark: MJCF output has no place for it",
         "dropped")]


def test_a_free_body_of_point_masses_gets_the_tiny_inertia_mujoco_needs(tmp_path):
    # pyflyt's fixed-wing aircraft: every link a point mass (zero inertia),
    # welded at spread-out offsets. The masses' offsets give the cluster an
    # inertia, but MuJoCo 4 still refuses it ("mass and inertia of moving
    # bodies must be larger than mjMINVAL"), so the writer adds its tiny
    # inertia and says so.
    mujoco = pytest.importorskip("mujoco")
    point = '<inertial><mass value="{m}"/><inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" ' \
            'iyz="0"/></inertial>'
    urdf = tmp_path / "plane.urdf"
    urdf.write_text(f"""<robot name="plane">
      <link name="base">{point.format(m=0.3)}</link>
      <link name="wing">{point.format(m=0.5)}</link>
      <link name="tail">{point.format(m=0.1)}</link>
      <joint name="w" type="fixed"><parent link="base"/><child link="wing"/>
        <origin xyz="-0.5 0.9 0"/></joint>
      <joint name="t" type="fixed"><parent link="base"/><child link="tail"/>
        <origin xyz="-1.1 0 0.15"/></joint></robot>""")
    out = tmp_path / "plane.xml"
    result = convert_file(str(urdf), "mjcf", str(out))
    out.write_text(result.text)
    mujoco.MjModel.from_xml_path(str(out))  # (refused before)
    assert any(x.element == "body 'base'" and x.action == "approximated"
               for x in result.report.losses)
