"""OpenUSD both ways: the USD writer checked with OpenUSD's own UsdPhysics
parser and with Newton, the USD reader against Newton on the stages Newton
ships, round trips through USD, and the reader's handling of units, up axis,
mass from density, unsupported prims and a missing usd-core."""
from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

from conftest import CORPUS, REPO, needs_corpus

pxr = pytest.importorskip("pxr", reason="usd-core is not installed (pip install 'mbparse[usd]')")
from pxr import Gf, Usd, UsdGeom, UsdPhysics  # noqa: E402

from mbparse.convert.files import ConvertFileOptions, convert_file  # noqa: E402
from mbparse.convert.roundtrip import compare_read_back, read_back  # noqa: E402
from mbparse.diagnostics import ParseError  # noqa: E402
from mbparse.loading import LoadOptions, load  # noqa: E402

from usd_agreement import differences, mbparse_tables  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(REPO / "src")}

URDF = textwrap.dedent("""\
    <?xml version="1.0"?>
    <robot name="arm">
      <link name="world"/>
      <link name="base">
        <inertial><origin xyz="0 0 0.05"/><mass value="2"/>
          <inertia ixx="0.02" iyy="0.03" izz="0.04" ixy="0.001" ixz="0" iyz="0.002"/></inertial>
        <visual><geometry><box size="0.2 0.3 0.1"/></geometry>
          <material name="red"><color rgba="1 0 0 1"/></material></visual>
        <collision><geometry><box size="0.2 0.3 0.1"/></geometry></collision>
      </link>
      <link name="upper">
        <inertial><mass value="1"/>
          <inertia ixx="0.01" iyy="0.01" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial>
        <collision><origin xyz="0 0 0.2"/>
          <geometry><cylinder radius="0.03" length="0.4"/></geometry></collision>
        <visual><geometry><sphere radius="0.05"/></geometry></visual>
      </link>
      <link name="slider">
        <inertial><mass value="0.5"/>
          <inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
      </link>
      <joint name="fix" type="fixed"><parent link="world"/><child link="base"/>
        <origin xyz="0 0 0.5"/></joint>
      <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
        <origin xyz="0 0 0.1" rpy="0 0.3 0"/><axis xyz="0 1 1"/>
        <limit lower="-1" upper="1.5" effort="12" velocity="3"/>
        <dynamics damping="0.7"/></joint>
      <joint name="slide" type="prismatic"><parent link="upper"/><child link="slider"/>
        <origin xyz="0 0 0.4"/><axis xyz="0 0 1"/>
        <limit lower="-0.1" upper="0.2" effort="30" velocity="1"/></joint>
    </robot>
    """)


@pytest.fixture()
def written(tmp_path):
    """The URDF above, written as USD: (stage, loss report, path)."""
    src = tmp_path / "arm.urdf"
    src.write_text(URDF)
    out = tmp_path / "arm.usda"
    result = convert_file(str(src), "usd", str(out))
    out.write_text(result.text)
    return Usd.Stage.Open(str(out)), result.report, out, src


def physics(stage):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return UsdPhysics.LoadUsdPhysicsFromRange(stage, ["/"])


# -- the writer ----------------------------------------------------------------

def test_the_stage_is_in_metres_kilograms_z_up_with_the_robot_as_default_prim(written):
    stage, _, _, _ = written
    assert UsdGeom.GetStageMetersPerUnit(stage) == 1.0
    assert UsdPhysics.GetStageKilogramsPerUnit(stage) == 1.0
    assert UsdGeom.GetStageUpAxis(stage) == UsdGeom.Tokens.z
    root = stage.GetDefaultPrim()
    assert root.GetName() == "arm"
    roots = [p.GetName() for p in stage.Traverse() if p.HasAPI(UsdPhysics.ArticulationRootAPI)]
    assert roots == ["base"]  # the base of the one tree


