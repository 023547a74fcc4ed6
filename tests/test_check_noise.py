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
