"""check --for CONSUMER: how Drake, MuJoCo, Gazebo, pybullet and Isaac Sim
each read the same file differently, reported only when asked for, in every
output format."""
from __future__ import annotations

import json

import pytest

from mbparse.cli import main
from mbparse.lint import lint_file
from mbparse.lint.config import CheckSettings
from mbparse.lint.portability import CONSUMERS, parse_consumers

INERTIAL = ('<inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" '
            'iyz="0"/></inertial>')
STL = ("solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
       "endloop\nendfacet\nendsolid t\n")
# A robot each consumer reads its own way: a floating base with an STL
# collision mesh and a COLLADA visual, a massless tool link on a fixed joint
# (a name USD does not allow), a massless moving link and a mimic joint.
ROBOT = f"""<robot name="r">
  <link name="base">{INERTIAL}
    <visual><geometry><mesh filename="v.dae"/></geometry></visual>
    <collision><geometry><mesh filename="c.stl"/></geometry></collision>
  </link>
  <link name="tool.tip"/>
  <link name="arm"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="arm2">{INERTIAL}</link>
  <joint name="fix" type="fixed"><parent link="base"/><child link="tool.tip"/></joint>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="base"/><child link="arm2"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="j" multiplier="2"/></joint>
</robot>
"""
EXPECTED = {
    "drake": {"for-drake-refuses", "for-drake-massless-link", "for-drake-mimic-needs-sap"},
    "mujoco": {"for-mujoco-root-welded", "for-mujoco-fixed-fused",
               "for-mujoco-visual-discarded", "for-mujoco-mass-from-geoms"},
    "gazebo": {"for-gazebo-fixed-lumped", "for-gazebo-link-dropped"},
    "pybullet": {"for-pybullet-default-inertia", "for-pybullet-inertia-from-collision",
                 "for-pybullet-mimic-ignored"},
    "isaac": {"for-isaac-base-fixed", "for-isaac-fixed-merged",
              "for-isaac-mass-from-collision", "for-isaac-name-changed"},
}