def test_each_body_is_a_rigid_body_whose_mass_api_gives_its_inertia_back(written):
    stage, _, _, _ = written
    prim = stage.GetPrimAtPath("/arm/base")
    assert prim.HasAPI(UsdPhysics.RigidBodyAPI)
    mass = UsdPhysics.MassAPI(prim)
    assert mass.GetMassAttr().Get() == pytest.approx(2.0)
    assert tuple(mass.GetCenterOfMassAttr().Get()) == pytest.approx((0, 0, 0.05))
    # The principal moments along the principal axes are the URDF's tensor.
    d = mass.GetDiagonalInertiaAttr().Get()
    # (Gf's matrices act on row vectors: this R is the transpose of the axes' rotation)
    R = Gf.Matrix3d(Gf.Quatd(mass.GetPrincipalAxesAttr().Get()))
    I = R.GetTranspose() * Gf.Matrix3d(d[0], 0, 0, 0, d[1], 0, 0, 0, d[2]) * R
    want = ((0.02, 0.001, 0), (0.001, 0.03, 0.002), (0, 0.002, 0.04))
    for r in range(3):
        for c in range(3):
            assert I[r][c] == pytest.approx(want[r][c], abs=1e-7)


def test_joints_are_usd_physics_joints_with_limits_in_degrees_and_drives(written):
    stage, _, _, _ = written
    parsed = physics(stage)
    T = UsdPhysics.ObjectType
    (fixed,) = parsed[T.FixedJoint][1]
    assert fixed.body0.isEmpty and str(fixed.body1) == "/arm/base"  # a fixed base
    (rev,) = parsed[T.RevoluteJoint][1]
    assert (rev.limit.lower, rev.limit.upper) == pytest.approx(
        (math.degrees(-1), math.degrees(1.5)))
    assert rev.drive.forceLimit == pytest.approx(12)
    assert rev.drive.damping == pytest.approx(0.7 * math.pi / 180)  # per degree
    (pri,) = parsed[T.PrismaticJoint][1]
    assert (pri.limit.lower, pri.limit.upper) == pytest.approx((-0.1, 0.2))
    assert pri.drive.forceLimit == pytest.approx(30)
    # The revolute joint's axis token, in its frame, is the URDF's axis.
    q = rev.localPose0Orientation
    axis = Gf.Rotation(Gf.Quatd(q)).TransformDir(Gf.Vec3d(1, 0, 0))
    R_joint = Gf.Rotation(Gf.Vec3d(0, 1, 0), math.degrees(0.3))
    want = R_joint.TransformDir(Gf.Vec3d(0, 1, 1).GetNormalized())
    assert tuple(axis) == pytest.approx(tuple(want), abs=1e-6)


def test_colliders_have_collision_api_and_visuals_their_colour(written):
    stage, _, _, _ = written
    collision = stage.GetPrimAtPath("/arm/upper/collisions/Cylinder")
    visual = stage.GetPrimAtPath("/arm/base/visuals/Box")
    assert collision and collision.HasAPI(UsdPhysics.CollisionAPI)
    assert collision.GetTypeName() == "Cylinder"
    assert UsdGeom.Cylinder(collision).GetHeightAttr().Get() == pytest.approx(0.4)
    assert visual.GetTypeName() == "Cube" and not visual.HasAPI(UsdPhysics.CollisionAPI)
    assert tuple(UsdGeom.Gprim(visual).GetDisplayColorAttr().Get()[0]) == (1, 0, 0)


def test_the_loss_report_names_what_usd_cannot_hold(written):
    _, report, _, _ = written
    text = "\n".join(str(x) for x in report.losses)
    assert "joint 'shoulder'" in text and "velocity" in text
    assert "arm.urdf:" in text  # located in the source


