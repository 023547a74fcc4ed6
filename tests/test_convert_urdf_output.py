"""URDF output as ROS tools read it: standard URDF by default (urdfdom's
rules: every revolute and prismatic <limit> has effort and velocity), what the
source said beyond Drake's plant (effort without a transmission, friction,
mimic, safety controller, calibration) written, Drake's extensions only when
asked, and each approximation in the loss report."""
from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from mbparse.cli import main
from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.convert.roundtrip import check_conversion, read_back
from mbparse.convert.writers import write
from mbparse.convert.writers.urdf import NO_LIMIT
from mbparse.description import describe, facts

from conftest import line_of

CHECK_URDF = shutil.which("check_urdf")
needs_check_urdf = pytest.mark.skipif(CHECK_URDF is None,
                                      reason="urdfdom's check_urdf is not installed")

INERTIAL = ('<inertial><mass value="1"/>'
            '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>')

# A ROS-style arm: effort limits without a <transmission> (fetch, iCub, tiago),
# friction, a mimic, a safety controller and a calibration.
ARM = f"""<?xml version="1.0"?>
<robot name="arm">
  <link name="base">{INERTIAL}</link>
  <link name="upper">{INERTIAL}</link>
  <link name="fore">{INERTIAL}</link>
  <link name="finger">{INERTIAL}</link>
  <link name="wheel">{INERTIAL}</link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <axis xyz="0 0 1"/><limit lower="-1.6" upper="1.6" effort="33.82" velocity="1.256"/>
    <dynamics damping="0.5" friction="0.25"/>
    <safety_controller soft_lower_limit="-1.5" soft_upper_limit="1.5" k_position="100"
      k_velocity="2"/>
    <calibration rising="0.1" falling="0.2"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/>
    <origin xyz="0 0 0.3"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="12" velocity="2.5"/></joint>
  <joint name="grip" type="prismatic"><parent link="fore"/><child link="finger"/>
    <axis xyz="1 0 0"/><limit lower="0" upper="0.05" effort="5" velocity="0.1"/>
    <mimic joint="elbow" multiplier="0.02" offset="0.01"/></joint>
  <joint name="spin" type="continuous"><parent link="base"/><child link="wheel"/>
    <axis xyz="0 1 0"/><limit effort="8" velocity="17.4"/></joint>
</robot>
"""


