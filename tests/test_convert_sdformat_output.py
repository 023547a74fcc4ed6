"""SDFormat output (issue 27): URDF goes through the model by default (every
link kept, mesh paths that resolve); libsdformat's conversion, behind
--libsdformat, reports what it changes; the writer carries what the source
said beside Drake's plant; world geometry stays massless; and libsdformat
itself (tests/sdformat_check.cc) loads every output with zero errors."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from lxml import etree

from conftest import CORPUS, HEAVY, needs_corpus
from mbparse.cli import main
from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.convert.loss import MERGED
from mbparse.convert.roundtrip import check_conversion, read_back
from mbparse.description import facts
from sdformat_checker import checker  # noqa: F401 (a fixture)

DATA = Path(__file__).parent / "data"
FEATURES = DATA / "convert" / "features.urdf"
CHEETAH = DATA / "mjcf" / "dmc_cheetah.xml"
STL = DATA / "mjcf" / "meshes" / "l_bracket.stl"

LUMPED = f"""<?xml version="1.0"?>
<robot name="lumped">
  <link name="base">{HEAVY}</link>
  <link name="arm">{HEAVY}</link>
  <link name="tool">{HEAVY}
    <visual><geometry><mesh filename="package://tools/meshes/tip.obj"/></geometry></visual>
  </link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="30" velocity="2"/>
    <dynamics damping="0.5" friction="0.25"/>
    <safety_controller soft_lower_limit="-0.9" soft_upper_limit="0.9" k_position="10"
                       k_velocity="1"/>
    <calibration rising="0.1"/>
  </joint>
  <joint name="tool_mount" type="fixed"><parent link="arm"/><child link="tool"/>
    <origin xyz="0 0 1"/></joint>
