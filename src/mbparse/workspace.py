"""What every reader is handed: where the text comes from, the options, the
package map, the diagnostic policy, the plant and the collision-filter
resolver. The workspace owns none of them."""
from __future__ import annotations

import functools
import os
from collections.abc import Callable
from contextvars import ContextVar

from .collision_filter_groups import CollisionFilterGroupResolver
from .diagnostics import Diagnostic, DiagnosticPolicy, ParseError
from .files import (FileTooLargeError, NotRegularFileError, missing_file_message, names_no_file,
                    read_regular_file)
from .limits import (MAX_ATTRIBUTES, MAX_ELEMENTS, MAX_INCLUDED_FILES,  # noqa: F401 (their home was here)
                     MAX_LIST_NUMBERS, MAX_MODEL_FILE_BYTES, MAX_YAML_VALUES, current_limits,
                     raise_hint)
from .package_map import PackageMap
from .records import FrozenRecord, ValueRecord, _set

TYPE_CHECKING = False  # typing is left unimported at run time (start-up time)
if TYPE_CHECKING:
    from .plant import MultibodyPlant

CONTENTS_PSEUDO_STEM = "<literal-string>"
# Files that include files (SDFormat <include>, add_directives, ...) nest at
# most this deep; deeper is refused with a located error rather than
# exhausting Python's stack.
MAX_FILE_NESTING = 100
# The files read in one parse may hold together at most this many times what
# one file may hold, a file counting again each time an include reads it or
# splices it in: without it, a file that includes a large file many times
# multiplies.
MAX_PARSE_FILES_WORTH = 2
# The longest text of a value of a few numbers (a pose, a scale, a mass) that
# is read number by number to say what is wrong with it when it is not those
# numbers: a hostile value of a hundred megabytes would take seconds a number.
# Padding around the right numbers is read, however long.
MAX_NUMBERS_TEXT = 65_536
PARSE_SIZE_PROBLEM = "the files read in this parse hold more than"
# Did-you-mean searches made in one parse (a name met again costs none): past
# them, an unknown name is reported without a suggestion.
MAX_SUGGESTION_SEARCHES = 1000
# Within an element_budget: [files' worth of elements read, did-you-mean
# searches made] in this parse.
_READ: ContextVar[list[float] | None] = ContextVar("mbparse_files_worth_read", default=None)


class element_budget:
    """``with element_budget():`` -- inside the block, the elements of every
    XML file parsed (and every splice :func:`charge_elements` is told of)
    count towards :data:`MAX_PARSE_FILES_WORTH`; a nested block shares the
    outer count. (A class, not a generator: contextlib stays unimported.)"""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token = None if _READ.get() is not None else _READ.set([0.0, 0])

    def __exit__(self, *exc) -> None:
        if self._token is not None:
            _READ.reset(self._token)


def charge_elements(count: int, yaml: bool = False) -> str | None:
    """Counts ``count`` more XML elements (YAML values with ``yaml``) read in
    this parse; the problem when that makes more than
    :data:`MAX_PARSE_FILES_WORTH` files at the limits (None outside
    :func:`element_budget`)."""
    read = _READ.get()
    if read is None:
        return None
    limits = current_limits()
    most = limits.max_yaml_values if yaml else limits.max_elements
    if not most:  # (no limit)
        return None
    read[0] += count / most
    if read[0] <= MAX_PARSE_FILES_WORTH:
        return None
    field = "max_yaml_values" if yaml else "max_elements"
    return (f"{PARSE_SIZE_PROBLEM} {MAX_PARSE_FILES_WORTH} files at mbparse's size limit "
            f"({most:,} {'YAML values' if yaml else 'XML elements'} each), a file counting "
            "again each time an include reads it or splices it in: a limit that keeps any load "
            f"within seconds; include fewer or smaller files, or {raise_hint(field)}")


def spend_suggestion() -> bool:
    """Whether one more did-you-mean search may be made in this parse (each
    costs up to a millisecond; a file of many thousands of different
    unknown names would otherwise spend minutes on them): at most
    :data:`MAX_SUGGESTION_SEARCHES`; no limit outside :class:`element_budget`."""
    read = _READ.get()
    if read is None:
        return True
    read[1] += 1
    return read[1] <= MAX_SUGGESTION_SEARCHES


