"""The bundled examples do what the README says they do."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mbparse", *args], capture_output=True,
                          text=True)


def test_inspect_the_example_arm_lists_its_bodies_joints_and_motors():
    proc = _run("inspect", "--json", str(EXAMPLES / "two_link_arm.urdf"))
    assert proc.returncode == 0, proc.stderr
    s = json.loads(proc.stdout)
    assert sorted(s["bodies"]) == ["two_link_arm::base", "two_link_arm::forearm",
                                   "two_link_arm::upper_arm"]
    assert s["joints"]["two_link_arm::elbow"]["pos_upper"] == [2.5]
    assert s["actuators"]["two_link_arm::shoulder_motor"]["gear_ratio"] == 100.0
    assert s["bodies"]["two_link_arm::forearm"]["X_WB"]["p"] == [0.0, 0.0, 0.55]


def test_the_example_arm_converted_to_sdformat_reads_back_as_the_same_bodies(tmp_path):
    out = tmp_path / "arm.sdf"
    proc = _run("convert", str(EXAMPLES / "two_link_arm.urdf"), "--to", "sdf", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    urdf = json.loads(_run("inspect", "--json", str(EXAMPLES / "two_link_arm.urdf")).stdout)
    sdf = json.loads(_run("inspect", "--json", str(out)).stdout)
    assert "error" not in sdf, sdf.get("error")
    for name, body in urdf["bodies"].items():
        other = sdf["bodies"][name]
        assert abs(other["mass"] - body["mass"]) < 1e-12
        for a, b in zip(other["X_WB"]["p"], body["X_WB"]["p"]):
            assert abs(a - b) < 1e-12
