"""``mbparse convert IN.urdf --to sdf [-o OUT.sdf]``: URDF to SDFormat.

The conversion is libsdformat's (``<gazebo>`` extensions, fixed-joint
lumping); see :mod:`mbparse.convert`.
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from typing import TYPE_CHECKING

from ..batch import Failed, add_jobs_argument, run_batch
from ..diagnostics import DiagnosticPolicy, ParseError

if TYPE_CHECKING:
    from ..convert import ConvertOptions


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="IN.urdf",
                   help="one file, or several with -o naming a folder")
    p.add_argument("--to", choices=["sdf"], required=True, help="the output format")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write here instead of standard output; with several input files, a "
                        "folder (made if missing) that gets one IN.sdf per file, and standard "
                        "output gets one JSON report line per file")
    p.add_argument("--preserve-fixed-joints", action="store_true",
                   help="keep every fixed joint (no lumping of links)")
    p.add_argument("--like-libsdformat-12-3", action="store_true",
                   help="reproduce libsdformat 12.3's output: no <frame> for lumped joints, "
                        "<static> always written, massless lumped links cut off their subtree")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    add_jobs_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..convert import ConvertOptions  # imported here: a start-up cost of every command

    options = (ConvertOptions.like_libsdformat_12_3() if args.like_libsdformat_12_3
               else ConvertOptions())
    options.preserve_fixed_joints = args.preserve_fixed_joints
    if len(args.files) == 1:
        return _run_one(args.files[0], options, args)
    if not args.output:
        print("error: several input files need -o FOLDER for the outputs", file=sys.stderr)
        return 2
    os.makedirs(args.output, exist_ok=True)
    work = functools.partial(convert_to_file, options=options, strict=args.strict)
    status = 0
    for (path, _), report in run_batch(work, output_names(args.files, args.output), args.jobs,
                                           _import_converter):
        if isinstance(report, Failed):
            report = {"file": path, "status": "error",
                      "error": f"internal error in mbparse: {report.error}"}
        if report["status"] != "ok":
            status = max(status, 2 if report["status"] == "refused" else 1)
        sys.stdout.write(json.dumps(report) + "\n")
        sys.stdout.flush()
    return status


def _import_converter() -> None:
    """Before the workers fork: the converter, which each would import."""
    from ..convert import urdf_to_sdf  # noqa: F401


def _run_one(path: str, options: "ConvertOptions", args: argparse.Namespace) -> int:
    from ..convert import urdf_to_sdf

    if not path.lower().endswith(".urdf"):
        print(f"error: {path}: only URDF input (.urdf) can be converted to SDFormat",
              file=sys.stderr)
        return 2
    policy = DiagnosticPolicy(strict=args.strict, emit=False)
    try:
        text = urdf_to_sdf(path, options, policy)
    except ParseError as e:
        print(str(e), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: {path}: {e.strerror or e}", file=sys.stderr)
        return 1
    for w in policy.warnings_seen:
        print(f"warning: {w}", file=sys.stderr)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def output_names(files: list[str], folder: str) -> list[tuple[str, str]]:
    """(input, output) pairs: ``folder/<stem>.sdf``, with ``_2``, ``_3``...
    added when two inputs share a stem."""
    pairs, used = [], set()
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        name, n = stem, 1
        while name in used:
            n += 1
            name = f"{stem}_{n}"
        used.add(name)
        pairs.append((path, os.path.join(folder, name + ".sdf")))
    return pairs


def convert_to_file(item: tuple[str, str], options: "ConvertOptions", strict: bool) -> dict:
    """Converts ``item`` = (input, output); the report line ``convert``
    prints for it: file, status (ok, error, refused), output, warnings,
    error. Runs in a worker process under ``-j``."""
    from ..convert import urdf_to_sdf

    path, output = item
    report: dict = {"file": path}
    if not path.lower().endswith(".urdf"):
        report.update(status="refused", error="only URDF input (.urdf) can be converted to "
                                               "SDFormat")
        return report
    policy = DiagnosticPolicy(strict=strict, emit=False)
    try:
        text = urdf_to_sdf(path, options, policy)
    except ParseError as e:
        report.update(status="error", error=str(e))
        return report
    except OSError as e:
        report.update(status="error", error=f"{path}: {e.strerror or e}")
        return report
    with open(output, "w", encoding="utf-8") as f:
        f.write(text)
    report.update(status="ok", output=output, warnings=[str(w) for w in policy.warnings_seen])
    return report
