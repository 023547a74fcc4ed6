"""``mbparse convert IN.urdf --to sdf [-o OUT.sdf]``: URDF to SDFormat.

The conversion is libsdformat's (``<gazebo>`` extensions, fixed-joint
lumping); see :mod:`mbparse.convert`.
"""
from __future__ import annotations

import argparse
import sys

from ..convert import ConvertOptions, urdf_to_sdf
from ..diagnostics import DiagnosticPolicy, ParseError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="IN.urdf")
    p.add_argument("--to", choices=["sdf"], required=True, help="the output format")
    p.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
    p.add_argument("--preserve-fixed-joints", action="store_true",
                   help="keep every fixed joint (no lumping of links)")
    p.add_argument("--like-libsdformat-12-3", action="store_true",
                   help="reproduce libsdformat 12.3's output: no <frame> for lumped joints, "
                        "<static> always written, massless lumped links cut off their subtree")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")


def run(args: argparse.Namespace) -> int:
    options = (ConvertOptions.like_libsdformat_12_3() if args.like_libsdformat_12_3
               else ConvertOptions())
    options.preserve_fixed_joints = args.preserve_fixed_joints
    if not args.file.lower().endswith(".urdf"):
        print(f"error: {args.file}: only URDF input (.urdf) can be converted to SDFormat",
              file=sys.stderr)
        return 2
    policy = DiagnosticPolicy(strict=args.strict, emit=False)
    try:
        text = urdf_to_sdf(args.file, options, policy)
    except ParseError as e:
        print(str(e), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: {args.file}: {e.strerror or e}", file=sys.stderr)
        return 1
    for w in policy.warnings_seen:
        print(f"warning: {w}", file=sys.stderr)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
