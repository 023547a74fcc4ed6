#!/usr/bin/env python3
"""Every speed figure of mbparse in one run.

1. Per format (URDF, SDFormat, MJCF, model directives, OBJ) over the corpus:
   totals and the median of per-file ratios against Drake (and yourdfpy for
   URDF), as ``bench_parse.py`` prints them.
2. MJCF against MuJoCo's own compiler (``mujoco.MjModel.from_xml_path``) on
   the corpus's MJCF files, the dm_control-style models in tests/data/mjcf,
   synthetic nested bodies and, with ``--mjcf-robots``, real robot MJCF
   files (the ``.xml`` files of the folders given, e.g. gymnasium's and
   robosuite's model assets).
3. The lxml floor: on URDF files under 40 kB, mbparse's time over lxml's bare
   parse of the same bytes.
4. Scaling: synthetic URDF chains of 10 to 10,000 links, and the exponent k
   of time ~ N^k fitted over them (1 is linear).
5. Start-up: ``import mbparse`` and ``mbparse inspect`` of a small URDF as
   whole processes.
6. Batches: files per second of ``mbparse inspect --json -j 1`` and ``-j 2``
   over the corpus.

The peers (pydrake, yourdfpy, mujoco) are never mbparse dependencies: give a
scratch Python that has them with ``--peers-python``. What is timed is what
``bench_parse.py`` says (parse + finalize; no start-up, no imports, no
making the empty plant). Every peer, mbparse and lxml included, times each
section (each format, each MJCF group, each chain) in a fresh worker
process of its own, so that no section's figures depend on what an earlier
one imported (see ``bench_parse.run_in``), and the peers take turns over
``--rounds`` such workers each (see ``bench_parse.run_rounds``: a burst of
load from the machine's neighbours falls on all of them). Nothing here is a
test: the machine's load moves single figures by tens of percent, so
compare ratios from one run.

Usage:
  python benchmarks/bench_all.py --peers-python /path/to/peers/bin/python
"""
from __future__ import annotations

import argparse
import glob
import math
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_parse as bp  # noqa: E402

REPO = os.path.dirname(HERE)
SUFFIXES = (".urdf", ".sdf", ".xml", ".dmd.yaml", ".obj")
SMALL_URDF_BYTES = 40_000
CHAIN_SIZES = (10, 100, 1000, 10_000)
NESTED_SIZES = (10, 30, 100)


def _jobs(files: list[str], corpus: str) -> list[dict]:
    return [{"file": f, "packages": bp.packages_for(f, corpus)} for f in files]


def _median_ratio(num: dict, den: dict, files: list[str], stat: str) -> tuple[float, int]:
    ratios = [num[f][stat] / den[f][stat] for f in files
              if bp._ok(num, f) and bp._ok(den, f) and den[f][stat] > 0]
    return (statistics.median(ratios) if ratios else float("nan")), len(ratios)


# ---------------------------------------------------------------- synthetic models
def urdf_chain(n: int) -> str:
    links = "".join(
        f'<link name="l{i}"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" '
        f'ixy="0" ixz="0" iyz="0"/></inertial><visual><geometry><box size="0.1 0.1 0.1"/>'
        f'</geometry></visual><collision><geometry><sphere radius="0.05"/></geometry>'
        f'</collision></link>' for i in range(n))
    joints = "".join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/><child link="l{i}"/>'
        f'<origin xyz="0 0 0.1" rpy="0 0 0"/><axis xyz="0 0 1"/>'
        f'<limit lower="-1" upper="1" effort="10" velocity="1"/></joint>' for i in range(1, n))
    return f'<robot name="chain">{links}{joints}</robot>'


