"""mbparse check on the command line: text, JSON, SARIF 2.1.0 and GitHub
reports that agree with the rule table, exit statuses, the progress bar,
--version."""
from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from mbparse import __version__
from mbparse.cli import main
from mbparse.lint.rules import RULES

INERTIA = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main(["check", "--no-config", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip())
    return path


@pytest.fixture
def models(tmp_path):
    """A file with an error, one with only a warning, one with only a note."""
    bad = write(tmp_path / "bad.urdf", f"""
        <robot name="bad">
          <link name="a">{INERTIA}</link>
          <link name="b"><inertial><mass value="-1"/></inertial></link>
        </robot>""")
    smell = write(tmp_path / "smell.urdf", f"""
        <robot name="smell">
          <link name="a">{INERTIA}</link>
          <link name="b">{INERTIA}</link>
          <joint name="j" type="prismatic"><parent link="a"/><child link="b"/>
            <axis xyz="1 0 0"/><limit lower="0.5" upper="0.5" effort="1" velocity="1"/></joint>
        </robot>""")
    note = write(tmp_path / "note.urdf", f"""
        <robot name="note" version="1.0">
          <link name="a">{INERTIA}</link>
        </robot>""")
    return bad, smell, note


def test_check_text_names_file_line_level_message_code_and_hint(capsys, models):
    bad, _, _ = models
    status, out, _ = run(capsys, bad)
    lines = out.splitlines()
    assert status == 1
    assert lines[0].startswith(f"{bad}:3: error: ") and lines[0].endswith("[mass-negative]")
    assert lines[1] == "    hint: " + RULES["mass-negative"].hint
    assert lines[-1] == "1 file checked: 1 error"


def test_check_exits_one_only_on_errors_unless_warnings_are_errors(capsys, models):
    bad, smell, note = models
    assert run(capsys, smell)[0] == 0
    assert run(capsys, bad)[0] == 1
    assert run(capsys, smell, "--warnings-as-errors")[0] == 1
    assert run(capsys, note, "--warnings-as-errors", "--show-notes")[0] == 0
    assert run(capsys, smell, "--strict")[0] == 1   # the shared flag means the same


def test_check_notes_are_hidden_unless_asked_for(capsys, models):
    _, _, note = models
    status, out, _ = run(capsys, note)
    assert out == "1 file checked: no problems found\n(1 note hidden; --show-notes shows them)\n"
    status, out, _ = run(capsys, note, "--show-notes")
    assert ": note: " in out and "[xml-unsupported]" in out and "1 note" in out


def test_check_json_has_one_record_per_finding_with_the_tables_level(capsys, models):
    bad, smell, _ = models
    status, out, _ = run(capsys, bad, smell, "--format", "json")
    report = json.loads(out)
    assert report["files"] == [str(bad), str(smell)]
    assert report["counts"] == {"error": 1, "warning": 1, "note": 0}
    for f in report["findings"]:
        assert set(f) == {"rule", "severity", "message", "hint", "file", "line", "column"}
        assert f["severity"] == RULES[f["rule"]].severity and f["hint"] == RULES[f["rule"]].hint
        assert f["line"] >= 1


def _sarif(capsys, tmp_path, *files):
    target = tmp_path / "report.sarif"
    status, out, _ = run(capsys, *files, "--show-notes", "--format", "sarif", "-o", target)
    assert out == ""
    return status, json.loads(target.read_text())


def test_check_sarif_is_a_valid_2_1_0_log(capsys, tmp_path, models):
    # The SARIF schema is not available offline: the fields it requires, by hand.
    status, log = _sarif(capsys, tmp_path, *models)
    assert status == 1
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run0,) = log["runs"]
    driver = run0["tool"]["driver"]
    assert driver["name"] == "mbparse" and driver["version"] == __version__
    ids = [r["id"] for r in driver["rules"]]
    assert len(ids) == len(set(ids)) and ids
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] == RULES[rule["id"]].summary
        assert rule["help"]["text"] and rule["defaultConfiguration"]["level"] == \
            RULES[rule["id"]].severity
    levels = set()
    for result in run0["results"]:
        assert result["ruleId"] in ids and ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")
        assert result["level"] == RULES[result["ruleId"]].severity
        assert result["message"]["text"]
        (loc,) = result["locations"]
        physical = loc["physicalLocation"]
        assert physical["artifactLocation"]["uri"].endswith(".urdf")
        assert physical["region"]["startLine"] >= 1
        levels.add(result["level"])
    assert levels == {"error", "warning", "note"}


def test_check_sarif_paths_under_the_working_folder_are_relative(capsys, tmp_path,
                                                                  monkeypatch):
    model = tmp_path / "sub dir" / "m.urdf"
    model.parent.mkdir()
    model.write_text('<robot name="m"><link name="a"/><link name="b"/>'
                     '<joint name="j" type="bogus"><parent link="a"/><child link="b"/>'
                     '</joint></robot>')
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, os.path.join("sub dir", "m.urdf"), "--format", "sarif")
    location = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "sub%20dir/m.urdf", "uriBaseId": "%SRCROOT%"}
    assert status == 1


def test_check_github_format_writes_one_annotation_per_finding(capsys, models):
    bad, smell, _ = models
    status, out, _ = run(capsys, bad, smell, "--format", "github")
    lines = out.splitlines()
    assert status == 1 and len(lines) == 2
    assert lines[0].startswith(f"::error file={bad},line=3,title=mass-negative::")
    assert lines[1].startswith(f"::warning file={smell},line=4,title=limit-empty::")
    assert "hint: " in lines[0]


def test_check_github_escapes_newlines_and_separators(capsys, tmp_path):
    from mbparse.lint.findings import Finding
    from mbparse.lint.report import as_github
    text = as_github([Finding("x-y", "note", "two\nlines, 100%", "h", "a,b:c.urdf", 2, 5)], [])
    assert text == "::notice file=a%2Cb%3Ac.urdf,line=2,col=5,title=x-y::two%0Alines, 100%25 " \
                   "(hint: h)\n"


def test_check_progress_bar_goes_to_stderr(capsys, models):
    status, out, err = run(capsys, *models, "--progress", "always")
    assert "[" in err and "3/3" in err and "3/3" not in out


def test_check_no_progress_bar_when_not_a_terminal(capsys, models):
    assert run(capsys, *models)[2] == ""


def test_check_without_a_file_or_with_a_missing_one_says_so(capsys, tmp_path):
    assert run(capsys)[0] == 2
    status, _, err = run(capsys, tmp_path / "nope.urdf")
    assert status == 2 and "nope.urdf" in err


def test_mbparse_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"mbparse {__version__}"


def test_check_json_reports_uri_problems(capsys, tmp_path):
    # A URI problem is a str carrying its code; the report holds plain text.
    model = write(tmp_path / "m.urdf", """
        <robot name="m"><link name="a"><visual><geometry>
          <mesh filename="package://nowhere/m.obj"/></geometry></visual></link></robot>""")
    status, out, _ = run(capsys, model, "--format", "json")
    (finding,) = [f for f in json.loads(out)["findings"] if f["rule"] == "package-unknown"]
    assert status == 1 and "nowhere" in finding["message"]
