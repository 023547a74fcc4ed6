"""Drake parses what mbparse writes: for each model file Drake parses, the
URDF and SDFormat that ``mbparse convert`` writes must parse in Drake too.
Not part of the suite (pydrake lives in a scratch environment).

    PEER=/path/to/python-with-pydrake python tools/drake_convert_check.py DIR --sample N

:class:`DrakePeer` keeps one pydrake process alive and parses file after file
in it (a fresh plant each time); ``tools/convert_sweep.py --drake`` uses it.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import subprocess
import sys
import tempfile
import warnings

from mbparse.convert.files import ConvertFileOptions, convert_file
from mbparse.convert.writers import SUFFIXES

# Reads one JSON request per line ({"path", "packages"}), answers one JSON
# line {"ok", "why"}.
DRAKE_SERVER = r"""
import json, sys, warnings
from pydrake.multibody.parsing import Parser
from pydrake.multibody.plant import MultibodyPlant
for line in sys.stdin:
    req = json.loads(line)
    try:
        plant = MultibodyPlant(0.0)
        parser = Parser(plant)
        for name, folder in req["packages"]:
            if not parser.package_map().Contains(name):
                parser.package_map().Add(name, folder)
        parser.AddModels(req["path"])
        plant.Finalize()
        answer = {"ok": True, "why": ""}
    except Exception as e:
        answer = {"ok": False, "why": (str(e).strip().splitlines() or [""])[-1][:300]}
    print(json.dumps(answer), flush=True)
"""


class DrakePeer:
    """One long-lived pydrake process that parses model files on request."""

    def __init__(self, python: str, timeout: float = 120.0):
        self.python = python
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None

    def _start(self) -> None:
        self.proc = subprocess.Popen([self.python, "-c", DRAKE_SERVER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def parses(self, path: str, packages: list[tuple[str, str]] = ()) -> tuple[bool, str]:
        """(Drake parsed and finalized ``path``, the last line of its error)."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.proc.stdin.write(json.dumps({"path": path, "packages": list(packages)}) + "\n")
        self.proc.stdin.flush()
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        ready = sel.select(self.timeout)
        sel.close()
        line = self.proc.stdout.readline() if ready else ""
        if not line:  # Drake crashed or hung: a refusal, and a fresh process next time
            self.close()
            return False, "Drake crashed or timed out"
        answer = json.loads(line)
        return answer["ok"], answer["why"]


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
    drake = DrakePeer(args.peer)
    with tempfile.TemporaryDirectory() as folder:
        for path in files:
            ok, _ = drake.parses(path)
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
                good, why = drake.parses(out)
                counts[target][0] += good
                counts[target][1] += 1
                if not good:
                    print(f"{path} -> {target}: Drake: {why}")
    drake.close()
    for target, (good, n) in counts.items():
        print(f"Drake parses the written {target}: {good}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
