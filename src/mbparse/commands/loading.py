"""The loading flags every command shares, turned into :class:`LoadOptions`."""
from __future__ import annotations

import argparse

from ..diagnostics import ParseError
from ..loading import DEFAULT_APPROXIMATION, DEFAULT_TIME_STEP, Loaded, LoadOptions
from ..loading import load as load_with_options


def add_loading_arguments(p: argparse.ArgumentParser) -> None:
    """Adds --package, --time-step, --contact-approximation and --strict to ``p``."""
    p.add_argument("--package", action="append", default=[], metavar="NAME=DIR",
                   help="add (or replace) a package in the package map; repeatable")
    p.add_argument("--time-step", type=float, default=DEFAULT_TIME_STEP,
                   help="the plant's time step (0: continuous); default %(default)s, as the "
                        "Drake reference summaries use")
    p.add_argument("--contact-approximation", default=DEFAULT_APPROXIMATION,
                   choices=("tamsi", "sap", "similar", "lagged"),
                   help="discrete contact approximation; with tamsi (Drake's default) a "
                        "discrete plant holds no constraints, so <mimic> is ignored")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.add_argument("--like", choices=("default", "drake"), default="default",
                   help="'drake' reproduces Drake 1.51 exactly, refusals included; the default "
                        "also loads what Drake refuses only for limits of its own, with a "
                        "warning that says so")


def options_from_args(args: argparse.Namespace) -> LoadOptions:
    """The :class:`LoadOptions` the command line's loading flags ask for."""
    packages = []
    for spec in args.package:
        name, sep, folder = spec.partition("=")
        if not sep:
            raise ParseError(f"--package wants NAME=DIR, not '{spec}'")
        packages.append((name, folder))
    return LoadOptions(time_step=args.time_step,
                       contact_approximation=args.contact_approximation,
                       packages=packages, strict=args.strict, like=args.like)


def load(path: str, args: argparse.Namespace, finalize: bool = True) -> Loaded:
    """Loads ``path`` with the options the command line gave."""
    return load_with_options(path, options_from_args(args), finalize)
