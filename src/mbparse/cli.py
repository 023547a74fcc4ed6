"""The ``mbparse`` command line: one sub-command per module in ``commands/``."""
from __future__ import annotations

import argparse
import importlib
import sys

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


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="mbparse", description="Load, check, inspect, convert "
                                 "and view robot and scene descriptions (URDF, SDFormat, MJCF, "
                                 "Drake model directives, OBJ).")
    ap.add_argument("--version", action="version", version=f"mbparse {__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        mod = importlib.import_module(f"mbparse.commands.{module}")
        p = sub.add_parser(name, help=help_text, description=help_text)
        mod.add_arguments(p)
        p.set_defaults(run=mod.run)
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if not getattr(args, "command", None):
        ap.print_help()
        return 2
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
