"""``mbparse view FILE``: the model in a web browser, with a slider per joint.

Visual geometry (primitives and meshes) is drawn with viser (three.js in the
browser); sliders move the joints, frames are shown on demand, and the page
follows the file: save it and the model reloads.
"""
from __future__ import annotations

import argparse
import sys
import time
import webbrowser

from ..diagnostics import ParseError, located_line
from .loading import add_loading_arguments, options_from_args

INSTALL_HINT = ("mbparse view needs the optional packages viser and trimesh: "
                "pip install 'mbparse[view]'  (or: pip install viser trimesh)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("--port", type=int, default=8080, help="port to serve on (default %(default)s)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default %(default)s; 0.0.0.0 for every interface)")
    p.add_argument("--no-browser", action="store_true",
                   help="do not open a browser window; just print the address")
    p.add_argument("--no-watch", action="store_true",
                   help="do not reload the model when the file changes")
    add_loading_arguments(p)


def missing_dependencies() -> list[str]:
    """The optional packages the viewer needs that are not installed."""
    import importlib.util
    return [m for m in ("viser", "trimesh") if importlib.util.find_spec(m) is None]


def run(args: argparse.Namespace) -> int:
    missing = missing_dependencies()
    if missing:
        print(f"error: {', '.join(missing)} not installed. {INSTALL_HINT}", file=sys.stderr)
        return 2
    from ..viewer import Viewer

    try:
        options = options_from_args(args)
    except ParseError as e:
        print(located_line(e, "mbparse view"), file=sys.stderr)
        return 2
    try:
        viewer = Viewer(args.file, options, host=args.host, port=args.port,
                        watch=not args.no_watch)
    except OSError as e:
        print(f"error: cannot serve on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    if viewer.error:
        print(f"error: {viewer.error}", file=sys.stderr)
        viewer.close()
        return 1
    print(f"mbparse view: {args.file} at {viewer.url} (Ctrl-C to stop)", flush=True)
    for problem in viewer.problems + viewer.not_drawn:
        print(f"warning: not drawn: {problem}", file=sys.stderr)
    if not args.no_browser:
        webbrowser.open(viewer.url)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        viewer.close()
    return 0
