"""``mbparse convert IN --to urdf|sdf|mjcf|usd [-o OUT]``: any format mbparse
reads to URDF, SDFormat, MJCF or OpenUSD, with a report of what the target
could not hold. The target is ``--to``, else the suffix of ``-o``
(TARGET_OF_SUFFIX).

URDF to SDFormat is libsdformat's conversion (``<gazebo>`` extensions,
fixed-joint lumping) unless ``--via-model``; see :mod:`mbparse.convert`.
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import sys

from ..batch import Failed
from ..diagnostics import ParseError, located_line
from ..limits import call_with_limits
from .batching import Batch, BatchError, add_batch_arguments
from .loading import add_loading_arguments, options_from_args

# The converter is imported by run(): building the CLI imports every command
# module, and the converter is a start-up cost the other commands need not pay.
SUFFIX_OF_TARGET = {"urdf": ".urdf", "sdf": ".sdf", "mjcf": ".xml", "usd": ".usda"}
USD_SUFFIXES = (".usda", ".usdc", ".usd")  # -o robot.usdc picks USD (binary crate)
# The target an output file's suffix names, when --to is not given. A new
# target adds its suffixes here, its name to TARGETS and its SUFFIX_OF_TARGET.
TARGET_OF_SUFFIX = {".urdf": "urdf", ".sdf": "sdf", ".world": "sdf", ".xml": "mjcf",
                    ".mjcf": "mjcf", **{suffix: "usd" for suffix in USD_SUFFIXES}}
TARGETS = ("urdf", "sdf", "mjcf", "usd")


class TargetError(ValueError):
    """No target can be chosen, or --to and the output's suffix disagree."""


def target_of(to: str | None, output: str | None, several: bool = False) -> str:
    """The output format: ``to`` when given, else the one the suffix of
    ``output`` names; raises TargetError (a one-line message) when there is
    none, or when the two disagree."""
    suffix = os.path.splitext(output)[1].lower() if output and not several else ""
    named = TARGET_OF_SUFFIX.get(suffix)
    known = ", ".join(f"{k} ({v})" for k, v in TARGET_OF_SUFFIX.items())
    if to is None:
        if named is not None:
            return named
        if several:
            raise TargetError("several input files need --to (" + "|".join(TARGETS)
                              + "): their -o is a folder, whose name says no format")
        if not output:
            raise TargetError("give --to (" + "|".join(TARGETS) + ") or an output file "
                              f"whose suffix names the format: {known}")
        raise TargetError(f"the output '{output}' ends in '{suffix or '(no suffix)'}', which "
                          f"names no format; give --to ({'|'.join(TARGETS)}) or one of the "
                          f"suffixes {known}")
    if named is not None and named != to:
        raise TargetError(f"--to {to} disagrees with the output '{output}', whose suffix "
                          f"'{suffix}' names {named}; drop --to, or name the output "
                          f"*{SUFFIX_OF_TARGET[to]}")
    return to


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="IN",
                   help="a URDF, SDFormat, MJCF, .dmd.yaml, OBJ or USD file; several with -o "
                        "FOLDER")
    p.add_argument("--to", choices=TARGETS,
                   help="the output format; by default the one the suffix of -o names ("
                        + ", ".join(f"{k} {v}" for k, v in TARGET_OF_SUFFIX.items()) + ")")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write here instead of standard output; with several input files, a "
                        "folder (made if missing) that gets one output per file, and standard "
                        "output gets one JSON report line per file")
    p.add_argument("--report", metavar="FILE",
                   help="write the loss report (what the target could not hold) as JSON")
    p.add_argument("--copy-meshes", metavar="DIR",
                   help="copy every mesh file into DIR and point the output at the copies")
    p.add_argument("--package-uris", action="store_true",
                   help="name meshes inside a known package package://NAME/... instead of by "
                        "a path relative to the output")
    way = p.add_mutually_exclusive_group()
    way.add_argument("--libsdformat", action="store_true",
                     help="URDF to SDFormat through libsdformat's conversion (<gazebo> "
                          "extensions, fixed-joint lumping, model:// mesh URIs); what it "
                          "changes is in the loss report")
    way.add_argument("--via-model", action="store_true",
                     help="URDF to SDFormat through mbparse's model, every link kept (the "
                          "default; accepted for earlier scripts)")
    p.add_argument("--drake-extensions", action="store_true",
                   help="URDF output: write Drake's drake: elements (capsules, ball joints, "
                        "collision filters, proximity properties...) instead of standard URDF")
    p.add_argument("--preserve-fixed-joints", action="store_true",
                   help="libsdformat's conversion (implies --libsdformat) keeping every fixed "
                        "joint (no lumping of links)")
    p.add_argument("--like-libsdformat-12-3", action="store_true",
                   help="libsdformat's conversion (implies --libsdformat) as libsdformat 12.3 "
                        "writes it: no <frame> "
                        "for lumped joints, <static> always written, massless lumped links cut "
                        "off their subtree")
    p.add_argument("--no-actuators", action="store_true",
                   help="MJCF: give no motor to the joints with an effort limit and no "
                        "actuator (by default each gets one limited to its effort)")
    add_loading_arguments(p)
    add_batch_arguments(p)
    p.set_defaults(time_step=0.0)
    p.epilog = ("--strict makes a warning while loading, or any loss, an error (exit 1). "
                "The input is loaded into a continuous plant (--time-step 0) so that "
                "constraints such as <mimic> are kept.")


