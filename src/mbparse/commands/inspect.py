"""``mbparse inspect FILE...``: what a model file puts into the model."""
from __future__ import annotations

import argparse
import json
import sys

from ..diagnostics import ParseError
from ..summary import SCHEMA, summarize
from .loading import add_loading_arguments, load


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true",
                   help="print one mbsummary/1 JSON object per file, one per line")
    add_loading_arguments(p)


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            loaded = load(path, args)
            summary = summarize(loaded.plant, loaded.parser, loaded.instances)
        except ParseError as e:
            status = 1
            if args.json:
                print(json.dumps({"schema": SCHEMA, "file": path,
                                  "error": str(e).splitlines()[0]}), flush=True)
            else:
                print(f"error: {e}", file=sys.stderr)
            continue
        except Exception as e:  # a bug in mbparse, not a problem in the file
            if getattr(args, "debug", False):
                raise
            status = 1
            message = (f"{path}: internal error in mbparse: {type(e).__name__}: "
                       f"{str(e)[:200]} (--debug shows the traceback)")
            if args.json:
                print(json.dumps({"schema": SCHEMA, "file": path, "error": message}), flush=True)
            else:
                print(message, file=sys.stderr)
            continue
        summary["file"] = path
        if args.json:
            print(json.dumps(summary), flush=True)
        else:
            for w in loaded.warnings:
                print(f"warning: {w}", file=sys.stderr)
            print_outline(summary)
    return status


def _fmt(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _range(lo, hi) -> str:
    pairs = [f"[{_fmt(a)}, {_fmt(b)}]" for a, b in zip(lo, hi) if a != "-inf" or b != "inf"]
    return " ".join(pairs)


def print_outline(s: dict) -> None:
    """A readable outline of a summary."""
    print(f"{s['file']}")
    print(f"  model instances: {', '.join(s['model_instances'])}")
    print(f"  bodies ({len(s['bodies'])}):")
    for name, b in s["bodies"].items():
        extra = " (floating)" if b["floating"] else ""
        p = ", ".join(f"{v:.4g}" for v in b["X_WB"]["p"])
        print(f"    {name}: mass {_fmt(b['mass'])} kg at ({p}){extra}")
    print(f"  joints ({len(s['joints'])}):")
    for name, j in s["joints"].items():
        line = f"    {name}: {j['type']} {j['parent']} -> {j['child']}"
        if "axis" in j:
            line += f" axis ({', '.join(_fmt(v) for v in j['axis'])})"
        limits = _range(j["pos_lower"], j["pos_upper"])
        if limits:
            line += f" limits {limits}"
        print(line)
    if s["actuators"]:
        print(f"  actuators ({len(s['actuators'])}):")
        for name, a in s["actuators"].items():
            print(f"    {name}: on {a['joint']}, effort limit {_fmt(a['effort_limit'])}")
    print(f"  geometries ({len(s['geometries'])}):")
    for g in s["geometries"]:
        shape = dict(g["shape"])
        kind = shape.pop("type")
        params = ", ".join(f"{k} {v}" for k, v in shape.items())
        print(f"    {g['name']} on {g['body']}: {kind} {params} [{', '.join(g['roles'])}]")
    print(f"  collision candidates: {s['collision_candidates']}")
    for key in ("frames", "constraints", "force_elements", "sensors"):
        if s.get(key):
            print(f"  {key.replace('_', ' ')}: {len(s[key])}")
