"""Converts model files to URDF, SDFormat and MJCF and checks each result:
mbparse reads it back to the same bodies and joints (up to the loss report),
and MuJoCo (when installed) compiles each MJCF to the same bodies.

    python tools/convert_sweep.py DIR_OR_FILES... [--to urdf,sdf,mjcf] [--sample N] [-v]
    python tools/convert_sweep.py --manifest REALMODELS/MANIFEST.json --others \
        [--drake PYTHON_WITH_PYDRAKE] [--json OUT]

``--manifest`` takes the URDF, SDFormat and MJCF models of a manifest (entries
with ``path``, ``format`` and the ``packages`` they need; for a ``xacro`` entry
with links, the URDF xacro expanded of it, named by ``expanded``); ``--others`` converts
each file only to the two formats it is not in. With ``--drake``, a written
URDF or SDFormat file must also parse in Drake whenever Drake parsed the input.

Prints one line per failing pair and the faithful figure per pair of formats:
"faithful" (the same model, nothing lost), "lossy-ok" (the same model up to the
loss report), "differs", "error" (no output, or the output does not load),
"drake" (Drake refuses the output), "empty" (the input holds nothing to convert
-- no rigid body, no geometry -- and the conversion refuses it, as it should).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import sys
import tempfile
import warnings

from mbparse.convert.roundtrip import check_conversion
from mbparse.loading import LoadOptions, load

EMPTY = "no rigid bodies and no geometry on the world"
WRITTEN_SUFFIX = {"urdf": ".urdf", "sdf": ".sdf", "mjcf": ".xml", "usd": ".usda"}
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


MANIFEST_FORMATS = {"urdf": "urdf", "sdf": "sdf", "mjcf": "mjcf"}


def manifest_models(manifest: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """(path, packages) of every URDF, SDFormat and MJCF model a manifest lists,
    and the URDF that xacro expanded of each xacro model with links."""
    with open(manifest, encoding="utf-8") as f:
        data = json.load(f)
    root = data.get("root") or os.path.dirname(os.path.abspath(manifest))
    out = []
    for m in data["models"]:
        path = None
        if m.get("format") in MANIFEST_FORMATS:
            path = m["path"]
        elif m.get("format") == "xacro" and m.get("expanded") and m.get("has_links"):
            path = m["expanded"]
        if path:
            out.append((os.path.join(root, path), sorted(m.get("packages", {}).items())))
    return sorted(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--manifest", help="a MANIFEST.json of model files and their packages")
    ap.add_argument("--others", action="store_true",
                    help="convert each file only to the formats it is not in")
    ap.add_argument("--drake", help="a Python with pydrake: written URDF/SDFormat must parse "
                    "in Drake when the input did")
    ap.add_argument("--json", help="write every pair's verdict and details here")
    ap.add_argument("--to", default="urdf,sdf,mjcf")
    ap.add_argument("--sample", type=int, default=0, help="check a random sample of N files")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    models = [(p, []) for p in files_under(args.paths)]
    if args.manifest:
        models += manifest_models(args.manifest)
    if args.sample and args.sample < len(models):
        models = sorted(random.Random(args.seed).sample(models, args.sample))
    drake = None
    if args.drake:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from drake_convert_check import DrakePeer
        drake = DrakePeer(args.drake)
    tally: dict[tuple[str, str], collections.Counter] = collections.defaultdict(
        collections.Counter)
    records = []
    with tempfile.TemporaryDirectory() as folder:
        for number, (path, packages) in enumerate(models):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    load(path, LoadOptions(time_step=0.0, packages=packages))
            except Exception:
                continue  # only files that load are converted
            src = SUFFIXES.get(os.path.splitext(path)[1].lower(), "?")
            if path.endswith(".dmd.yaml"):
                src = "dmd"
            drake_parsed_input = None
            for target in args.to.split(","):
                if args.others and target == src:
                    continue
                out = os.path.join(folder, f"{number}_{os.path.basename(path)}.{target}"
                                   f"{WRITTEN_SUFFIX[target]}")
                try:
                    verdict, details = check_conversion(path, target, folder, packages, out)
                except Exception as e:  # a crash is a finding, not a stop
                    verdict, details = "error", [f"crash: {type(e).__name__}: {e}"]
                if verdict == "error" and EMPTY in details[0]:
                    verdict = "empty"  # refused as it should be: nothing to convert
                if (drake and target in ("urdf", "sdf") and verdict in ("faithful", "lossy-ok")):
                    if drake_parsed_input is None:
                        drake_parsed_input = drake.parses(path, packages)[0]
                    if drake_parsed_input:
                        ok, why = drake.parses(out)
                        if not ok:
                            verdict, details = "drake", [f"Drake refuses the output: {why}"]
                tally[(src, target)][verdict] += 1
                records.append({"path": path, "target": target, "verdict": verdict,
                                "details": details})
                if verdict in ("differs", "error", "drake") and args.verbose:
                    print(f"{path} -> {target}: {verdict}: {'; '.join(details[:3])}",
                          flush=True)
    if drake:
        drake.close()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(records, f, indent=1)
    print(f"{'pair':14} {'files':>5} {'faithful':>9} {'lossy-ok':>9} {'differs':>8} "
          f"{'error':>6} {'drake':>6} {'empty':>6}  same-model % (of all; of non-empty)")
    total = collections.Counter()
    for (src, target), c in sorted(tally.items()):
        total.update(c)
        _row(f"{src}->{target}", c)
    _row("all", total)
    return 0


def _row(label: str, c: collections.Counter) -> None:
    n = sum(c.values())
    ok = c["faithful"] + c["lossy-ok"]
    print(f"{label:14} {n:5} {c['faithful']:9} {c['lossy-ok']:9} "
          f"{c['differs']:8} {c['error']:6} {c['drake']:6} {c['empty']:6}  "
          f"{100.0 * ok / max(n, 1):.1f}; {100.0 * ok / max(n - c['empty'], 1):.1f}")


if __name__ == "__main__":
    sys.exit(main())