</robot>
"""


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text)
    return str(path)


def sdf_of(result) -> etree._Element:
    return etree.fromstring(result.text.encode())


def names(root, tag: str) -> set[str]:
    return {el.get("name") for el in root.iter(tag)}


# -- the default: through the model ------------------------------------------

def test_default_urdf_to_sdf_keeps_every_link_and_writes_meshes_that_resolve(tmp_path,
                                                                             checker):
    out = tmp_path / "out" / "features.sdf"
    out.parent.mkdir()
    result = convert_file(str(FEATURES), "sdf", str(out))
    out.write_text(result.text)
    root = sdf_of(result)
    urdf = etree.parse(str(FEATURES)).getroot()
    assert {el.get("name") for el in urdf.iter("link")} - {"world"} <= names(root, "link")
    uris = [el.text for el in root.iter("uri")]
    assert uris and all(not u.startswith(("model://", "package://")) for u in uris)
    assert all((out.parent / u).is_file() for u in uris)
    assert checker.errors(out) == []
    verdict, details = check_conversion(str(FEATURES), "sdf", str(tmp_path))
    assert verdict in ("faithful", "lossy-ok"), details


def test_libsdformat_conversion_reports_its_lumping_never_an_empty_report(tmp_path, checker):
    path = write(tmp_path, "lumped.urdf", LUMPED)
    result = convert_file(path, "sdf", None, ConvertFileOptions(libsdformat=True))
    root = sdf_of(result)
    assert "tool" not in names(root, "link")  # lumped, as libsdformat does
    merged = {(x.element, x.line) for x in result.report.losses if x.action == MERGED}
    assert ("body 'tool'", 5) in merged and ("joint 'tool_mount'", 15) in merged
    assert any(x.element == "body 'arm'" and "mass is 2 kg instead of 1 kg" in x.what
               for x in result.report.losses)
    assert any(x.element == "mesh 'package://tools/meshes/tip.obj'" and "model://" in x.what
               for x in result.report.losses)
    assert any(x.element == "joint 'shoulder'" and "makes an actuator" in x.what
               for x in result.report.losses)  # SDFormat's effort limit is an actuator
    dropped = {x.element: x.line for x in result.report.losses if x.action == "dropped"}
    assert dropped.get("joint 'shoulder'") in (11, 13)  # safety controller, calibration
    out = tmp_path / "lumped.sdf"
    out.write_text(result.text)
    assert checker.errors(out) == []


def test_every_link_the_libsdformat_conversion_leaves_out_is_in_its_report(tmp_path):
    panda = CORPUS / "drake_models" / "franka_description" / "urdf" / "panda_arm_hand.urdf"
    if not panda.is_file():
        pytest.skip("the shared corpus is not beside the project")
    result = convert_file(str(panda), "sdf", None, ConvertFileOptions(libsdformat=True))
    written = names(sdf_of(result), "link")
    urdf = etree.parse(str(panda)).getroot()
    gone = {el.get("name") for el in urdf.iter("link")} - written - {"world"}
    assert gone  # panda_link8 and panda_hand are lumped
    named = {x.element for x in result.report.losses}
    assert {f"body '{n}'" for n in gone} <= named
    gone_joints = {el.get("name") for el in urdf.iter("joint")} - names(sdf_of(result), "joint")
    assert {f"joint '{n}'" for n in gone_joints} <= named


def test_the_command_takes_libsdformat_and_keeps_via_model(tmp_path, capsys):
    path = write(tmp_path, "lumped.urdf", LUMPED)
    assert main(["convert", path, "--to", "sdf", "--libsdformat", "-o",
                 str(tmp_path / "a.sdf")]) == 0
    assert "lumping" in capsys.readouterr().err
    assert "<link name='tool'>" not in (tmp_path / "a.sdf").read_text()
    for extra in ([], ["--via-model"]):
        assert main(["convert", path, "--to", "sdf", *extra, "-o", str(tmp_path / "b.sdf")]) == 0
        assert '<link name="tool">' in (tmp_path / "b.sdf").read_text()
        assert "lumping" not in capsys.readouterr().err
    # the lumping options are libsdformat's; they choose its conversion
    assert main(["convert", path, "--to", "sdf", "--preserve-fixed-joints", "-o",
                 str(tmp_path / "c.sdf")]) == 0
    assert "<link name='tool'>" in (tmp_path / "c.sdf").read_text()
    with pytest.raises(SystemExit):
        main(["convert", path, "--to", "sdf", "--libsdformat", "--via-model"])


# -- what the source said beside the plant -----------------------------------

def test_effort_velocity_and_friction_are_written_and_read_back(tmp_path, checker):
    path = write(tmp_path, "lumped.urdf", LUMPED)
    out = tmp_path / "out.sdf"
    result = convert_file(path, "sdf", str(out))
    out.write_text(result.text)
    axis = sdf_of(result).find("model/joint[@name='shoulder']/axis")
    assert axis.find("limit/effort").text == "30" and axis.find("limit/velocity").text == "2"
    assert axis.find("dynamics/friction").text == "0.25"
    losses = {x.what.split(" ")[0] + " " + x.what.split(" ")[1]: x for x in result.report.losses
              if x.element == "joint 'shoulder'"}
    assert "safety controller" in losses and "calibration {'rising':" in losses
    assert losses["safety controller"].line == 8
    assert checker.errors(out) == []
    joint = read_back(str(out)).plant.get_joint_by_name("shoulder")
    assert facts(joint)["friction"] == [0.25]


def test_the_sdformat_reader_records_what_drake_drops_and_the_writer_keeps_it(tmp_path,
                                                                             checker):
    path = write(tmp_path, "in.sdf", """<?xml version="1.0"?>
<sdf version="1.9"><model name="m">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="u" type="universal"><parent>a</parent><child>b</child>
    <axis><xyz>1 0 0</xyz><limit><effort>5</effort><velocity>3</velocity></limit>
      <dynamics><friction>0.1</friction></dynamics></axis>
    <axis2><xyz>0 1 0</xyz><limit><effort>6</effort><velocity>4</velocity></limit>
      <dynamics><friction>0.2</friction></dynamics></axis2></joint>
  <joint name="p" type="prismatic"><parent>b</parent><child>c</child>
    <axis><xyz>1 0 0</xyz><limit><lower>0</lower><upper>1</upper></limit>
      <dynamics><spring_stiffness>10</spring_stiffness><spring_reference>0.5</spring_reference>
      </dynamics></axis></joint>
