"""``mbparse inspect FILE...``: what a model file puts into the model."""
from __future__ import annotations

import argparse
import functools
import io
import sys
from typing import TextIO

from ..batch import Failed, add_jobs_argument, run_batch
from ..diagnostics import ParseError
from ..formats import preload
from ..loading import LoadOptions
from ..loading import load as load_with_options
from ..summary import SCHEMA, lazy_summary, summary_json
from .loading import add_loading_arguments, options_from_args


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true",
                   help="print one mbsummary/1 JSON object per file, one per line")
    add_jobs_argument(p)
    add_loading_arguments(p)


def run(args: argparse.Namespace) -> int:
    try:
        options = options_from_args(args)
    except ParseError as e:
        print(f"mbparse inspect: {e}", file=sys.stderr)
        return 2
    work = functools.partial(inspect_one, options=options, as_json=args.json,
                             debug=getattr(args, "debug", False))
    status = 0
    for path, result in run_batch(work, args.files, args.jobs,
                                    functools.partial(preload, args.files)):
        if isinstance(result, Failed):  # inspect_one keeps its own failures; this is a crash
            result = (1, "", f"{path}: internal error in mbparse: {result.error}\n")
            if args.json:
                result = (1, _error_json(path, result[2].strip()), "")
        code, out, err = result
        status = max(status, code)
        if err:
            sys.stderr.write(err)
            sys.stderr.flush()
        if out:
            sys.stdout.write(out)
            sys.stdout.flush()
    return status


def inspect_one(path: str, options: LoadOptions, as_json: bool,
                debug: bool = False) -> tuple[int, str, str]:
    """What ``inspect`` prints for one file: (status, standard output text,
    standard error text). Runs in a worker process when ``-j`` asks for more
    than one. With ``debug``, an internal failure raises (its traceback shows)."""
    try:
        loaded = load_with_options(path, options)
        if as_json:  # written as it is made: a large model's summary is never held whole
            text = summary_json(loaded.plant, loaded.parser, loaded.instances, {"file": path})
            return 0, text + "\n", ""
        # Made as the outline reads it: a large model's summary is never held whole.
        summary = lazy_summary(loaded.plant, loaded.parser, loaded.instances)
        summary["file"] = path
        out = io.StringIO()
        print_outline(summary, out)
    except ParseError as e:
        if as_json:
            return 1, _error_json(path, str(e).splitlines()[0]), ""
        return 1, "", f"{e}\n"  # located: "FILE:LINE: error: ..."
    except Exception as e:  # a bug in mbparse, not a problem in the file
        if debug:
            raise
        message = (f"{path}: internal error in mbparse: {type(e).__name__}: {str(e)[:200]} "
                   "(--debug shows the traceback)")
        if as_json:
            return 1, _error_json(path, message), ""
        return 1, "", message + "\n"
    return 0, out.getvalue(), warnings_text(path, loaded.warnings)


def _error_json(path: str, message: str) -> str:
    """The JSON line of a file that could not be inspected."""
    import json  # here: the text outline does without it (start-up time)

    return json.dumps({"schema": SCHEMA, "file": path, "error": message}) + "\n"


def warnings_text(path: str, seen: list) -> str:
    """The warnings to show for one file, as ``mbparse check`` grades them:
    warnings are shown; notes (valid input mbparse does not read, and what
    Drake alone would refuse) are counted in one line that says how to list
    them."""
    from ..lint.rules import level_of, rule_of

    shown = [d for d in seen if level_of(rule_of(d.code, d.severity), d.severity) != "note"]
    notes = len(seen) - len(shown)
    refused = sum(1 for d in seen if d.code == "drake-refuses")
    lines = [f"{d}\n" for d in shown]
    if notes:
        drake = (f", {refused} of them things Drake would refuse ('--like drake' refuses as "
                 "Drake does)" if refused else "")
        lines.append(f"note: {path}: {notes} note{'s' if notes > 1 else ''} on input that is "
                     f"valid but not read or beyond Drake{drake}; "
                     "'mbparse check --show-notes' lists them\n")
    return "".join(lines)


def _fmt(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _range(lo, hi) -> str:
    pairs = [f"[{_fmt(a)}, {_fmt(b)}]" for a, b in zip(lo, hi) if a != "-inf" or b != "inf"]
    return " ".join(pairs)


def print_outline(s: dict, file: TextIO | None = None) -> None:
    """A readable outline of a summary (on standard output, or ``file``)."""
    stream = file if file is not None else sys.stdout

    def emit(line: str) -> None:
        stream.write(line + "\n")

    emit(f"{s['file']}")
    emit(f"  model instances: {', '.join(s['model_instances'])}")
    emit(f"  bodies ({len(s['bodies'])}):")
    for name, b in s["bodies"].items():
        extra = " (floating)" if b["floating"] else ""
        p = ", ".join(f"{v:.4g}" for v in b["X_WB"]["p"])
        emit(f"    {name}: mass {_fmt(b['mass'])} kg at ({p}){extra}")
    emit(f"  joints ({len(s['joints'])}):")
    for name, j in s["joints"].items():
        line = f"    {name}: {j['type']} {j['parent']} -> {j['child']}"
        if "axis" in j:
            line += f" axis ({', '.join(_fmt(v) for v in j['axis'])})"
        limits = _range(j["pos_lower"], j["pos_upper"])
        if limits:
            line += f" limits {limits}"
        emit(line)
    if s["actuators"]:
        emit(f"  actuators ({len(s['actuators'])}):")
        for name, a in s["actuators"].items():
            emit(f"    {name}: on {a['joint']}, effort limit {_fmt(a['effort_limit'])}")
    emit(f"  geometries ({len(s['geometries'])}):")
    for g in s["geometries"]:
        shape = dict(g["shape"])
        kind = shape.pop("type")
        params = ", ".join(f"{k} {v}" for k, v in shape.items())
        emit(f"    {g['name']} on {g['body']}: {kind} {params} [{', '.join(g['roles'])}]")
    emit(f"  collision candidates: {s['collision_candidates']}")
    for key in ("frames", "constraints", "force_elements", "sensors"):
        if s.get(key):
            emit(f"  {key.replace('_', ' ')}: {len(s[key])}")
