"""``mbparse check FILE...``: a linter for robot and scene descriptions.

Every parse diagnostic, plus model checks for mistakes a parser accepts
(massless moving parts, point masses, empty limits, unattached bodies,
missing meshes, values in the wrong units). Findings carry a rule id, a
severity, file:line:column and a hint; output is text, JSON or SARIF 2.1.0.
The exit status is 1 when any finding is at or above ``--fail-on``.
"""
from __future__ import annotations

import argparse
import functools
import sys
from typing import TextIO

from ..batch import Failed, add_jobs_argument, run_batch
from ..diagnostics import ParseError
from ..formats import preload
from .loading import add_loading_arguments, options_from_args

FAIL_LEVELS = {"error": ("error",), "warning": ("error", "warning"), "never": ()}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--format", choices=("text", "json", "jsonl", "sarif"), default="text",
                   help="how to write the findings (default: %(default)s); sarif is SARIF "
                        "2.1.0, which CI code-scanning services show inline; jsonl streams "
                        "one JSON object per file as soon as it is checked")
    p.add_argument("-o", "--output", metavar="PATH",
                   help="write the findings to PATH instead of standard output")
    p.add_argument("--fail-on", choices=tuple(FAIL_LEVELS), default="error",
                   help="exit with status 1 when a finding of this severity or worse is "
                        "found (default: %(default)s)")
    p.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help="a progress bar on standard error; auto shows it for several files "
                        "when standard error is a terminal")
    p.add_argument("--list-rules", action="store_true", help="print the rules and exit")
    add_jobs_argument(p)
    add_loading_arguments(p)


class ProgressBar:
    """A one-line progress bar, redrawn in place on a text stream."""

    def __init__(self, total: int, stream: TextIO, width: int = 30):
        self.total, self.stream, self.width, self.done = total, stream, width, 0

    def show(self, label: str) -> None:
        filled = self.width * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        label = label if len(label) <= 40 else "…" + label[-39:]
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} {label:<40}")
        self.stream.flush()

    def step(self, label: str) -> None:
        self.done += 1
        self.show(label)

    def close(self) -> None:
        self.stream.write("\r" + " " * (self.width + 60) + "\r")
        self.stream.flush()


def _wants_progress(mode: str, n: int) -> bool:
    if mode == "always":
        return True
    if mode == "never":
        return False
    return n > 1 and sys.stderr.isatty()


def run(args: argparse.Namespace) -> int:
    from ..lint import RULES, lint_file
    from ..lint.findings import rule_finding
    from ..lint.report import as_json, as_json_line, as_sarif, as_text

    if args.list_rules:
        for rule in RULES.values():
            print(f"{rule.id:<22} {rule.severity:<8} {rule.summary}")
        return 0
    if not args.files:
        print("mbparse check: give at least one FILE (or --list-rules)", file=sys.stderr)
        return 2
    try:
        options = options_from_args(args)
    except ParseError as e:
        print(f"mbparse check: {e}", file=sys.stderr)
        return 2
    findings = []
    bar = ProgressBar(len(args.files), sys.stderr) if _wants_progress(
        args.progress, len(args.files)) else None
    stream = args.format == "jsonl"
    out = open(args.output, "w", encoding="utf-8") if stream and args.output else sys.stdout
    work = functools.partial(lint_file, options=options)
    for path, found in run_batch(work, args.files, args.jobs,
                                     functools.partial(preload, args.files)):
        if isinstance(found, Failed):
            found = [rule_finding("internal-error", found.error, path)]
        findings += found
        if stream:
            out.write(as_json_line(path, found))
            out.flush()
        if bar:
            bar.step(path)
    if bar:
        bar.close()
    if stream:
        if out is not sys.stdout:
            out.close()
        failing = FAIL_LEVELS[args.fail_on]
        return 1 if any(f.severity in failing for f in findings) else 0
    writer = {"text": as_text, "json": as_json, "sarif": as_sarif}[args.format]
    report = writer(findings, list(args.files))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(report)
    else:
        sys.stdout.write(report)
    failing = FAIL_LEVELS[args.fail_on]
    return 1 if any(f.severity in failing for f in findings) else 0
