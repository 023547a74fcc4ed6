"""PackageMap: where ``package://NAME/...`` and ``model://NAME/...`` URLs point.

Packages come from explicit ``add`` calls, from ``package.xml`` manifests
(found one by one or by crawling folders), and from path-list environment
variables. Nothing is ever fetched from a network.
"""
from __future__ import annotations

import functools
import os
import re
import time
from stat import S_ISREG
from collections.abc import Callable

from .diagnostics import ParseError
from .files import path_exists, read_regular_file

_URI = re.compile(r"^([a-z0-9+.-]+)://([^/]*)/+(.*)$", re.DOTALL)
_STOP_MARKERS = ("AMENT_IGNORE", "CATKIN_IGNORE", "COLCON_IGNORE")


class PackageMapError(ValueError):
    """A package map request that cannot be met (missing folder, conflict)."""


def _same_dir(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def read_package_xml(filename: str) -> tuple[str, str | None]:
    """The package name in a ``package.xml`` and its deprecation message, if any.

    A manifest read before and unchanged since (same device, inode, size and
    modification time) is not read again."""
    try:
        st = os.stat(filename)
    except OSError:
        st = None  # (reading it says why it cannot be read)
    return _manifest(filename, st)


# The manifests read so far, by path: (the file's identity when it was read,
# the (name, deprecation) in it or the problem with its text). Every load
# that discovers packages (PackageMap.populate_upstream) looks at the
# manifests above its file; one unchanged since it was read is not read
# again. At most MAX_CACHED_MANIFESTS are kept (when full, all are forgotten).
_MANIFESTS: dict[str, tuple[tuple[int, int, int, int], tuple[str, str | None] | str]] = {}
MAX_CACHED_MANIFESTS = 512
# A file modified less than this long ago (ns) is read at every load and not
# kept: file systems stamp times with a coarse clock, so a file rewritten
# within the same tick, at the same size, would keep its identity.
_SETTLED_NS = 2_000_000_000


def _manifest(filename: str, st: os.stat_result | None) -> tuple[str, str | None]:
    """:func:`read_package_xml` of ``filename``, whose ``os.stat`` is ``st``
    (None: unknown); from the cache when the file is the one read then."""
    if st is None or not S_ISREG(st.st_mode):  # (reading it reports what it is)
        return _parse_manifest(filename, _manifest_bytes(filename))
    identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    cached = _MANIFESTS.get(filename)
    if cached is not None and cached[0] == identity:
        found = cached[1]
    else:
        data = _manifest_bytes(filename)  # (a file that cannot be read is not remembered)
        try:
            found = _parse_manifest(filename, data)
        except PackageMapError as e:
            found = str(e)
        if time.time_ns() - st.st_mtime_ns < _SETTLED_NS:
            _MANIFESTS.pop(filename, None)  # (too recent to be told from its next version)
        else:
            if cached is None and len(_MANIFESTS) >= MAX_CACHED_MANIFESTS:
                _MANIFESTS.clear()  # (one call: threads may be reading manifests too)
            _MANIFESTS[filename] = identity, found
    if found.__class__ is str:
        raise PackageMapError(found)
    return found  # type: ignore[return-value]


def _manifest_bytes(filename: str) -> bytes:
    try:
        return read_regular_file(filename)
    except OSError as e:
        raise PackageMapError(f"Failed to parse XML in package manifest '{filename}': {e}") from None


def _parse_manifest(filename: str, data: bytes) -> tuple[str, str | None]:
    """The package name in a manifest's text and its deprecation message, if any."""
    from lxml import etree  # here: ``import mbparse`` and the DMD/OBJ readers do without it

    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as e:
        raise PackageMapError(f"Failed to parse XML in package manifest '{filename}': {e}") from None
    if root.tag != "package":
        raise PackageMapError(f"Package manifest '{filename}' does not contain a <package> element")
    name_node = root.find("name")
    if name_node is None or not (name_node.text or "").strip():
        raise PackageMapError(f"<package> element of '{filename}' has no <name>")
    deprecated = None
    export = root.find("export")
    if export is not None:
        node = export.find("deprecated")
        if node is not None:
            deprecated = " ".join((node.text or "").split())
    return name_node.text.strip(), deprecated


def _stat_or_none(path: str) -> os.stat_result | None:
    """``os.stat`` of ``path`` (of what it points to, for a link); None when
    that cannot be had (a dangling link: reading it says why)."""
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def ancestor_package_xmls(path: str) -> list[str]:
    """Every ``package.xml`` in the folder of ``path`` and the folders above it,
    nearest first (whatever it is: one that is not a readable manifest is
    reported when read)."""
    return [xml for xml, _ in _ancestor_manifests(path)]


def _ancestor_manifests(path: str) -> list[tuple[str, os.stat_result | None]]:
    """(path, ``os.stat``) of every ``package.xml`` in the folder of ``path``
    and the folders above it, nearest first (None for a dangling link).
    Where there is none (most folders), one ``access`` call says so: a
    ``stat`` that fails costs an exception (a third of a small file's
    discovery)."""
    found = []
    for xml in _manifest_paths_up(os.path.dirname(os.path.abspath(path))):
        try:
            there = os.access(xml, os.F_OK, follow_symlinks=False)  # (as os.path.lexists)
        except (OSError, ValueError):  # (no path)
            there = False
        if there:
            found.append((xml, _stat_or_none(xml)))
    return found


_POSIX = os.sep == "/" and os.altsep is None


@functools.lru_cache(maxsize=256)
def _manifest_paths_up(folder: str) -> tuple[str, ...]:
    """``package.xml`` in ``folder`` (absolute and normal) and in every
    folder above it, nearest first. (Remembered: the string work costs
    half of a small file's package discovery, and loads repeat folders.)"""
    if _POSIX:  # (cut at each '/': os.path.dirname and join cost 3% of a small file's load)
        paths = []
        end = len(folder) if folder != "/" else 0
        while end > 0:
            paths.append(folder[:end] + "/package.xml")
            end = folder.rfind("/", 0, end)
        paths.append("/package.xml")
        return tuple(paths)
    paths = [os.path.join(folder, "package.xml")]
    while (parent := os.path.dirname(folder)) != folder:
        paths.append(os.path.join(parent, "package.xml"))
        folder = parent
    return tuple(paths)


class PackageMap:
    """Maps package names to folders on this machine."""

    def __init__(self) -> None:
        self._paths: dict[str, str] = {}
        self._deprecated: dict[str, str] = {}
        # The folders of model files still to be looked at for manifests (see
        # discover_upstream), in order, each with whom to tell of an
        # unreadable one.
        self._pending: dict[str, Callable[[str, str], None] | None] = {}

    @classmethod
    def make_empty(cls) -> "PackageMap":
        """A map with no packages (``PackageMap()`` is empty too)."""
        return cls()

    def add(self, package_name: str, package_path: str) -> None:
        """Adds a package; adding the same name again must name the same folder."""
        package_path = os.fspath(package_path)
        self.discover_pending()
        if not os.path.isdir(package_path):
            raise PackageMapError(f"package '{package_name}' cannot be added: folder "
                                  f"'{package_path}' does not exist")
        existing = self._paths.get(package_name)
        if existing is not None and not _same_dir(existing, package_path):
            raise PackageMapError(f"PackageMap already contains package '{package_name}' at "
                                  f"'{existing}'; it cannot also be at '{package_path}'")
        if existing is None:
            self._paths[package_name] = package_path

    def add_package_xml(self, filename: str) -> None:
        """Adds the package that the manifest ``filename`` describes."""
        name, deprecated = read_package_xml(os.fspath(filename))
        self.add(name, os.path.dirname(os.path.abspath(filename)))
        if deprecated is not None:
            self._deprecated[name] = deprecated

    def add_map(self, other: "PackageMap") -> None:
        """Adds every package of ``other``; a name already here must have the same path."""
        other.discover_pending()
        for name, path in other._paths.items():
            self.add(name, path)
        self._deprecated.update(other._deprecated)

    def contains(self, package_name: str) -> bool:
        """Whether a package of that name is known."""
        if package_name in self._paths:
            return True  # (what discovery would add cannot take a name's place)
        if self._pending:
            self._discover()
        return package_name in self._paths

    def size(self) -> int:
        """How many packages are known."""
        self.discover_pending()
        return len(self._paths)

    def remove(self, package_name: str) -> None:
        """Forgets a package; an unknown name is an error."""
        self.discover_pending()
        if package_name not in self._paths:
            raise PackageMapError(f"PackageMap does not contain package '{package_name}'")
        del self._paths[package_name]
        self._deprecated.pop(package_name, None)

    def get_path(self, package_name: str) -> str:
        """The folder of a package; an unknown name is an error."""
        path = self._paths.get(package_name)
        if path is not None:
            return path
        if self._pending:
            self._discover()
        try:
            return self._paths[package_name]
        except KeyError:
            raise PackageMapError(f"PackageMap does not contain package '{package_name}'") from None

    def get_deprecated(self, package_name: str) -> str | None:
        """The deprecation message of a package, or None."""
        if self._pending and package_name not in self._paths:
            self._discover()
        return self._deprecated.get(package_name)

    def set_deprecated(self, package_name: str, message: str | None) -> None:
        """Marks a package deprecated with ``message`` (None clears it)."""
        self.discover_pending()
        if message is None:
            self._deprecated.pop(package_name, None)
        else:
            self._deprecated[package_name] = message

    def get_package_names(self) -> list[str]:
        """The known package names, sorted."""
        self.discover_pending()
        return sorted(self._paths)

    def populate_upstream(self, model_file: str) -> list[tuple[str, str]]:
        """Adds the packages whose ``package.xml`` stands in the folder of
        ``model_file`` or a folder above it, as ``mbparse`` commands and
        :meth:`mbparse.Parser.add_models` do; a name the map already has keeps
        its folder. Returns (manifest, problem) for each manifest that could
        not be read (the rest are added)."""
        self.discover_pending()
        return self._populate_upstream(model_file)

    def _populate_upstream(self, model_file: str) -> list[tuple[str, str]]:
        problems = []
        for xml, st in _ancestor_manifests(model_file):
            try:
                name, deprecated = _manifest(xml, st)
                if name not in self._paths:
                    # (not through add: the manifest was just read from this
                    # folder, so it is one, and asking again is a stat whose
                    # result object costs some 2% of a small URDF's load)
                    self._paths[name] = os.path.dirname(xml)
                    if deprecated is not None:
                        self._deprecated[name] = deprecated
            except PackageMapError as e:
                problems.append((xml, str(e)))
        return problems

    def discover_upstream(self, model_file: str,
                          report: Callable[[str, str], None] | None = None) -> None:
        """:meth:`populate_upstream` of ``model_file``, done when the map is
        next asked for something it could change: a package it does not
        have, its names or size, or a change. Until then the folders are
        not looked at (a load that names no package outside the map, as
        most do, never pays for them: some 10% of a small file's load).
        ``report(manifest, problem)`` is told of each manifest that could
        not be read, when it is looked at."""
        if _POSIX and model_file[:1] == "/":  # (os.path.abspath's work, at a tenth of its cost)
            folder = model_file[:model_file.rfind("/")] or "/"
        else:  # (now: the working folder may change before the look)
            folder = os.path.dirname(os.path.abspath(model_file))
        if folder not in self._pending:  # (a folder twice finds nothing new)
            self._pending[folder] = report

    def discover_pending(self) -> None:
        """Does now the discoveries :meth:`discover_upstream` put off, in
        order (the map does so itself when asked)."""
        if self._pending:
            self._discover()

    def _discover(self) -> None:
        pending = self._pending
        while pending:
            folder = next(iter(pending))
            report = pending.pop(folder)  # (before reporting, which may raise)
            for xml, problem in self._populate_upstream(os.path.join(folder, "package.xml")):
                if report is not None:
                    report(xml, problem)

    def populate_from_folder(self, path: str) -> None:
        """Adds every package whose ``package.xml`` lies in ``path`` or below."""
        self.discover_pending()
        self._crawl(os.fspath(path), stop_at_package=False, stop_markers=())

    def populate_from_environment(self, environment_variable: str) -> None:
        """Crawls each folder of a ``:``-separated path list in the variable.

        ``ROS_PACKAGE_PATH`` is crawled as ROS does: a folder with a package
        is not searched further, and ``*_IGNORE`` markers stop the search.
        """
        self.discover_pending()
        value = os.environ.get(environment_variable)
        if not value:
            return
        ros = environment_variable == "ROS_PACKAGE_PATH"
        for path in value.split(":"):
            if path:
                self._crawl(path, stop_at_package=ros, stop_markers=_STOP_MARKERS if ros else ())

    def populate_from_ros_package_path(self) -> None:
        """Adds the packages found under the folders of ``ROS_PACKAGE_PATH``."""
        self.populate_from_environment("ROS_PACKAGE_PATH")

    def _crawl(self, top: str, stop_at_package: bool, stop_markers) -> None:
        """Every package under ``top``, depth first in name order (the first
        package of a name found wins). Each real folder is visited once, so
        a symlink loop ends, and the walk keeps a stack of its own."""
        pending = [os.path.normpath(top)]
        visited: set[str] = set()
        while pending:
            path = pending.pop()
            real = os.path.realpath(path)
            if real in visited:
                continue
            visited.add(real)
            if any(os.path.exists(os.path.join(path, m)) for m in stop_markers):
                continue
            manifest = os.path.join(path, "package.xml")
            try:
                st = os.stat(manifest)
            except (OSError, ValueError):  # (as os.path.isfile)
                st = None
            if st is not None and S_ISREG(st.st_mode):
                name, deprecated = _manifest(manifest, st)
                if name not in self._paths:
                    self._paths[name] = path
                    if deprecated is not None:
                        self._deprecated[name] = deprecated
                if stop_at_package:
                    continue
            try:
                entries = sorted(os.scandir(path), key=lambda e: e.name)
            except OSError:
                continue
            subfolders = []
            for entry in entries:
                try:
                    if not entry.name.startswith(".") and entry.is_dir():
                        subfolders.append(entry.path)
                except OSError:  # a symlink that cannot be followed
                    continue
            pending.extend(reversed(subfolders))

    def resolve_url(self, url: str) -> str:
        """The local path a ``package://``, ``model://`` or ``file://`` URL names.

        Raises :class:`PackageMapError` when the package is unknown, the
        scheme is unsupported, or the file does not exist.
        """
        path, problem = resolve_uri(url, self, root_dir="")
        if problem:
            raise PackageMapError(problem)
        return path

    def __repr__(self) -> str:  # (the packages known now: a repr does not look at folders)
        waiting = f", {len(self._pending)} folder(s) not looked at yet" if self._pending else ""
        return f"PackageMap({self._paths!r}{waiting})"


class UriProblem(str):
    """Why a URI cannot be resolved (a message), with the diagnostic ``code``
    that names the kind of problem."""

    code: str

    def __new__(cls, message: str, code: str) -> "UriProblem":
        self = super().__new__(cls, message)
        self.code = code
        return self

    def __getnewargs__(self) -> tuple[str, str]:  # copy and pickle
        return str(self), self.code


# The string work of resolving a URI (its parts, the normal paths it names)
# is remembered: models name the same meshes and packages load after load,
# and it was two thirds of a resolution (the file's existence is asked
# every time). Pure functions of their strings, bounded.
@functools.lru_cache(maxsize=1024)
def _uri_parts(uri: str) -> tuple[str, str, str] | None:
    """(scheme, package or host, rest) of a URI, or None for a path."""
    m = _URI.match(uri)
    return m.groups() if m else None  # type: ignore[return-value]


@functools.lru_cache(maxsize=1024)
def _in_package(package_path: str, rest: str) -> tuple[str, str]:
    """(the package's folder, the path ``rest`` names in it), both normal."""
    package_root = os.path.normpath(package_path)
    return package_root, os.path.normpath(os.path.join(package_root, rest))


@functools.lru_cache(maxsize=1024)
def _relative_path(uri: str, root_dir: str) -> str:
    """The normal path a relative (or absolute) path ``uri`` names from ``root_dir``."""
    return os.path.normpath(uri if os.path.isabs(uri) else os.path.join(root_dir, uri))


_normal_path = functools.lru_cache(maxsize=256)(os.path.normpath)


def resolve_uri(uri: str, package_map: PackageMap, root_dir: str) -> tuple[str, UriProblem | None]:
    """Resolves ``uri`` as Drake does; returns (path, problem or None).

    Relative paths are taken from ``root_dir`` (the folder of the file being
    read); an empty root_dir means the text came from a string, where
    relative paths are invalid.
    """
    m = _uri_parts(uri)
    if m:
        scheme, package, rest = m
        if scheme == "file":
            result = _normal_path("/" + rest)
        elif scheme in ("model", "package"):
            if not package_map.contains(package):
                return "", UriProblem(f"URI '{uri}' names package '{package}', which the "
                                      "package map does not have", "package-unknown")
            package_root, result = _in_package(package_map.get_path(package), rest)
            # Inside the package: the root itself or below it (both normalized;
            # a prefix test, as os.path.commonpath decides it, at a fraction of its cost).
            if result != package_root and not result.startswith(
                    package_root if package_root.endswith(os.sep) else package_root + os.sep):
                return "", UriProblem(
                    f"URI '{uri}' leaves its package: it names '{result}', outside the folder of "
                    f"package '{package}' ('{package_root}'); mbparse refuses paths that climb "
                    "out of a package with '..' (Drake does not check); name the other package "
                    "instead", "path-escapes-package")
        else:
            return "", UriProblem(f"URI '{uri}' has scheme '{scheme}://', which is not read here "
                                  "(no network access); use file://, package:// or model://",
                                  "uri-scheme")
    else:
        if not root_dir:
            return "", UriProblem(f"relative URI '{uri}' cannot be resolved in a model read from "
                                  "a string (there is no folder to resolve it against)",
                                  "uri-relative")
        result = _relative_path(uri, root_dir)
    if not path_exists(result):
        return result, UriProblem(f"URI '{uri}' names '{result}', which does not exist",
                                  "file-missing")
    return result, None


__all__ = ["PackageMap", "PackageMapError", "resolve_uri", "read_package_xml",
           "ancestor_package_xmls", "ParseError"]
