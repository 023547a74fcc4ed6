"""Size limits: defaults that keep a hostile file's load within seconds, which
a user who means to read a large model raises or lifts.

Each limit bounds input whose reading costs time or memory in proportion to
its size (elements, values, bytes, bodies, triangles, numbers, files read
through includes, a xacro expansion's CPU time and memory). A file past a limit is refused with a located
``size-limit`` error that names the option raising it. ``0`` means no limit.

:class:`SizeLimits` holds them (plain data: ``LoadOptions.size_limits``,
``Parser.set_size_limits``, the ``--max-...`` flags of every command). The
limits in force are the current context's (a :class:`~contextvars.ContextVar`,
so each thread has its own): a ``Parser`` with limits of its own and
:func:`mbparse.loading.load` with ``LoadOptions.size_limits`` apply them
during the parse (:class:`applied_limits`); what is read from a model after
its parse (meshes, for hulls, inertias or a conversion) is read under the
limits in force then, so the commands run each file's whole work inside
:func:`call_with_limits`.

Limits on depth (XML elements 500 deep, files nested 100 deep, YAML nested
100 deep, MJCF includes 32 deep) are not here: they bound recursion, and no
real model comes near them.
"""
from __future__ import annotations

from contextvars import ContextVar

from .records import FrozenRecord, _set

# The most elements one XML file (URDF, SDFormat, MJCF, xacro), and the most
# values one YAML file (model directives), may hold: every element or value
# costs a reader microseconds and the model memory, so without a bound a
# large enough file would take minutes and gigabytes (the largest real
# robot models have a few thousand elements, directives a few hundred
# values). A YAML value costs the directives reader about what two or three
# XML elements cost the XML readers.
MAX_ELEMENTS = 250_000
MAX_YAML_VALUES = 100_000
# The most attributes one XML element may have (real ones have a few; looking
# through an element's attributes costs lxml their square).
MAX_ATTRIBUTES = 1000
# The most bytes a model file (or model text) may hold: the largest real
# models are a few MB, and a file is held in memory several times over while
# it is read (an OBJ model of 64 MB takes some 4 s and 0.5 GB; one of 128 MB
# took 9 s and 1 GB).
MAX_MODEL_FILE_BYTES = 64 * 1024 * 1024
# The most numbers one attribute of any length may list (an MJCF mesh's
# 'vertex' or 'face'): a million vertices. Each costs the reader, and the
# convex hull its collision shape needs, about a microsecond.
MAX_LIST_NUMBERS = 3_000_000
# The most bodies a plant holds: a body costs a reader some 100 µs and the
# plant a few kB, so the limit keeps any model file's load, and every command
# on it (converting it included), within seconds; some fifty times more than
# the largest robots have.
MAX_BODIES = 10_000
# The most triangles one mesh may have: reading and summing them takes about
# a microsecond and 100 bytes each, and converting to MJCF as much again (a
# 64 MB file of small faces holds 8 million; a real mesh of 2 million is a
# file of some 100 MB).
MAX_MESH_TRIANGLES = 2_000_000
# One parse reads at most this many files through includes (SDFormat
# <include>, model directives' add_model and add_directives), a file
# included twice counting twice: files that include the same file more than
# once multiply (an "include bomb" of 30 levels would read a billion files).
# At a few milliseconds a file, the limit keeps such a bomb to seconds.
MAX_INCLUDED_FILES = 2048
# MJCF: the most times one model's <include>s are spliced in. MuJoCo refuses
# a file included twice, Drake does not: files that include the same file
# more than once multiply. The readers walk a model's elements a few times,
# so a model of a few thousand includes stays far below.
MAX_INCLUDE_SPLICES = 20_000
# MJCF: <replicate> makes at most this many elements in one file (a count of
# 10**9, or three nested counts of 1000, would otherwise fill the memory).
MAX_REPLICATED_ELEMENTS = 60_000
# xacro evaluates ${...} as Python and copies macros without bound: its
# expansion runs in a child process with at most this much CPU time (real
# files take under 1 s) and address space (formats/xacro_expand.py).
MAX_XACRO_SECONDS = 4
MAX_XACRO_MEMORY = 1 << 30