def test_meshes_are_written_into_the_file(tmp_path):
    obj = tmp_path / "tet.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    src = tmp_path / "m.urdf"
    src.write_text('<robot name="m"><link name="a"><inertial><mass value="1"/><inertia '
                   'ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
                   '<collision><geometry><mesh filename="tet.obj" scale="2 2 2"/></geometry>'
                   '</collision></link></robot>')
    out = tmp_path / "m.usda"
    out.write_text(convert_file(str(src), "usd", str(out)).text)
    obj.unlink()  # the USD file stands alone
    stage = Usd.Stage.Open(str(out))
    (mesh,) = [p for p in stage.Traverse() if p.GetTypeName() == "Mesh"]
    m = UsdGeom.Mesh(mesh)
    assert len(m.GetFaceVertexCountsAttr().Get()) == 4
    assert max(max(p) for p in m.GetPointsAttr().Get()) == 2.0  # scaled
    assert UsdPhysics.MeshCollisionAPI(mesh).GetApproximationAttr().Get() == "none"
    model = load(str(out))
    (g,) = model.plant.scene_graph.geometries()
    assert g.shape.type_name == "Mesh"


def test_cli_picks_usd_by_the_output_suffix_and_writes_binary_crate(tmp_path):
    src = tmp_path / "arm.urdf"
    src.write_text(URDF)
    for suffix in (".usdc", ".usd", ".usda"):
        out = tmp_path / f"arm{suffix}"
        run = subprocess.run([sys.executable, "-m", "mbparse", "convert", str(src), "-o",
                              str(out)], capture_output=True, text=True, env=ENV)
        assert run.returncode == 0, run.stderr
        head = out.read_bytes()[:8]
        assert head.startswith(b"#usda") == (suffix == ".usda")
        assert Usd.Stage.Open(str(out)).GetDefaultPrim().GetName() == "arm"


# -- the written USD in OpenUSD's parser and in Newton -----------------------

CORPUS_MODELS = [
    "drake_models/iiwa_description/urdf/iiwa14_primitive_collision.urdf",
    "drake_models/franka_description/urdf/panda_arm_hand.urdf",
    "drake/multibody/benchmarks/acrobot/acrobot.xml",
    "drake/multibody/parsing/test/mujoco_parser_test/pendulum.xml",
    "drake_models/atlas/atlas_minimal_contact.urdf",
    "idyntree/src/tests/data/icub.urdf",
    "drake/multibody/benchmarks/acrobot/double_pendulum.urdf",
]


def _write(tmp_path, rel):
    src = CORPUS / rel
    out = tmp_path / (src.name + ".usda")
    result = convert_file(str(src), "usd", str(out))
    out.write_text(result.text)
    return src, out, result.report


@needs_corpus
@pytest.mark.parametrize("rel", CORPUS_MODELS)
def test_openusd_parses_the_bodies_and_joints_mbparse_wrote(tmp_path, rel):
    src, out, _ = _write(tmp_path, rel)
    model = load(str(src), LoadOptions(time_step=0.0))
    parsed = physics(Usd.Stage.Open(str(out)))
    T = UsdPhysics.ObjectType
    bodies = parsed.get(T.RigidBody, ([], []))[0]
    assert len(bodies) == model.plant.num_bodies() - 1
    joints = [j for j in model.plant.joints() if not j.is_ephemeral
              and j.type_name != "quaternion_floating"]
    kinds = {"revolute": T.RevoluteJoint, "prismatic": T.PrismaticJoint, "weld": T.FixedJoint,
             "ball_rpy": T.SphericalJoint}
    for j in joints:
        kind = kinds.get(j.type_name, T.D6Joint)
        stage = Usd.Stage.Open(str(out))
        paths = [stage.GetPrimAtPath(p).GetDisplayName() or p.name
                 for p in parsed.get(kind, ([], []))[0]]
        assert j.name in paths, (j.name, j.type_name)
        if j.type_name in ("revolute", "prismatic") and math.isfinite(j.pos_lower[0]):
            desc = parsed[kind][1][paths.index(j.name)]
            factor = 180 / math.pi if j.type_name == "revolute" else 1.0
            assert desc.limit.lower == pytest.approx(j.pos_lower[0] * factor, rel=1e-6)
            assert desc.limit.upper == pytest.approx(j.pos_upper[0] * factor, rel=1e-6)


