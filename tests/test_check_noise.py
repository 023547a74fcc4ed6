"""Valid input is not a finding: what Drake, MuJoCo or Gazebo read without
complaint gives no default output; what Drake does not read is a note,
shown with --show-notes."""
from __future__ import annotations

from pathlib import Path

import pytest

from mbparse.lint import lint_file
from mbparse.lint.config import CheckSettings

DATA = Path(__file__).parent / "data" / "check"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
VALID = ["valid_with_extensions.urdf", "valid_with_options.xml", "valid_with_gazebo.sdf"]


@pytest.mark.parametrize("name", VALID)
def test_valid_models_have_no_default_findings(name):
    findings = lint_file(str(DATA / name))
    assert CheckSettings().chosen(findings) == []


@pytest.mark.parametrize("name", VALID)
def test_what_drake_does_not_read_is_a_note(name):
    findings = lint_file(str(DATA / name))
    assert findings and all(f.severity == "note" for f in findings)


def test_noise_sources_of_the_issue_are_notes():
    urdf = {f.message.split(";")[0]: f.rule for f in lint_file(str(DATA / VALID[0]))}
    assert any("contact" in m for m in urdf)                       # pybullet's <contact>
    assert any("DifferentialTransmission" in m for m in urdf)      # a <transmission>
    assert "mesh-not-rendered" in urdf.values()                    # an STL visual
    mjcf = lint_file(str(DATA / VALID[1]))
    messages = " ".join(f.message for f in mjcf)
    for what in ("timestep", "<visual>", "<texture>", "condim=1"):
        assert what in messages
    assert all(f.severity == "note" for f in mjcf)


def test_a_body_with_an_explicit_free_joint_is_not_disconnected():
    assert not [f for f in lint_file(str(DATA / VALID[1])) if f.rule == "body-disconnected"]


def test_the_example_arm_is_clean():
    assert CheckSettings().chosen(lint_file(str(EXAMPLES / "two_link_arm.urdf"))) == []


def test_drake_refusals_are_notes_unless_loading_like_drake():
    from mbparse.diagnostics import Diagnostic, DiagnosticPolicy, ParseError
    from mbparse.lint.findings import finding_from_diagnostic
    policy = DiagnosticPolicy(emit=False)
    policy.drake_refuses("an STL collision", "its hull is computed", "r.urdf", 3,
                         code="mesh-collision-hull")
    (d,) = policy.warnings_seen
    assert d.code == "drake-refuses"
    assert finding_from_diagnostic(d, "r.urdf").severity == "note"
    policy.like_drake = True
    with pytest.raises(ParseError) as e:
        policy.drake_refuses("an STL collision", "its hull is computed", "r.urdf", 3,
                             code="mesh-collision-hull")
    assert e.value.diagnostic.code == "mesh-collision-hull"
    assert isinstance(e.value.diagnostic, Diagnostic)


def test_an_unnamed_mjcf_model_is_named_after_its_file_with_a_note(tmp_path):
    from mbparse.loading import LoadOptions, load
    from mbparse.diagnostics import ParseError
    path = tmp_path / "arm.xml"
    path.write_text('<mujoco><worldbody><body name="b"><freejoint/>'
                    '<geom type="sphere" size="0.1"/></body></worldbody></mujoco>')
    (finding,) = lint_file(str(path))
    assert (finding.rule, finding.severity) == ("drake-refuses", "note")
    loaded = load(str(path))
    assert loaded.plant.get_model_instance_name(loaded.instances[0]) == "arm"
    with pytest.raises(ParseError, match="has no name"):
        load(str(path), LoadOptions(like="drake"))


def test_check_reads_constraints_into_a_plant_that_holds_them(tmp_path):
    path = tmp_path / "weld.xml"
    path.write_text('<mujoco model="w"><worldbody><body name="a"><freejoint/>'
                    '<geom type="sphere" size="0.1"/></body><body name="b"><freejoint/>'
                    '<geom type="sphere" size="0.1"/></body></worldbody>'
                    '<equality><weld body1="a" body2="b"/></equality></mujoco>')
    assert CheckSettings().chosen(lint_file(str(path))) == []