@pytest.fixture
def robot(tmp_path):
    (tmp_path / "c.stl").write_text(STL)
    (tmp_path / "v.dae").write_text("<COLLADA/>")
    path = tmp_path / "r.urdf"
    path.write_text(ROBOT)
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main(["check", "--no-config", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("consumer", sorted(EXPECTED))  # (ros: tests/test_check_for_ros.py)
def test_each_consumer_reports_how_it_reads_the_file(robot, consumer):
    findings = [f for f in lint_file(str(robot), consumers=(consumer,))
                if f.rule.startswith(f"for-{consumer}-")]
    assert {f.rule for f in findings} == EXPECTED[consumer]
    assert len(findings) >= 2
    for f in findings:
        assert f.file == str(robot) and f.line and f.severity in ("warning", "note")


def test_findings_point_at_the_element_they_are_about(robot):
    lines = ROBOT.splitlines()
    for f in lint_file(str(robot), consumers=tuple(CONSUMERS)):
        if f.rule in ("for-gazebo-fixed-lumped", "for-isaac-name-changed"):
            assert 'name="tool.tip"' in lines[f.line - 1]
        if f.rule == "for-pybullet-mimic-ignored":
            assert "<mimic" in lines[f.line - 1]


def test_the_default_output_has_no_portability_findings(robot):
    findings = lint_file(str(robot))
    assert not [f for f in findings if f.rule.startswith("for-")]
    # What only Drake refuses is a note there (hidden by default) ...
    refusals = [f for f in findings if f.rule == "drake-refuses"]
    assert refusals and all(f.severity == "note" for f in refusals)
    assert not [f for f in CheckSettings().chosen(findings) if f.rule == "drake-refuses"]


def test_with_drake_its_refusals_move_to_for_drake(robot):
    findings = lint_file(str(robot), consumers=("drake",))
    assert not [f for f in findings if f.rule == "drake-refuses"]
    (refusal,) = [f for f in findings if f.rule == "for-drake-refuses"]
    assert ".stl" in refusal.message and refusal.line == 4
    assert "[Drake refuses this" not in refusal.message


def test_drake_mode_warnings_of_mjcf_are_reported_as_what_drake_ignores(tmp_path):
    path = tmp_path / "m.xml"
    path.write_text('<mujoco model="m"><worldbody><body name="b"><joint type="hinge"/>'
                    '<site name="s"/><geom size="0.1"/></body></worldbody></mujoco>')
    ignored = [f for f in lint_file(str(path), consumers=("drake",))
               if f.rule == "for-drake-ignores"]
    assert ignored and "site" in ignored[0].message and ignored[0].line == 1
    assert not [f for f in lint_file(str(path)) if f.rule.startswith("for-")]


def test_several_consumers_on_the_command_line(capsys, robot):
    status, out, _ = run(capsys, robot, "--for", "pybullet,isaac,gazebo")
    for consumer in ("pybullet", "isaac", "gazebo"):
        assert f"[for-{consumer}-" in out
    assert "[for-drake-" not in out and "[for-mujoco-" not in out
    status, out, _ = run(capsys, robot, "--for=drake", "--for", "mujoco")
    assert "[for-drake-" in out and "[for-mujoco-" in out   # --for adds up, like --select


def test_an_unknown_consumer_is_a_command_line_error_naming_the_valid_ones(capsys, robot):
    with pytest.raises(SystemExit) as e:
        main(["check", "--no-config", str(robot), "--for", "drake,gazeb"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "'gazeb'" in err and "drake, mujoco, gazebo, pybullet, isaac" in err
    with pytest.raises(ValueError, match="choose from"):
        parse_consumers("")


def test_for_is_its_own_flag_not_an_abbreviation_of_format(capsys, robot):
    status, out, _ = run(capsys, robot, "--for", "isaac")
    assert "[for-isaac-" in out and not out.lstrip().startswith("{")
    with pytest.raises(SystemExit):
        main(["check", "--no-config", str(robot), "--form", "json"])
    capsys.readouterr()


@pytest.mark.parametrize("fmt", ["json", "jsonl", "sarif", "github"])
def test_portability_findings_appear_in_every_output_format(capsys, robot, fmt):
    status, out, _ = run(capsys, robot, "--for", "pybullet", "--format", fmt)
    assert "for-pybullet-default-inertia" in out
    if fmt == "sarif":
        log = json.loads(out)
        results = log["runs"][0]["results"]
        rules = {r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]}
        hit = [r for r in results if r["ruleId"] == "for-pybullet-default-inertia"]
        assert hit and "for-pybullet-default-inertia" in rules
        assert hit[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 6
    elif fmt == "github":
        assert "::warning file=" in out and "title=for-pybullet-default-inertia" in out


def test_the_consumers_can_come_from_pyproject(capsys, tmp_path, robot):
    (tmp_path / "pyproject.toml").write_text('[tool.mbparse.check]\nfor = ["isaac"]\n')
    main(["check", str(robot)])
    out = capsys.readouterr().out
    assert "[for-isaac-" in out
    (tmp_path / "pyproject.toml").write_text('[tool.mbparse.check]\nfor = ["isac"]\n')
    assert main(["check", str(robot)]) == 2
    assert "choose from" in capsys.readouterr().err


def test_a_consumer_that_does_not_read_the_format_says_so(tmp_path):
    path = tmp_path / "m.sdf"
    path.write_text('<sdf version="1.9"><model name="m"><link name="a"/></model></sdf>')
    rules = {f.rule for f in lint_file(str(path), consumers=("mujoco", "isaac", "gazebo"))}
    assert {"for-mujoco-not-read", "for-isaac-not-read"} <= rules
    assert not any(r.startswith("for-gazebo-") for r in rules)


def test_mujoco_package_uris_and_undecodable_meshes(tmp_path):
    path = tmp_path / "r.urdf"
    path.write_text(f'<robot name="r"><link name="world"/><link name="a">{INERTIAL}'
                    '<collision><geometry><mesh filename="package://p/m.stl"/></geometry>'
                    '</collision><collision><geometry><mesh filename="m.dae"/></geometry>'
                    '</collision></link><joint name="j" type="fixed"><parent link="world"/>'
                    '<child link="a"/></joint></robot>')
    rules = [f.rule for f in lint_file(str(path), consumers=("mujoco",))]
    assert rules.count("for-mujoco-package-uri") == 1 and "for-mujoco-mesh-format" in rules
    assert "for-mujoco-root-welded" not in rules   # welded to world for everyone


def test_pybullet_finds_package_meshes_in_the_folders_above_the_urdf(tmp_path):
    (tmp_path / "pkg" / "meshes").mkdir(parents=True)
    (tmp_path / "pkg" / "meshes" / "m.stl").write_text(STL)
    (tmp_path / "pkg" / "urdf").mkdir()
    path = tmp_path / "pkg" / "urdf" / "r.urdf"
    path.write_text(f'<robot name="r"><link name="a">{INERTIAL}<visual><geometry>'
                    '<mesh filename="package://pkg/meshes/m.stl"/></geometry></visual><visual>'
                    '<geometry><mesh filename="package://other/m.stl"/></geometry></visual>'
                    '</link></robot>')
    missing = [f for f in lint_file(str(path), consumers=("pybullet",))
               if f.rule == "for-pybullet-mesh-not-found"]
    assert len(missing) == 1 and "other" in missing[0].message


def test_a_xacro_file_is_checked_as_expanded_and_located_where_written(tmp_path):
    pytest.importorskip("xacro")
    (tmp_path / "arm.xacro").write_text(
        '<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '  <xacro:macro name="bare" params="name">\n'
        '    <link name="${name}"/>\n'
        '  </xacro:macro>\n'
        '</robot>\n')
    path = tmp_path / "r.urdf.xacro"
    path.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    '  <xacro:include filename="arm.xacro"/>\n'
                    f'  <link name="base">{INERTIAL}</link>\n'
                    '  <xacro:bare name="tip"/>\n'
                    '  <joint name="j" type="continuous"><parent link="base"/>'
                    '<child link="tip"/></joint>\n'
                    '</robot>\n')
    (hit,) = [f for f in lint_file(str(path), consumers=("pybullet",))
              if f.rule == "for-pybullet-default-inertia"]
    assert "'tip'" in hit.message
    assert (hit.file, hit.line) == (str(tmp_path / "arm.xacro"), 3)


def test_a_behaviour_met_on_many_links_is_one_finding_naming_them(tmp_path):
    links = "".join(f'<link name="l{i}"/>\n' for i in range(7))
    joints = "".join(f'<joint name="j{i}" type="fixed"><parent link="base"/>'
                     f'<child link="l{i}"/></joint>\n' for i in range(7))
    path = tmp_path / "r.urdf"
    path.write_text(f'<robot name="r">\n<link name="base">{INERTIAL}</link>\n{links}{joints}'
                    '</robot>\n')
    findings = lint_file(str(path), consumers=("pybullet", "mujoco"))
    (bullet,) = [f for f in findings if f.rule == "for-pybullet-default-inertia"]
    assert "7 links" in bullet.message and "7 kg" in bullet.message and bullet.line == 3
    (fused,) = [f for f in findings if f.rule == "for-mujoco-fixed-fused"]
    assert "7 links" in fused.message and "'l0'" in fused.message