def mjcf_nested(n: int) -> str:
    body = ""
    for i in reversed(range(n)):
        body = (f'<body name="b{i}" pos="0 0 0.1"><joint name="j{i}" type="hinge" axis="0 1 0"/>'
                f'<geom type="capsule" size="0.02" fromto="0 0 0 0 0 0.1"/>{body}</body>')
    return (f'<mujoco model="nested"><default><geom rgba="0.5 0.5 0.5 1"/></default>'
            f'<worldbody>{body}</worldbody></mujoco>')


def robot_mjcf_files(paths: list[str]) -> list[str]:
    """The MJCF files of ``paths``: each a file, or a folder whose ``.xml``
    files (at any depth) are taken, less those that are not MJCF (their
    root is not ``<mujoco>``: meshes' sidecars, package manifests)."""
    found = []
    for path in paths:
        if os.path.isfile(path):
            found.append(os.path.abspath(path))
            continue
        for name in sorted(glob.glob(os.path.join(path, "**", "*.xml"), recursive=True)):
            with open(name, "rb") as f:
                head = f.read(4096)
            if b"<mujoco" in head:
                found.append(os.path.abspath(name))
    return found


def _short(path: str, corpus: str) -> str:
    """A file's name as the report prints it: within the corpus, from its
    root; elsewhere its folder and name (robots' files are all robot.xml)."""
    if path.startswith(corpus):
        return os.path.relpath(path, corpus)
    return os.path.join(os.path.basename(os.path.dirname(path)), os.path.basename(path))


def _write(folder: str, name: str, text: str) -> str:
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# ---------------------------------------------------------------- sections
def per_format(args, corpus: str, summary: dict) -> None:
    for suffix in args.suffixes:
        files = bp.corpus_files(corpus, suffix, "")
        print(f"\n=== {suffix} over the corpus")
        if not files:
            print("  (no files)")
            continue
        jobs = _jobs(files, corpus)
        workers = {"mbparse": (sys.executable, "mbparse", jobs)}
        if args.peers_python:
            workers["drake"] = (args.peers_python, "drake", jobs)
            if suffix == ".urdf":
                workers["yourdfpy"] = (args.peers_python, "yourdfpy", jobs)
        if suffix == ".urdf":
            small = [f for f in files if os.path.getsize(f) < SMALL_URDF_BYTES]
            workers["lxml"] = (sys.executable, "lxml", _jobs(small, corpus))
        results = bp.run_rounds(workers, args.repeat, args.rounds)
        lxml = results.pop("lxml", None)
        figures = bp.report(files, results, args.stat, corpus)
        summary[suffix] = figures
        if lxml is not None:
            ratio, n = _median_ratio(results["mbparse"], lxml, small, args.stat)
            times = [results["mbparse"][f][args.stat] for f in small if bp._ok(results["mbparse"], f)]
            print(f"\nlxml floor: {n} URDF files under {SMALL_URDF_BYTES // 1000} kB; median "
                  f"mbparse time {statistics.median(times) * 1e3:.2f} ms; median of per-file "
                  f"mbparse / lxml-bare-parse ratios {ratio:.2f}x")
            summary["lxml_floor"] = ratio


