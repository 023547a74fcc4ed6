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

from mbparse.convert.roundtrip import check_conversion
from mbparse.loading import LoadOptions, load

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
                    verdict, details = check_conversion(path, target, folder)
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
