"""SDFormat joint limits of an infinity on the wrong side (a lower limit of
+inf, an upper of -inf): Drake keeps them, so the model keeps them too, but
never silently -- a located warning names the joint and the fix."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from mbparse.lint import lint_file
from mbparse.loading import load

CORPUS_FILE = (Path(__file__).resolve().parents[2] / "shared" / "corpus" / "sdformat" / "test"
               / "sdf" / "joint_axis_infinite_limits.sdf")


def model(tmp_path, lower: str, upper: str) -> Path:
    path = tmp_path / "m.sdf"
    path.write_text('<sdf version="1.9">\n<model name="m"><link name="a"/><link name="b"/>\n'
                    '<joint name="j" type="revolute"><parent>a</parent><child>b</child>\n'
                    f'<axis><xyz>0 0 1</xyz><limit>\n<lower>{lower}</lower>\n'
                    f'<upper>{upper}</upper></limit></axis></joint></model></sdf>\n')
    return path


@pytest.mark.parametrize("lower, upper, line, side", [("inf", "inf", 5, "lower"),
                                                       ("-inf", "-inf", 6, "upper")])
def test_an_infinity_on_the_wrong_side_is_kept_as_drake_does_with_a_located_warning(
        tmp_path, lower, upper, line, side):
    loaded = load(str(model(tmp_path, lower, upper)))
    [warning] = loaded.warnings
    assert (warning.code, warning.line) == ("limit-infinite", line)
    assert f"Joint 'j': a {side} limit of" in warning.message
    joint = loaded.plant.get_joint_by_name("j")
    assert (joint.pos_lower[0], joint.pos_upper[0]) == (float(lower), float(upper))


def test_no_limit_written_as_infinities_says_nothing(tmp_path):
    loaded = load(str(model(tmp_path, "-inf", "inf")))
    assert loaded.warnings == []
    joint = loaded.plant.get_joint_by_name("j")
    assert (joint.pos_lower[0], joint.pos_upper[0]) == (-math.inf, math.inf)


@pytest.mark.skipif(not CORPUS_FILE.is_file(), reason="the shared corpus is not beside the project")
def test_the_corpus_file_of_infinite_limits_loads_without_a_warning():
    assert load(str(CORPUS_FILE)).warnings == []


def test_check_reports_it_once_not_also_as_an_empty_range(tmp_path):
    rules = [f.rule for f in lint_file(str(model(tmp_path, "inf", "inf")))]
    assert rules == ["limit-infinite"]
