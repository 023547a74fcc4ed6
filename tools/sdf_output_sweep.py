"""Converts model files to SDFormat as ``mbparse convert --to sdf`` does and
judges each output three ways: libsdformat loads it with zero errors (the
checker of ``tests/sdformat_check.cc``, built with g++ and pkg-config),
mbparse reads it back to the input's model up to the loss report
(``convert.roundtrip.check_conversion``), and, with ``--drake PYTHON``, Drake
parses it whenever Drake parsed the input.

    python tools/sdf_output_sweep.py DIR_OR_FILES... [--sample N] [--drake PY] [-v]

Prints one line per failing file and the figures: pairs tried, libsdformat
zero errors, read back equal (faithful or up to the report), losses reported.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import subprocess
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
sys.path.insert(0, HERE)

from sdformat_checker import build_checker  # noqa: E402

from mbparse.convert.roundtrip import check_conversion  # noqa: E402
from mbparse.diagnostics import ParseError  # noqa: E402
from mbparse.loading import LoadOptions, load  # noqa: E402

SUFFIXES = (".urdf", ".sdf", ".xml")


def files_under(paths: list[str]) -> list[str]:
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                out += [os.path.join(root, n) for n in names if n.lower().endswith(SUFFIXES)]
        else:
            out.append(p)
    return sorted(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--drake", help="a Python with pydrake: Drake must parse each output "
                                    "whose input it parses")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    program, why = build_checker()
    if program is None:
        print(f"libsdformat checker unavailable: {why}", file=sys.stderr)
        return 2
    files = files_under(args.paths)
    if args.sample and args.sample < len(files):
        files = sorted(random.Random(args.seed).sample(files, args.sample))
    drake = None
    if args.drake:
        from drake_convert_check import DrakePeer
        drake = DrakePeer(args.drake)
    counts: collections.Counter = collections.Counter()
    with tempfile.TemporaryDirectory() as folder:
        for number, path in enumerate(files):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    load(path, LoadOptions(time_step=0.0))
            except (ParseError, OSError, ValueError):
                counts["input does not load"] += 1
                continue
            counts["pairs"] += 1
            out = os.path.join(folder, f"{number}_{os.path.basename(path)}.sdf")
            verdict, details = check_conversion(path, "sdf", folder, out=out)
            counts[f"read back: {verdict}"] += 1
            if verdict == "error":
                print(f"{path}: {details[0]}")
                continue
            if verdict == "differs":
                print(f"{path}: differs: {'; '.join(details[:3])}")
            done = subprocess.run([str(program), out], capture_output=True, text=True)
            errors = [x for x in done.stdout.splitlines() if x.strip()]
            if done.returncode == 0 and not errors:
                counts["libsdformat: zero errors"] += 1
            else:
                print(f"{path}: libsdformat: {errors[0] if errors else done.returncode}")
            if drake is not None and drake.parses(path)[0]:
                counts["Drake parsed the input"] += 1
                ok, why = drake.parses(out)
                counts["Drake parses the output"] += ok
                if not ok:
                    print(f"{path}: Drake: {why}")
            if args.verbose:
                print(f"{path}: {verdict}")
    if drake is not None:
        drake.close()
    for key in sorted(counts):
        print(f"{key}: {counts[key]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