def against_mujoco(args, corpus: str, folder: str, summary: dict) -> None:
    if not args.peers_python:
        print("\n(MuJoCo not timed: give --peers-python)")
        return
    groups = {
        "corpus MJCF": bp.corpus_files(corpus, ".xml", ""),
        "tests/data/mjcf (dm_control-style and own)": sorted(
            glob.glob(os.path.join(REPO, "tests", "data", "mjcf", "*.xml"))),
        "synthetic nested bodies": [_write(folder, f"nested_{n}.xml", mjcf_nested(n))
                                    for n in NESTED_SIZES],
    }
    if args.mjcf_robots:
        groups["real robots (--mjcf-robots)"] = robot_mjcf_files(args.mjcf_robots)
    print("\n=== MJCF: mbparse against MuJoCo's compiler (MjModel.from_xml_path)")
    for label, files in groups.items():
        jobs = _jobs(files, corpus)
        both_runs = bp.run_rounds({"mbparse": (sys.executable, "mbparse", jobs),
                                   "mujoco": (args.peers_python, "mujoco", jobs)},
                                  args.repeat, args.rounds)
        mine, theirs = both_runs["mbparse"], both_runs["mujoco"]
        both = [f for f in files if bp._ok(mine, f) and bp._ok(theirs, f)]
        ratio, n = _median_ratio(theirs, mine, files, args.stat)
        t_mine = sum(mine[f][args.stat] for f in both)
        t_theirs = sum(theirs[f][args.stat] for f in both)
        print(f"{label}: {n} files both load; MuJoCo / mbparse: median of per-file ratios "
              f"{ratio:.2f}x, totals {t_theirs * 1e3:.1f} / {t_mine * 1e3:.1f} ms")
        for f in both:
            print(f"    {theirs[f][args.stat] * 1e3:8.2f} {mine[f][args.stat] * 1e3:8.2f}  "
                  f"{_short(f, corpus)}")
        summary[f"mujoco: {label}"] = ratio
        if label.startswith("real robots"):
            # mbparse reads each mesh file once per process, MuJoCo on every
            # compile: the first load of each file is the figure without that.
            first, n = _median_ratio(theirs, mine, files, "first")
            print(f"  first load of each file (mbparse reading its meshes): MuJoCo / mbparse "
                  f"median of per-file ratios {first:.2f}x")
            summary[f"mujoco: {label}, first load"] = first


def scaling(args, folder: str, summary: dict) -> None:
    print("\n=== Scaling: synthetic URDF chains (mbparse, parse + finalize)")
    sizes, walls, cpus = [], [], []
    for n in args.chain_sizes:
        path = _write(folder, f"chain_{n}.urdf", urdf_chain(n))
        repeat = max(1, min(args.repeat, 3 if n >= 10_000 else args.repeat))
        result = bp.run_in(sys.executable, "mbparse", [{"file": path, "packages": []}],
                           repeat)[path]
        if "error" in result:
            print(f"  {n} links: {result['error']}")
            continue
        wall, cpu = result[args.stat], result[f"cpu {args.stat}"]
        sizes.append(n)
        walls.append(wall)
        cpus.append(cpu)
        print(f"  {n:>6} links: {wall * 1e3:9.1f} ms ({wall / n * 1e6:.1f} us per link); "
              f"CPU {cpu * 1e3:9.1f} ms ({cpu / n * 1e6:.1f} us per link)")
    if len(sizes) >= 2:
        k, k_cpu = _exponent(sizes, walls), _exponent(sizes, cpus)
        print(f"  time ~ N^{k:.2f}, CPU time ~ N^{k_cpu:.2f} over {sizes[0]}..{sizes[-1]} "
              "links (1.00 is linear; the wall time of a busy machine bends it)")
        summary["scaling exponent"] = k
        summary["scaling exponent (CPU time)"] = k_cpu