class DataSource(FrozenRecord):
    """A model's text: either a file name or the contents themselves
    (immutable). ``display_name`` is how the contents are named in
    diagnostics; ``base_dir`` the folder relative URIs in the contents are
    resolved against (contents generated from a file, such as an expanded
    xacro file)."""

    _fields = ("filename", "contents", "display_name", "base_dir")

    def __init__(self, filename: str | None = None, contents: str | None = None,
                 display_name: str | None = None, base_dir: str | None = None) -> None:
        _set(self, "filename", filename)
        _set(self, "contents", contents)
        _set(self, "display_name", display_name)
        _set(self, "base_dir", base_dir)

    def is_file(self) -> bool:
        return self.filename is not None

    def name(self) -> str:
        if self.display_name:
            return self.display_name
        return self.filename if self.filename is not None else "<string>"

    def root_dir(self) -> str:
        """Folder that relative URIs are resolved against ('' for strings)."""
        if self.filename is None:
            return self.base_dir or ""
        if os.path.isabs(self.filename):
            return _folder_of(self.filename)
        return os.path.dirname(os.path.abspath(self.filename))  # (the working folder's)

    def stem(self) -> str:
        if self.filename is None:
            return CONTENTS_PSEUDO_STEM
        base = os.path.basename(self.filename)
        return base.rsplit(".", 1)[0] if "." in base else base

    def read_bytes(self) -> bytes:
        """The model's bytes; a ParseError for what is not a regular file or
        holds more than the limit ``max_file_bytes`` (:mod:`mbparse.limits`)."""
        most = current_limits().max_file_bytes or None
        if self.filename is not None:
            try:
                return read_regular_file(self.filename, most)
            except NotRegularFileError as e:
                raise ParseError(Diagnostic("error", e.strerror, self.filename,
                                            code="file-not-regular")) from None
            except FileTooLargeError as e:
                raise ParseError(Diagnostic("error", f"{e.strerror}; {raise_hint('max_file_bytes')}",
                                            self.filename, code="size-limit")) from None
            except (OSError, ValueError) as e:
                if not names_no_file(e):
                    raise
                raise ParseError(Diagnostic("error", missing_file_message(self.filename),
                                            self.filename, code="file-missing")) from None
        data = (self.contents or "").encode("utf-8")
        if most is not None and len(data) > most:
            raise ParseError(Diagnostic("error", f"the model text is {len(data):,} bytes, more "
                                                 f"than the {most:,} bytes mbparse reads of a "
                                                 f"model file; {raise_hint('max_file_bytes')}",
                                        self.name(), code="size-limit"))
        return data


@functools.lru_cache(maxsize=4096)
def _folder_of(path: str) -> str:
    """The normal folder of an absolute path (remembered: readers ask it
    for every file they load, and loads repeat files; a pure function of
    the text). Sized for a batch run over many files: a run over more
    files than the cache holds, in the same order each time, would find
    none of them in it."""
    return os.path.dirname(os.path.abspath(path))


class ParsingOptions(ValueRecord):
    """Options of one parse (auto-renaming of taken model names)."""

    _fields = ("enable_auto_renaming",)

    def __init__(self, enable_auto_renaming: bool = False) -> None:
        self.enable_auto_renaming = enable_auto_renaming


class Workspace(ValueRecord):
    """What a reader works with during one parse: options, packages, diagnostics, the plant.

    ``select_reader(filename)`` gives a reader module (it lets readers parse
    includes); ``open_files`` are the files being read right now (to refuse
    include cycles)."""

    _fields = ("options", "package_map", "diagnostic", "plant", "collision_resolver",
               "select_reader", "open_files", "included_files")

    def __init__(self, options: ParsingOptions, package_map: PackageMap,
                 diagnostic: DiagnosticPolicy, plant: "MultibodyPlant",
                 collision_resolver: CollisionFilterGroupResolver,
                 select_reader: Callable[[str], object] = None,  # type: ignore[assignment]
                 open_files: list[str] | None = None) -> None:
        self.options = options
        self.package_map = package_map
        self.diagnostic = diagnostic
        self.plant = plant
        self.collision_resolver = collision_resolver
        self.select_reader = select_reader
        self.open_files: list[str] = [] if open_files is None else open_files
        self.included_files = 0  # files read through includes so far

    def include_another_file(self) -> str | None:
        """Counts a file about to be read through an include; the problem
        when that is more than the limit ``max_included_files`` in this parse."""
        self.included_files += 1
        most = current_limits().max_included_files
        if not most or self.included_files <= most:
            return None
        return (f"this parse has read {most:,} files through includes already, mbparse's "
                "limit (files that include the same file more than once multiply); include "
                f"each file fewer times, or {raise_hint('max_included_files')}")

    def make_model_name(self, candidate: str, parent_model_name: str | None) -> str:
        """``parent::candidate``, renamed with a ``_N`` subscript when
        auto-renaming is on and the name is taken."""
        name = f"{parent_model_name}::{candidate}" if parent_model_name else candidate
        plant = self.plant
        if self.options.enable_auto_renaming and plant.has_model_instance_named(name):
            k = 1
            while plant.has_model_instance_named(f"{name}_{k}"):
                k += 1
            name = f"{name}_{k}"
        return name
