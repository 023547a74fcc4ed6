#!/usr/bin/env python3
"""Files per second of a batch over the corpus: one core, ``-j 2``, and a
local Dask cluster of two worker processes (``--dask local:2``).

For each command asked (``inspect --json`` by default; ``check --format
jsonl`` and ``convert --to mjcf`` too), it runs the whole command as a fresh
process over every corpus model file, once per way of running, and prints
the wall time and files per second: what a user waits for. A Dask cluster
costs a start-up of seconds (its worker processes, each importing Dask and
mbparse) that a dataset of a million files does not feel, so the steady
rate is measured too, in this process, with the work already imported
everywhere: one core (``run_batch`` with ``jobs=1``) and the local cluster
(``run_batch`` on its executor, as ``--dask`` submits), each over the
corpus after one untimed pass. That steady rate is what ``docs/DATASETS.md``
extrapolates from. Nothing here is a test; the machine's load moves the
times (give ranges over several runs).

Usage:
  python benchmarks/bench_dask.py [--commands inspect,check,convert] [--runs 1]
      [--corpus ../shared/corpus]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_parse as bp  # noqa: E402

REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "src"))  # (the mbparse beside it, unless installed)
SUFFIXES = (".urdf", ".sdf", ".xml", ".dmd.yaml", ".obj")
WAYS = {"1 core (-j 1)": ["-j", "1"], "-j 2": ["-j", "2"],
        "Dask, 2 local workers": ["--dask", "local:2"]}


def command_line(command: str, files: list[str], folder: str) -> list[str]:
    base = [sys.executable, "-m", "mbparse.cli"]
    if command == "inspect":
        return [*base, "inspect", "--json", *files]
    if command == "check":
        return [*base, "check", "--no-config", "--format", "jsonl", *files]
    out = tempfile.mkdtemp(dir=folder)  # (a fresh folder and report each run)
    # (-o FOLDER and --resume: one output per file and one report line each, one file too)
    return [*base, "convert", "--to", "mjcf", "-o", out, "--resume",
            os.path.join(out, "report.jsonl"), *files]


def wall(argv: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                   check=False)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=bp.DEFAULT_CORPUS)
    ap.add_argument("--commands", default="inspect",
                    help="comma list of: inspect, check, convert (default inspect)")
    ap.add_argument("--runs", type=int, default=1, help="runs of each (the best is shown)")
    args = ap.parse_args()
    try:
        import distributed  # noqa: F401
    except ImportError:
        sys.exit("bench_dask.py needs Dask: pip install 'mbparse[dask]'")
    corpus = os.path.abspath(args.corpus)
    files = [f for suffix in SUFFIXES for f in bp.corpus_files(corpus, suffix, "")
             if not f.endswith("package.xml")]
    print(f"{len(files)} corpus model files; whole processes, best of {args.runs}; "
          f"{os.cpu_count()} cores here, load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(folder, "pycache")  # (bytecode cached)
        for command in args.commands.split(","):
            print(f"\n=== {command} over {len(files)} files")
            for label, flags in WAYS.items():
                whole = min(wall([*command_line(command, files, folder), *flags], env)
                            for _ in range(args.runs))
                print(f"  {label:<24} {whole:7.1f} s  {len(files) / whole:6.1f} files/s",
                      flush=True)
        for command in args.commands.split(","):
            print(f"\n=== steady rates of {command}'s work (warm workers, in this process)")
            for label, rate in steady_rates(command, files, args.runs, folder):
                print(f"  {label:<40} {rate:6.1f} files/s  ({1e3 / rate:5.1f} ms a file)",
                      flush=True)


def steady_rates(command: str, files: list[str], runs: int, folder: str):
    """(label, files per second) of ``command``'s work over ``files`` on
    one core and on a local Dask cluster of two worker processes, each the
    best of ``runs`` passes after an untimed one."""
    import functools
    import logging

    from distributed import Client, LocalCluster

    from mbparse.batch import run_batch
    from mbparse.commands.batching import dask_batching
    from mbparse.loading import LoadOptions

    if command == "inspect":
        from mbparse.commands.inspect import inspect_one
        work = functools.partial(inspect_one, options=LoadOptions(), as_json=True)
    elif command == "check":
        from mbparse.lint import lint_file
        work = functools.partial(lint_file, options=LoadOptions(contact_approximation="sap"))
    else:
        from mbparse.commands.convert import convert_to_file, output_names
        from mbparse.convert.files import ConvertFileOptions
        work = functools.partial(convert_to_file, target="mjcf", options=ConvertFileOptions())
        files = output_names(files, tempfile.mkdtemp(dir=folder), ".xml")

    def best(**how) -> float:
        times = []
        for k in range(runs + 1):
            t0 = time.perf_counter()
            for _ in run_batch(work, files, **how):
                pass
            if k:
                times.append(time.perf_counter() - t0)
        return len(files) / min(times)

    yield "1 core", best(jobs=1)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=logging.ERROR) as cluster, \
            Client(cluster) as client:
        ahead, chunk = dask_batching(client, len(files))
        yield (f"Dask, 2 local workers ({chunk} files a task)",
               best(executor=client.get_executor(pure=False), ahead=ahead, chunk=chunk))


if __name__ == "__main__":
    main()