@needs_corpus
@pytest.mark.parametrize("rel", CORPUS_MODELS + [
    # (ellipsoid and half-space colliders, which USD holds in other forms)
    "drake/multibody/parsing/test/sdf_parser_test/all_geometries_as_collision.sdf",
    "sdformat/test/sdf/ellipsoid.sdf"])
def test_openusds_own_validators_find_no_error_in_what_mbparse_wrote(tmp_path, rel):
    pytest.importorskip("pxr.UsdValidation", reason="this usd-core has no validators")
    from usd_agreement import openusd_errors
    _, out, _ = _write(tmp_path, rel)
    assert openusd_errors(str(out)) == []


def _newton():
    try:
        import newton  # noqa: F401
        import newton_usd_schemas  # noqa: F401  (what Newton's add_usd needs)
    except Exception:  # not installed, or no warp for this machine
        pytest.skip("newton (with newton-usd-schemas) is not installed")
    from usd_agreement import newton_tables
    return newton_tables


@needs_corpus
@pytest.mark.parametrize("rel", CORPUS_MODELS)
def test_newton_builds_the_bodies_masses_joints_and_limits_of_the_input(tmp_path, rel):
    newton_tables = _newton()
    src, out, report = _write(tmp_path, rel)
    model = load(str(src), LoadOptions(time_step=0.0))
    # (a body whose inertia the report says was changed: Newton changes it again)
    changed = {x.element.split("'")[1] for x in report.losses if x.element.startswith("body")}
    assert differences(mbparse_tables(model.plant), newton_tables(str(out)),
                       excused=changed) == []


@needs_corpus
@pytest.mark.parametrize("rel,target", [
    ("drake_models/franka_description/urdf/panda_arm_hand.urdf", "urdf"),
    ("drake_models/atlas/atlas_minimal_contact.urdf", "urdf"),
    ("drake/multibody/benchmarks/acrobot/acrobot.xml", "mjcf"),
    ("drake/multibody/parsing/test/mujoco_parser_test/pendulum.xml", "mjcf"),
])
def test_through_usd_and_back_gives_the_same_model(tmp_path, rel, target):
    src, out, report = _write(tmp_path, rel)
    back = tmp_path / ("back" + (".urdf" if target == "urdf" else ".xml"))
    result = convert_file(str(out), target, str(back), ConvertFileOptions())
    back.write_text(result.text)
    original = read_back(str(src)).plant
    final = read_back(str(back)).plant
    report.losses += result.report.losses
    assert compare_read_back(original, final, report) == []


# -- the reader on stages no one here wrote ----------------------------------

def _newton_assets():
    try:
        import newton
    except Exception:
        return None
    folder = os.path.join(os.path.dirname(newton.__file__), "examples", "assets")
    return folder if os.path.isdir(folder) else None


@pytest.mark.parametrize("name", ["cartpole.usda", "cartpole_single_pendulum.usda",
                                  "ant.usda", "humanoid.usda", "axis_cube.usda",
                                  "palletizer_scene.usda"])
def test_mbparse_reads_newtons_own_stages_as_newton_builds_them(name):
    newton_tables = _newton()
    path = os.path.join(_newton_assets(), name)
    model = load(path)
    # humanoid.usda's bodies stand up to 3e-5 m from where its joints put them.
    assert differences(mbparse_tables(model.plant), newton_tables(path), atol=1e-4) == []


def test_a_loop_is_kept_as_a_constraint_with_a_warning_on_the_joint():
    _newton()
    model = load(os.path.join(_newton_assets(), "boxes_fourbar.usda"))
    assert len(model.plant.constraints()) == 1
    assert any("<" in w.message and "kinematic loop" in w.message for w in model.warnings)


