"""A bounded fuzz campaign on every test run: a fixed seed, a few hundred
mutated corpus files per format, no crash, hang or silent nonsense.
(``python -m tests.fuzz`` runs long campaigns; see tests/fuzz/__init__.py.)"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.fuzz.run import CORPUS, campaign  # noqa: E402

# Inputs per format: about a minute in all on one core.
SMOKE = {"urdf": 1500, "sdf": 1500, "mjcf": 1000, "dmd": 400, "obj": 400}


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not beside the project")
@pytest.mark.parametrize("fmt", list(SMOKE))
def test_fuzz_smoke_finds_no_crash_hang_or_nonsense(fmt):
    report = campaign(fmt, seed=20261123, inputs=SMOKE[fmt], jobs=0, time_limit=10.0)
    assert report.inputs == SMOKE[fmt]
    assert report.bad() == 0 and report.counts["unlocated"] == 0, report.text()
