#!/usr/bin/env python3
"""Parse-time benchmark: mbparse against Drake (pydrake) and yourdfpy.

For every corpus file with the chosen suffix, each peer parses the file into
a fresh model several times and the best (or median) time is kept. Only the
parse is timed — for mbparse and Drake ``add_models`` into a new plant with
a scene graph plus ``finalize``; for yourdfpy ``URDF.load`` without meshes —
never process start-up, imports, or making the empty plant.

pydrake and yourdfpy are not dependencies of mbparse: Drake runs in the
Python given by ``--drake-python`` (this script, started there as a worker,
times its own parses and prints JSON); yourdfpy is imported here when it can
be, else run through ``--yourdfpy-python``.

Usage:
  python benchmarks/bench_parse.py --drake-python /tmp/peers/bin/python \\
      [--yourdfpy-python /tmp/peers/bin/python] [--suffix .urdf] [--repeat 5]

Files that either side of a comparison rejects are left out of that ratio
and counted.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
def _find_corpus() -> str:
    """``shared/corpus`` beside the checkout or beside one of its parents."""
    folder = os.path.dirname(HERE)
    while True:
        candidate = os.path.join(os.path.dirname(folder), "shared", "corpus")
        if os.path.isdir(candidate) or os.path.dirname(folder) == folder:
            return candidate
        folder = os.path.dirname(folder)


DEFAULT_CORPUS = _find_corpus()
TIME_STEP = 0.001  # the plant the reference summaries use (discrete, TAMSI)


# ---------------------------------------------------------------- inputs
def corpus_files(corpus: str, suffix: str, only: str) -> list[str]:
    found = []
    for root, dirs, names in os.walk(corpus):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(root, name)
            if name.lower().endswith(suffix) and only in path:
                found.append(path)
    return found


def packages_for(path: str, corpus: str) -> list[tuple[str, str]]:
    """The packages a parse of ``path`` gets, the same for every peer: those
    whose package.xml stands in an ancestor folder, then drake and
    drake_models mapped to the corpus (as the reference summaries were made)."""
    found = []
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        xml = os.path.join(folder, "package.xml")
        if os.path.isfile(xml):
            name = _package_name(xml)
            if name:
                found.append((name, folder))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    for name in ("drake", "drake_models"):
        if os.path.isdir(os.path.join(corpus, name)):
            found.append((name, os.path.join(corpus, name)))
    return found


def _package_name(xml: str) -> str | None:
    import re
    try:
        with open(xml, encoding="utf-8", errors="replace") as f:
            m = re.search(r"<name>\s*([^<\s]+)\s*</name>", f.read())
    except OSError:
        return None
    return m.group(1) if m else None


# ---------------------------------------------------------------- timing
def run_mbparse(jobs: list[dict], repeat: int) -> dict:
    from mbparse import MultibodyPlant, Parser, SceneGraph

    results = {}
    for job in jobs:
        path, packages = job["file"], job["packages"]

        def parse_once():
            plant = MultibodyPlant(TIME_STEP, "tamsi")
            parser = Parser(plant, SceneGraph())
            parser.diagnostic_policy().emit = False
            pm = parser.package_map()
            for name, folder in packages:
                if pm.contains(name):
                    pm.remove(name)
                pm.add(name, folder)
            return _timed_section(lambda: (parser.add_models(path), plant.finalize()))
        results[path] = _time_sections(parse_once, repeat)
    return results


def run_drake(jobs: list[dict], repeat: int) -> dict:
    from pydrake.geometry import SceneGraph
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant

    results = {}
    for job in jobs:
        path, packages = job["file"], job["packages"]

        def parse_once():
            plant = MultibodyPlant(TIME_STEP)
            scene_graph = SceneGraph()
            plant.RegisterAsSourceForSceneGraph(scene_graph)
            parser = Parser(plant, scene_graph)
            pm = parser.package_map()
            for name, folder in packages:
                if pm.Contains(name):
                    pm.Remove(name)
                pm.Add(name, folder)
            return _timed_section(lambda: (parser.AddModels(path), plant.Finalize()))
        results[path] = _time_sections(parse_once, repeat)
    return results


def run_yourdfpy(jobs: list[dict], repeat: int) -> dict:
    import yourdfpy

    results = {}
    for job in jobs:
        path, packages = job["file"], job["packages"]
        if not path.lower().endswith(".urdf"):
            results[path] = {"error": "not a URDF"}
            continue
        roots = dict(packages)

        def handler(fname, roots=roots, base=os.path.dirname(path)):
            for scheme in ("package://", "model://"):
                if fname.startswith(scheme):
                    name, _, rest = fname[len(scheme):].partition("/")
                    return os.path.join(roots.get(name, ""), rest)
            if fname.startswith("file://"):
                return fname[len("file://"):]
            return os.path.join(base, fname)

        def parse_once():
            return _timed_section(lambda: yourdfpy.URDF.load(
                path, load_meshes=False, build_scene_graph=True, load_collision_meshes=False,
                build_collision_scene_graph=False, filename_handler=handler))
        results[path] = _time_sections(parse_once, repeat)
    return results


def run_mujoco(jobs: list[dict], repeat: int) -> dict:
    """MuJoCo's own compiler (C): ``MjModel.from_xml_path`` of an MJCF file."""
    import mujoco

    results = {}
    for job in jobs:
        path = job["file"]
        results[path] = _time_sections(
            lambda: _timed_section(lambda: mujoco.MjModel.from_xml_path(path)), repeat)
    return results


