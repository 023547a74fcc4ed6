"""``mbparse tree FILE -o tree.svg|png|pdf|dot`` (or ``--format svg|png|pdf|dot``):
the kinematic tree as a picture
(the graph itself is :mod:`mbparse.tree`)."""
from __future__ import annotations

import argparse
import os
import sys

from ..diagnostics import ParseError, located_line
from ..plant import ModelError
from ..tree import FORMATS, output_format, render, to_dot
from .loading import add_loading_arguments, load

def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", metavar="PATH",
                   help="where to write the graph: .svg, .png or .pdf draw it with Graphviz, "
                        ".dot or .gv write DOT text; without -o, DOT goes to standard output")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="what to write: dot (text), svg, png or pdf (drawn with Graphviz); "
                        "without it, the suffix of -o decides (DOT without -o); without -o, "
                        "the picture goes to standard output")
    p.add_argument("--rankdir", choices=("TB", "LR"), default="TB",
                   help="lay the tree out top to bottom (TB, default) or left to right (LR)")
    add_loading_arguments(p)


def run(args: argparse.Namespace) -> int:
    try:
        fmt = output_format(args.output, args.format)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        loaded = load(args.file, args, finalize=False)
    except ParseError as e:
        print(located_line(e, args.file), file=sys.stderr)
        return 1
    try:
        loaded.plant.finalize()
    except ModelError as e:
        print(f"warning: {args.file}: the tree is drawn as written, without the joints "
              f"that finalizing adds: {e}", file=sys.stderr)
    dot_text = to_dot(loaded.plant, os.path.basename(args.file), args.rankdir)
    if fmt == "dot":
        if args.output:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(dot_text)
        else:
            sys.stdout.write(dot_text)
        return 0
    try:
        picture = render(dot_text, args.output, fmt)
    except (FileNotFoundError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if picture is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(picture)
    return 0
