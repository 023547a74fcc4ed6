"""Every message a command prints carries one ``FILE:LINE: severity:``
prefix, not two (``warning: robot.urdf:3: warning: ...``), and a problem
that is not in a file (a command-line option, a package folder) names the
file or command it is about rather than ``<string>``."""
from __future__ import annotations

import re

from mbparse.cli import main

I = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
ROBOT = f"""<robot name="r">
  <link name="a">{I}
    <visual><geometry><mesh filename="nothere.stl"/></geometry></visual></link>
  <link name="b">{I}</link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <limit lower="1" upper="-1" effort="1" velocity="1"/></joint>
</robot>
"""
PREFIX = re.compile(r"(error|warning|note):")


def _lines(capsys) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if line.strip()]


def test_convert_prints_each_warning_with_one_prefix(tmp_path, capsys):
    path = tmp_path / "r.urdf"
    path.write_text(ROBOT)
    assert main(["convert", str(path), "--to", "mjcf", "-o", str(tmp_path / "r.xml")]) == 0
    warnings = [line for line in _lines(capsys) if not line.startswith("loss:")]
    assert len(warnings) == 2
    for line, number in zip(warnings, (3, 5)):
        assert line.startswith(f"{path}:{number}: warning: "), line
        assert len(PREFIX.findall(line)) == 1, line


def test_a_package_folder_error_names_the_file_not_a_string(tmp_path, capsys):
    path = tmp_path / "r.urdf"
    path.write_text(ROBOT)
    for command in (["inspect"], ["tree", "-o", str(tmp_path / "t.dot")]):
        assert main([*command, "--package", f"p={tmp_path / 'nope'}", str(path)]) == 1
        (line,) = _lines(capsys)
        assert line.startswith(f"{path}: error: package 'p' cannot be added"), line
        assert "<string>" not in line and len(PREFIX.findall(line)) == 1


def test_a_bad_option_names_the_command_once(tmp_path, capsys):
    path = tmp_path / "r.urdf"
    path.write_text(ROBOT)
    assert main(["inspect", "--package", "p", str(path)]) == 2
    (line,) = _lines(capsys)
    assert line == "mbparse inspect: error: --package wants NAME=DIR, not 'p'"
