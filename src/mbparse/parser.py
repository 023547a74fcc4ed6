"""Parser: reads model files into a MultibodyPlant (Drake's ``Parser``)."""
from __future__ import annotations

import functools
import os
import time

from . import formats, memory
from .collision_filter_groups import CollisionFilterGroupResolver, CollisionFilterGroups
from .diagnostics import Diagnostic, DiagnosticPolicy, ParseError
from .files import missing_file_message
from .geometry import SceneGraph, ShapeError
from .limits import SizeLimits, applied_limits, current_limits
from .package_map import PackageMap, PackageMapError, resolve_uri
from .plant import ModelError, MultibodyPlant
from .workspace import DataSource, ParsingOptions, Workspace, element_budget

TYPE_CHECKING = False  # typing is left unimported at run time (start-up time)
if TYPE_CHECKING:
    from typing import NoReturn


class Parser:
    """Adds the models described by files or strings to a plant.

    ``Parser(plant)``, ``Parser(plant, scene_graph)``, ``Parser(plant,
    "prefix")`` and ``Parser(plant, scene_graph, "prefix")`` all work, as in
    Drake. With a scene graph, geometry is registered too.
    """

    def __init__(self, plant: MultibodyPlant, scene_graph: SceneGraph | str | None = None,
                 model_name_prefix: str = ""):
        if isinstance(scene_graph, str):
            scene_graph, model_name_prefix = None, scene_graph
        self._plant = plant
        if scene_graph is not None and not plant.geometry_source_is_registered():
            plant.register_as_source_for_scene_graph(scene_graph)
        self._prefix = model_name_prefix or None
        self._package_map = PackageMap()
        self._policy = DiagnosticPolicy()
        # (the policy's, not a method of this parser: the package map keeps
        # it until it looks, and a parser kept so would keep its plant)
        self._unreadable_manifest = functools.partial(_unreadable_manifest, self._policy)
        self._auto_renaming = False
        self._package_discovery = True
        self._limits: SizeLimits | None = None  # (None: the limits in force, see limits)
        # Per parse: the groups seen, and the instances' names at that time
        # (so that the groups can follow later renames of model instances).
        self._groups: list[tuple[CollisionFilterGroups, dict[str, int]]] = []

    def __repr__(self) -> str:
        flags = "".join([", strict" if self._policy.strict else "",
                         ", like drake" if self._policy.like_drake else "",
                         ", auto-renaming" if self._auto_renaming else ""])
        prefix = f", prefix '{self._prefix}'" if self._prefix else ""
        # (the packages known now: a repr does not look at folders, see set_package_discovery)
        known = len(self._package_map._paths)
        return f"Parser({self._plant!r}, {known} packages{prefix}{flags})"

    # ------------------------------------------------------------ settings
    def plant(self) -> MultibodyPlant:
        """The plant models are added to."""
        return self._plant

    def scene_graph(self) -> SceneGraph | None:
        """The scene graph geometry is registered with (None without one)."""
        return self._plant.scene_graph

    def package_map(self) -> PackageMap:
        """The package map that resolves ``package://`` and ``model://`` URIs."""
        return self._package_map

    def set_strict_parsing(self) -> None:
        """Every later parse treats warnings as errors."""
        self._policy.strict = True

    def set_like_drake(self, value: bool = True) -> None:
        """Drake's mode: refuse what Drake 1.51 refuses, even where the refusal
        comes only from a limit of Drake's own (a mesh format it cannot read,
        an MJCF model without a name, ...). By default such files load, with a
        warning that says Drake would refuse them. mbparse's own; Drake has no
        such switch."""
        self._policy.like_drake = bool(value)

    def get_like_drake(self) -> bool:
        """Whether Drake's mode is on (see :meth:`set_like_drake`)."""
        return self._policy.like_drake

    def diagnostic_policy(self) -> DiagnosticPolicy:
        """The policy warnings go through; ``warnings_seen`` keeps them all."""
        return self._policy

    def set_package_discovery(self, value: bool) -> None:
        """Whether :meth:`add_models` adds to the package map the packages
        whose ``package.xml`` stands in the file's folder or above it (on by
        default, as every ``mbparse`` command does, so the library and the
        command line load the same model). Packages already in the map keep
        their folders. The folders are looked at when the map is first asked
        for a package it does not have, for its names or size, or changed
        (:meth:`PackageMap.discover_upstream`): a model that names only
        packages already in the map does not pay for the look, and an
        unreadable manifest is said then (a warning; an error under strict
        parsing, raised by the call that asked). ``False`` is Drake's
        ``Parser``: packages come only from the package map. mbparse's own;
        Drake has no such switch."""
        self._package_discovery = bool(value)

    def get_package_discovery(self) -> bool:
        """Whether package discovery is on (see :meth:`set_package_discovery`)."""
        return self._package_discovery

    def set_auto_renaming(self, value: bool) -> None:
        """With auto-renaming, a taken model name gets a ``_1``, ``_2``, ... subscript."""
        self._auto_renaming = bool(value)

    def get_auto_renaming(self) -> bool:
        """Whether auto-renaming is on (see :meth:`set_auto_renaming`)."""
        return self._auto_renaming

    def set_size_limits(self, limits: SizeLimits) -> None:
        """Every later parse refuses input past ``limits`` (see
        :mod:`mbparse.limits`; ``SizeLimits.none()`` lifts them all) instead
        of the defaults. mbparse's own; Drake has no such limits."""
        if not isinstance(limits, SizeLimits):
            raise TypeError(f"set_size_limits takes a SizeLimits, not {type(limits).__name__}")
        self._limits = limits

    def get_size_limits(self) -> SizeLimits:
        """The size limits of this parser's parses (see :meth:`set_size_limits`;
        without it, those in force where it parses: the defaults, unless
        :func:`mbparse.limits.set_size_limits` set others)."""
        return self._limits if self._limits is not None else current_limits()

    def get_collision_filter_groups(self) -> CollisionFilterGroups:
        """Every collision filter group and exclusion pair seen so far,
        with model-scoped names; the model instance names are the plant's
        current ones (see ``MultibodyPlant.rename_model_instance``)."""
        result = CollisionFilterGroups()
        for groups, instances_then in self._groups:
            def now(scoped: str) -> str:
                namespace, sep, local = scoped.rpartition("::")
                index = instances_then.get(namespace) if sep else None
                if index is None:
                    return scoped
                return f"{self._plant.get_model_instance_name(index)}::{local}"
            for name, members in groups.groups().items():
                result.add_group(now(name), {now(m) for m in members})
            for a, b in groups.exclusion_pairs():
                result.add_exclusion_pair(now(a), now(b))
        return result

    # ------------------------------------------------------------ parsing
    def add_models(self, file_name: str | os.PathLike) -> list[int]:
        """Parses a file (format by suffix) and adds all its models.

        Returns the indices of the new model instances, nested ones included.
        The packages whose ``package.xml`` stands in the file's folder or
        above it are added to the package map (see
        :meth:`set_package_discovery`).
        """
        if not isinstance(file_name, (str, bytes, os.PathLike)):
            raise TypeError(f"add_models takes a file path (str or os.PathLike), not "
                            f"{type(file_name).__name__}")
        if file_name.__class__ is not str:
            file_name = os.fsdecode(file_name)  # (a bytes path too)
        fmt = formats.format_of(file_name)
        if fmt is None:
            self._error(f"The file '{file_name}' is not a recognized type. Known types are: "
                        f"{formats.KNOWN_TYPES}", file_name, "file-type-unknown")
        if fmt not in _READ_FIRST and not os.path.isfile(file_name):
            self._error(missing_file_message(file_name), file_name, "file-missing")
        if self._package_discovery:
            self._package_map.discover_upstream(file_name, self._unreadable_manifest)
        return self._parse(fmt, DataSource(filename=file_name))

    def add_models_from_string(self, file_contents: str, file_type: str) -> list[int]:
        """Parses text whose format is ``file_type`` (a suffix without the
        dot: ``urdf``, ``sdf``, ``xml``, ``dmd.yaml``)."""
        if not isinstance(file_contents, str) or not isinstance(file_type, str):
            raise TypeError(f"add_models_from_string takes the text (str) and its type (str), "
                            f"not {type(file_contents).__name__} and {type(file_type).__name__}")
        try:
            file_contents.encode("utf-8")
        except UnicodeEncodeError as e:
            line = file_contents.count("\n", 0, e.start) + 1
            raise ParseError(Diagnostic(
                "error", f"the text holds a lone surrogate ({file_contents[e.start]!r}) at "
                         f"character {e.start}, which is no Unicode character; the text cannot "
                         "be model data (was it decoded with errors='surrogateescape'?)",
                "<string>", line, code="file-unreadable")) from None
        fmt = formats.format_of("." + file_type)
        if fmt is None:
            self._error(f"The file type '{file_type}' is not a recognized type. Known types "
                        f"are: {formats.KNOWN_TYPES}", None, "file-type-unknown")
        if fmt == "obj":
            self._error("add_models_from_string cannot be passed OBJ file contents yet; "
                        "write the OBJ to a file and use add_models.", None, "file-type-unknown")
        return self._parse(fmt, DataSource(contents=file_contents))

    def add_models_from_url(self, url: str) -> list[int]:
        """Parses the file a ``file://``, ``package://`` or ``model://`` URL names."""
        if not isinstance(url, str):
            raise TypeError(f"add_models_from_url takes a URL (str), not {type(url).__name__}")
        path, problem = resolve_uri(url, self._package_map, root_dir="")
        if problem:
            self._error(problem, None, problem.code)
        return self.add_models(path)

    # ------------------------------------------------------------ internals
    def _error(self, message: str, file: str | None, code: str) -> NoReturn:
        self._policy.error(message, file, code=code)

    def make_workspace(self) -> Workspace:
        """A fresh workspace for one parse (used by readers that compose)."""
        return Workspace(ParsingOptions(self._auto_renaming), self._package_map, self._policy,
                         self._plant, CollisionFilterGroupResolver(self._plant),
                         select_reader=_select_reader)

    def _parse(self, fmt: str, source: DataSource) -> list[int]:
        started = time.perf_counter()
        try:
            # (see memory: the collector finds nothing mid-parse)
            with memory.collector_paused(), element_budget():
                if self._limits is None:
                    return self._parse_with(fmt, source)
                with applied_limits(self._limits):
                    return self._parse_with(fmt, source)
        finally:
            # The parse's XML tree is gone now; a large one's pages go back
            # to the system instead of staying next to the model. (A parse
            # over in a fraction of a second was not of a large text: no
            # need to look at the file's size.)
            if (time.perf_counter() - started > memory.QUICK_PARSE_SECONDS
                    and memory.source_is_large(source.filename, source.contents)):
                memory.release_freed_memory()

    def _parse_with(self, fmt: str, source: DataSource) -> list[int]:
        workspace = self.make_workspace()
        try:
            instances = formats.reader(fmt).add_all_models(source, self._prefix, workspace)
            if workspace.collision_resolver.collected_nothing():
                return instances  # (no groups to resolve, none to keep)

            def resolve_error(message: str) -> None:
                self._policy.error(message, source.name(), code="collision-filter-group")
            groups = workspace.collision_resolver.resolve(resolve_error)
            if not groups.empty():
                plant = self._plant
                names = {plant.get_model_instance_name(i): i
                         for i in range(plant.num_model_instances())}
                self._groups.append((groups, names))
        except (ModelError, ShapeError, PackageMapError) as e:
            raise ParseError(Diagnostic("error", str(e), source.name(),
                                        code=getattr(e, "code", None) or "model-invalid")) from None
        return instances


# The formats whose reader reads the file before it does anything else
# (DataSource.read_bytes), which says that a missing file is missing, and a
# folder, FIFO or device what it is: no os.path.isfile before (a stat(2) that
# the read's open(2) and fstat(2) answer again, some 4% of a small file's load).
_READ_FIRST = frozenset({"urdf", "sdformat", "mjcf"})


def _unreadable_manifest(policy: DiagnosticPolicy, xml: str, problem: str) -> None:
    policy.warning(f"{problem}; it is ignored, so the package it would name is not known here",
                   file=xml, code="package-xml-unreadable")


def _select_reader(filename: str):
    fmt = formats.format_of(filename)
    return formats.reader(fmt) if fmt else None