def _exponent(sizes: list[int], times: list[float]) -> float:
    """k of the least-squares fit time ~ size^k (on logarithms)."""
    xs = [math.log(n) for n in sizes]
    ys = [math.log(t) for t in times]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def _process_env(folder: str) -> dict:
    """The environment of timed whole processes: bytecode cached (in a
    scratch folder), as an installed package has it."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(folder, "pycache")
    return env


def _best_wall(command: list[str], env: dict, runs: int) -> float:
    """The shortest wall time of ``runs`` runs, after one untimed run."""
    import subprocess
    best = math.inf
    for k in range(runs + 1):
        t0 = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        if k:
            best = min(best, time.perf_counter() - t0)
    return best


def startup(args, corpus: str, folder: str, summary: dict) -> None:
    """Whole-process wall times: the best of ten runs each."""
    small = os.path.join(corpus, "drake_models", "iiwa_description", "urdf",
                         "iiwa14_no_collision.urdf")
    py = sys.executable
    commands = {
        "python -c pass": [py, "-c", "pass"],
        "import mbparse": [py, "-c", "import mbparse"],
        "mbparse inspect iiwa14 (a 15 kB URDF)": [
            py, "-m", "mbparse.cli", "inspect", small,
            "--package", f"drake_models={os.path.join(corpus, 'drake_models')}"],
    }
    print("\n=== Start-up: whole process, best of 10 (wall time, bytecode cached)")
    env = _process_env(folder)
    for label, command in commands.items():
        best = _best_wall(command, env, 10)
        print(f"  {label:<40} {best * 1e3:7.1f} ms")
        summary[f"start-up ms: {label}"] = best * 1e3


def batches(args, corpus: str, folder: str, summary: dict) -> None:
    """``mbparse inspect --json -j N`` over every corpus model file."""
    files = [f for suffix in SUFFIXES for f in bp.corpus_files(corpus, suffix, "")
             if not f.endswith("package.xml")]
    print(f"\n=== Batches: mbparse inspect --json -j N over {len(files)} corpus files "
          "(best of 3, whole process)")
    env = _process_env(folder)
    for jobs in (1, 2):
        best = _best_wall([sys.executable, "-m", "mbparse.cli", "inspect", "--json", "-j",
                           str(jobs), *files], env, 3)
        print(f"  -j {jobs}: {best:.2f} s, {len(files) / best:.0f} files/s")
        summary[f"inspect -j {jobs} files/s"] = len(files) / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peers-python", help="a Python with pydrake, yourdfpy and mujoco")
    ap.add_argument("--corpus", default=bp.DEFAULT_CORPUS)
    ap.add_argument("--repeat", type=int, default=6, help="timed parses per file (default 6)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="workers per peer and section, the peers taking turns (default 2: "
                         "see bench_parse.run_rounds)")
    ap.add_argument("--stat", choices=("best", "median"), default="best")
    ap.add_argument("--suffixes", default=",".join(SUFFIXES),
                    help="formats to time over the corpus (default: all)")
    ap.add_argument("--chain-sizes", default=",".join(map(str, CHAIN_SIZES)))
    ap.add_argument("--mjcf-robots", default="",
                    help="comma list of MJCF files or folders of them (real robots) to time "
                         "against MuJoCo as a group of their own")
    ap.add_argument("--skip", default="",
                    help="comma list of: formats, mujoco, scaling, startup, batches")
    args = ap.parse_args()
    args.suffixes = [s for s in args.suffixes.split(",") if s]
    args.chain_sizes = [int(n) for n in args.chain_sizes.split(",") if n]
    args.mjcf_robots = [p for p in args.mjcf_robots.split(",") if p]
    skip = set(args.skip.split(","))
    corpus = os.path.abspath(args.corpus)
    summary: dict = {}
    started = time.time()
    print(f"per file: one untimed parse, then the {args.stat} of {args.repeat} timed ones, "
          f"in each of {args.rounds} worker(s) per peer taking turns")
    with tempfile.TemporaryDirectory() as folder:
        if "formats" not in skip:
            per_format(args, corpus, summary)
        if "mujoco" not in skip:
            against_mujoco(args, corpus, folder, summary)
        if "scaling" not in skip:
            scaling(args, folder, summary)
        if "startup" not in skip:
            startup(args, corpus, folder, summary)
        if "batches" not in skip:
            batches(args, corpus, folder, summary)
    print(f"\n=== Summary ({time.time() - started:.0f} s)")
    for key, value in summary.items():
        if isinstance(value, dict):
            for peer, fig in value.items():
                print(f"  {key:<10} {peer:<9} median per-file ratio {fig['median']:6.2f}x  "
                      f"(totals {fig['total']:.2f}x, {fig['files']} files)")
        else:
            print(f"  {key:<45} {value:.2f}")


if __name__ == "__main__":
    main()
