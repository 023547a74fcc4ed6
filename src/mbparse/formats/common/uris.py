"""Finding the files that model elements name (meshes, textures, included
files), shared by the URDF and SDFormat readers.

Drake resolves ``package://`` only through its package map. Many robots are
shipped without a ``package.xml`` (pybullet_data, robosuite, copies of ROS
description packages), yet their ``package://NAME/...`` URIs point into a
folder called NAME that sits above the model file; pybullet and yourdfpy
look there. In the default mode mbparse does the same, once per package and
file with a warning; Drake's mode refuses, as Drake does.
"""

from __future__ import annotations

import os

from ...package_map import resolve_uri

#: How many folders above the model file are searched for a package's folder.
PACKAGE_SEARCH_DEPTH = 8
_POSIX = os.sep == "/" and os.altsep is None


def package_folder_above(package: str, start: str) -> str | None:
    """The nearest folder named ``package`` that is ``start``, one of its
    ancestors, or a child of one of them (at most PACKAGE_SEARCH_DEPTH
    levels up); None when there is none."""
    if not package or package in (".", "..") or "/" in package:
        return None
    folder = os.path.abspath(start or ".")
    for _ in range(PACKAGE_SEARCH_DEPTH + 1):
        if os.path.basename(folder) == package:
            return folder
        candidate = os.path.join(folder, package)
        if os.path.isdir(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return None


def _found_by_name(uri: str, package: str, root_dir: str,
                   folders: dict[str, str | None] | None = None) -> tuple[str, str] | None:
    """(folder, file): the folder found for ``uri``'s unknown package above
    ``root_dir``, and the file ``uri`` names inside it, when that file exists
    there and stays inside the folder. ``folders`` caches the folder found per
    package for one model file (the search climbs up to nine folders; every
    file the URI names is still checked)."""
    if not root_dir:
        return None
    if folders is None:
        folder = package_folder_above(package, root_dir)
    elif package in folders:
        folder = folders[package]
    else:
        folder = folders[package] = package_folder_above(package, root_dir)
    if folder is None:
        return None
    rest = uri.split("://", 1)[1][len(package):].lstrip("/")
    parts = rest.split("/")
    if _POSIX and rest and "" not in parts and "." not in parts and ".." not in parts \
            and folder != "/":
        path = folder + "/" + rest  # (already normal: what normpath(join()) gives)
    else:
        path = os.path.normpath(os.path.join(folder, rest))
    # Inside the folder (both are normalized absolute paths: a prefix test
    # decides it as os.path.commonpath would, at a fraction of its cost).
    if path != folder and not path.startswith(folder if folder.endswith(os.sep)
                                              else folder + os.sep):
        return None
    if not os.path.isfile(path):
        return None
    return folder, path


class FileResolver:
    """Resolves the URIs of one model file, reporting at the element that
    names each one. ``diag`` is the reader's XmlDiagnostic."""

    def __init__(self, diag, package_map, root_dir: str):
        self.diag = diag
        self.package_map = package_map
        self.root_dir = root_dir
        self._guessed: set[str] = set()
        self._folders: dict[str, str | None] = {}
        # The file each URI was found to name, this parse (a model names the
        # same mesh for a visual and a collision): a URI not found is looked
        # up, and reported, again at every element.
        self._found: dict[str, str] = {}

    def resolve(self, el, uri: str, instead: str | None, missing: str = "file-missing") -> str | None:
        """The file ``uri`` names. When it cannot be found: an error at ``el``
        (code ``missing`` when the file does not exist) in Drake's mode or
        when ``instead`` is None; otherwise a warning saying ``instead``
        (what is done without the file), and None."""
        found = self._found.get(uri)
        if found is not None:
            return found
        path, problem = resolve_uri(uri, self.package_map, self.root_dir)
        if not problem:
            self._found[uri] = path
            return path
        if problem.code == "package-unknown" and not self.diag.policy.like_drake:
            guessed = self._guess(el, uri)
            if guessed is not None:
                self._found[uri] = guessed
                return guessed
        if problem.code == "file-missing" and not self.diag.policy.like_drake:
            relative = self._relative_file_uri(el, uri, path)
            if relative is not None:
                self._found[uri] = relative
                return relative
        code = missing if problem.code == "file-missing" else problem.code
        if instead is None or self.diag.policy.like_drake:
            self.diag.error(el, problem, code=code)
        self.diag.warning(el, f"{problem} [Drake refuses this; {instead}]", code=code)
        return None

    def _relative_file_uri(self, el, uri: str, drake_path: str) -> str | None:
        """``file://meshes/a.dae``: a relative path written as a file URI (the
        Gazebo and pybullet habit), read from the model's folder when the file
        is there, with a warning. Drake reads the first word as the URI's
        host and drops it ('/a.dae'); that reading is tried first, so what
        Drake finds is read as Drake reads it."""
        if not self.root_dir or not uri.startswith("file://"):
            return None
        relative = uri[len("file://"):]
        if not relative or relative.startswith("/"):
            return None
        path = os.path.normpath(os.path.join(self.root_dir, relative))
        if not os.path.isfile(path):
            return None
        self.diag.warning(
            el, f"URI '{uri}' is a relative path written as a file URI; mbparse reads '{path}' "
                "from the model's folder, as Gazebo, pybullet and yourdfpy do [Drake refuses "
                f"this: it takes '{relative.split('/', 1)[0]}' for the URI's host and looks for "
                f"'{drake_path}', which does not exist; write '{relative}' without 'file://']",
            code="file-uri-relative")
        return path

    def _guess(self, el, uri: str) -> str | None:
        package = uri.split("://", 1)[1].split("/", 1)[0]
        found = _found_by_name(uri, package, self.root_dir, self._folders)
        if found is None:
            return None
        folder, path = found
        if package not in self._guessed:
            self._guessed.add(package)
            self.diag.warning(
                el, f"package '{package}' is not in the package map; mbparse reads its files from "
                    f"the folder '{folder}' above the model, as pybullet and yourdfpy do (said once "
                    "per package) [Drake refuses this: it finds packages only through package.xml "
                    f"files or the package map; add --package {package}={folder}]",
                code="package-found-by-name")
        return path


__all__ = ["FileResolver", "package_folder_above", "PACKAGE_SEARCH_DEPTH"]
