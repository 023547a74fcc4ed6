"""Loading one model file the way every command does (inspect, check, tree,
view, convert): a fresh plant and scene graph, the packages the options name,
and the packages whose ``package.xml`` stands in the file's folder or above.

This is a library module: :class:`LoadOptions` is plain data, and the
command line's flags are turned into it by ``commands/loading.py``."""
from __future__ import annotations

import warnings

from .diagnostics import Diagnostic, ParseError
from .geometry import SceneGraph
from .limits import SizeLimits, applied_limits
from .package_map import PackageMapError, ancestor_package_xmls  # noqa: F401 (re-exported)
from .parser import Parser
from .plant import ModelError, MultibodyPlant
from .records import ValueRecord

# The oracle's plant: MultibodyPlant(0.001) with Drake's default (TAMSI).
DEFAULT_TIME_STEP = 0.001
DEFAULT_APPROXIMATION = "tamsi"


class LoadOptions(ValueRecord):
    """How a file is loaded: the plant's settings, extra packages, strictness.

    ``packages``: (name, folder) pairs added to (or replacing in) the package
    map. ``like``: "default" loads what Drake refuses only for its own limits
    (with a warning); "drake" reproduces Drake 1.51, refusals included.
    ``collect_errors`` is the linter's mode: an error ends only the element
    it is in; reading goes on with the next one and every error is kept in
    :attr:`Loaded.errors` (load() then raises nothing for the file's
    problems). ``size_limits``: what a file may hold before it is refused
    (:class:`~mbparse.limits.SizeLimits`; ``SizeLimits.none()`` for a
    trusted large model). :func:`mbparse.records.replace` gives a changed
    copy."""

    _fields = ("time_step", "contact_approximation", "packages", "strict", "like",
               "collect_errors", "size_limits")

    def __init__(self, time_step: float = DEFAULT_TIME_STEP,
                 contact_approximation: str = DEFAULT_APPROXIMATION,
                 packages: list[tuple[str, str]] | None = None, strict: bool = False,
                 like: str = "default", collect_errors: bool = False,
                 size_limits: SizeLimits | None = None) -> None:
        self.time_step = time_step
        self.contact_approximation = contact_approximation
        self.packages: list[tuple[str, str]] = [] if packages is None else packages
        self.strict = strict
        self.like = like
        self.collect_errors = collect_errors
        self.size_limits = size_limits


class Loaded(ValueRecord):
    """What :func:`load` built, with the warnings it saw, and the errors met
    (only with LoadOptions.collect_errors; otherwise the first one raises)."""

    _fields = ("plant", "scene_graph", "parser", "instances", "warnings", "errors")

    def __init__(self, plant: MultibodyPlant, scene_graph: SceneGraph, parser: Parser,
                 instances: list[int], warnings: list[Diagnostic],
                 errors: list[Diagnostic] | None = None) -> None:
        self.plant = plant
        self.scene_graph = scene_graph
        self.parser = parser
        self.instances = instances
        self.warnings = warnings
        self.errors: list[Diagnostic] = [] if errors is None else errors


def load(path: str, options: LoadOptions | None = None, finalize: bool = True) -> Loaded:
    """Parses ``path``; raises ParseError (located) on any failure.

    The options' size limits, when they give some, are in force during the
    load; what is read from the model later (meshes for hulls, inertias, a
    conversion) is read under the limits in force then (run that work
    inside ``with applied_limits(limits):`` too, see :mod:`mbparse.limits`)."""
    options = options or LoadOptions()
    if options.size_limits is None:
        return _load(path, options, finalize)
    with applied_limits(options.size_limits):
        return _load(path, options, finalize)


def _load(path: str, options: LoadOptions, finalize: bool) -> Loaded:
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
    # The packages above the file are added by add_models (Parser's package
    # discovery), after these: a package named here keeps this folder.
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
                _discover_all(pm, policy)
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
    if options.collect_errors:
        _discover_all(pm, policy)
    return Loaded(plant, scene_graph, parser, instances, list(policy.warnings_seen),
                  list(policy.errors_seen))


def _discover_all(pm, policy) -> None:
    """The linter's load reports every unreadable ``package.xml`` above the
    file, needed or not (the parser looks at those folders only when the
    model asks for a package the map lacks)."""
    try:
        pm.discover_pending()
    except ParseError as e:  # (a warning under strict parsing)
        policy.errors_seen.append(e.diagnostic)