</model></sdf>
""")
    plant = read_back(path).plant
    u, p = plant.get_joint_by_name("u"), plant.get_joint_by_name("p")
    assert facts(u) == {"friction": [0.1, 0.2], "effort": [5.0, 6.0], "velocity": [3.0, 4.0]}
    assert facts(p) == {"spring_stiffness": [10.0], "spring_reference": [0.5]}
    out = tmp_path / "out.sdf"
    result = convert_file(path, "sdf", str(out))
    out.write_text(result.text)
    assert not [x for x in result.report.losses if x.action == "dropped"]
    assert checker.errors(out) == []
    again = read_back(str(out)).plant
    assert facts(again.get_joint_by_name("u")) == facts(u)
    assert facts(again.get_joint_by_name("p")) == facts(p)


def test_a_joint_without_an_effort_limit_stays_unactuated(tmp_path):
    path = write(tmp_path, "free.urdf", f"""<robot name="r"><link name="a">{HEAVY}</link>
<link name="b">{HEAVY}</link><joint name="j" type="continuous"><parent link="a"/>
<child link="b"/></joint></robot>""")
    result = convert_file(path, "sdf", None)
    assert sdf_of(result).find("model/joint[@name='j']/axis/limit/effort").text == "0"


def test_collision_meshes_of_any_format_are_written(tmp_path, checker):
    shutil.copy(STL, tmp_path / "bracket.stl")
    path = write(tmp_path, "stl.urdf", f"""<robot name="r"><link name="a">{HEAVY}
<visual><geometry><mesh filename="bracket.stl"/></geometry></visual>
<collision><geometry><mesh filename="bracket.stl"/></geometry></collision></link></robot>""")
    out = tmp_path / "out.sdf"
    result = convert_file(path, "sdf", str(out))
    out.write_text(result.text)
    collision = sdf_of(result).find("model/link/collision/geometry/mesh/uri")
    assert collision is not None and collision.text == "bracket.stl"
    assert not any("collision" in x.what for x in result.report.losses)
    assert checker.errors(out) == []


# -- world geometry ---------------------------------------------------------

def test_world_geometry_goes_on_a_static_massless_model(tmp_path, checker):
    out = tmp_path / "cheetah.sdf"
    result = convert_file(str(CHEETAH), "sdf", str(out))
    out.write_text(result.text)
    root = sdf_of(result)
    static = [m for m in root.iter("model") if m.findtext("static") == "true"]
    assert len(static) == 1 and static[0].find("link/collision/geometry/plane") is not None
    assert static[0].find("link/inertial/mass").text == "0"
    assert not [j for j in root.iter("joint") if j.findtext("child") == "world_geometry"]
    mass = [sum(b.default_spatial_inertia.mass for b in read_back(p).plant.bodies()[1:])
            for p in (str(CHEETAH), str(out))]
    assert mass[0] == pytest.approx(mass[1], rel=1e-12)
    assert checker.errors(out) == []


# -- models of every format -------------------------------------------------

LOCAL = [DATA / "mjcf" / f"dmc_{n}.xml" for n in ("cheetah", "acrobot", "walker", "finger")]
LOCAL += [FEATURES, DATA / "mjcf" / "own_stl.xml"]
CORPUS_MODELS = [
    "drake_models/franka_description/urdf/panda_arm_hand.urdf",
    "drake_models/iiwa_description/urdf/iiwa14_no_collision.urdf",
    "drake_models/ur_description/urdf/ur3e_cylinders_collision.urdf",
    "drake_models/wsg_50_description/sdf/schunk_wsg_50.sdf",
    "drake_models/iiwa_description/sdf/iiwa14_no_collision.sdf",
    "drake_models/jaco_description/urdf/j2s7s300_arm.urdf",
]


@pytest.mark.parametrize("path", LOCAL, ids=lambda p: p.name)
def test_local_models_to_sdf_load_in_libsdformat_and_read_back_equal(path, tmp_path, checker):
    _converted_and_judged(path, tmp_path, checker)


@needs_corpus
@pytest.mark.parametrize("name", CORPUS_MODELS)
def test_corpus_models_to_sdf_load_in_libsdformat_and_read_back_equal(name, tmp_path, checker):
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"{name} is not in this corpus")
    _converted_and_judged(path, tmp_path, checker)


def _converted_and_judged(path: Path, tmp_path: Path, checker) -> None:
    out = tmp_path / (path.name + ".sdf")
    verdict, details = check_conversion(str(path), "sdf", str(tmp_path), out=str(out))
    assert verdict in ("faithful", "lossy-ok"), details
    assert os.path.getsize(out) > 0
    assert checker.errors(out) == []


def test_rounding_noise_inertia_is_written_so_that_libsdformat_takes_it(tmp_path, checker):
    # iCub's links have moments of -5e-20 and 4e-18 beside zeros: Drake takes
    # them, libsdformat refuses the link ("invalid inertia")
    path = write(tmp_path, "noise.urdf", """<robot name="r"><link name="a"><inertial>
