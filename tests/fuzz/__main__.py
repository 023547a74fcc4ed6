"""``python -m tests.fuzz --format urdf --seed 1 --inputs 100000 --jobs 2``

Runs a fuzz campaign over a format (or ``all``), prints the outcome counts
and every finding grouped by exception type and innermost mbparse frame;
``--save`` minimises one input per finding and stores it as a regression case
under ``tests/fuzz/regressions/<format>/``.
"""
from __future__ import annotations

import argparse
import sys
import time

from .minimize import minimize, save_regression
from .run import FORMATS, Workdir, campaign, classify_bytes, make_input, seed_files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--format", default="all", choices=FORMATS + ("all",))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--inputs", type=int, default=10000, help="inputs per format")
    ap.add_argument("--start", type=int, default=0, help="first input index")
    ap.add_argument("--jobs", type=int, default=1,
                    help="worker processes (0: in this process, without the memory guard)")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per input")
    ap.add_argument("--memory-mb", type=int, default=1536, help="address space per worker")
    ap.add_argument("--max-seconds", type=float, default=0.0,
                    help="stop a format's campaign after this long (0: no limit)")
    ap.add_argument("--save", action="store_true",
                    help="minimise one input per finding and save it as a regression case")
    ap.add_argument("--show", action="store_true", help="print each finding's traceback")
    args = ap.parse_args(argv)
    bad = 0
    for fmt in (FORMATS if args.format == "all" else (args.format,)):
        t0 = time.time()
        last = [t0]

        shown: set[str] = set()

        def progress(report):
            # Each finding as soon as it is found: a campaign cut short keeps them.
            for key, (n, index, detail) in list(report.findings.items()):
                if key not in shown:
                    shown.add(key)
                    print(f"  found {key} (input {index})", file=sys.stderr, flush=True)
            if time.time() - last[0] > 60:
                last[0] = time.time()
                print(f"  ... {report.inputs} inputs, bad {report.bad()}", file=sys.stderr,
                      flush=True)
        report = campaign(fmt, args.seed, args.inputs, args.jobs, args.time_limit,
                          args.memory_mb, args.start, progress, args.max_seconds)
        print(report.text())
        print(f"  ({time.time() - t0:.0f} s)", flush=True)
        bad += report.bad()
        if args.show:
            for key, (n, index, detail) in report.findings.items():
                print(f"--- {key} (input {index})\n{detail}")
        if args.save and report.findings:
            seeds = seed_files(fmt)
            workdir = Workdir()
            try:
                for key, (n, index, detail) in report.findings.items():
                    data, source = make_input(fmt, args.seed, index, seeds)
                    small = minimize(data, lambda d: classify_bytes(fmt, d, workdir, source,
                                                                    args.time_limit))
                    print(f"  saved {save_regression(fmt, small, key)}")
            finally:
                workdir.remove()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
