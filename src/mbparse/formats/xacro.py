"""xacro files (``.xacro``, ``.urdf.xacro``): expanded with the ``xacro``
package from PyPI (no ROS needed), then read as URDF.

* ``$(find pkg)`` resolves through the Parser's package map; ``package://``
  URIs in the expanded text are resolved by the URDF reader as usual.
* Every element of the xacro source (and of the files it includes) is
  marked with the file and line it was written on before xacro expands it,
  so a diagnostic about the expanded URDF names the xacro file and line
  that produced the element (for an element written in a macro, the line
  in the macro's body).
* A xacro error (an undefined property, a bad expression, a missing
  include, ...) is a located ParseError (code ``xacro-error``); what xacro
  prints as a warning becomes a ParseWarning.

The xacro package keeps its state in module globals, so expansions are
serialised with a lock.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import threading
from typing import Callable

from lxml import etree

from ..workspace import DataSource
from .common.xml import Note, parse_xml_bytes, warn_notes
from . import urdf

ORIGIN = "mbparse-xacro-origin"   # the attribute that carries "file-index:line"
_LOCK = threading.Lock()


class _Expansion:
    """One xacro expansion: the files read and where each line of the
    expanded text came from."""

    def __init__(self, source: DataSource, workspace):
        self.source = source
        self.ws = workspace
        self.files: list[str] = []
        self.lines: dict[int, tuple[str, int]] = {}

    # -- marking the sources
    def mark(self, data: bytes, name: str) -> str:
        """The XML text with every non-xacro element marked with its origin;
        malformed XML is a located error."""
        notes: list[Note] = []
        root, problem, line = parse_xml_bytes(data, notes)
        policy = self.ws.diagnostic
        if root is None:
            policy.error(f"the xacro file is not well-formed XML: {problem}", name, line,
                         code="xml-syntax")
        warn_notes(policy, name, notes)
        index = len(self.files)
        self.files.append(name)
        for el in root.iter():
            if isinstance(el.tag, str) and "xacro" not in (etree.QName(el).namespace or ""):
                el.set(ORIGIN, f"{index}:{el.sourceline}")
        return etree.tostring(root, encoding="unicode")

    # -- locating the expanded text
    def record(self, expanded: str) -> str:
        """The expanded text without the marks; remembers the origin of each
        line that starts an element."""
        root, problem, line = parse_xml_bytes(expanded.encode("utf-8"))
        if root is None:
            self.ws.diagnostic.error(f"xacro produced text that is not well-formed XML: {problem}",
                                 self.source.name(), None, code="xacro-error")
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            mark = el.attrib.pop(ORIGIN, None)
            if mark is not None and el.sourceline not in self.lines:
                index, _, origin_line = mark.partition(":")
                self.lines[el.sourceline] = (self.files[int(index)], int(origin_line))
        return etree.tostring(root, encoding="unicode")

    def locate(self, file: str | None, line: int | None) -> tuple[str | None, int | None]:
        """Where a diagnostic about the expanded text came from."""
        if file != self.expanded_name or line is None:
            return file, line
        known = [n for n in self.lines if n <= line]
        if not known:
            return self.source.name(), None
        return self.lines[max(known)]

    @property
    def expanded_name(self) -> str:
        return f"{self.source.name()} (expanded)"


def _find(package_map) -> Callable[[str], str]:
    def find(pkg: str) -> str:
        if package_map.contains(pkg):
            return package_map.get_path(pkg)
        raise LookupError(f"$(find {pkg}): package '{pkg}' is not in the package map; add it "
                          f"(--package {pkg}=DIR, or a package.xml above the file)")
    return find


@contextlib.contextmanager
def _hooks(expansion: _Expansion):
    """xacro with $(find) through the package map and every file it reads
    marked; its stderr captured."""
    import xacro
    import xacro.substitution_args as args
    find = _find(expansion.ws.package_map)
    saved = (xacro.parse, args._eval_find, args._eval_dict["find"])
    original_parse = xacro.parse

    def parse(inp, filename=None):
        if inp is None and filename is not None:
            path = os.path.join(xacro.root_dir, filename)
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                return original_parse(inp, filename)  # xacro's own error
            return original_parse(expansion.mark(data, os.path.normpath(path)), filename)
        return original_parse(inp, filename)

    xacro.parse = parse
    args._eval_find = find
    args._eval_dict["find"] = find
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            yield stderr
    finally:
        xacro.parse, args._eval_find, args._eval_dict["find"] = saved


_UNDEFINED = re.compile(r"name '(\w+)' is not defined|Undefined substitution argument (\w+)"
                        r"|\$\(find ([\w-]+)\)"
                        r"|(?:property|macro) '?(\w+)'? (?:is )?not defined")


def _error_line(path: str, message: str) -> int | None:
    """The first line of ``path`` that uses the name an error says is
    undefined, or None."""
    m = _UNDEFINED.search(message)
    if m is None:
        return None
    name = next(g for g in m.groups() if g)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, start=1):
                if re.search(rf"(\$\{{|\$\(|xacro:)[^\n]*\b{re.escape(name)}\b", text):
                    return number
    except OSError:
        return None
    return None


def expand(source: DataSource, workspace) -> tuple[DataSource, _Expansion]:
    """The URDF text of a xacro file, and how to locate its lines."""
    import xacro
    expansion = _Expansion(source, workspace)
    policy = workspace.diagnostic
    name = source.name()
    with _LOCK:
        marked = expansion.mark(source.read_bytes(), name)
        with _hooks(expansion) as stderr:
            try:
                xacro.init_stacks(name if source.is_file() else None)
                saved_root = xacro.root_dir
                xacro.root_dir = source.root_dir() or os.curdir
                try:
                    doc = xacro.parse(marked)
                    xacro.process_doc(doc)
                finally:
                    xacro.root_dir = saved_root
                # one element per line, so that each line maps to one origin
                text = doc.documentElement.toprettyxml(indent="  ")
            except Exception as e:  # xacro raises its own and Python's (NameError, ...)
                where = (xacro.filestack or [name])[-1] or name
                message = re.sub(r"<class '[\w.]+'>: ", "", str(e) or type(e).__name__)
                half = len(message) // 2
                if message[:half] == message[half + 1:]:   # xacro repeats a wrapped message
                    message = message[:half]
                policy.error(f"xacro could not expand the file: {message}", where,
                             _error_line(where, message), code="xacro-error")
        for line in stderr.getvalue().splitlines():
            line = re.sub(r"\x1b\[[0-9;]*m", "", line).strip()
            if line and not line.startswith(("when ", "in file:", "included from:",
                                             "instantiated from:")):
                line = re.sub(r"^warning:\s*", "", line)
                policy.warning(f"xacro: {line}", name, None, code="xacro-warning")
    text = expansion.record(text)
    return DataSource(contents=text, display_name=expansion.expanded_name,
                      base_dir=source.root_dir()), expansion


@contextlib.contextmanager
def _located(expansion: _Expansion, policy):
    saved = policy.locate
    policy.locate = expansion.locate
    try:
        yield
    finally:
        policy.locate = saved


def add_all_models(source: DataSource, parent_model_name: str | None, workspace) -> list[int]:
    expanded, expansion = expand(source, workspace)
    with _located(expansion, workspace.diagnostic):
        return urdf.add_all_models(expanded, parent_model_name, workspace)


def add_model(source: DataSource, model_name: str, parent_model_name: str | None,
              workspace) -> int | None:
    expanded, expansion = expand(source, workspace)
    with _located(expansion, workspace.diagnostic):
        return urdf.add_model(expanded, model_name, parent_model_name, workspace)


def merge_model(source: DataSource, model_name: str, into_instance: int, workspace) -> str:
    expanded, expansion = expand(source, workspace)
    with _located(expansion, workspace.diagnostic):
        return urdf.merge_model(expanded, model_name, into_instance, workspace)