<mass value="0.5"/><inertia ixx="-5.42101e-20" ixy="0" ixz="0" iyy="4.07592e-18" iyz="0"
izz="0"/></inertial></link></robot>""")
    out = tmp_path / "out.sdf"
    result = convert_file(path, "sdf", str(out))
    out.write_text(result.text)
    assert checker.errors(out) == []
    (loss,) = [x for x in result.report.losses if x.element == "body 'a'"]
    assert loss.action == "approximated" and "ixx -5.42101e-20" in loss.what
    assert loss.line == 1


def test_a_zero_principal_moment_libsdformat_rounds_below_zero_is_raised(tmp_path, checker):
    # pybullet's biped2d feet: principal moments (0, 0.0441, 0.0441), which
    # libsdformat's cubic solution rounds below zero ("invalid inertia")
    path = write(tmp_path, "foot.urdf", """<robot name="r"><link name="foot"><inertial>
<mass value="1"/><inertia ixx="0.0416" ixy="-0.01" ixz="-0.002" iyy="0.0041" iyz="-0.008"
izz="0.0425"/></inertial></link></robot>""")
    out = tmp_path / "out.sdf"
    result = convert_file(path, "sdf", str(out))
    out.write_text(result.text)
    assert checker.errors(out) == []
    (loss,) = [x for x in result.report.losses if x.element == "body 'foot'"]
    assert loss.action == "approximated" and "raised by" in loss.what
    verdict, details = check_conversion(path, "sdf", str(tmp_path))
    assert verdict == "lossy-ok", details


def test_facts_of_a_fixed_joint_are_reported_too(tmp_path):
    path = write(tmp_path, "fixed.urdf", f"""<robot name="r"><link name="a">{HEAVY}</link>
<link name="b">{HEAVY}</link>
<joint name="w" type="fixed"><parent link="a"/><child link="b"/><calibration rising="0.2"/>
</joint></robot>""")
    result = convert_file(path, "sdf", None)
    (loss,) = [x for x in result.report.losses if x.element == "joint 'w'"]
    assert loss.action == "dropped" and "calibration" in loss.what and loss.line == 3


def test_libsdformat_conversion_reports_the_mimic_it_cannot_carry(tmp_path):
    path = write(tmp_path, "mimic.urdf", f"""<robot name="r"><link name="a">{HEAVY}</link>
<link name="b">{HEAVY}</link><link name="c">{HEAVY}</link>
<joint name="j1" type="continuous"><parent link="a"/><child link="b"/></joint>
<joint name="j2" type="continuous"><parent link="a"/><child link="c"/>
<mimic joint="j1" multiplier="2"/></joint></robot>""")
    result = convert_file(path, "sdf", None, ConvertFileOptions(libsdformat=True))
    assert "mimic" not in result.text
    (loss,) = [x for x in result.report.losses if "<mimic>" in x.what]
    assert loss.element == "joint 'j2'" and loss.line == 5 and loss.action == "dropped"
