"""``mbparse inspect FILE...``: what a model file puts into the model."""
from __future__ import annotations

import argparse
import functools
import io
import math
import sys
from typing import TextIO

from ..batch import Failed
from ..diagnostics import ParseError, located_line
from ..formats import preload
from ..loading import Loaded, LoadOptions
from ..loading import load as load_with_options
from ..memory import collector_paused
from ..summary import SCHEMA, Outline, outline, summary_json
from ..limits import call_with_limits
from .batching import Batch, BatchError, add_batch_arguments
from .loading import add_loading_arguments, options_from_args


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true",
                   help="print one mbsummary/1 JSON object per file, one per line")
    add_batch_arguments(p)
    add_loading_arguments(p)


def run(args: argparse.Namespace) -> int:
    try:
        options = options_from_args(args)
    except ParseError as e:
        print(located_line(e, "mbparse inspect"), file=sys.stderr)
        return 2
    if args.resume and not args.json:
        print("mbparse inspect: --resume reads and appends JSON lines; give --json too",
              file=sys.stderr)
        return 2
    work = functools.partial(call_with_limits, options.size_limits, functools.partial(
        inspect_one, options=options, as_json=args.json, debug=getattr(args, "debug", False)))
    try:
        batch = Batch(args, args.files)
    except BatchError as e:
        print(f"mbparse inspect: {e}", file=sys.stderr)
        return 2
    try:
        return _run(batch, args, work)
    finally:
        batch.close()


def _run(batch: Batch, args: argparse.Namespace, work) -> int:
    status = 0
    for path, result in batch.results(work, functools.partial(preload, batch.items)):
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
            batch.write(out)
    return status


def inspect_one(path: str, options: LoadOptions, as_json: bool,
                debug: bool = False) -> tuple[int, str, str]:
    """What ``inspect`` prints for one file: (status, standard output text,
    standard error text). Runs in a worker process when ``-j`` asks for more
    than one. With ``debug``, an internal failure raises (its traceback shows)."""
    try:
        loaded = load_with_options(path, options)
        if as_json:  # written as it is made: a large model's summary is never held whole
            return 0, summary_json(loaded.plant, loaded.parser, loaded.instances,
                                   {"file": path}, end="\n"), ""
        text = outline_text(loaded, path)
    except ParseError as e:
        line = located_line(e, path)
        if as_json:
            return 1, _error_json(path, line.splitlines()[0]), ""
        return 1, "", f"{line}\n"
    except Exception as e:  # a bug in mbparse, not a problem in the file
        if debug:
            raise
        message = (f"{path}: internal error in mbparse: {type(e).__name__}: {str(e)[:200]} "
                   "(--debug shows the traceback)")
        if as_json:
            return 1, _error_json(path, message), ""
        return 1, "", message + "\n"
    return 0, text, warnings_text(path, loaded.warnings)


def outline_text(loaded: Loaded, path: str) -> str:
    """The text outline of a loaded file, made as it is printed, straight
    from the plant (only the fields the outline shows)."""
    out = io.StringIO()
    with collector_paused():  # many new objects, no cycles among them
        print_outline(outline(loaded.plant, loaded.parser, loaded.instances, path), out)
    return out.getvalue()


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


def _range(lower, upper) -> str:
    """The finite limits, "[lo, hi]" each (the outline's numbers are floats)."""
    inf = math.inf
    return " ".join(f"[{a:g}, {b:g}]" for a, b in zip(lower, upper) if a != -inf or b != inf)


def print_outline(s: dict | Outline, file: TextIO | None = None) -> None:
    """A readable outline of a model (on standard output, or ``file``): of an
    :class:`~mbparse.summary.Outline`, or of a summary with its "file" key."""
    o = s if isinstance(s, Outline) else Outline.of_summary(s)
    stream = file if file is not None else sys.stdout
    lines: list[str] = [o.file, f"  model instances: {', '.join(o.model_instances)}",
                        f"  bodies ({len(o.bodies)}):"]
    add, flush = lines.append, _flusher(lines, stream)
    for name, mass, (x, y, z), floating in o.bodies:
        add(f"    {name}: mass {mass:g} kg at ({x:.4g}, {y:.4g}, {z:.4g})"
            f"{' (floating)' if floating else ''}")
        flush()
    add(f"  joints ({len(o.joints)}):")
    for name, kind, parent, child, axis, lower, upper in o.joints:
        line = f"    {name}: {kind} {parent} -> {child}"
        if axis is not None:
            line += f" axis ({', '.join(f'{v:g}' for v in axis)})"
        limits = _range(lower, upper)
        add(f"{line} limits {limits}" if limits else line)
        flush()
    if len(o.actuators):
        add(f"  actuators ({len(o.actuators)}):")
        for name, joint, effort in o.actuators:
            add(f"    {name}: on {joint}, effort limit {effort:g}")
            flush()
    add(f"  geometries ({len(o.geometries)}):")
    for name, body, shape, roles in o.geometries:
        params = ", ".join(f"{k} {v}" for k, v in shape.items() if k != "type")
        add(f"    {name} on {body}: {shape['type']} {params} [{', '.join(roles)}]")
        flush()
    add(f"  collision candidates: {o.collision_candidates}")
    for key, n in o.counts.items():
        add(f"  {key.replace('_', ' ')}: {n}")
    flush(0)


# Lines are written to the stream this many at a time (one write per line
# costs more than making the line).
_LINES_PER_WRITE = 1024


def _flusher(lines: list[str], stream: TextIO):
    """A function that writes ``lines`` (each with a newline) to ``stream``
    and empties it once it holds at least ``at_least`` lines."""
    def flush(at_least: int = _LINES_PER_WRITE) -> None:
        if len(lines) >= at_least and lines:
            stream.write("\n".join(lines) + "\n")
            lines.clear()
    return flush