STAGE = """#usda 1.0
(
    defaultPrim = "bot"
    metersPerUnit = 0.01
    kilogramsPerUnit = 0.001
    upAxis = "Y"
)
def Xform "bot" ( prepend apiSchemas = ["PhysicsArticulationRootAPI"] )
{
    def Xform "a" ( prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI"] )
    {
        double3 xformOp:translate = (0, 100, 0)
        uniform token[] xformOpOrder = ["xformOp:translate"]
        float physics:mass = 2000
        float physics:density = 5
        def Cube "box" ( prepend apiSchemas = ["PhysicsCollisionAPI"] )
        {
            double size = 10
        }
    }
    def Xform "b" ( prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI"] )
    {
        float physics:density = 0.5
        def Cube "box" ( prepend apiSchemas = ["PhysicsCollisionAPI"] )
        {
            double size = 10
        }
        def Cone "tip" ( prepend apiSchemas = ["PhysicsCollisionAPI"] ) { }
    }
    def PhysicsRevoluteJoint "hinge"
    {
        rel physics:body0 = </bot/a>
        rel physics:body1 = </bot/b>
        uniform token physics:axis = "Y"
        float physics:lowerLimit = -90
        float physics:upperLimit = 45
    }
}
"""


def test_units_and_a_y_up_stage_are_turned_into_metres_kilograms_and_z_up(tmp_path):
    path = tmp_path / "bot.usda"
    path.write_text(STAGE)
    plant = load(str(path)).plant
    a = plant.get_body_by_name("a")
    assert a.mass == pytest.approx(2.0)  # 2000 g
    assert tuple(plant.calc_body_poses_in_world({})[a.index].p) == pytest.approx((0, 0, 1))
    hinge = plant.get_joint_by_name("hinge")
    assert (hinge.pos_lower[0], hinge.pos_upper[0]) == pytest.approx(
        (-math.pi / 2, math.pi / 4))
    # The stage's y axis, the hinge's, is the world's z.
    R = plant.calc_body_poses_in_world({})[a.index].R
    axis_W = [sum(R[r][k] * hinge.frame_on_parent.X_BF.R[k][c] * hinge.axis[c]
                  for k in range(3) for c in range(3)) for r in range(3)]
    assert axis_W == pytest.approx([0, 0, 1])


def test_a_mass_comes_from_density_and_collision_volume_as_the_schema_says(tmp_path):
    path = tmp_path / "bot.usda"
    path.write_text(STAGE)
    b = load(str(path)).plant.get_body_by_name("b")
    # 0.5 g/cm³ (stage units) over a 10 cm cube: 500 g; the cone adds nothing.
    assert b.mass == pytest.approx(0.5)
    side = 0.1
    assert b.default_spatial_inertia.I_cm[0] == pytest.approx(0.5 * 2 * side ** 2 / 12)


def test_an_unsupported_prim_is_a_warning_that_names_its_path(tmp_path):
    path = tmp_path / "bot.usda"
    path.write_text(STAGE)
    found = [w for w in load(str(path)).warnings if "</bot/b/tip>" in w.message]
    assert found and found[0].file == str(path) and found[0].code == "usd-unsupported"


def test_text_that_is_not_usd_is_a_located_error_not_a_traceback(tmp_path):
    path = tmp_path / "bad.usda"
    path.write_text("#usda 1.0\ndef Xform \"a\" {\n  float x = \n")
    run = subprocess.run([sys.executable, "-m", "mbparse", "inspect", str(path)],
                         capture_output=True, text=True, env=ENV)
    assert run.returncode == 1
    # located at the line and column OpenUSD's text parser names
    assert "Traceback" not in run.stderr
    assert f"{path}:3:3: error: OpenUSD cannot open the stage: Expected" in run.stderr
    with pytest.raises(ParseError):
        load(str(path))


