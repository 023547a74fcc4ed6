"""Round trips over a sample of the corpus: each file converts to URDF,
SDFormat and MJCF, and mbparse reads the result back to the same bodies
(mass, centre of mass, inertia, world pose at the default configuration,
1e-6) and joints, up to what the loss report lists; MuJoCo, when installed,
compiles each MJCF to the same bodies.

The whole corpus (a few minutes):
    python tools/convert_sweep.py ../shared/corpus -v
"""
from __future__ import annotations

from pathlib import Path

import pytest

from mbparse.convert.roundtrip import check_conversion

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus")
SAMPLE = [
    "drake_models/iiwa_description/urdf/iiwa14_primitive_collision.urdf",
    "drake_models/wsg_50_description/sdf/schunk_wsg_50.sdf",
    "drake/multibody/benchmarks/acrobot/acrobot.urdf",
    "drake/examples/multibody/cart_pole/cart_pole.sdf",
    "drake/bindings/pydrake/multibody/test/double_pendulum.sdf",
    "drake_models/ycb/003_cracker_box.sdf",
]
MJCF = Path(__file__).parent / "data" / "mjcf"
OWN = ["dmc_walker.xml", "dmc_cheetah.xml", "mujoco_humanoid.xml"]


def cases():
    for rel in SAMPLE:
        yield pytest.param(CORPUS / rel, id=rel.rsplit("/", 1)[-1])
    for name in OWN:
        yield pytest.param(MJCF / name, id=name)


@pytest.mark.parametrize("path", list(cases()))
@pytest.mark.parametrize("target", ["urdf", "sdf", "mjcf"])
def test_corpus_file_converts_and_reads_back_the_same(path, target, tmp_path):
    if not path.is_file():
        pytest.skip(f"{path} is not here")
    verdict, details = check_conversion(str(path), target, str(tmp_path))
    assert verdict in ("faithful", "lossy-ok"), details
