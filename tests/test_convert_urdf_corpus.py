"""Every corpus model that loads converts to URDF that urdfdom's check_urdf
(the parser ROS tools use) and yourdfpy (where installed) accept, and every
corpus URDF written again as URDF reads back to the same model and the same
facts (effort limits, friction, safety controllers, calibrations).

Figures (urdfw, 2026-11-27): 346 corpus models load (165 of the 511 files are
refused, most of them libsdformat's tests of bad input); 346 URDF outputs
accepted by check_urdf and by yourdfpy; of the 116 corpus URDFs that load, 72
read back faithful and 44 the same up to their loss report, and the 571
joints whose source says more than the plant holds keep those facts.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import warnings

import pytest

from conftest import CORPUS, needs_corpus
from mbparse.convert.files import convert_file
from mbparse.convert.loss import ConvertError
from mbparse.convert.roundtrip import check_conversion, read_back
from mbparse.description import facts
from mbparse.diagnostics import ParseError

SUFFIXES = (".urdf", ".sdf", ".xml", ".dmd.yaml")


def corpus_files(suffixes=SUFFIXES) -> list[str]:
    out = []
    for root, _, names in os.walk(CORPUS):
        out += [os.path.join(root, n) for n in names if n.endswith(suffixes)]
    return sorted(out)


def yourdfpy_refusal(path: str) -> str | None:
    """Why yourdfpy refuses the URDF file (None when it validates it)."""
    import yourdfpy
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            robot = yourdfpy.URDF.load(path, build_scene_graph=False, load_meshes=False)
    except Exception as e:  # noqa: BLE001 - any refusal is the answer
        return f"yourdfpy: {e}"
    return None if robot.validate() else "yourdfpy: validate() is False"


@needs_corpus
@pytest.mark.skipif(shutil.which("check_urdf") is None,
                    reason="urdfdom's check_urdf is not installed")
def test_every_corpus_model_that_loads_converts_to_urdf_check_urdf_accepts(tmp_path):
    try:
        import yourdfpy  # noqa: F401
        with_yourdfpy = True
    except ImportError:
        with_yourdfpy = False
    written, refused = 0, []
    for i, path in enumerate(corpus_files()):
        out = tmp_path / f"{i}.urdf"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = convert_file(path, "urdf", str(out))
        except (ParseError, ConvertError):
            continue  # the input does not load, or holds nothing to write
        out.write_text(result.text)
        written += 1
        done = subprocess.run(["check_urdf", str(out)], capture_output=True, text=True,
                              timeout=60)
        if done.returncode != 0:
            refused.append(f"{path}: {(done.stderr or done.stdout).strip().splitlines()[0]}")
        why = yourdfpy_refusal(str(out)) if with_yourdfpy else None
        if why:
            refused.append(f"{path}: {why}")
    assert written >= 300, written
    assert not refused, "\n".join(refused)


@needs_corpus
def test_every_corpus_urdf_written_again_reads_back_the_same(tmp_path):
    differs, compared = [], 0
    for i, path in enumerate(corpus_files((".urdf",))):
        try:
            original = read_back(path)
        except ParseError:
            continue
        out = tmp_path / f"{i}.urdf"
        verdict, details = check_conversion(path, "urdf", str(tmp_path), out=str(out))
        if verdict not in ("faithful", "lossy-ok"):
            differs.append(f"{path}: {verdict} {details[:3]}")
            continue
        written = read_back(str(out)).plant
        for j in original.plant.joints():
            if j.description and j.type_name in ("revolute", "prismatic"):
                k = written.get_joint_by_name(j.name)
                compared += 1
                if facts(k) != facts(j):
                    differs.append(f"{path}: joint {j.name}: {facts(j)} became {facts(k)}")
    assert not differs, "\n".join(differs)
    assert compared >= 500, compared  # (571 joints of 56 files say more than the plant holds)
