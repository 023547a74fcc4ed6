"""The ``mbparse`` command line: one sub-command per module in ``commands/``."""
from __future__ import annotations

import argparse
import importlib
import sys

from .diagnostics import ParseError
from .internal_errors import show_tracebacks
from . import __version__

# name → (module in mbparse.commands, one-line help)
COMMANDS = {
    "inspect": ("inspect", "print what a model file contains (text or mbsummary/1 JSON)"),
    "check": ("check", "lint model files and folders: every problem in one run, with codes "
                       "(text, JSON, SARIF, GitHub)"),
    "convert": ("convert", "convert any model file to URDF, SDFormat or MJCF, with a report of what was lost"),
    "tree": ("tree", "draw the kinematic tree: bodies, joints, model instances (SVG, PNG, DOT)"),
    "view": ("view", "show a model in the web browser, with a slider per joint (needs viser)"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. With ``only`` (a command's name), only that
    command is added (its module imported, its arguments given), so that
    running one command does not import the converter, the linter, the viewer
    and what they need, nor make a parser per command (each one looks its
    messages up with gettext); ``mbparse --help`` lists them all."""
    ap = argparse.ArgumentParser(prog="mbparse", description="Load, check, inspect, convert "
                                 "and view robot and scene descriptions (URDF, SDFormat, MJCF, "
                                 "Drake model directives, OBJ).")
    ap.add_argument("--version", action="version", version=f"mbparse {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        if only is not None and name != only:
            continue
        mod = importlib.import_module(f"mbparse.commands.{module}")
        p = sub.add_parser(name, help=help_text, description=help_text)
        mod.add_arguments(p)
        p.add_argument("--debug", action="store_true",
                       help="on an internal failure, show Python's traceback")
        p.set_defaults(run=mod.run)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Runs one command; returns the exit status: 0 done, 1 the input (or
    mbparse) failed, 2 the command line was wrong, 130 interrupted (Ctrl-C).
    A failure is one line on standard error; Python's traceback only with
    ``--debug``."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # (a command that reports what it did catches it first)
        return 130


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv[:1]  # ``mbparse --debug COMMAND ...`` works too
    if debug:
        argv = argv[1:] + ["--debug"] if len(argv) > 1 else argv[1:]
    ap = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args = ap.parse_args(argv)
    if not getattr(args, "command", None):
        ap.print_help()
        return 2
    debug = debug or getattr(args, "debug", False)
    show_tracebacks(debug)
    try:
        return args.run(args)
    except BrokenPipeError:
        return 0
    except ParseError as e:  # a command that let a located error through
        if debug:
            raise
        print(str(e).splitlines()[0] if str(e) else "error: (no message)", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 -- a bug in mbparse: one line, not a traceback
        if debug:
            raise
        print(f"error: {_inputs(args)}: internal error in mbparse ({type(e).__name__}: "
              f"{_short(str(e))}); please report it, with the file (--debug shows the "
              "traceback)", file=sys.stderr)
        return 1


def _inputs(args: argparse.Namespace) -> str:
    files = getattr(args, "files", None) or [getattr(args, "file", None) or "mbparse"]
    return ", ".join(str(f) for f in files)


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


if __name__ == "__main__":
    sys.exit(main())
