"""mbparse check on corpus files: text, JSON and SARIF output, exit codes,
and the progress bar."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mbparse.cli import main

CORPUS = Path(__file__).parents[1].parent / "shared" / "corpus"
ACROBOT = CORPUS / "drake" / "examples" / "acrobot" / "Acrobot.urdf"
NOT_XML = CORPUS / "drake" / "multibody" / "parsing" / "test" / "sdf_parser_test" / "bad.urdf"
PANDA = CORPUS / "drake_models" / "franka_description" / "urdf" / "panda_arm_hand.urdf"

needs_corpus = pytest.mark.skipif(not ACROBOT.is_file(), reason="the shared corpus is absent")


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main(["check", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


@needs_corpus
def test_check_text_names_file_line_column_rule_and_hint(capsys):
    status, out, _ = run(capsys, ACROBOT)
    assert status == 0  # only warnings
    first = out.splitlines()[0]
    assert first.startswith(f"{ACROBOT}:80:3: warning: ")
    assert first.endswith("[ignored-input]")
    assert out.splitlines()[1].startswith("    hint: ")
    assert out.splitlines()[-1] == "1 file checked: 1 warning"


@needs_corpus
def test_check_exit_status_is_one_when_a_file_has_an_error(capsys):
    status, out, _ = run(capsys, ACROBOT, NOT_XML)
    assert status == 1
    assert f"{NOT_XML}:1: error: " in out
    assert "2 files checked: 1 error, 1 warning" in out


@needs_corpus
def test_check_fail_on_warning_makes_warnings_fail(capsys):
    assert run(capsys, ACROBOT, "--fail-on", "warning")[0] == 1
    assert run(capsys, NOT_XML, "--fail-on", "never")[0] == 0


@needs_corpus
def test_check_json_has_one_record_per_finding(capsys):
    status, out, _ = run(capsys, PANDA, NOT_XML, "--format", "json")
    report = json.loads(out)
    assert report["files"] == [str(PANDA), str(NOT_XML)]
    assert report["counts"]["error"] == 1
    kinds = {(f["rule"], f["severity"]) for f in report["findings"]}
    assert ("ignored-input", "warning") in kinds and ("parse-error", "error") in kinds
    for f in report["findings"]:
        assert set(f) == {"rule", "severity", "message", "hint", "file", "line", "column"}
        assert f["line"] >= 1 and f["hint"]


@needs_corpus
def test_check_sarif_is_a_2_1_0_log_with_rules_and_regions(capsys, tmp_path):
    target = tmp_path / "report.sarif"
    status, out, _ = run(capsys, ACROBOT, NOT_XML, "--format", "sarif", "-o", target)
    assert status == 1 and out == ""
    log = json.loads(target.read_text())
    assert log["version"] == "2.1.0" and "sarif-2.1.0" in log["$schema"]
    (run0,) = log["runs"]
    rules = run0["tool"]["driver"]["rules"]
    assert run0["tool"]["driver"]["name"] == "mbparse"
    levels = set()
    for result in run0["results"]:
        rule = rules[result["ruleIndex"]]
        assert rule["id"] == result["ruleId"]
        assert rule["shortDescription"]["text"] and rule["help"]["text"]
        levels.add(result["level"])
        (loc,) = result["locations"]
        region = loc["physicalLocation"]["region"]
        assert region["startLine"] >= 1
        uri = loc["physicalLocation"]["artifactLocation"]["uri"]
        assert uri.endswith((".urdf",))
    assert levels == {"error", "warning"}


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


@needs_corpus
def test_check_progress_bar_goes_to_stderr(capsys):
    status, out, err = run(capsys, ACROBOT, PANDA, "--progress", "always")
    assert "[" in err and "2/2" in err
    assert "2/2" not in out


@needs_corpus
def test_check_no_progress_bar_when_not_a_terminal(capsys):
    _, _, err = run(capsys, ACROBOT, PANDA)
    assert err == ""


def test_check_list_rules_names_every_rule(capsys):
    status, out, _ = run(capsys, "--list-rules", "x.urdf")
    assert status == 0
    for rule in ("mass-zero-moving", "inertia-invalid", "limit-inverted",
                 "axis-zero", "body-disconnected", "name-duplicate",
                 "package-unknown", "file-missing", "units-suspicious"):
        assert rule in out
