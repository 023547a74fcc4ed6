"""Planted mistakes of every kind -- misspelled attributes and elements, a
reference one edit away from a real name, a missing mesh, a negative mass,
an inertia that breaks the triangle inequality, inverted limits, a NaN --
are all reported in one run of check: the impossible ones as errors (exit
1), the misspellings with the name that was meant."""
from __future__ import annotations

from pathlib import Path

import pytest

from mbparse.cli import main
from mbparse.lint import lint_file

DATA = Path(__file__).parent / "data" / "check"

# file → {(rule, line): text the message holds (the suggestion, for typos)}
PLANTED = {
    "planted_typos.urdf": {
        ("urdf-unknown-element", 5): "Did you mean <origin>?",
        ("mass-negative", 8): "-1",
        ("mesh-missing", 9): "nowhere.stl",
        ("inertia-triangle", 12): "triangle",
        ("urdf-unknown-attribute", 13): "Did you mean 'xyz'?",
        ("number-nan", 16): "nan",
        ("urdf-unknown-attribute", 19): "Did you mean 'lower'?",
        ("urdf-unknown-link", 20): "Did you mean 'forearm'?",
        ("limit-inverted", 22): "wrist",
    },
    "planted_typos.xml": {
        ("mesh-missing", 3): "nowhere.stl",
        ("mjcf-unknown-attribute", 7): "Did you mean 'range'?",
        ("mjcf-unknown-attribute", 8): "Did you mean 'density'?",
        ("limit-inverted", 10): "[1.0, -1.0]",
        ("mass-negative", 11): "-1",
        ("inertia-triangle", 13): "triangle",
        ("mjcf-unknown-element", 16): "Did you mean <geom>?",
        ("number-nan", 17): "nan",
        ("mjcf-unknown-joint", 23): "Did you mean 'elbow'?",
    },
    "planted_typos.sdf": {
        ("sdf-unknown-attribute", 3): "Did you mean 'canonical_link'?",
        ("mesh-missing", 6): "nowhere.stl",
        ("mass-negative", 8): "-1",
        ("sdf-unknown-element", 9): "Did you mean <pose>?",
        ("inertia-triangle", 12): "triangle",
        ("number-nan", 16): "nan",
        ("sdf-unknown-element", 20): "Did you mean <lower>?",
        ("sdf-unknown-reference", 21): "Did you mean 'forearm'?",
        ("limit-inverted", 23): "wrist",
    },
}
IMPOSSIBLE = {"mass-negative", "inertia-triangle", "limit-inverted", "number-nan"}


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_every_planted_mistake_is_reported_in_one_run(name):
    findings = lint_file(str(DATA / name))
    for (rule, line), text in PLANTED[name].items():
        hits = [f for f in findings if (f.rule, f.line) == (rule, line)]
        assert hits, f"{name}:{line} {rule} not reported: {[(f.rule, f.line) for f in findings]}"
        assert any(text in f.message for f in hits), (rule, line, [f.message for f in hits])
        if rule in IMPOSSIBLE:
            assert all(f.severity == "error" for f in hits)


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_the_planted_file_fails_check(capsys, name):
    assert main(["check", "--no-config", str(DATA / name)]) == 1
    out = capsys.readouterr().out
    assert "Did you mean" in out


def test_a_nan_written_in_a_vector_is_named_as_such(tmp_path):
    path = tmp_path / "r.urdf"
    path.write_text('<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="1" '
                    'iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial><visual>'
                    '<origin xyz="0 nan 0"/><geometry><box size="1 1 1"/></geometry></visual>'
                    '</link></robot>')
    (finding,) = [f for f in lint_file(str(path)) if f.severity == "error"]
    assert finding.rule == "number-nan"


def test_an_sdformat_pose_that_cannot_be_read_does_not_stop_the_rest(tmp_path):
    path = tmp_path / "m.sdf"
    path.write_text('<sdf version="1.9"><model name="m"><link name="a"><pose>0 nan 0 0 0 0'
                    '</pose></link><link name="b"><inertial><mass>-1</mass></inertial></link>'
                    '</model></sdf>')
    rules = {f.rule for f in lint_file(str(path))}
    assert {"number-nan", "mass-negative"} <= rules


def test_an_mjcf_geom_on_a_missing_mesh_file_is_not_reported_twice(tmp_path):
    path = tmp_path / "m.xml"
    path.write_text('<mujoco model="m"><asset><mesh name="s" file="nowhere.stl"/></asset>'
                    '<worldbody><geom type="mesh" mesh="s"/><geom type="mesh" mesh="z"/>'
                    '</worldbody></mujoco>')
    rules = [f.rule for f in lint_file(str(path))]
    assert rules.count("mesh-missing") == 1 and rules.count("mjcf-unknown-mesh") == 1


def test_an_mjcf_geom_naming_a_mesh_one_edit_away_gets_a_suggestion(tmp_path):
    path = tmp_path / "m.xml"
    path.write_text('<mujoco model="m"><asset><mesh name="tet" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/>'
                    '</asset><worldbody><geom type="mesh" mesh="tte"/></worldbody></mujoco>')
    (unknown,) = [f for f in lint_file(str(path)) if f.rule == "mjcf-unknown-mesh"]
    assert "Did you mean 'tet'?" in unknown.message
