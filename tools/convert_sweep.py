"""Converts model files to URDF, SDFormat and MJCF and checks each result:
mbparse reads it back to the same bodies and joints (up to the loss report),
and MuJoCo (when installed) compiles each MJCF to the same bodies.

    python tools/convert_sweep.py DIR_OR_FILES... [--to urdf,sdf,mjcf] [--sample N] [-v]

Prints one line per failing pair and the faithful figure per pair of formats.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import tempfile
import warnings

from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.convert.loss import ConvertError
from mbparse.convert.roundtrip import (body_records, compare_bodies, compare_read_back,
                                       excused_by, mujoco_bodies, read_back)
from mbparse.diagnostics import ParseError
from mbparse.loading import LoadOptions, load

SUFFIX_OF = {"urdf": ".urdf", "sdf": ".sdf", "mjcf": ".xml"}
SUFFIXES = {".urdf": "urdf", ".sdf": "sdf", ".xml": "mjcf", ".yaml": "dmd", ".obj": "obj"}


def files_under(paths: list[str]) -> list[str]:
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                out += [os.path.join(root, n) for n in names
                        if os.path.splitext(n)[1].lower() in SUFFIXES]
        else:
            out.append(p)
    return sorted(out)


def check_one(path: str, target: str, folder: str) -> tuple[str, list[str]]:
    """('faithful'|'lossy-ok'|'differs'|'error', details) for one pair."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        original = load(path, LoadOptions(time_step=0.0))
    out = os.path.join(folder, os.path.basename(path) + "." + target + SUFFIX_OF[target])
    try:
        result = convert_file(path, target, out, ConvertFileOptions(via_model=True))
    except (ConvertError, ParseError) as e:
        return "error", [f"convert: {e}"]
    with open(out, "w", encoding="utf-8") as f:
        f.write(result.text)
    try:
        written = read_back(out)
    except ParseError as e:
        return "error", [f"read back: {str(e).splitlines()[0]}"]
    problems = compare_read_back(original.plant, written.plant, result.report)
    if target == "mjcf":
        try:
            got = mujoco_bodies(out)
        except Exception as e:  # MuJoCo's compiler error
            return "error", [f"mujoco: {str(e).splitlines()[0]}"]
        if got is not None:
            bodies, _, zero = excused_by(result.report)
            want = body_records(original.plant, zero,
                                prefixed=original.plant.num_model_instances() > 3)
            problems += ["mujoco " + p for p in compare_bodies(want, got, bodies)]
    if problems:
        return "differs", problems
    return ("faithful" if not result.report else "lossy-ok"), []


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--to", default="urdf,sdf,mjcf")
    ap.add_argument("--sample", type=int, default=0, help="check a random sample of N files")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    files = files_under(args.paths)
    if args.sample and args.sample < len(files):
        files = sorted(random.Random(args.seed).sample(files, args.sample))
    tally: dict[tuple[str, str], collections.Counter] = collections.defaultdict(
        collections.Counter)
    with tempfile.TemporaryDirectory() as folder:
        for path in files:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    load(path, LoadOptions(time_step=0.0))
            except Exception:
                continue  # only files that load are converted
            src = SUFFIXES.get(os.path.splitext(path)[1].lower(), "?")
            if path.endswith(".dmd.yaml"):
                src = "dmd"
            for target in args.to.split(","):
                try:
                    verdict, details = check_one(path, target, folder)
                except Exception as e:  # a crash is a finding, not a stop
                    verdict, details = "error", [f"crash: {type(e).__name__}: {e}"]
                tally[(src, target)][verdict] += 1
                if verdict in ("differs", "error") and args.verbose:
                    print(f"{path} -> {target}: {verdict}: {'; '.join(details[:3])}")
    print(f"{'pair':14} {'files':>5} {'faithful':>9} {'lossy-ok':>9} {'differs':>8} "
          f"{'error':>6}  same-model %")
    for (src, target), c in sorted(tally.items()):
        n = sum(c.values())
        ok = c["faithful"] + c["lossy-ok"]
        print(f"{src + '->' + target:14} {n:5} {c['faithful']:9} {c['lossy-ok']:9} "
              f"{c['differs']:8} {c['error']:6}  {100.0 * ok / n:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