def run(args: argparse.Namespace) -> int:
    from ..convert import ConvertOptions
    from ..convert.files import ConvertFileOptions, convert_file
    from ..convert.loss import ConvertError

    sdf_options = (ConvertOptions.like_libsdformat_12_3() if args.like_libsdformat_12_3
                   else ConvertOptions())
    sdf_options.preserve_fixed_joints = args.preserve_fixed_joints
    if args.preserve_fixed_joints or args.like_libsdformat_12_3:
        if args.via_model:
            print("error: --preserve-fixed-joints and --like-libsdformat-12-3 choose how "
                  "libsdformat's conversion works; --via-model does not use it",
                  file=sys.stderr)
            return 2
        args.libsdformat = True
    try:
        args.to = target_of(args.to, args.output, several=len(args.files) > 1)
    except TargetError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if len(args.files) > 1 or args.resume:
        return _run_many(args, sdf_options)
    args.file = args.files[0]
    try:
        options = ConvertFileOptions(load=options_from_args(args), strict=args.strict,
                                     copy_meshes=args.copy_meshes,
                                     use_packages=args.package_uris,
                                     libsdformat=args.libsdformat,
                                     sdf_options=sdf_options,
                                     drake_extensions=args.drake_extensions,
                                     actuators_from_effort=not args.no_actuators)
        result = call_with_limits(options.load.size_limits, convert_file, args.file, args.to,
                                  args.output, options)
    except (ParseError, ConvertError) as e:
        print(f"error: {_with_file(args.file, e)}" if isinstance(e, ConvertError)
              else located_line(e, args.file), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: {args.file}: {e.strerror or e}", file=sys.stderr)
        return 1
    for w in result.warnings:  # (each says "FILE:LINE: warning: ...")
        print(located_line(w, args.file), file=sys.stderr)
    for loss in result.report.losses:
        print(f"loss: {loss}", file=sys.stderr)
    try:
        for path, text in ((args.report, result.report.to_json() if args.report else ""),
                           (args.output, result.text)):
            if path:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
                write_output(path, text)
    except OSError as e:
        print(f"error: cannot write {e.filename}: {e.strerror or e}", file=sys.stderr)
        return 1
    if not args.output:
        sys.stdout.write(result.text)
    return 0


def _run_many(args: argparse.Namespace, sdf_options) -> int:
    """Several inputs: one output each in the -o folder, one JSON report line
    each on standard output, in the order of the files (``-j`` workers)."""
    from ..convert.files import ConvertFileOptions

    if not args.output:
        print("error: several input files (or --resume) need -o FOLDER for the outputs",
              file=sys.stderr)
        return 2
    if args.report:
        print("error: --report writes one file's losses; with several files each report "
              "line on standard output carries its file's losses", file=sys.stderr)
        return 2
    try:
        options = ConvertFileOptions(load=options_from_args(args), strict=args.strict,
                                     copy_meshes=args.copy_meshes,
                                     use_packages=args.package_uris,
                                     libsdformat=args.libsdformat,
                                     sdf_options=sdf_options,
                                     drake_extensions=args.drake_extensions,
                                     actuators_from_effort=not args.no_actuators)
    except ParseError as e:
        print(str(e), file=sys.stderr)
        return 2
    os.makedirs(args.output, exist_ok=True)
    work = functools.partial(call_with_limits, options.load.size_limits, functools.partial(
        convert_to_file, target=args.to, options=options))
    pairs = output_names(args.files, args.output, SUFFIX_OF_TARGET[args.to])
    try:
        batch = Batch(args, pairs, key=lambda pair: pair[0])
    except BatchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    status = 0
    try:
        for (path, _), report in batch.results(work, _import_converter):
            if isinstance(report, Failed):
                report = {"file": path, "status": "error",
                          "error": f"internal error in mbparse: {report.error}"}
            if report["status"] != "ok":
                status = 1
            batch.write(json.dumps(report) + "\n")
    finally:
        batch.close()
    return status


def _import_converter() -> None:
    """Before the workers fork: the converter, which each would import."""
    from ..convert.files import convert_file  # noqa: F401


def output_names(files: list[str], folder: str, suffix: str) -> list[tuple[str, str]]:
    """(input, output) pairs: ``folder/<stem><suffix>``, with ``_2``, ``_3``...
    added when two inputs share a stem."""
    pairs, used = [], set()
    for path in files:
        stem = os.path.basename(path)
        for known in (".dmd.yaml", os.path.splitext(stem)[1]):
            if known and stem.lower().endswith(known):
                stem = stem[:-len(known)]
                break
        name, n = stem, 1
        while name in used:
            n += 1
            name = f"{stem}_{n}"
        used.add(name)
        pairs.append((path, os.path.join(folder, name + suffix)))
    return pairs


def write_output(path: str, text: str) -> None:
    """Writes a conversion's text (or a report) to ``path``; USD written to
    ``.usdc`` or ``.usd`` goes through OpenUSD, as its binary crate."""
    if path.lower().endswith((".usdc", ".usd")):
        from ..convert.writers.usd import save_usd
        save_usd(text, path)
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _with_file(path: str, error: Exception) -> str:
    """A conversion's refusal, led by the input file's name (the writers'
    own refusals do not know it)."""
    text = str(error)
    return text if text.startswith(f"{path}:") else f"{path}: {text}"


def convert_to_file(item: tuple[str, str], target: str, options) -> dict:
    """Converts ``item`` = (input, output); the report line ``convert``
    prints for it: file, status (ok or error), output, warnings, losses,
    error. Runs in a worker process under ``-j``."""
    from ..convert.files import convert_file
    from ..convert.loss import ConvertError

    path, output = item
    report: dict = {"file": path}
    try:
        result = convert_file(path, target, output, options)
    except (ParseError, ConvertError) as e:
        report.update(status="error",
                      error=_with_file(path, e) if isinstance(e, ConvertError) else str(e))
        return report
    except OSError as e:
        report.update(status="error", error=f"{path}: {e.strerror or e}")
        return report
    try:
        write_output(output, result.text)
    except (OSError, ConvertError) as e:
        report.update(status="error", error=f"{output}: {e}")
        return report
    report.update(status="ok", output=output, warnings=[str(w) for w in result.warnings],
                  losses=[str(loss) for loss in result.report.losses])
    return report