def run_lxml(jobs: list[dict], repeat: int) -> dict:
    """lxml's bare parse of the file's bytes (read outside the timed part):
    the floor no XML reader written on lxml goes below."""
    from lxml import etree

    results = {}
    for job in jobs:
        with open(job["file"], "rb") as f:
            data = f.read()
        results[job["file"]] = _time_sections(
            lambda: _timed_section(lambda: etree.fromstring(data)), repeat)
    return results


def _timed_section(work) -> tuple[float, float]:
    """Seconds that ``work()`` takes (set-up outside it is not counted): wall
    and this process's CPU time (which a busy machine moves less)."""
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - t0, time.process_time() - c0


def _time_sections(parse_once, repeat: int) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            first = parse_once()  # warm-up, and the verdict
        except Exception as e:  # the peer rejects the file
            line = str(e).strip().splitlines()[0] if str(e).strip() else ""
            return {"error": f"{type(e).__name__}: {line}"[:300]}
        walls, cpus = zip(*[parse_once() for _ in range(repeat)])
    # ("first": the wall time of the first parse in the process, which reads
    # what a peer keeps between parses, such as mbparse's mesh files)
    return {"best": min(walls), "median": statistics.median(walls),
            "cpu best": min(cpus), "cpu median": statistics.median(cpus), "first": first[0]}


RUNNERS = {"mbparse": run_mbparse, "drake": run_drake, "yourdfpy": run_yourdfpy,
           "mujoco": run_mujoco, "lxml": run_lxml}


def run_in(python: str, peer: str, jobs: list[dict], repeat: int) -> dict:
    """Runs a peer in a fresh worker process of ``python`` (this script as
    the worker). Every peer, mbparse and lxml included, is timed so: each
    timed parse follows a full ``gc.collect()``, whose walk over the heap
    leaves the CPU caches cold, and in a process that had already timed
    other sections that heap held whatever they imported (SciPy for one
    hull made a small URDF's parse 2.5 times slower), while the peers ran
    in workers of their own."""
    proc = subprocess.run([python, os.path.abspath(__file__), "--worker", peer,
                           "--repeat", str(repeat)],
                          input=json.dumps(jobs), capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"the {peer} worker failed ({python}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_rounds(workers: dict[str, tuple[str, str, list[dict]]], repeat: int,
               rounds: int) -> dict[str, dict]:
    """Runs each of ``workers`` (label -> (python, peer, jobs), see
    :func:`run_in`) ``rounds`` times, taking turns (a, b, a, b, ...): a
    stretch of load from the machine's neighbours, which lasts seconds and
    would fall on one peer's whole section, falls on every peer alike. Per
    file: the best of the rounds' bests (and their first parses), the
    median of their medians; a file one round rejects is rejected."""
    runs: dict[str, list[dict]] = {label: [] for label in workers}
    for _ in range(max(1, rounds)):
        for label, (python, peer, jobs) in workers.items():
            runs[label].append(run_in(python, peer, jobs, repeat))
    return {label: _merged(results) for label, results in runs.items()}


def _merged(results: list[dict]) -> dict:
    out = {}
    for f, first in results[0].items():
        each = [r[f] for r in results]
        failed = next((x for x in each if "error" in x), None)
        if failed is not None:
            out[f] = failed
            continue
        out[f] = {key: (statistics.median if "median" in key else min)(x[key] for x in each)
                  for key in first}
    return out


