#!/usr/bin/env python3
"""URDF to USD: NVIDIA's ``urdf-usd-converter`` against mbparse, side by side.

For each URDF of the corpus (or the files given), both tools convert it as
whole processes (``urdf_usd_converter IN OUTDIR --no-layer-structure`` and
``python -m mbparse convert IN -o OUT.usdc``), and each output is opened with
OpenUSD (the ``pxr`` of this Python) and counted: rigid bodies, joints (by
type), colliders, drives and drives with a force limit, bodies with a mass.
The model mbparse reads from the URDF says what the file holds: the counts
are printed per tool as totals over the files both converted, with their
ratio (NVIDIA / mbparse), the files each failed, and the time of each
(median of per-file ratios, and totals).

NVIDIA's converter is never an mbparse dependency, and it cannot share a
Python with usd-core (its usd-exchange ships its own ``pxr``): give the
converter's command with ``--nvidia`` (default: ``urdf_usd_converter`` on
PATH). Nothing here is a test; the machine's load moves single figures.

Usage:
  python benchmarks/bench_usd.py --nvidia /path/to/venv/bin/urdf_usd_converter [FILES...]
"""
from __future__ import annotations

import argparse
import glob
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "src"))
import bench_parse as bp  # noqa: E402

KEYS = ("bodies", "bodies with mass", "joints", "revolute", "prismatic", "fixed", "other joints",
        "colliders", "mesh colliders", "drives", "drives with maxForce")


def count(path: str) -> dict:
    """What a USD file holds, as OpenUSD composes it."""
    from pxr import Usd, UsdPhysics
    stage = Usd.Stage.Open(path)
    c = dict.fromkeys(KEYS, 0)
    for prim in stage.Traverse():
        if prim.HasAPI(UsdPhysics.RigidBodyAPI):
            c["bodies"] += 1
            m = UsdPhysics.MassAPI(prim)
            if m and (m.GetMassAttr().Get() or 0) > 0:
                c["bodies with mass"] += 1
        if prim.IsA(UsdPhysics.Joint):
            c["joints"] += 1
            kind = {"PhysicsRevoluteJoint": "revolute", "PhysicsPrismaticJoint": "prismatic",
                    "PhysicsFixedJoint": "fixed"}.get(prim.GetTypeName(), "other joints")
            c[kind] += 1
        if prim.HasAPI(UsdPhysics.CollisionAPI):
            c["colliders"] += 1
            if prim.GetTypeName() == "Mesh":
                c["mesh colliders"] += 1
        for name in prim.GetAppliedSchemas():
            if name.startswith("PhysicsDriveAPI:"):
                c["drives"] += 1
                drive = UsdPhysics.DriveAPI(prim, name.split(":", 1)[1])
                v = drive.GetMaxForceAttr().Get()
                if v is not None and 0 <= v < 3.4e38:
                    c["drives with maxForce"] += 1
    return c


def source_counts(path: str, packages) -> dict:
    """What mbparse's model of the URDF holds (the reference)."""
    from mbparse.loading import LoadOptions, load
    plant = load(path, LoadOptions(time_step=0.0, packages=packages), finalize=False).plant
    joints = [j for j in plant.joints() if not j.is_ephemeral]
    sg = plant.scene_graph
    return {"bodies": plant.num_bodies() - 1, "joints": len(joints),
            "colliders": sum(1 for g in sg.geometries() if g.has_role("proximity"))}


