"""The loading flags every command shares, turned into :class:`LoadOptions`."""
from __future__ import annotations

import argparse

from ..diagnostics import ParseError
from ..limits import DEFAULT_LIMITS, OPTION_OF, SizeLimits
from ..loading import DEFAULT_APPROXIMATION, DEFAULT_TIME_STEP, Loaded, LoadOptions
from ..loading import load as load_with_options


def add_loading_arguments(p: argparse.ArgumentParser) -> None:
    """Adds --package, --time-step, --contact-approximation, --strict, --like
    and the size limits (:func:`add_limit_arguments`) to ``p``."""
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
    add_limit_arguments(p)


# What each limit's flag counts, for --help.
_COUNTED = {
    "max_elements": "XML elements in one file",
    "max_yaml_values": "values in one model directives (YAML) file",
    "max_file_bytes": "bytes of a model or mesh file (K, M, G: KiB, MiB, GiB)",
    "max_bodies": "bodies in the model",
    "max_mesh_triangles": "triangles in one OBJ mesh",
    "max_list_numbers": "numbers in one attribute (an MJCF mesh's vertices)",
    "max_attributes": "attributes of one XML element",
    "max_included_files": "files one load reads through SDFormat and directive includes",
    "max_include_splices": "MJCF <include> splices in one model",
    "max_replicated_elements": "elements MJCF <replicate> makes in one file",
    "max_xacro_seconds": "seconds of CPU time a xacro file's expansion may take",
    "max_xacro_memory": "bytes of memory a xacro file's expansion may use (K, M, G)",
}


def add_limit_arguments(p: argparse.ArgumentParser) -> None:
    """Adds ``--max-elements N`` and the other size limits (0: no limit),
    and ``--no-size-limits``, in a group of their own."""
    group = p.add_argument_group(
        "size limits", "a file past a limit is refused (an error that names the flag); the "
                       "defaults keep any load within seconds; 0 lifts a limit")
    group.add_argument("--no-size-limits", action="store_true",
                       help="lift every size limit (a trusted large model); a --max-... flag "
                            "given too still applies")
    for field, option in OPTION_OF.items():
        default = getattr(DEFAULT_LIMITS, field)
        in_bytes = field in ("max_file_bytes", "max_xacro_memory")
        shown = f"{default >> 20}M" if in_bytes else f"{default:,}"
        group.add_argument(option, dest=field, type=_byte_count if in_bytes else _count,
                           default=None, metavar="N",
                           help=f"{_COUNTED[field]} (default {shown})")


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"wants a whole number (0: no limit), not '{text}'")
    if n < 0:
        raise argparse.ArgumentTypeError(f"wants 0 (no limit) or more, not {n}")
    return n


def _byte_count(text: str) -> int:
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:].upper(), 1)
    try:
        return _count(text[:-1] if scale > 1 else text) * scale
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"wants a number of bytes, with K, M or G for KiB, MiB "
                                         f"or GiB (0: no limit), not '{text}'") from None


def limits_from_args(args: argparse.Namespace) -> SizeLimits:
    """The :class:`SizeLimits` the command line's limit flags ask for."""
    base = SizeLimits.none() if getattr(args, "no_size_limits", False) else DEFAULT_LIMITS
    given = {field: getattr(args, field) for field in OPTION_OF
             if getattr(args, field, None) is not None}
    if not given:
        return base
    return SizeLimits(**{**{f: getattr(base, f) for f in OPTION_OF}, **given})


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
                       packages=packages, strict=args.strict, like=args.like,
                       size_limits=limits_from_args(args))


def load(path: str, args: argparse.Namespace, finalize: bool = True) -> Loaded:
    """Loads ``path`` with the options the command line gave."""
    return load_with_options(path, options_from_args(args), finalize)
