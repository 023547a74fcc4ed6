#!/usr/bin/env python3
"""Instructions per parse, counted by callgrind: a speed figure that the
machine's load does not move.

For each file set (the corpus files under 40 kB of each format, the MJCF
models of tests/data/mjcf and synthetic nested MJCF bodies), a Python under
``valgrind --tool=callgrind`` parses every file of the set as
``bench_parse.py`` times it (``add_models`` into a fresh plant with a scene
graph, then ``finalize``), once as a warm-up and then ``--passes`` times
more. A second process does the same but makes only the empty plants, the
parsers and the package maps in the measured passes (what bench_parse.py
leaves out of its timing); the difference between the two, over the
passes, is what the parses of one pass over the set cost once imports and
first-use work are done. Hash randomization is off and BLAS runs one
thread (OpenBLAS's idle threads spin, and callgrind would count it), so a
figure repeats to within about 0.5% whatever else the machine runs.

Usage:
  python benchmarks/instructions.py                 # the current tree
  python benchmarks/instructions.py --rev f953a56   # that commit's src/
  python benchmarks/instructions.py --sets urdf,mjcf-tests --passes 2

Needs valgrind (``apt-get install valgrind``). It takes a few minutes: a
callgrind run is some 50 times slower than Python alone.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import bench_parse as bp  # noqa: E402

SMALL_BYTES = 40_000
CORPUS_SETS = {"urdf": ".urdf", "sdf": ".sdf", "mjcf": ".xml", "dmd": ".dmd.yaml",
               "obj": ".obj"}
NESTED_SIZES = (10, 30, 100)
ALL_SETS = (*CORPUS_SETS, "mjcf-tests", "mjcf-nested")


def set_files(name: str, corpus: str, folder: str) -> list[str]:
    """The files of one set, in a fixed order."""
    if name in CORPUS_SETS:
        return [f for f in bp.corpus_files(corpus, CORPUS_SETS[name], "")
                if os.path.getsize(f) < SMALL_BYTES]
    if name == "mjcf-tests":
        folder_ = os.path.join(REPO, "tests", "data", "mjcf")
        return sorted(os.path.join(folder_, f) for f in os.listdir(folder_) if f.endswith(".xml"))
    if name == "mjcf-nested":
        import bench_all
        files = []
        for n in NESTED_SIZES:
            path = os.path.join(folder, f"nested_{n}.xml")
            with open(path, "w") as f:
                f.write(bench_all.mjcf_nested(n))
            files.append(path)
        return files
    raise SystemExit(f"unknown set {name!r}; sets: {', '.join(ALL_SETS)}")


# ---------------------------------------------------------------- the worker
def worker(list_file: str, passes: int, setup_only: bool) -> None:
    """Parses every file of the list ``1 + passes`` times (under callgrind);
    with ``setup_only``, the passes after the first only make the plant,
    parser and package map of each file."""
    import json
    import warnings

    from mbparse import MultibodyPlant, Parser, SceneGraph

    with open(list_file) as f:
        jobs = json.load(f)
    warnings.simplefilter("ignore")

    def parse_once(job, parse=True):
        plant = MultibodyPlant(bp.TIME_STEP, "tamsi")
        parser = Parser(plant, SceneGraph())
        parser.diagnostic_policy().emit = False
        pm = parser.package_map()
        for name, folder in job["packages"]:
            if pm.contains(name):
                pm.remove(name)
            pm.add(name, folder)
        if not parse:
            return
        try:
            parser.add_models(job["file"])
            plant.finalize()
        except Exception:  # a refused file costs what it costs  # noqa: BLE001
            pass

    for k in range(1 + passes):
        for job in jobs:
            parse_once(job, parse=k == 0 or not setup_only)


# ---------------------------------------------------------------- the driver
def count(python: str, src: str, list_file: str, passes: int, setup_only: bool,
          folder: str) -> int:
    """Instructions of one callgrind run of the worker."""
    out = os.path.join(folder, "callgrind.out")
    # One BLAS thread: OpenBLAS's idle worker threads spin, and callgrind
    # counts their spinning (tens of millions of instructions, a different
    # number each run).
    env = dict(os.environ, PYTHONPATH=src, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1")
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
         python, os.path.abspath(__file__), "--worker", list_file, "--passes", str(passes)]
        + (["--setup-only"] if setup_only else []),
        capture_output=True, text=True, env=env)
    found = re.search(r"Collected\s*:\s*(\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        sys.exit(f"callgrind run failed:\n{proc.stderr[-3000:]}")
    return int(found.group(1))


def export_src(rev: str, folder: str) -> str:
    """``src/`` of a commit, written into ``folder``."""
    archive = subprocess.run(["git", "-C", REPO, "archive", rev, "src"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
    return os.path.join(folder, "src")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(ALL_SETS),
                    help=f"comma list of: {', '.join(ALL_SETS)} (default: all)")
    ap.add_argument("--passes", type=int, default=1,
                    help="measured passes over each set after the warm-up (default 1)")
    ap.add_argument("--rev", help="measure this commit's src/ instead of the working tree")
    ap.add_argument("--corpus", default=bp.DEFAULT_CORPUS)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--setup-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.passes, args.setup_only)
        return
    import json

    corpus = os.path.abspath(args.corpus)
    with tempfile.TemporaryDirectory() as folder:
        src = export_src(args.rev, folder) if args.rev else os.path.join(REPO, "src")
        print(f"instructions per pass over each set (callgrind; src: {args.rev or src}; "
              f"{args.passes} measured pass(es) after a warm-up)")
        total = 0
        for name in args.sets.split(","):
            files = set_files(name, corpus, folder)
            list_file = os.path.join(folder, f"{name}.json")
            with open(list_file, "w") as f:
                json.dump([{"file": p, "packages": bp.packages_for(p, corpus)} for p in files], f)
            setup = count(args.python, src, list_file, args.passes, True, folder)
            full = count(args.python, src, list_file, args.passes, False, folder)
            per_pass = (full - setup) / args.passes
            total += per_pass
            print(f"  {name:<12} {len(files):>4} files  {per_pass / 1e6:10.2f} M instructions  "
                  f"({per_pass / max(1, len(files)) / 1e6:.3f} M per file)", flush=True)
        print(f"  {'all sets':<12} {'':>10} {total / 1e6:10.2f} M instructions")


if __name__ == "__main__":
    main()