def importable(module: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(module) is not None


# ---------------------------------------------------------------- report
def _ok(result: dict, f: str) -> bool:
    return "error" not in result.get(f, {"error": "not run"})


def report(files: list[str], results: dict[str, dict], stat: str, corpus: str) -> dict:
    """Prints per-peer totals and the ratios to mbparse; returns, per peer,
    the median of the per-file ratios, the ratio of totals and the count."""
    peers = list(results)
    summary = {}
    print(f"{len(files)} files; per file: one untimed parse, then the {stat} of the timed "
          "ones; times in ms")
    print(f"{'peer':<10} {'parsed':>7} {'rejected':>9} {'total over its parsed files':>28}")
    for peer in peers:
        ok = [f for f in files if _ok(results[peer], f)]
        total = sum(results[peer][f][stat] for f in ok) * 1e3
        print(f"{peer:<10} {len(ok):>7} {len(files) - len(ok):>9} {total:>28.1f}")
    print()
    base = results["mbparse"]
    for peer in peers[1:]:
        other = results[peer]
        common = [f for f in files if _ok(base, f) and _ok(other, f)]
        t_mb = sum(base[f][stat] for f in common)
        t_peer = sum(other[f][stat] for f in common)
        ratio = t_peer / t_mb if t_mb > 0 else float("nan")
        per_file = [other[f][stat] / base[f][stat] for f in common if base[f][stat] > 0]
        median_ratio = statistics.median(per_file) if per_file else float("nan")
        summary[peer] = {"median": median_ratio, "total": ratio, "files": len(per_file)}
        print(f"{peer} time / mbparse time, {len(common)} files both parse "
              f"({len(files) - len(common)} excluded, rejected by either): "
              f"{t_peer * 1e3:.1f} / {t_mb * 1e3:.1f} ms = {ratio:.2f}x; "
              f"median of per-file ratios {median_ratio:.2f}x; "
              f"mbparse faster on {sum(r > 1 for r in per_file)}/{len(per_file)} files")
        heaviest = sorted(common, key=lambda f: -other[f][stat])[:5]
        print(f"  {peer}'s slowest files (ms, {peer} vs mbparse):")
        for f in heaviest:
            print(f"    {other[f][stat] * 1e3:9.1f} {base[f][stat] * 1e3:7.2f}  "
                  f"{os.path.relpath(f, corpus)}")
    if "drake" in results:
        only = [(os.path.relpath(f, corpus), "mbparse" if not _ok(base, f) else "drake")
                for f in files if _ok(base, f) != _ok(results["drake"], f)]
        if only:
            print("\nfiles only one of mbparse / drake rejects:")
            for rel, who in only:
                print(f"  {rel}: {who} rejects")
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--suffix", default=".urdf", help="file suffix to time (default .urdf)")
    ap.add_argument("--only", default="", help="only files whose path contains this")
    ap.add_argument("--repeat", type=int, default=5, help="timed parses per file (default 5)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="workers per peer, the peers taking turns (default 2; see run_rounds)")
    ap.add_argument("--stat", choices=("best", "median"), default="median")
    ap.add_argument("--drake-python", help="a python with pydrake installed")
    ap.add_argument("--yourdfpy-python", help="a python with yourdfpy (if not importable here)")
    ap.add_argument("--json", metavar="OUT", help="also write every per-file figure here")
    ap.add_argument("--worker", choices=sorted(RUNNERS), help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.worker:  # started by run_in(): jobs on stdin, results on stdout
        jobs = json.loads(sys.stdin.read())
        print(json.dumps(RUNNERS[args.worker](jobs, args.repeat)))
        return

    corpus = os.path.abspath(args.corpus)
    files = corpus_files(corpus, args.suffix.lower(), args.only)
    if not files:
        sys.exit(f"no '{args.suffix}' files under {corpus}")
    jobs = [{"file": f, "packages": packages_for(f, corpus)} for f in files]
    workers = {"mbparse": (sys.executable, "mbparse", jobs)}
    if args.drake_python:
        workers["drake"] = (args.drake_python, "drake", jobs)
    else:
        print("(Drake not timed: give --drake-python)")
    if args.suffix.lower() == ".urdf":
        if importable("yourdfpy"):
            workers["yourdfpy"] = (sys.executable, "yourdfpy", jobs)
        elif args.yourdfpy_python:
            workers["yourdfpy"] = (args.yourdfpy_python, "yourdfpy", jobs)
        else:
            print("(yourdfpy not timed: not importable here; give --yourdfpy-python)")
    results = run_rounds(workers, args.repeat, args.rounds)
    report(files, results, args.stat, corpus)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
