"""Every reproducer under tests/fuzz/regressions/<format>/ (a crash, hang or
silent nonsense the fuzzer or a hostile-input review found, minimised) ends
as a located error or a model of finite numbers, within the fuzzer's time
limit; and the command line (inspect, check, tree, convert) prints no
traceback on it."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.fuzz.run import REGRESSIONS, classify_load, run_with_limit  # noqa: E402

CASES = sorted(p for p in REGRESSIONS.glob("*/*") if p.is_file())


def test_there_are_regression_cases_for_every_format():
    assert {p.parent.name for p in CASES} == {"urdf", "sdf", "mjcf", "dmd", "obj"}


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.name}" for p in CASES])
def test_regression_case_ends_as_a_located_error_or_a_finite_model(path):
    outcome = run_with_limit(lambda: classify_load(str(path)), 30.0)
    assert outcome.category in ("ok", "error"), f"{outcome.key}\n{outcome.detail}"


@pytest.mark.parametrize("command", ["inspect", "check", "tree"])
def test_the_command_line_prints_no_traceback_on_any_regression_case(command, capsys):
    from mbparse import cli
    for path in CASES:
        status = cli.main([command, str(path)])
        out, err = capsys.readouterr()
        assert status in (0, 1), path
        assert "Traceback" not in out + err and "internal error" not in out + err, path


@pytest.mark.parametrize("to", ["urdf", "sdf", "mjcf"])
def test_convert_prints_no_traceback_on_any_regression_case(to, tmp_path, capsys):
    from mbparse import cli
    for path in CASES:
        status = cli.main(["convert", "--to", to, str(path), "-o", str(tmp_path / f"out.{to}")])
        out, err = capsys.readouterr()
        assert status in (0, 1), path
        assert "Traceback" not in out + err and "internal error" not in out + err, path
