"""Loading one model file the way every command does (inspect, check, tree,
view, convert): a fresh plant and scene graph, the packages the options name,
and the packages whose ``package.xml`` stands in the file's folder or above.

This is a library module: :class:`LoadOptions` is plain data, and the
command line's flags are turned into it by ``commands/loading.py``."""
from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field

from .diagnostics import Diagnostic, ParseError
from .geometry import SceneGraph
from .package_map import PackageMapError
from .parser import Parser
from .plant import ModelError, MultibodyPlant

# The oracle's plant: MultibodyPlant(0.001) with Drake's default (TAMSI).
DEFAULT_TIME_STEP = 0.001
DEFAULT_APPROXIMATION = "tamsi"


@dataclass
class LoadOptions:
    """How a file is loaded: the plant's settings, extra packages, strictness."""

    time_step: float = DEFAULT_TIME_STEP
    contact_approximation: str = DEFAULT_APPROXIMATION
    # (name, folder) pairs added to (or replacing in) the package map.
    packages: list[tuple[str, str]] = field(default_factory=list)
    strict: bool = False
    # "default" loads what Drake refuses only for its own limits (with a
    # warning); "drake" reproduces Drake 1.51, refusals included.
    like: str = "default"
    # The linter's mode: an error ends only the element it is in; reading
    # goes on with the next one and every error is kept in Loaded.errors
    # (load() then raises nothing for the file's problems).
    collect_errors: bool = False


@dataclass
class Loaded:
    """What :func:`load` built, with the warnings it saw."""

    plant: MultibodyPlant
    scene_graph: SceneGraph
    parser: Parser
    instances: list[int]
    warnings: list[Diagnostic]
    # The errors met (only with LoadOptions.collect_errors; otherwise the
    # first one raises).
    errors: list[Diagnostic] = field(default_factory=list)


def ancestor_package_xmls(path: str) -> list[str]:
    """Every ``package.xml`` in the folder of ``path`` and the folders above it."""
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


def load(path: str, options: LoadOptions | None = None, finalize: bool = True) -> Loaded:
    """Parses ``path``; raises ParseError (located) on any failure."""
    options = options or LoadOptions()
    plant = MultibodyPlant(options.time_step, options.contact_approximation)
    scene_graph = SceneGraph()
    parser = Parser(plant, scene_graph)
    parser.diagnostic_policy().emit = False
    if options.strict:
        parser.set_strict_parsing()
    if options.like == "drake":
        parser.set_like_drake()
    policy = parser.diagnostic_policy()
    policy.collect_errors = options.collect_errors
    pm = parser.package_map()
    for xml in ancestor_package_xmls(path):
        try:
            pm.add_package_xml(xml)
        except PackageMapError:
            pass
    for name, folder in options.packages:
        if pm.contains(name):
            pm.remove(name)
        try:
            pm.add(name, folder)
        except PackageMapError as e:
            raise ParseError(Diagnostic("error", str(e), code="package-invalid")) from None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            instances = parser.add_models(path)
        except ParseError as e:
            if options.collect_errors:
                policy.errors_seen.append(e.diagnostic)
                return Loaded(plant, scene_graph, parser, [], list(policy.warnings_seen),
                              list(policy.errors_seen))
            # The warnings issued before the error, for tools that list them all.
            e.warnings_seen = list(policy.warnings_seen)
            raise
        if finalize:
            try:
                plant.finalize()
            except ModelError as e:
                # Say where the element at fault (a loop's joint) was declared.
                file, line = getattr(e.element, "source", (None, None))
                refusal = Diagnostic("error", str(e), file or path, line, code=e.code)
                if not options.collect_errors:
                    raise ParseError(refusal) from None
                policy.errors_seen.append(refusal)
    return Loaded(plant, scene_graph, parser, instances, list(policy.warnings_seen),
                  list(policy.errors_seen))
