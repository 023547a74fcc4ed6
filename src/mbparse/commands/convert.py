"""``mbparse convert IN --to urdf|sdf|mjcf [-o OUT]``: any format mbparse reads
to URDF, SDFormat or MJCF, with a report of what the target could not hold.

URDF to SDFormat is libsdformat's conversion (``<gazebo>`` extensions,
fixed-joint lumping) unless ``--via-model``; see :mod:`mbparse.convert`.
"""
from __future__ import annotations

import argparse
import os
import sys

from ..convert import ConvertOptions
from ..convert.files import ConvertFileOptions, convert_file
from ..convert.loss import ConvertError
from ..diagnostics import ParseError
from .loading import add_loading_arguments, options_from_args


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="IN", help="a URDF, SDFormat, MJCF, .dmd.yaml or OBJ file")
    p.add_argument("--to", choices=["urdf", "sdf", "mjcf"], required=True,
                   help="the output format")
    p.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
    p.add_argument("--report", metavar="FILE",
                   help="write the loss report (what the target could not hold) as JSON")
    p.add_argument("--copy-meshes", metavar="DIR",
                   help="copy every mesh file into DIR and point the output at the copies")
    p.add_argument("--package-uris", action="store_true",
                   help="name meshes inside a known package package://NAME/... instead of by "
                        "a path relative to the output")
    p.add_argument("--via-model", action="store_true",
                   help="URDF to SDFormat through mbparse's model (every link kept) instead of "
                        "libsdformat's conversion")
    p.add_argument("--preserve-fixed-joints", action="store_true",
                   help="URDF to SDFormat: keep every fixed joint (no lumping of links)")
    p.add_argument("--like-libsdformat-12-3", action="store_true",
                   help="URDF to SDFormat: reproduce libsdformat 12.3's output: no <frame> for "
                        "lumped joints, <static> always written, massless lumped links cut off "
                        "their subtree")
    add_loading_arguments(p)
    p.set_defaults(time_step=0.0)
    p.epilog = ("--strict makes a warning while loading, or any loss, an error (exit 1). "
                "The input is loaded into a continuous plant (--time-step 0) so that "
                "constraints such as <mimic> are kept.")


def run(args: argparse.Namespace) -> int:
    sdf_options = (ConvertOptions.like_libsdformat_12_3() if args.like_libsdformat_12_3
                   else ConvertOptions())
    sdf_options.preserve_fixed_joints = args.preserve_fixed_joints
    try:
        options = ConvertFileOptions(load=options_from_args(args), strict=args.strict,
                                     copy_meshes=args.copy_meshes,
                                     use_packages=args.package_uris, via_model=args.via_model,
                                     sdf_options=sdf_options)
        result = convert_file(args.file, args.to, args.output, options)
    except (ParseError, ConvertError) as e:
        print(f"error: {e}" if isinstance(e, ConvertError) else str(e), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: {args.file}: {e.strerror or e}", file=sys.stderr)
        return 1
    for w in result.warnings:
        print(f"warning: {w}", file=sys.stderr)
    for loss in result.report.losses:
        print(f"loss: {loss}", file=sys.stderr)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(result.report.to_json())
    if args.output:
        folder = os.path.dirname(os.path.abspath(args.output))
        os.makedirs(folder, exist_ok=True)
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(result.text)
    else:
        sys.stdout.write(result.text)
    return 0
