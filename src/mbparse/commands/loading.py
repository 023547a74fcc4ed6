"""Loading one model file the way every command does: a fresh plant and
scene graph, the packages named on the command line, and the packages whose
``package.xml`` stands in the file's folder or above."""
from __future__ import annotations

import argparse
import os
import warnings
from dataclasses import dataclass

from ..diagnostics import Diagnostic, ParseError
from ..geometry import SceneGraph
from ..package_map import PackageMapError
from ..parser import Parser
from ..plant import ModelError, MultibodyPlant

# The oracle's plant: MultibodyPlant(0.001) with Drake's default (TAMSI).
DEFAULT_TIME_STEP = 0.001
DEFAULT_APPROXIMATION = "tamsi"


def add_loading_arguments(p: argparse.ArgumentParser) -> None:
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


@dataclass
class Loaded:
    plant: MultibodyPlant
    scene_graph: SceneGraph
    parser: Parser
    instances: list[int]
    warnings: list[Diagnostic]


def ancestor_package_xmls(path: str) -> list[str]:
    found = []
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        xml = os.path.join(folder, "package.xml")
        if os.path.isfile(xml):
            found.append(xml)
        parent = os.path.dirname(folder)
        if parent == folder:
            return found
        folder = parent


def load(path: str, args: argparse.Namespace, finalize: bool = True) -> Loaded:
    """Parses ``path``; raises ParseError (located) on any failure."""
    plant = MultibodyPlant(args.time_step, args.contact_approximation)
    scene_graph = SceneGraph()
    parser = Parser(plant, scene_graph)
    parser.diagnostic_policy().emit = False
    if getattr(args, "strict", False):
        parser.set_strict_parsing()
    pm = parser.package_map()
    for xml in ancestor_package_xmls(path):
        try:
            pm.add_package_xml(xml)
        except PackageMapError:
            pass
    for spec in args.package:
        name, sep, folder = spec.partition("=")
        if not sep:
            raise ParseError(f"--package wants NAME=DIR, not '{spec}'")
        if pm.contains(name):
            pm.remove(name)
        try:
            pm.add(name, folder)
        except PackageMapError as e:
            raise ParseError(str(e)) from None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            instances = parser.add_models(path)
        except ParseError as e:
            # The warnings issued before the error, for tools that list them all.
            e.warnings_seen = list(parser.diagnostic_policy().warnings_seen)
            raise
        if finalize:
            try:
                plant.finalize()
            except ModelError as e:
                # Say where the element at fault (a loop's joint) was declared.
                file, line = getattr(e.element, "source", (None, None))
                raise ParseError(Diagnostic("error", str(e), file or path, line)) from None
    return Loaded(plant, scene_graph, parser, instances,
                  list(parser.diagnostic_policy().warnings_seen))
