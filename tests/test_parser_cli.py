"""The command line: ``mbparse inspect`` in text and JSON, --package, and the
package.xml found above a model file."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from conftest import HEAVY, REPO, robot
from mbparse.cli import main

MESH_ARM = robot(f'<link name="base">{HEAVY}<visual><geometry>'
                 '<mesh filename="package://parts/base.obj"/></geometry></visual></link>', "arm")


def run_json(capsys, *argv: str) -> tuple[int, list[dict]]:
    status = main(["inspect", "--json", *argv])
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines()]


def test_parser_cli_inspect_prints_an_outline(write, capsys):
    path = write("arm.urdf", robot(f'<link name="base">{HEAVY}</link>', "arm"))
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out
    assert "arm::base" in out and "model instances: arm" in out


def test_parser_cli_inspect_json_prints_one_object_per_line(write, capsys):
    a = write("a.urdf", robot(f'<link name="base">{HEAVY}</link>', "a"))
    b = write("b.urdf", robot(f'<link name="base">{HEAVY}</link>', "b"))
    status, objects = run_json(capsys, str(a), str(b))
    assert status == 0
    assert [o["model_instances"] for o in objects] == [["a"], ["b"]]
    assert all(o["schema"] == "mbsummary/1" for o in objects)
    assert objects[0]["file"] == str(a)
    assert objects[0]["bodies"]["a::base"]["floating"] is True


def test_parser_cli_inspect_json_prints_an_error_line_for_a_bad_file(write, capsys):
    good = write("good.urdf", robot('<link name="a"/>', "good"))
    bad = write("bad.urdf", '<robot name="r">\n<link>\n</robot>')
    status, objects = run_json(capsys, str(bad), str(good))
    assert status == 1
    assert objects[0]["file"] == str(bad) and f"{bad}:" in objects[0]["error"]
    assert "error" not in objects[1]


def test_parser_cli_package_option_maps_a_package(write, tmp_path, capsys):
    write("parts_dir/base.obj", "")
    path = write("models/arm.urdf", MESH_ARM)
    status, (summary,) = run_json(capsys, str(path), "--package", f"parts={tmp_path}/parts_dir")
    assert status == 0
    assert summary["geometries"][0]["shape"]["file"] == "base.obj"


def test_parser_cli_without_the_package_the_mesh_is_left_out_with_a_warning(write, capsys):
    path = write("models/arm.urdf", MESH_ARM)
    status, (summary,) = run_json(capsys, str(path))
    assert status == 0 and summary["geometries"] == []
    assert main(["inspect", str(path)]) == 0
    err = capsys.readouterr().err
    assert f"{path}:" in err and "parts" in err and "Drake refuses this" in err


def test_parser_cli_without_the_package_the_model_fails_like_drake(write, capsys):
    path = write("models/arm.urdf", MESH_ARM)
    status, (summary,) = run_json(capsys, str(path), "--like", "drake")
    assert status == 1 and "parts" in summary["error"]


def test_parser_cli_finds_the_package_xml_above_the_model(write, capsys):
    write("ws/parts/package.xml", "<package><name>parts</name></package>")
    write("ws/parts/base.obj", "")
    path = write("ws/parts/urdf/deep/arm.urdf", MESH_ARM)
    status, (summary,) = run_json(capsys, str(path))
    assert status == 0, summary
    assert summary["geometries"][0]["shape"]["file"] == "base.obj"


def test_parser_cli_strict_turns_warnings_into_errors(write, capsys):
    path = write("w.urdf", robot('<link name="a" type="x"/>'))
    assert run_json(capsys, str(path))[0] == 0
    status, (summary,) = run_json(capsys, str(path), "--strict")
    assert status == 1 and "type" in summary["error"]


def test_parser_cli_runs_as_python_dash_m(write):
    path = write("arm.urdf", robot('<link name="a"/>', "arm"))
    done = subprocess.run([sys.executable, "-m", "mbparse", "inspect", "--json", str(path)],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["model_instances"] == ["arm"]


def test_parser_cli_console_script_is_declared_and_installed():
    scripts = {ep.name: ep.value for ep in metadata.entry_points(group="console_scripts")}
    assert scripts.get("mbparse") == "mbparse.cli:main"
    beside_python = Path(sys.executable).parent / "mbparse"
    assert beside_python.exists() or shutil.which("mbparse") is not None


def test_parser_cli_inspect_shows_warnings_and_counts_notes(write, capsys):
    # A collision mesh Drake cannot take (a note: valid input beyond Drake),
    # an unread <safety_controller> (a note) and an inverted-looking inertia
    # (a warning, shown).
    (write("m.stl", "solid s\nendsolid s\n"))
    path = write("r.urdf", robot(
        '<link name="a"><inertial><mass value="1"/>'
        '<inertia ixx="0.001" iyy="0.001" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>'
        '<collision><geometry><mesh filename="m.stl"/></geometry></collision></link>'
        '<link name="b">' + HEAVY + '</link>'
        '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/>'
        '<safety_controller k_velocity="1"/></joint>'))
    assert main(["inspect", str(path)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert err[0].startswith(f"{path}:3: warning:") and "triangle inequality" in err[0]
    assert err[1].startswith(f"note: {path}: 2 notes") and "1 of them things Drake" in err[1]