def test_without_usd_core_a_usd_file_is_refused_in_one_line(tmp_path):
    path = tmp_path / "bot.usda"
    path.write_text(STAGE)
    code = ("import sys; sys.modules['pxr'] = None\n"
            "from mbparse.cli import main\n"
            f"sys.exit(main(['inspect', {str(path)!r}]))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'mbparse[usd]'" in lines[0]


def test_usd_read_back_after_writing_keeps_names_that_are_not_identifiers(tmp_path):
    src = tmp_path / "n.urdf"
    src.write_text('<robot name="n"><link name="base-link.1"><inertial><mass value="1"/>'
                   '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
                   '</link></robot>')
    out = tmp_path / "n.usda"
    result = convert_file(str(src), "usd", str(out))
    out.write_text(result.text)
    assert any(x.action == "renamed" for x in result.report.losses)
    assert load(str(out)).plant.get_body_by_name("base-link.1").mass == 1.0


TWO_HINGES = """#usda 1.0
(
    defaultPrim = "w"
    metersPerUnit = 1
    upAxis = "Z"
)
def Xform "w"
{
    def Xform "p" ( prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI"] )
    {
        float physics:mass = 1
        float3 physics:diagonalInertia = (0.1, 0.1, 0.1)
    }
    def Xform "c" ( prepend apiSchemas = ["PhysicsRigidBodyAPI", "PhysicsMassAPI"] )
    {
        double3 xformOp:translate = (0, 0, -1)
        uniform token[] xformOpOrder = ["xformOp:translate"]
        float physics:mass = 2
        float3 physics:diagonalInertia = (0.2, 0.2, 0.2)
        def PhysicsRevoluteJoint "hx"
        {
            rel physics:body0 = </w/p>
            rel physics:body1 = </w/c>
            uniform token physics:axis = "X"
            point3f physics:localPos1 = (0, 0, 1)
        }
        def PhysicsRevoluteJoint "hy"
        {
            rel physics:body0 = </w/p>
            rel physics:body1 = </w/c>
            uniform token physics:axis = "Y"
            point3f physics:localPos1 = (0, 0, 1)
        }
    }
}
"""


def test_two_joints_between_the_same_bodies_are_a_chain_through_a_massless_body(tmp_path):
    path = tmp_path / "two.usda"
    path.write_text(TWO_HINGES)
    model = load(str(path))
    plant = model.plant
    hx, hy = plant.get_joint_by_name("hx"), plant.get_joint_by_name("hy")
    assert hx.parent_body.name == "p" and hy.child_body.name == "c"
    middle = hx.child_body
    assert middle is hy.parent_body and middle.mass == 0
    assert plant.constraints() == []
    X = plant.calc_body_poses_in_world({})
    assert tuple(X[plant.get_body_by_name("c").index].p) == pytest.approx((0, 0, -1))
    assert any(w.code == "usd-joint-chain" for w in model.warnings)


NVIDIA = os.environ.get("MBPARSE_NVIDIA_CONVERTERS")  # a folder with urdf_usd_converter


@needs_corpus
@pytest.mark.skipif(not NVIDIA, reason="NVIDIA's converters run from a Python of their own: set "
                                       "MBPARSE_NVIDIA_CONVERTERS to its bin folder")
@pytest.mark.parametrize("rel", [
    "drake_models/iiwa_description/urdf/iiwa14_primitive_collision.urdf",
    "drake/multibody/benchmarks/acrobot/acrobot.xml",
])
def test_mbparse_reads_nvidias_usd_of_a_corpus_model_as_newton_does(tmp_path, rel):
    newton_tables = _newton()
    src = CORPUS / rel
    tool = "urdf_usd_converter" if rel.endswith(".urdf") else "mujoco_usd_converter"
    subprocess.run([os.path.join(NVIDIA, tool), str(src), str(tmp_path / "out")], check=True,
                   capture_output=True)
    (usd,) = (tmp_path / "out").glob("*.usda")
    model = load(str(usd))
    assert differences(mbparse_tables(model.plant), newton_tables(str(usd))) == []
    # ... and the bodies and joints are those of mbparse's model of the source.
    source = load(str(src), LoadOptions(time_step=0.0))
    moving = {j.name for j in source.plant.joints()
              if j.type_name not in ("weld", "quaternion_floating")}
    assert moving <= {j.name for j in model.plant.joints()}


def test_the_frames_a_model_has_come_back_from_usd(tmp_path):
    src = tmp_path / "f.sdf"
    src.write_text('<sdf version="1.9"><model name="f"><link name="a"><inertial><mass>1</mass>'
                   '</inertial></link><frame name="tool" attached_to="a"><pose>0.1 0 0.2 0 0 '
                   '0</pose></frame></model></sdf>')
    out = tmp_path / "f.usda"
    out.write_text(convert_file(str(src), "usd", str(out)).text)
    frame = load(str(out)).plant.get_frame_by_name("tool")
    assert frame.body.name == "a" and tuple(frame.X_BF.p) == pytest.approx((0.1, 0, 0.2))


def test_a_stage_of_several_articulations_gives_each_its_own_model_instance():
    _newton()
    import newton
    path = os.path.join(os.path.dirname(newton.__file__), "tests", "assets", "ant_multi.usda")
    if not os.path.isfile(path):
        pytest.skip("this Newton has no tests/assets/ant_multi.usda")
    model = load(path)
    plant = model.plant
    robots = [i for i in model.instances if "::" in plant.get_model_instance_name(i)]
    assert len(robots) == 64
    assert plant.get_model_instance_name(robots[0]) == "ant_multi::env_0::Robot"
    for i in robots:
        assert len(plant.get_bodies_in_model_instance(i)) == 9
    assert not any(w.code == "usd-name-duplicate" for w in model.warnings)


def test_check_for_isaac_takes_a_usd_file_as_its_own_and_for_drake_says_drake_does_not(tmp_path):
    path = tmp_path / "bot.usda"
    path.write_text(STAGE)
    found = {}
    for consumer in ("isaac", "drake"):
        run = subprocess.run([sys.executable, "-m", "mbparse", "check", "--for", consumer,
                              str(path)], capture_output=True, text=True, env=ENV)
        found[consumer] = run.stdout + run.stderr
    assert "for-isaac-not-read" not in found["isaac"]
    assert "for-drake-not-read" in found["drake"] and "Traceback" not in found["drake"]


def test_a_visuals_material_is_a_named_preview_surface_that_comes_back(tmp_path):
    from pxr import UsdShade
    from mbparse.convert.writers import write
    from mbparse.description import describe, facts
    src = tmp_path / "arm.urdf"
    src.write_text(URDF)
    model = load(str(src), LoadOptions(time_step=0.0), finalize=False)
    (box,) = [g for g in model.plant.scene_graph.geometries()
              if g.has_role("illustration") and g.shape.type_name == "Box"]
    describe(box.instance, "material", "red paint")  # as a reader records a named material
    text, report = write(model.plant, model.scene_graph, "usd")
    out = tmp_path / "arm.usda"
    out.write_text(text)
    stage = Usd.Stage.Open(str(out))
    visual = stage.GetPrimAtPath("/arm/base/visuals/Box")
    material, _ = UsdShade.MaterialBindingAPI(visual).ComputeBoundMaterial()
    assert material.GetPrim().GetDisplayName() == "red paint"
    shader = material.ComputeSurfaceSource()[0]
    assert tuple(shader.GetInput("diffuseColor").Get()) == (1, 0, 0)
    assert not any("material" in x.what for x in report.losses)
    (g,) = [g for g in load(str(out)).plant.scene_graph.geometries()
            if g.name.endswith("Box") and g.has_role("illustration")]
    assert facts(g.instance)["material"] == "red paint"


def test_broken_prims_are_located_warnings_and_the_rest_is_read():
    path = REPO / "tests" / "data" / "usd_hostile.usda"
    model = load(str(path))
    said = {w.message.split(">")[0] + ">": w.code for w in model.warnings}
    assert said == {"prim </h/a/c>": "usd-value-invalid",   # a box of size 0
                    "prim </h/a/s>": "usd-value-invalid",   # a NaN translation
                    "prim </h/a/m>": "usd-value-invalid",   # a face naming no point
                    "prim </h/a>": "usd-value-invalid",     # a mass with nothing to spread it
                    "prim </h/k>": "usd-structure"}         # a joint to no prim
    plant = model.plant
    assert plant.get_body_by_name("a").mass == 1.0
    assert plant.has_joint_named("j") and not plant.has_joint_named("k")
    run = subprocess.run([sys.executable, "-m", "mbparse", "inspect", str(path)],
                         capture_output=True, text=True, env=ENV)
    assert run.returncode == 0 and "Traceback" not in run.stderr


def test_a_pd_controlled_actuator_is_a_drive_with_stiffness_and_back(tmp_path):
    src = tmp_path / "pd.xml"
    src.write_text('<mujoco model="pd"><worldbody><body name="b"><joint name="h" type="hinge" '
                   'axis="0 1 0" range="-1 1"/><geom type="sphere" size="0.1" mass="1"/></body>'
                   '</worldbody><actuator><position name="servo" joint="h" kp="30" kv="2" '
                   'forcerange="-5 5"/></actuator></mujoco>')
    model = load(str(src), LoadOptions(time_step=0.0))
    (a,) = model.plant.actuators()
    assert a.controller_gains is not None  # (the MJCF reader's position actuator)
    out = tmp_path / "pd.usda"
    result = convert_file(str(src), "usd", str(out))
    out.write_text(result.text)
    (rev,) = physics(Usd.Stage.Open(str(out)))[UsdPhysics.ObjectType.RevoluteJoint][1]
    assert rev.drive.stiffness == pytest.approx(a.controller_gains.p * math.pi / 180)
    assert rev.drive.damping == pytest.approx(a.controller_gains.d * math.pi / 180)
    (back,) = load(str(out)).plant.actuators()
    assert (back.controller_gains.p, back.controller_gains.d) == pytest.approx(
        (a.controller_gains.p, a.controller_gains.d))
    assert back.joint.damping == [0.0] and back.effort_limit == pytest.approx(a.effort_limit)


def test_a_usdz_archive_and_a_binary_crate_read_like_the_text(tmp_path):
    from pxr import Sdf, UsdUtils
    text = tmp_path / "bot.usda"
    text.write_text(STAGE)
    crate = tmp_path / "bot.usdc"
    Sdf.Layer.FindOrOpen(str(text)).Export(str(crate))
    archive = tmp_path / "bot.usdz"
    assert UsdUtils.CreateNewUsdzPackage(Sdf.AssetPath(str(text)), str(archive))
    want = mbparse_tables(load(str(text)).plant)
    for path in (crate, archive):
        assert differences(want, mbparse_tables(load(str(path)).plant), rtol=0, atol=0) == []


def test_without_usd_core_writing_usd_is_refused_in_one_line(tmp_path):
    src = tmp_path / "arm.urdf"
    src.write_text(URDF)
    code = ("import sys; sys.modules['pxr'] = None\n"
            "from mbparse.cli import main\n"
            f"sys.exit(main(['convert', {str(src)!r}, '-o', {str(tmp_path / 'a.usda')!r}]))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
    assert run.returncode == 1
    lines = [x for x in run.stderr.strip().splitlines() if not x.startswith("warning:")]
    assert len(lines) == 1 and "pip install 'mbparse[usd]'" in lines[0], run.stderr
    assert not (tmp_path / "a.usda").exists()


def test_a_usd_file_past_the_file_size_limit_is_refused_naming_the_option_to_raise(written):
    from mbparse.limits import SizeLimits
    _, _, out, _ = written
    small = SizeLimits(max_file_bytes=1000)
    with pytest.raises(ParseError) as e:
        load(str(out), LoadOptions(size_limits=small))
    assert "--max-file-size" in str(e.value) and e.value.diagnostic.code == "size-limit"
    lifted = SizeLimits(max_file_bytes=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = load(str(out), LoadOptions(size_limits=lifted))
    assert loaded.plant.num_bodies() > 1
