"""Drake parses what mbparse writes: for each model file Drake parses, the
URDF and SDFormat that ``mbparse convert`` writes must parse in Drake too.
Not part of the suite (pydrake lives in a scratch environment).

    PEER=/path/to/python-with-pydrake python tools/drake_convert_check.py DIR --sample N
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import warnings

from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.convert.writers import SUFFIXES

DRAKE_PARSE = """
import sys
from pydrake.multibody.parsing import Parser
from pydrake.multibody.plant import MultibodyPlant
plant = MultibodyPlant(0.0)
parser = Parser(plant)
for name, folder in [a.split("=", 1) for a in sys.argv[2:]]:
    parser.package_map().Add(name, folder)
parser.AddModels(sys.argv[1])
plant.Finalize()
"""


def drake_parses(peer: str, path: str) -> tuple[bool, str]:
    r = subprocess.run([peer, "-c", DRAKE_PARSE, path], capture_output=True, text=True,
                       timeout=300)
    return r.returncode == 0, (r.stderr.strip().splitlines() or [""])[-1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--peer", default=os.environ.get("PEER", "/work/peers/.venv/bin/python"))
    args = ap.parse_args(argv)
    files = []
    for p in args.paths:
        for root, _, names in os.walk(p) if os.path.isdir(p) else [("", [], [p])]:
            files += [os.path.join(root, n) for n in names
                      if n.endswith((".urdf", ".sdf", ".xml", ".dmd.yaml"))]
    files.sort()
    if args.sample and args.sample < len(files):
        files = sorted(random.Random(args.seed).sample(files, args.sample))
    counts = {"urdf": [0, 0], "sdf": [0, 0]}
    with tempfile.TemporaryDirectory() as folder:
        for path in files:
            ok, _ = drake_parses(args.peer, path)
            if not ok:
                continue
            for target in ("urdf", "sdf"):
                out = os.path.join(folder, os.path.basename(path) + SUFFIXES[target])
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        text = convert_file(path, target, out,
                                            ConvertFileOptions(via_model=True)).text
                except Exception as e:  # mbparse refused: counted as a failure
                    print(f"{path} -> {target}: mbparse: {e}")
                    counts[target][1] += 1
                    continue
                with open(out, "w", encoding="utf-8") as f:
                    f.write(text)
                good, why = drake_parses(args.peer, out)
                counts[target][0] += good
                counts[target][1] += 1
                if not good:
                    print(f"{path} -> {target}: Drake: {why}")
    for target, (good, n) in counts.items():
        print(f"Drake parses the written {target}: {good}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