def write_text(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def to_urdf(path: Path, out: Path | None = None, **options):
    """(root element, loss report, output path) of ``path`` written as URDF."""
    out = out or path.parent / "out" / "written.urdf"
    result = convert_file(str(path), "urdf", str(out), ConvertFileOptions(**options))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(result.text)
    return etree.fromstring(result.text.encode()), result.report, out


def check_urdf(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([CHECK_URDF, str(path)], capture_output=True, text=True, timeout=60)


# -- limits -------------------------------------------------------------------

def test_effort_limits_without_a_transmission_are_written(tmp_path):
    root, report, _ = to_urdf(write_text(tmp_path, "arm.urdf", ARM))
    limits = {j.get("name"): j.find("limit") for j in root.findall("joint")}
    assert float(limits["shoulder"].get("effort")) == 33.82
    assert float(limits["shoulder"].get("velocity")) == 1.256
    assert float(limits["grip"].get("effort")) == 5
    assert (float(limits["spin"].get("effort")), float(limits["spin"].get("velocity"))) == (8, 17.4)
    assert limits["spin"].get("lower") is None  # a continuous joint's range says nothing
    assert not report, [str(x) for x in report.losses]


def test_an_arm_written_again_reads_back_to_the_same_facts_and_joints(tmp_path):
    source = write_text(tmp_path, "arm.urdf", ARM)
    _, _, out = to_urdf(source)
    want, got = read_back(str(source)).plant, read_back(str(out)).plant
    for j in want.joints():
        if j.type_name == "weld":
            continue
        k = got.get_joint_by_name(j.name)
        assert facts(k) == facts(j), j.name
        assert (k.vel_upper, k.damping) == (j.vel_upper, j.damping)
    assert check_conversion(str(source), "urdf", str(tmp_path))[0] == "faithful"


def test_the_written_arm_says_friction_mimic_safety_and_calibration_as_urdf_does(tmp_path):
    root, _, _ = to_urdf(write_text(tmp_path, "arm.urdf", ARM))
    shoulder = root.find("joint[@name='shoulder']")
    assert shoulder.find("dynamics").attrib == {"damping": "0.5", "friction": "0.25"}
    assert {k: float(v) for k, v in shoulder.find("safety_controller").attrib.items()} == {
        "soft_lower_limit": -1.5, "soft_upper_limit": 1.5, "k_position": 100, "k_velocity": 2}
    assert {k: float(v) for k, v in shoulder.find("calibration").attrib.items()} == {
        "rising": 0.1, "falling": 0.2}
    mimic = root.find("joint[@name='grip']/mimic")
    assert (mimic.get("joint"), float(mimic.get("multiplier")), float(mimic.get("offset"))) \
        == ("elbow", 0.02, 0.01)


MJCF_HINGES = """<mujoco model="m"><compiler angle="radian"/><worldbody>
  <body name="a"><joint name="limited" type="hinge" axis="0 0 1" range="-1 1" limited="true"/>
    <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
    <body name="b"><joint name="slide" type="slide" axis="1 0 0"/>
      <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
      <body name="c"><joint name="free_spin" type="hinge" axis="0 1 0"/>
        <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></body></body>
</worldbody></mujoco>"""


def test_a_limit_the_source_does_not_give_is_the_largest_number_and_reported(tmp_path):
    source = write_text(tmp_path, "hinges.xml", MJCF_HINGES)
    root, report, out = to_urdf(source)
    limited = root.find("joint[@name='limited']/limit")
    assert (float(limited.get("lower")), float(limited.get("upper"))) == (-1, 1)
    assert float(limited.get("effort")) == float(limited.get("velocity")) == NO_LIMIT
    slide = root.find("joint[@name='slide']/limit")  # urdfdom reads no range as [0, 0]
    assert (float(slide.get("lower")), float(slide.get("upper"))) == (-NO_LIMIT, NO_LIMIT)
    assert root.find("joint[@name='free_spin']").get("type") == "continuous"
    assert root.find("joint[@name='free_spin']/limit") is None  # urdfdom needs none
    invented = {x.element: x.what for x in report.losses if x.action == "approximated"}
    assert "effort, velocity" in invented["joint 'limited'"]
    assert "lower, upper, effort, velocity" in invented["joint 'slide'"]
    assert "joint 'free_spin'" not in invented
    assert check_conversion(str(source), "urdf", str(tmp_path))[0] == "lossy-ok"
    written = read_back(str(out)).plant
    assert written.get_joint_by_name("limited").vel_upper == [NO_LIMIT]


def test_a_continuous_joint_with_only_an_effort_gets_a_velocity_and_a_note(tmp_path):
    text = ARM.replace('<limit effort="8" velocity="17.4"/>', '<limit effort="8"/>')
    root, report, _ = to_urdf(write_text(tmp_path, "arm.urdf", text))
    limit = root.find("joint[@name='spin']/limit")
    assert float(limit.get("effort")) == 8 and float(limit.get("velocity")) == NO_LIMIT
    (loss,) = report.losses
    assert loss.element == "joint 'spin'" and loss.line == line_of(text, 'name="spin"')


def test_a_fact_urdf_has_no_place_for_is_reported_at_its_line(tmp_path):
    source = write_text(tmp_path, "arm.urdf", ARM)
    loaded = read_back(str(source))
    describe(loaded.plant.get_joint_by_name("elbow"), "spring_stiffness", [3.0])
    text, report = write(loaded.plant, loaded.scene_graph, "urdf", source=str(source))
    (loss,) = report.losses
    assert loss.element == "joint 'elbow'" and "spring stiffness [3.0]" in loss.what
    assert loss.action == "dropped" and loss.line == line_of(ARM, 'name="elbow"')


# -- standard URDF unless Drake's extensions are asked for ---------------------

DRAKE_ONLY = f"""<?xml version="1.0"?>
<robot name="drakey" xmlns:drake="http://drake.mit.edu">
  <link name="base">{INERTIAL}
    <collision name="pill"><geometry><drake:capsule radius="0.1" length="0.4"/></geometry>
      <drake:proximity_properties><drake:mu_static value="0.6"/>
        <drake:mu_dynamic value="0.5"/></drake:proximity_properties></collision>
    <visual name="pill"><geometry><drake:capsule radius="0.1" length="0.4"/></geometry></visual>
    <visual name="egg"><geometry><drake:ellipsoid a="0.1" b="0.2" c="0.3"/></geometry></visual>
  </link>
  <link name="arm">{INERTIAL}<collision name="c"><geometry><box size="1 1 1"/></geometry>
    </collision></link>
  <link name="hand">{INERTIAL}<collision name="c"><geometry><box size="1 1 1"/></geometry>
    </collision></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="5" velocity="2"
      drake:acceleration="10"/></joint>
  <joint name="wrist" type="fixed"><parent link="arm"/><child link="hand"/>
    <origin xyz="0 0 2"/></joint>
  <frame name="tool" link="hand" xyz="0 0 0.1" rpy="0 0 0"/>
  <transmission><type>transmission_interface/SimpleTransmission</type>
    <joint name="shoulder"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
    <actuator name="motor"><drake:rotor_inertia value="0.01"/><drake:gear_ratio value="50"/>
    </actuator></transmission>
  <drake:collision_filter_group name="g"><drake:member link="base"/>
    <drake:member link="hand"/><drake:ignored_collision_filter_group name="g"/>
  </drake:collision_filter_group>
</robot>
"""


def test_standard_urdf_by_default_with_each_drake_only_thing_reported(tmp_path):
    source = write_text(tmp_path, "drakey.urdf", DRAKE_ONLY)
    root, report, out = to_urdf(source)
    text = out.read_text()
    assert "drake:" not in text and "drake.mit.edu" not in text and not root.nsmap
    by_what = " | ".join(f"{x.element}: {x.what} ({x.action})" for x in report.losses)
    for needle in ("cylinder and a sphere at each end", "no ellipsoid",
                   "proximity properties material/coulomb_friction",
                   "acceleration limit 10", "rotor inertia 0.01", "mechanicalReduction",
                   "bodies 'base' and 'hand': the filter", "frame 'tool'"):
        assert needle in by_what
    assert all(x.line for x in report.losses if not x.element.startswith("bodies"))
    assert root.find("link[@name='tool']") is not None
    assert root.find("joint[@name='tool_joint']/parent").get("link") == "hand"
    if CHECK_URDF:
        assert check_urdf(out).returncode == 0, check_urdf(out).stderr


def test_drake_extensions_when_asked(tmp_path):
    root, report, out = to_urdf(write_text(tmp_path, "drakey.urdf", DRAKE_ONLY),
                                drake_extensions=True)
    ns = {"drake": "http://drake.mit.edu"}
    assert root.find("link/collision/geometry/drake:capsule", ns) is not None
    assert root.find("link/visual/geometry/drake:ellipsoid", ns) is not None
    assert root.find("drake:collision_filter_group", ns) is not None
    assert root.find("frame[@name='tool']") is not None
    assert root.find("joint[@name='shoulder']/limit").get(
        "{http://drake.mit.edu}acceleration") == "10"
    assert not report


def test_cli_flag_asks_for_drake_extensions(tmp_path):
    source = write_text(tmp_path, "drakey.urdf", DRAKE_ONLY)
    plain, drakey = tmp_path / "plain.urdf", tmp_path / "drakey_out.urdf"
    assert main(["convert", str(source), "--to", "urdf", "-o", str(plain)]) == 0
    assert main(["convert", str(source), "--to", "urdf", "-o", str(drakey),
                 "--drake-extensions"]) == 0
    assert "drake:" not in plain.read_text() and "drake:capsule" in drakey.read_text()


def test_a_capsule_is_a_cylinder_and_two_spheres_of_the_same_solid(tmp_path):
    root, report, out = to_urdf(write_text(tmp_path, "drakey.urdf", DRAKE_ONLY))
    collisions = root.findall("link[@name='base']/collision")
    shapes = {c.get("name"): c.find("geometry")[0] for c in collisions}
    assert shapes["pill"].tag == "cylinder"
    assert float(shapes["pill"].get("length")) == 0.4
    for name, z in (("pill_cap_top", 0.2), ("pill_cap_bottom", -0.2)):
        assert shapes[name].tag == "sphere" and float(shapes[name].get("radius")) == 0.1
        origin = root.find(f"link[@name='base']/collision[@name='{name}']/origin")
        assert [float(v) for v in origin.get("xyz").split()] == [0, 0, z]
    assert len(root.findall("link[@name='base']/visual")) == 4  # pill in 3 pieces, the egg
    loss = next(x for x in report.losses if "capsule" in x.what and "proximity" in x.element)
    assert loss.action == "approximated" and loss.line == line_of(DRAKE_ONLY, "<collision")


def test_an_ellipsoid_is_a_scaled_sphere_mesh_beside_the_output(tmp_path):
    root, report, out = to_urdf(write_text(tmp_path, "drakey.urdf", DRAKE_ONLY))
    mesh = root.find("link/visual[@name='egg']/geometry/mesh")
    assert mesh.get("scale") == "0.1 0.2 0.3"
    assert (out.parent / mesh.get("filename")).is_file()
    written = read_back(str(out))
    egg = next(g for g in written.scene_graph.geometries() if g.name.endswith("egg"))
    from mbparse.geometry.meshes import read_mesh
    vertices = read_mesh(egg.shape.filename).vertices
    assert max(abs(math.sqrt(sum(c * c for c in v)) - 1) for v in vertices) < 1e-12


def test_without_an_output_file_an_ellipsoid_mesh_goes_into_the_current_folder(
        tmp_path, monkeypatch):
    # Written to standard output, the made mesh still has a home (never dropped):
    # <model>_meshes/ in the current folder, named relative to it.
    source = write_text(tmp_path, "drakey.urdf", DRAKE_ONLY)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    result = convert_file(str(source), "urdf", None)
    loss = next(x for x in result.report.losses if "egg" in x.element)
    assert loss.action == "approximated"
    made = list(here.glob("*_meshes/unit_sphere.obj"))
    assert len(made) == 1
    assert f'filename="{made[0].parent.name}/unit_sphere.obj"' in result.text


def test_several_free_bodies_hang_from_one_world_link_on_floating_joints(tmp_path):
    sdf = write_text(tmp_path, "two.sdf", f"""<sdf version="1.9"><world name="w">
      <model name="a"><pose>1 0 0 0 0 0</pose><link name="l">{_sdf_inertial()}</link></model>
      <model name="b"><link name="l">{_sdf_inertial()}</link></model></world></sdf>""")
    root, report, out = to_urdf(sdf)
    floating = root.findall("joint[@type='floating']")
    assert len(floating) == 2 and {j.find("parent").get("link") for j in floating} == {"world"}
    assert any("floating joint" in x.what and x.element == "body 'l'" for x in report.losses)
    if CHECK_URDF:
        assert check_urdf(out).returncode == 0, check_urdf(out).stderr


def _sdf_inertial() -> str:
    return ("<inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz>"
            "</inertia></inertial>")


# -- collision meshes of every format are kept ----------------------------------

def binary_stl(path: Path) -> Path:
    """A binary STL of one tetrahedron."""
    import struct
    tris = [((0, 0, 0), (1, 0, 0), (0, 1, 0)), ((0, 0, 0), (0, 0, 1), (1, 0, 0)),
            ((0, 0, 0), (0, 1, 0), (0, 0, 1)), ((1, 0, 0), (0, 0, 1), (0, 1, 0))]
    data = b"\0" * 80 + struct.pack("<I", len(tris))
    for t in tris:
        data += struct.pack("<3f", 0, 0, 0) + b"".join(struct.pack("<3f", *v) for v in t)
        data += b"\0\0"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


MESHED = f"""<?xml version="1.0"?>
<robot name="meshed">
  <link name="base">{INERTIAL}
    <visual><geometry><mesh filename="meshes/tet.stl"/></geometry></visual>
    <collision name="hull"><geometry><mesh filename="meshes/tet.stl" scale="2 2 2"/></geometry>
    </collision></link>
  <link name="arm">{INERTIAL}
    <collision name="cube"><geometry><mesh filename="meshes/cube.obj"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


@pytest.fixture
def meshed(tmp_path) -> Path:
    binary_stl(tmp_path / "model" / "meshes" / "tet.stl")
    cube = Path(__file__).parent / "data" / "convert" / "meshes" / "cube.obj"
    shutil.copyfile(cube, tmp_path / "model" / "meshes" / "cube.obj")
    return write_text(tmp_path / "model", "meshed.urdf", MESHED)


def collision_meshes(path: Path) -> list[str]:
    plant = read_back(str(path)).plant
    return sorted(Path(g.shape.filename).name for g in plant.scene_graph.geometries()
                  if g.has_role("proximity") and hasattr(g.shape, "filename"))


@pytest.mark.parametrize("target", ["urdf", "sdf", "mjcf"])
def test_an_stl_collision_mesh_is_kept_by_every_target(meshed, tmp_path, target):
    out = tmp_path / "elsewhere" / "deeper" / ("out" + {"urdf": ".urdf", "sdf": ".sdf",
                                                        "mjcf": ".xml"}[target])
    result = convert_file(str(meshed), target, str(out), ConvertFileOptions(via_model=True))
    out.parent.mkdir(parents=True)
    out.write_text(result.text)
    assert not any("collision" in x.what for x in result.report.losses)
    assert collision_meshes(out) == collision_meshes(meshed) == ["cube.obj", "tet.stl"]


# -- meshes load from wherever the output is written ----------------------------

@pytest.mark.parametrize("target", ["urdf", "sdf", "mjcf"])
@pytest.mark.parametrize("copy", [False, True])
def test_an_output_in_another_folder_loads_back_with_every_mesh(meshed, tmp_path, target,
                                                               copy):
    out = tmp_path / "out" / "sub" / ("robot" + {"urdf": ".urdf", "sdf": ".sdf",
                                                  "mjcf": ".xml"}[target])
    args = ["convert", str(meshed), "--to", target, "-o", str(out), "--via-model"]
    if copy:
        args += ["--copy-meshes", str(tmp_path / "out" / "meshes")]
    assert main(args) == 0
    text = out.read_text()
    assert str(tmp_path) not in text and "model://" not in text and "package://" not in text
    written = read_back(str(out)).plant
    files = [g.shape.filename for g in written.scene_graph.geometries()
             if hasattr(g.shape, "filename")]
    assert len(files) == 3 and all(Path(f).is_file() for f in files)
    if copy:
        assert all(Path(f).parent == tmp_path / "out" / "meshes" for f in files)
    moved = tmp_path / "moved"
    shutil.copytree(tmp_path / "out", moved)  # the output and its meshes travel together
    if copy:
        assert len(read_back(str(moved / "sub" / out.name)).plant.scene_graph.geometries()) == 3


# -- the target's own readers ----------------------------------------------------

def outputs(tmp_path: Path, meshed: Path) -> list[Path]:
    arm = write_text(tmp_path, "arm.urdf", ARM)
    drakey = write_text(tmp_path, "drakey.urdf", DRAKE_ONLY)
    hinges = write_text(tmp_path, "hinges.xml", MJCF_HINGES)
    features = Path(__file__).parent / "data" / "convert" / "features.urdf"
    return [to_urdf(p, tmp_path / "out" / f"{p.stem}.urdf")[2]
            for p in (arm, drakey, hinges, features, meshed)]


@needs_check_urdf
def test_urdfdom_check_urdf_accepts_every_output(tmp_path, meshed):
    for out in outputs(tmp_path, meshed):
        done = check_urdf(out)
        assert done.returncode == 0, (out.name, done.stdout + done.stderr)


def test_yourdfpy_validates_every_output(tmp_path, meshed):
    yourdfpy = pytest.importorskip("yourdfpy")
    for out in outputs(tmp_path, meshed):
        robot = yourdfpy.URDF.load(str(out), build_scene_graph=True, load_meshes=True)
        assert robot.validate(), out.name


def test_pybullet_loads_every_output(tmp_path, meshed):
    pytest.importorskip("pybullet")
    paths = outputs(tmp_path, meshed)
    code = ("import sys, pybullet as p\np.connect(p.DIRECT)\n"
            "for path in sys.argv[1:]:\n    p.resetSimulation()\n    p.loadURDF(path)\n"
            "print('loaded', len(sys.argv) - 1)\n")
    # (a child process: pybullet's C code prints to this process's output)
    done = subprocess.run([sys.executable, "-c", code, *map(str, paths)], capture_output=True,
                          text=True, timeout=300)
    assert f"loaded {len(paths)}" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]


def test_a_fixed_joint_keeps_its_safety_controller_and_calibration(tmp_path):
    # (PR2's casters in example-robot-data: fixed joints with both)
    text = ARM.replace('<joint name="elbow" type="revolute">', '<joint name="elbow" type="fixed">')
    text = text.replace('<origin xyz="0 0 0.3"/><axis xyz="0 1 0"/>',
                        '<origin xyz="0 0 0.3"/><calibration rising="0.5"/>'
                        '<safety_controller k_velocity="10"/>')
    text = text.replace('<mimic joint="elbow" multiplier="0.02" offset="0.01"/>', "")
    root, report, out = to_urdf(write_text(tmp_path, "arm.urdf", text))
    elbow = root.find("joint[@name='elbow']")
    assert elbow.get("type") == "fixed"
    assert elbow.find("calibration").get("rising") == "0.5"
    assert elbow.find("safety_controller").get("k_velocity") == "10"
    assert not report


SCREW_MIMIC = f"""<?xml version="1.0"?>
<robot name="s" xmlns:drake="http://drake.mit.edu">
  <link name="base">{INERTIAL}</link>
  <link name="a">{INERTIAL}</link><link name="b">{INERTIAL}</link>
  <joint name="r" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <drake:joint name="s" type="screw"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <drake:screw_thread_pitch value="0.1"/><mimic joint="r" multiplier="2" offset="0.5"/>
  </drake:joint>
</robot>
"""


def test_a_screw_that_mimics_keeps_its_mimic_on_its_rotation(tmp_path):
    root, report, out = to_urdf(write_text(tmp_path, "s.urdf", SCREW_MIMIC))
    mimic = root.find("joint[@name='s']/mimic")
    assert (mimic.get("joint"), mimic.get("multiplier"), mimic.get("offset")) == ("r", "2", "0.5")
    assert root.find("joint[@name='s_translation']/mimic").get("joint") == "s"
    assert not any("coupling" in x.what for x in report.losses)
    couplers = [c for c in read_back(str(out)).plant.constraints() if c.type == "coupler"]
    assert {(c.joint0.name, c.joint1.name) for c in couplers} == {("s", "r"),
                                                                 ("s_translation", "s")}


def test_a_coupler_on_a_joint_written_fixed_is_reported(tmp_path):
    from test_convert_joint_types import CURVILINEAR_SDF
    text = CURVILINEAR_SDF.replace("</model>", f"""<link name="wheel">
      <inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>
      </link><joint name="spin" type="revolute"><parent>base</parent><child>wheel</child>
      <axis><xyz>0 0 1</xyz></axis></joint></model>""")
    from mbparse.loading import LoadOptions, load
    loaded = load(str(write_text(tmp_path, "curv.sdf", text)), LoadOptions(time_step=0.0),
                  finalize=False)
    plant = loaded.plant
    plant.add_coupler_constraint(plant.get_joint_by_name("curve"),
                                 plant.get_joint_by_name("spin"), 0.5)
    _, report = write(plant, loaded.scene_graph, "urdf")
    assert any(x.element == "joint 'curve'" and "coupling to joint 'spin'" in x.what
               and x.action == "dropped" for x in report.losses)


MSH_MODEL = Path(__file__).parent / "data" / "mjcf" / "own_msh.xml"


def test_a_mujoco_msh_mesh_becomes_an_obj_beside_the_output(tmp_path):
    root, report, out = to_urdf(MSH_MODEL, tmp_path / "out" / "msh.urdf")
    (filename,) = {m.get("filename") for m in root.iter("mesh")}
    # (into <model>_meshes/ beside the output, as every writer puts the meshes it makes)
    assert filename.endswith("_meshes/box_msh.obj") and (out.parent / filename).is_file()
    assert any("MSH" in x.what and x.action == "approximated" for x in report.losses)
    from mbparse.geometry.meshes import read_mesh
    original = read_mesh(str(MSH_MODEL.parent / "meshes" / "box_msh.msh"))
    written = read_mesh(str(out.parent / filename))
    assert written.vertices.tolist() == original.vertices.tolist()
    assert check_conversion(str(MSH_MODEL), "urdf", str(tmp_path))[0] == "lossy-ok"
    pytest.importorskip("pybullet")
    code = "import sys, pybullet as p\np.connect(p.DIRECT)\np.loadURDF(sys.argv[1])\nprint('ok')"
    done = subprocess.run([sys.executable, "-c", code, str(out)], capture_output=True,
                          text=True, timeout=120)
    assert "ok" in done.stdout.split(), done.stdout[-1000:]


def test_without_an_output_file_an_msh_mesh_becomes_an_obj_in_the_current_folder(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = convert_file(str(MSH_MODEL), "urdf", None)
    assert "box_msh.msh" not in result.text
    (made,) = tmp_path.glob("*_meshes/box_msh.obj")
    assert f'filename="{made.parent.name}/box_msh.obj"' in result.text
    loss = next(x for x in result.report.losses if "MSH" in x.what)
    assert loss.action == "approximated"


def test_limits_of_joints_written_as_chains_are_kept_on_their_axes(tmp_path):
    # A screw with a range, a velocity limit and the source's effort (SDFormat
    # gives a screw these), and a universal joint with velocity limits.
    from mbparse.loading import LoadOptions, load
    text = SCREW_MIMIC.replace('<mimic joint="r" multiplier="2" offset="0.5"/>', "")
    source = write_text(tmp_path, "s.urdf", text)
    loaded = load(str(source), LoadOptions(time_step=0.0), finalize=False)
    screw = loaded.plant.get_joint_by_name("s")
    screw.set_position_limits([-3.0], [3.0])
    screw.set_velocity_limits([-4.0], [4.0])
    describe(screw, "effort", [7.0])
    text, report = write(loaded.plant, loaded.scene_graph, "urdf", source=str(source))
    root = etree.fromstring(text.encode())
    rotation = root.find("joint[@name='s']")
    assert rotation.get("type") == "revolute"
    limit = rotation.find("limit")
    assert [float(limit.get(k)) for k in ("lower", "upper", "effort", "velocity")] == [
        -3, 3, 7, 4]
    assert not any("effort" in x.what and "no place" in x.what for x in report.losses)
    slide = root.find("joint[@name='s_translation']/limit")
    assert float(slide.get("effort")) == NO_LIMIT  # (it follows the rotation)


def test_a_gltf_mesh_becomes_an_obj_pybullet_reads_unless_drake_extensions(tmp_path):
    import trimesh
    folder = tmp_path / "model"
    folder.mkdir()
    trimesh.creation.box(extents=(1, 2, 3)).export(str(folder / "box.gltf"))
    source = write_text(folder, "g.urdf", f"""<robot name="g"><link name="base">{INERTIAL}
      <visual><geometry><mesh filename="box.gltf"/></geometry></visual></link></robot>""")
    root, report, out = to_urdf(source, tmp_path / "out" / "g.urdf")
    assert root.find(".//mesh").get("filename") == "g_meshes/box.obj"
    (loss,) = report.losses
    assert loss.action == "approximated" and "pybullet" in loss.what and loss.line == 2
    original = read_back(str(source)).plant.scene_graph.geometries()[0].shape.filename
    from mbparse.geometry.meshes import read_mesh
    assert read_mesh(str(out.parent / "g_meshes" / "box.obj")).vertices.tolist() == \
        read_mesh(original).vertices.tolist()  # (as Drake reads glTF: turned to +z)
    root, report, _ = to_urdf(source, tmp_path / "drake" / "g.urdf", drake_extensions=True)
    assert root.find(".//mesh").get("filename").endswith("box.gltf") and not report


def test_a_damped_floating_joint_is_a_floating_joint_and_its_damping_is_reported():
    from mbparse.geometry import SceneGraph
    from mbparse.plant import MultibodyPlant
    from mbparse.plant.joints import QuaternionFloatingJoint, RevoluteJoint
    from mbparse.spatial import RigidTransform, SpatialInertia
    plant = MultibodyPlant(0.0)
    M = SpatialInertia(1, (0, 0, 0), (1, 1, 1, 0, 0, 0))
    base, arm = plant.add_rigid_body("base", spatial_inertia=M), \
        plant.add_rigid_body("arm", spatial_inertia=M)
    plant.add_joint(QuaternionFloatingJoint, "free", plant.world_body(),
                    RigidTransform(p=(0, 0, 1)), base, None, damping=0.2)
    plant.add_joint(RevoluteJoint, "hinge", base, None, arm, None, axis=(0, 0, 1))
    text, report = write(plant, SceneGraph(), "urdf")
    root = etree.fromstring(text.encode())
    free = root.find("joint[@name='free']")
    assert free.get("type") == "floating" and free.find("parent").get("link") == "world"
    assert [float(v) for v in free.find("origin").get("xyz").split()] == [0, 0, 1]
    assert any(x.element == "joint 'free'" and "damping" in x.what and x.action == "dropped"
               for x in report.losses)


def test_the_readers_notes_say_friction_and_calibration_are_kept_for_conversions(tmp_path):
    # Drake ignores them, and the reader says so, but a conversion writes
    # them: the note must not tell a converting user they are lost.
    from mbparse.loading import load
    urdf = write_text(tmp_path, "f.urdf", """<robot name="f"><link name="a"/>
      <link name="b"><inertial><mass value="1"/>
        <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/><dynamics friction="0.2"/>
        <calibration rising="0.1"/></joint></robot>""")
    notes = [str(w) for w in load(str(urdf)).warnings
             if "friction" in str(w) or "calibration" in str(w)]
    assert len(notes) == 2 and all("kept for `mbparse convert`" in n for n in notes)
