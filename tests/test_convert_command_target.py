"""``mbparse convert``'s idioms: ``-o robot.xml`` picks the target from the
suffix, ``--to`` is optional, and a conflict or a missing target is refused
in one line before anything is read or written."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from mbparse.cli import main

ARM = str(Path(__file__).resolve().parents[1] / "examples" / "two_link_arm.urdf")


@pytest.mark.parametrize("name, root_tag", [("arm.xml", "mujoco"), ("arm.MJCF", "mujoco"),
                                            ("arm.sdf", "sdf"), ("arm.world", "sdf"),
                                            ("arm.urdf", "robot")])
def test_the_output_suffix_picks_the_target(name, root_tag, tmp_path):
    out = tmp_path / name
    assert main(["convert", ARM, "-o", str(out)]) == 0
    assert etree.parse(str(out)).getroot().tag == root_tag


@pytest.mark.parametrize("args, says", [
    (["--to", "sdf", "-o", "arm.xml"], "--to sdf disagrees with the output"),
    (["-o", "arm.txt"], "names no format"),
    ([], "give --to"),
])
def test_no_target_or_two_targets_is_one_line_and_nothing_written(args, says, tmp_path,
                                                                  capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["convert", ARM, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and says in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_several_files_need_to(tmp_path, capsys):
    assert main(["convert", ARM, ARM, "-o", str(tmp_path / "out")]) == 2
    assert "several input files need --to" in capsys.readouterr().err


def test_no_actuators_on_the_command_line(tmp_path):
    urdf = tmp_path / "j.urdf"
    urdf.write_text('<robot name="j"><link name="a"/><link name="b"><inertial><mass value="1"/>'
                    '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'
                    '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
                    '<limit lower="-1" upper="1" effort="5" velocity="1"/></joint></robot>')
    assert main(["convert", str(urdf), "-o", str(tmp_path / "with.xml")]) == 0
    assert main(["convert", str(urdf), "-o", str(tmp_path / "without.xml"),
                 "--no-actuators"]) == 0
    assert etree.parse(str(tmp_path / "with.xml")).find("actuator/motor").get("joint") == "j"
    assert etree.parse(str(tmp_path / "without.xml")).find("actuator") is None
