"""Nothing lost in silence: every corpus model that loads converts to every
other format (URDF, SDFormat, MJCF, and USD where usd-core is installed), the
output is read back, and any difference between the two models -- bodies
(mass, centre of mass, inertia, pose), joints (type, limits, damping), each
body's visual and collision geometries, each joint's effort limit -- must be
named by the loss report. MJCF output is also compiled by MuJoCo (when
installed) and compared body by body and joint by joint.

The same check with a table per pair: ``python tools/convert_sweep.py
../shared/corpus --others --to urdf,sdf,mjcf,usd``.
"""
from __future__ import annotations

import os
import warnings
from concurrent.futures import ProcessPoolExecutor

import pytest

from conftest import CORPUS, needs_corpus
from mbparse.convert.loss import DROPPED, LossReport
from mbparse.convert.roundtrip import check_conversion, compare_efforts, compare_geometries

SOURCE_OF_SUFFIX = {".urdf": "urdf", ".sdf": "sdf", ".xml": "mjcf", ".yaml": "dmd",
                    ".obj": "obj"}
EMPTY = "no rigid bodies and no geometry on the world"


def _targets() -> list[str]:
    out = ["urdf", "sdf", "mjcf"]
    try:
        import pxr  # noqa: F401
        out.append("usd")
    except ImportError:
        pass
    return out


def _corpus_models() -> list[str]:
    out = []
    for root, _, names in os.walk(CORPUS):
        out += [os.path.join(root, n) for n in names
                if os.path.splitext(n)[1].lower() in SOURCE_OF_SUFFIX]
    return sorted(out)


def _convert_to_others(job: tuple[str, str, tuple[str, ...]]) -> list[tuple]:
    """(path, target, verdict, details) for each target but the file's own
    format; nothing for a file that does not load."""
    from mbparse.loading import LoadOptions, load
    path, folder, targets = job
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            load(path, LoadOptions(time_step=0.0))
        except Exception:
            return []  # only models that load are converted
        source = SOURCE_OF_SUFFIX[os.path.splitext(path)[1].lower()]
        out = []
        for i, target in enumerate(targets):
            if target == source:
                continue
            written = os.path.join(folder, f"{i}_{os.path.basename(path)}.{target}")
            written += {"urdf": ".urdf", "sdf": ".sdf", "mjcf": ".xml", "usd": ".usda"}[target]
            try:
                verdict, details = check_conversion(path, target, folder, out=written)
            except Exception as e:  # a crash is a finding like any other
                verdict, details = "crash", [f"{type(e).__name__}: {e}"]
            if verdict == "error" and details and EMPTY in details[0]:
                verdict = "empty"  # refused in one line, as it should be
            out.append((path, target, verdict, details))
        return out


@needs_corpus
def test_every_corpus_model_converts_to_every_other_format_with_nothing_lost_in_silence(
        tmp_path):
    targets = tuple(_targets())
    jobs = []
    for n, path in enumerate(_corpus_models()):
        folder = tmp_path / str(n)
        folder.mkdir()
        jobs.append((path, str(folder), targets))
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = [r for rs in pool.map(_convert_to_others, jobs, chunksize=8) for r in rs]
    bad = [f"{os.path.relpath(p, CORPUS)} -> {t}: {v}: {'; '.join(d[:3])}"
           for p, t, v, d in results if v not in ("faithful", "lossy-ok", "empty")]
    assert len(results) > 900, len(results)  # (the corpus's models, to each other format)
    assert not bad, "\n".join(bad)


def _loaded(text: str, tmp_path, name: str):
    from mbparse.convert.roundtrip import read_back
    path = tmp_path / name
    path.write_text(text)
    return read_back(str(path)).plant


ARM = """<robot name="arm">
  <link name="base"><visual><geometry><box size="1 1 1"/></geometry></visual>
    <collision name="c"><geometry><sphere radius="0.5"/></geometry></collision></link>
  <link name="tip"><inertial><mass value="1"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="tip"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="{effort}" velocity="1"/></joint>
</robot>"""


def test_a_geometry_or_effort_limit_the_output_lost_is_a_difference_unless_reported(tmp_path):
    original = _loaded(ARM.format(effort=15), tmp_path, "a.urdf")
    lost = _loaded(ARM.format(effort=15).replace(
        '<collision name="c"><geometry><sphere radius="0.5"/></geometry></collision>', ""),
        tmp_path, "b.urdf")
    silent = LossReport("a.urdf", "urdf")
    assert compare_geometries(original, lost, silent) == [
        "body base: 1 collision geometries became 0, unreported"]
    said = LossReport("a.urdf", "urdf")
    said.add(DROPPED, "geometry 'arm::c' (proximity)", "no room for it")
    assert compare_geometries(original, lost, said) == []

    weaker = _loaded(ARM.format(effort=5), tmp_path, "c.urdf")
    assert compare_efforts(original, weaker, silent) == [
        "joint j: effort limit (15.0,) became (5.0,), unreported"]
    # An effort of zero is a joint nothing drives: the same as no effort limit.
    unactuated = _loaded(ARM.format(effort=0), tmp_path, "d.urdf")
    assert compare_efforts(unactuated, unactuated, silent) == []


def test_every_geometry_on_a_mesh_mujoco_refuses_is_reported_not_only_the_first(tmp_path):
    from mbparse.convert.files import convert_file
    (tmp_path / "broken.stl").write_bytes(b"not a mesh")
    visual = '<visual name="{0}"><geometry><mesh filename="broken.stl"/></geometry></visual>'
    urdf = tmp_path / "two.urdf"
    urdf.write_text(ARM.format(effort=1).replace(
        '<link name="tip">', '<link name="tip">' + visual.format("v1") + visual.format("v2")))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = convert_file(str(urdf), "mjcf", str(tmp_path / "out" / "two.xml"))
    dropped = [x.element for x in result.report.losses if x.action == DROPPED
               and "geometry" in x.element]
    assert len(dropped) == 2 and any("v1" in d for d in dropped) and \
        any("v2" in d for d in dropped)


def test_a_joint_whose_own_name_holds_a_double_underscore_keeps_its_effort(tmp_path):
    # (example-robot-data's flying arms: 'flying_arm_2__j_bl_link1'; the check
    # must not take the part before "__" for a model instance's prefix)
    text = ARM.format(effort=2.5).replace('name="j"', 'name="flying_arm_2__j"')
    original = _loaded(text, tmp_path, "a.urdf")
    again = _loaded(text, tmp_path, "b.urdf")
    assert compare_efforts(original, again, LossReport("a.urdf", "urdf")) == []
