"""The ruff habits: check DIR, --select/--ignore by code or prefix, and the
[tool.mbparse.check] table of the nearest pyproject.toml."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from mbparse.cli import main
from mbparse.diagnostics import ParseError
from mbparse.lint.config import CheckSettings, model_files, nearest_pyproject, read_config
from mbparse.lint.findings import Finding

INERTIA = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
TWO_PROBLEMS = f"""
<robot name="r" version="1.0">
  <link name="a">{INERTIA}</link>
  <link name="b"><inertial><mass value="-1"/></inertial></link>
  <link name="c">{INERTIA}</link>
  <joint name="f" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="j" type="prismatic"><parent link="a"/><child link="c"/>
    <axis xyz="1 0 0"/><limit lower="0.5" upper="0.5" effort="1" velocity="1"/></joint>
</robot>
"""


def rules(capsys, *argv) -> tuple[int, list[str]]:
    status = main(["check", "--format", "json", *map(str, argv)])
    report = json.loads(capsys.readouterr().out)
    return status, sorted(f["rule"] for f in report["findings"])


@pytest.fixture
def project(tmp_path):
    (tmp_path / "models" / "sub").mkdir(parents=True)
    (tmp_path / "models" / "r.urdf").write_text(TWO_PROBLEMS)
    (tmp_path / "models" / "sub" / "m.xml").write_text(
        '<mujoco model="m"><worldbody><body><joint type="hinge" range="2 1"/>'
        '<geom type="sphere" size="0.1"/></body></worldbody></mujoco>')
    (tmp_path / "models" / "sub" / "package.xml").write_text("<package><name>p</name></package>")
    (tmp_path / "models" / "sub" / "mesh.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    (tmp_path / "models" / ".hidden").mkdir()
    (tmp_path / "models" / ".hidden" / "x.urdf").write_text("<robot/>")
    return tmp_path


def test_check_dir_recurses_into_model_files_only(project, capsys):
    files = list(model_files([str(project / "models")]))
    assert [Path(f).relative_to(project).as_posix() for f in files] == [
        "models/r.urdf", "models/sub/m.xml"]   # no package.xml, no mesh, no hidden folder
    status, got = rules(capsys, "--no-config", project / "models")
    assert status == 1 and got == ["limit-empty", "limit-inverted", "mass-negative"]


def test_check_select_and_ignore_take_codes_and_prefixes(project, capsys):
    target = project / "models"
    assert rules(capsys, "--no-config", target, "--select", "limit-")[1] == [
        "limit-empty", "limit-inverted"]
    assert rules(capsys, "--no-config", target, "--select", "mass-negative,limit-empty")[1] == [
        "limit-empty", "mass-negative"]
    assert rules(capsys, "--no-config", target, "--ignore", "limit-")[1] == ["mass-negative"]
    status, got = rules(capsys, "--no-config", target, "--ignore", "mass-", "--ignore",
                        "limit-inverted")
    assert (status, got) == (0, ["limit-empty"])   # only a warning is left


def test_check_reads_its_table_in_the_nearest_pyproject(project, capsys):
    (project / "pyproject.toml").write_text(textwrap.dedent("""
        [project]
        name = "robots"
        [tool.mbparse.check]
        ignore = ["mass-"]
        show-notes = true
        warnings-as-errors = true
    """))
    assert nearest_pyproject(str(project / "models" / "sub")) == str(project / "pyproject.toml")
    status, got = rules(capsys, project / "models")
    assert status == 1
    assert "mass-negative" not in got and "xml-unsupported" in got   # a note, shown
    # Flags win over the file.
    assert rules(capsys, project / "models", "--select", "limit-empty")[1] == ["limit-empty"]
    assert "mass-negative" in rules(capsys, project / "models", "--no-config")[1]


def test_check_config_format_and_explicit_config_file(project, capsys, tmp_path):
    config = project / "ci.toml"
    config.write_text('[tool.mbparse.check]\nformat = "github"\nselect = "mass-negative"\n')
    assert main(["check", "--config", str(config), str(project / "models")]) == 1
    out = capsys.readouterr().out
    assert out.startswith("::error file=") and out.count("\n") == 1


@pytest.mark.parametrize("table, problem", [
    ('[tool.mbparse.check]\nselct = ["x"]\n', "no key 'selct'"),
    ('[tool.mbparse.check]\nshow-notes = "yes"\n', "should be a bool"),
    ('[tool.mbparse.check]\nformat = "xml"\n', "format should be one of"),
    ('[tool.mbparse.check\n', "cannot read it as TOML"),
])
def test_a_wrong_config_is_a_clear_error(tmp_path, capsys, table, problem):
    path = tmp_path / "pyproject.toml"
    path.write_text(table)
    with pytest.raises(ParseError, match=problem):
        read_config(str(path))
    (tmp_path / "r.urdf").write_text(TWO_PROBLEMS)
    assert main(["check", str(tmp_path / "r.urdf")]) == 2
    assert problem.split("'")[0] in capsys.readouterr().err


def test_settings_choose_findings_by_level_and_code():
    note = Finding("urdf-unsupported", "note", "m", "h")
    warning = Finding("limit-empty", "warning", "m", "h")
    error = Finding("mass-negative", "error", "m", "h")
    s = CheckSettings()
    assert s.chosen([note, warning, error]) == [warning, error]
    assert not s.fails([warning]) and s.fails([error])
    s = CheckSettings(select=["urdf-"], show_notes=True, warnings_as_errors=True)
    assert s.chosen([note, warning, error]) == [note]
    assert s.fails([warning]) and not s.fails([note])