class SizeLimits(FrozenRecord):
    """The size limits of a load (immutable; 0: no limit).

    ``max_elements``: XML elements in one file (one parse reads at most two
    files' worth, a file included again counting again). ``max_yaml_values``:
    values in one model directives file (likewise). ``max_file_bytes``:
    bytes of a model file or text. ``max_bodies``: bodies in the plant.
    ``max_mesh_triangles``: triangles in one OBJ mesh. ``max_list_numbers``:
    numbers in one attribute (an MJCF mesh's vertices). ``max_attributes``:
    attributes of one XML element. ``max_included_files``: files one parse
    reads through SDFormat and model directive includes.
    ``max_include_splices``: MJCF ``<include>`` splices in one model.
    ``max_replicated_elements``: elements MJCF ``<replicate>`` makes in one
    file. ``max_xacro_seconds`` and ``max_xacro_memory``: the CPU time and
    the bytes of address space of a xacro file's expansion. :meth:`none`
    lifts every one of them."""

    _fields = ("max_elements", "max_yaml_values", "max_file_bytes", "max_bodies",
               "max_mesh_triangles", "max_list_numbers", "max_attributes",
               "max_included_files", "max_include_splices", "max_replicated_elements",
               "max_xacro_seconds", "max_xacro_memory")

    def __init__(self, max_elements: int = MAX_ELEMENTS, max_yaml_values: int = MAX_YAML_VALUES,
                 max_file_bytes: int = MAX_MODEL_FILE_BYTES, max_bodies: int = MAX_BODIES,
                 max_mesh_triangles: int = MAX_MESH_TRIANGLES,
                 max_list_numbers: int = MAX_LIST_NUMBERS,
                 max_attributes: int = MAX_ATTRIBUTES,
                 max_included_files: int = MAX_INCLUDED_FILES,
                 max_include_splices: int = MAX_INCLUDE_SPLICES,
                 max_replicated_elements: int = MAX_REPLICATED_ELEMENTS,
                 max_xacro_seconds: int = MAX_XACRO_SECONDS,
                 max_xacro_memory: int = MAX_XACRO_MEMORY) -> None:
        for name, value in zip(self._fields, (
                max_elements, max_yaml_values, max_file_bytes, max_bodies, max_mesh_triangles,
                max_list_numbers, max_attributes, max_included_files, max_include_splices,
                max_replicated_elements, max_xacro_seconds, max_xacro_memory)):
            if value.__class__ is bool or not isinstance(value, int) or value < 0:
                raise ValueError(f"SizeLimits.{name} wants a whole number, 0 or more (0: no "
                                 f"limit), not {value!r}")
            _set(self, name, int(value))

    @classmethod
    def none(cls) -> "SizeLimits":
        """Every limit lifted (for a trusted large model)."""
        return cls(*([0] * len(cls._fields)))


DEFAULT_LIMITS = SizeLimits()

# The command-line option that raises each limit, named in refusals.
OPTION_OF = {
    "max_elements": "--max-elements",
    "max_yaml_values": "--max-yaml-values",
    "max_file_bytes": "--max-file-size",
    "max_bodies": "--max-bodies",
    "max_mesh_triangles": "--max-mesh-triangles",
    "max_list_numbers": "--max-list-numbers",
    "max_attributes": "--max-attributes",
    "max_included_files": "--max-included-files",
    "max_include_splices": "--max-include-splices",
    "max_replicated_elements": "--max-replicated-elements",
    "max_xacro_seconds": "--max-xacro-seconds",
    "max_xacro_memory": "--max-xacro-memory",
}

_CURRENT: ContextVar[SizeLimits] = ContextVar("mbparse_size_limits", default=DEFAULT_LIMITS)


def current_limits() -> SizeLimits:
    """The size limits in force here (the defaults unless a parse, a load or
    :func:`set_size_limits` set others)."""
    return _CURRENT.get()


def set_size_limits(limits: SizeLimits) -> None:
    """Makes ``limits`` the ones in force in the current context (thread)
    from now on."""
    _CURRENT.set(limits)


class applied_limits:
    """``with applied_limits(limits):`` -- ``limits`` are in force inside the
    block, and the ones before it again after. (A class, not a generator:
    contextlib stays unimported.)"""

    __slots__ = ("_limits", "_token")

    def __init__(self, limits: SizeLimits) -> None:
        self._limits = limits

    def __enter__(self) -> None:
        self._token = _CURRENT.set(self._limits)

    def __exit__(self, *exc) -> None:
        _CURRENT.reset(self._token)


def call_with_limits(limits: SizeLimits | None, work, *args):
    """``work(*args)`` with ``limits`` in force (the ones in force already
    when None): the unit a batch hands its workers, whatever thread or
    process they run in (``functools.partial(call_with_limits, limits,
    work)`` pickles when ``work`` does)."""
    if limits is None:
        return work(*args)
    with applied_limits(limits):
        return work(*args)


def raise_hint(field: str) -> str:
    """How a refusal says to raise the limit ``field`` of :class:`SizeLimits`."""
    return (f"raise the limit with {OPTION_OF[field]} N (0: no limit; SizeLimits.{field} "
            "in the API)")
