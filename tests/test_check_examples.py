"""`mbparse check` on the bundled examples: the README's demonstration."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _check(path: Path) -> tuple[int, list[dict]]:
    proc = subprocess.run([sys.executable, "-m", "mbparse", "check", "--format", "json",
                           str(path)], capture_output=True, text=True)
    data = json.loads(proc.stdout)
    findings = data["findings"] if isinstance(data, dict) else data
    return proc.returncode, findings


def test_check_finds_each_mistake_in_the_example_with_its_line():
    code, findings = _check(EXAMPLES / "robot_with_mistakes.urdf")
    assert code == 1
    got = {(f["rule"], f["line"]) for f in findings}
    assert ("mass-zero-moving", 5) in got         # link 'ghost' moves but has no mass
    assert ("body-disconnected", 6) in got        # link 'lonely' is attached to nothing
    assert ("units-suspicious", 7) in got         # link 'heavy': 25000 kg
    assert ("units-suspicious", 11) in got        # joint 'j_ghost': a limit of 90 "radians"
    assert ("limit-empty", 16) in got             # joint 'j_heavy': lower == upper


def test_check_a_lone_free_body_beside_a_fixed_arm_is_reported():
    code, findings = _check(EXAMPLES / "robot_with_mistakes.urdf")
    lonely = [f for f in findings if f["rule"] == "body-disconnected"]
    assert len(lonely) == 1 and "lonely" in lonely[0]["message"]


def test_check_the_example_arm_has_no_error():
    code, findings = _check(EXAMPLES / "two_link_arm.urdf")
    assert code == 0
    assert not [f for f in findings if f["severity"] == "error"]


def test_check_list_rules_needs_no_file_and_names_every_rule():
    proc = subprocess.run([sys.executable, "-m", "mbparse", "check", "--list-rules"],
                          capture_output=True, text=True)
    assert proc.returncode == 0
    ids = [line.split()[0] for line in proc.stdout.splitlines()]
    assert "mass-zero-moving" in ids and "body-disconnected" in ids and len(ids) >= 50


def test_check_without_a_file_says_what_it_needs():
    proc = subprocess.run([sys.executable, "-m", "mbparse", "check"], capture_output=True,
                          text=True)
    assert proc.returncode == 2 and "FILE" in proc.stderr
