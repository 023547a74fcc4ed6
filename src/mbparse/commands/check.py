"""``mbparse check FILE|DIR...``: a linter for robot and scene descriptions.

Every problem the readers and the plant find, all in one run (reading goes
on after an error), plus model checks for mistakes a parser accepts
(massless moving parts, point masses, empty limits, unattached bodies,
missing meshes, values in the wrong units). Each finding has a code from the
rule table (``--list-rules``), a level, file:line and a hint. Settings come
from the flags over ``[tool.mbparse.check]`` in the nearest pyproject.toml.
The exit status is 1 when an error is reported (or a warning, with
``--warnings-as-errors``).
"""
from __future__ import annotations

import argparse
import functools
import os
import sys

from ..batch import Failed
from ..diagnostics import ParseError
from ..formats import preload
from ..limits import call_with_limits
from .batching import Batch, BatchError, add_batch_arguments
from .loading import add_loading_arguments, options_from_args

CHECK_APPROXIMATION = "sap"


def _codes(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def _consumers(text: str) -> list[str]:
    from ..lint.portability import parse_consumers
    try:
        return parse_consumers(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    # A flag is matched whole: '--for' must not be taken for '--format'.
    p.allow_abbrev = False
    p.add_argument("files", nargs="*", metavar="FILE|DIR",
                   help="model files, or folders to search for them recursively")
    p.add_argument("--format", choices=("text", "json", "jsonl", "sarif", "github"), default=None,
                   help="how to write the findings (default: text); sarif is SARIF 2.1.0 for "
                        "code-scanning services, github writes workflow annotations; jsonl "
                        "streams one JSON object per file as soon as it is checked")
    p.add_argument("--for", dest="consumers", action="extend", type=_consumers, metavar="CONSUMER[,CONSUMER]",
                   help="also report how these consumers read the files differently: "
                        "drake, mujoco, gazebo, pybullet, isaac, ros (default: none; repeatable); with drake, "
                        "what Drake refuses is shown here instead of as notes")
    p.add_argument("-o", "--output", metavar="PATH",
                   help="write the findings to PATH instead of standard output")
    p.add_argument("--select", action="extend", type=_codes, metavar="CODE[,CODE]",
                   help="report only these codes (a prefix such as 'urdf-' or 'inertia-' "
                        "selects every code it begins)")
    p.add_argument("--ignore", action="extend", type=_codes, metavar="CODE[,CODE]",
                   help="do not report these codes (prefixes allowed)")
    p.add_argument("--show-notes", action="store_true", default=None,
                   help="also report notes: valid input that some consumer does not read")
    p.add_argument("--warnings-as-errors", action="store_true", default=None,
                   help="exit with status 1 on warnings too")
    p.add_argument("--config", metavar="PYPROJECT",
                   help="read [tool.mbparse.check] from this file (default: the nearest "
                        "pyproject.toml above the first FILE, or the working folder)")
    p.add_argument("--no-config", action="store_true", help="read no pyproject.toml")
    p.add_argument("--list-rules", action="store_true",
                   help="print every code with its level and summary, and exit")
    add_batch_arguments(p)
    add_loading_arguments(p)
    # A file is checked as read into a plant that holds every constraint it
    # declares (Drake's default TAMSI plant would drop them).
    p.set_defaults(contact_approximation=CHECK_APPROXIMATION)


def list_rules() -> str:
    """The rule table as ``check --list-rules`` prints it."""
    from ..lint.rules import RULE_LIST
    width = max(len(r.id) for r in RULE_LIST)
    return "".join(f"{r.id:<{width}}  {r.severity:<7}  {r.summary}\n" for r in RULE_LIST)


def _settings(args: argparse.Namespace):
    from ..lint.config import nearest_pyproject, settings_from
    config = None
    if not args.no_config:
        config = args.config or nearest_pyproject(args.files[0] if args.files else os.getcwd())
    # --strict (shared with the other commands) means the same here.
    strict = True if getattr(args, "strict", False) else args.warnings_as_errors
    return settings_from(config, args.select, args.ignore, args.show_notes, strict, args.format,
                         args.consumers)


def run(args: argparse.Namespace) -> int:
    from ..lint import lint_file
    from ..lint.config import model_files
    from ..lint.findings import rule_finding
    from ..lint.report import as_github, as_json, as_json_line, as_sarif, as_text

    if args.list_rules:
        sys.stdout.write(list_rules())
        return 0
    if not args.files:
        print("mbparse check: give at least one FILE or DIR (or --list-rules)", file=sys.stderr)
        return 2
    if args.resume and args.format is None:
        args.format = "jsonl"  # (what --resume reads and appends)
    try:
        settings = _settings(args)
        options = options_from_args(args)
    except ParseError as e:
        print(f"mbparse check: {e}", file=sys.stderr)
        return 2
    missing = [p for p in args.files if not os.path.exists(p)]
    if missing:
        print(f"mbparse check: no such file or folder: {', '.join(missing)}", file=sys.stderr)
        return 2
    files = _files(args.files, model_files)
    if not files:
        return 2
    findings, hidden, done = [], 0, []
    stream = settings.format == "jsonl"
    if args.resume and (not stream or args.output):
        print("mbparse check: --resume writes JSON lines to its own file; give --format jsonl "
              "and no -o", file=sys.stderr)
        return 2
    out = open(args.output, "w", encoding="utf-8") if stream and args.output else None
    try:
        batch = Batch(args, files, out=out)
    except BatchError as e:
        if out is not None:
            out.close()
        print(f"mbparse check: {e}", file=sys.stderr)
        return 2
    work = functools.partial(call_with_limits, options.size_limits, functools.partial(
        lint_file, options=options, consumers=tuple(settings.consumers)))
    interrupted = False
    try:
        for path, found in batch.results(work, functools.partial(preload, batch.items)):
            if isinstance(found, Failed):
                found = [rule_finding("internal-error", found.error, path)]
            chosen = settings.chosen(found)
            hidden += sum(1 for f in found if f.severity == "note" and f not in chosen)
            findings += chosen
            done.append(path)
            if stream:
                batch.write(as_json_line(path, chosen))
    except KeyboardInterrupt:  # Ctrl-C: what was found so far, then say so
        interrupted = True
    finally:
        batch.close()
        if out is not None:
            out.close()
    if not stream:
        writer = {"text": as_text, "json": as_json, "sarif": as_sarif,
                  "github": as_github}[settings.format]
        report = writer(findings, done)
        if settings.format == "text" and hidden:
            report += (f"({hidden} note{'s' if hidden != 1 else ''} hidden; --show-notes "
                       "shows them)\n")
        if args.output:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(report)
        else:
            sys.stdout.write(report)
    if interrupted:
        sys.stdout.flush()
        print(f"mbparse check: interrupted (Ctrl-C) after {len(done)} of {len(files)} "
              f"file{'s' if len(files) != 1 else ''}; the findings reported are those of the "
              f"{len(done)} checked", file=sys.stderr)
        return 130
    return 1 if settings.fails(findings) else 0


def _files(given: list[str], model_files) -> list[str]:
    """The files to check (see :func:`..lint.config.model_files`); a folder
    given that holds no model file is said on standard error."""
    files: list[str] = []
    for path in given:
        found = list(model_files([path]))
        if not found:
            print(f"mbparse check: no model file in '{path}' (looked for .urdf, .xacro, .sdf, "
                  ".dmd.yaml and MJCF .xml files in it and in the folders below it)",
                  file=sys.stderr)
        files += found
    return files