def run(cmd: list[str], env=None) -> tuple[float, float, bool, str]:
    """(wall seconds, CPU seconds of the process, ran without error, its last
    line of output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = (p.stderr or p.stdout).strip().splitlines()
    return seconds, cpu, p.returncode == 0, lines[-1] if lines else ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="URDF files (default: every URDF of the corpus)")
    ap.add_argument("--nvidia", default=shutil.which("urdf_usd_converter") or "urdf_usd_converter",
                    help="the urdf_usd_converter command (in a Python of its own)")
    ap.add_argument("--corpus", default=os.path.join(REPO, "..", "shared", "corpus"))
    args = ap.parse_args(argv)
    files = args.files or sorted(glob.glob(os.path.join(args.corpus, "**", "*.urdf"),
                                           recursive=True))
    work = tempfile.mkdtemp(prefix="bench_usd_")
    env = {**os.environ, "PYTHONPATH": os.path.join(REPO, "src")}
    totals = {"nvidia": dict.fromkeys(KEYS, 0), "mbparse": dict.fromkeys(KEYS, 0),
              "source": {"bodies": 0, "joints": 0, "colliders": 0}}
    times = {"nvidia": [], "mbparse": []}
    failed = {"nvidia": [], "mbparse": []}
    both = 0
    for i, path in enumerate(files):
        packages = bp.packages_for(path, args.corpus)
        try:
            src = source_counts(path, packages)
        except Exception:  # an input mbparse refuses: not a pair to compare
            continue
        out_nv = os.path.join(work, f"nv{i}")
        out_mb = os.path.join(work, f"mb{i}.usdc")
        nv_cmd = [args.nvidia, path, out_nv, "--no-layer-structure"]
        for name, folder in packages:
            nv_cmd += ["--package", f"{name}={folder}"]
        mb_cmd = [sys.executable, "-m", "mbparse", "convert", path, "-o", out_mb]
        for name, folder in packages:
            mb_cmd += ["--package", f"{name}={folder}"]
        t_nv, c_nv, ok_nv, why_nv = run(nv_cmd)
        t_mb, c_mb, ok_mb, why_mb = run(mb_cmd, env)
        nv_files = glob.glob(os.path.join(out_nv, "*.usd*"))
        ok_nv = ok_nv and bool(nv_files)
        if not ok_nv:
            failed["nvidia"].append(f"{os.path.relpath(path, args.corpus)}: {why_nv[:120]}")
        if not ok_mb:
            failed["mbparse"].append(f"{os.path.relpath(path, args.corpus)}: {why_mb[:120]}")
        if not (ok_nv and ok_mb):
            continue
        both += 1
        for tool, out in (("nvidia", nv_files[0]), ("mbparse", out_mb)):
            for k, v in count(out).items():
                totals[tool][k] += v
        for k, v in src.items():
            totals["source"][k] += v
        times["nvidia"].append((t_nv, c_nv))
        times["mbparse"].append((t_mb, c_mb))
        print(f"{os.path.relpath(path, args.corpus)}: nvidia {t_nv:.2f} s ({c_nv:.2f} s CPU), "
              f"mbparse {t_mb:.2f} s ({c_mb:.2f} s CPU)", file=sys.stderr)
    print(f"URDF files: {len(files)}; converted by both: {both}; "
          f"failed: nvidia {len(failed['nvidia'])}, mbparse {len(failed['mbparse'])}")
    print(f"the URDFs hold (mbparse's model): {totals['source']['bodies']} bodies, "
          f"{totals['source']['joints']} joints, {totals['source']['colliders']} collision "
          "geometries")
    print(f"{'':22} {'nvidia':>8} {'mbparse':>8} {'ratio':>7}")
    for k in KEYS:
        a, b = totals["nvidia"][k], totals["mbparse"][k]
        ratio = f"{a / b:.2f}" if b else "-"
        print(f"{k:22} {a:8d} {b:8d} {ratio:>7}")
    if both:
        for k, what in ((0, "wall"), (1, "CPU")):
            a = [t[k] for t in times["nvidia"]]
            b = [t[k] for t in times["mbparse"]]
            ratios = [x / y for x, y in zip(a, b) if y > 0]
            print(f"{what} time (whole processes, start-up included): nvidia {sum(a):.1f} s, "
                  f"mbparse {sum(b):.1f} s; median per-file ratio nvidia/mbparse "
                  f"{statistics.median(ratios):.2f}")
    for tool in ("nvidia", "mbparse"):
        for line in failed[tool][:15]:
            print(f"  {tool} failed: {line}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
