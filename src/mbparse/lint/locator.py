"""Finding where a model element was written, from its name.

The model keeps no source lines for bodies and joints, so the linter looks
them up again in the files that were read: an element of the right tag whose
``name`` attribute matches (lxml gives its line), and the column of its
start tag in that line. YAML files (model directives) are searched as text.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from lxml import etree

# Element kind → tag names that declare it, per format family.
_XML_TAGS = {
    "body": ("link", "body"),
    "joint": ("joint", "drake:joint"),
    "frame": ("frame", "drake:frame", "site"),
    "geometry": ("visual", "collision", "geom"),
    "model": ("model", "robot"),
}


@dataclass(frozen=True)
class Location:
    file: str
    line: int | None = None
    column: int | None = None


def _local(tag) -> str:
    if not isinstance(tag, str):
        return ""
    if tag.startswith("{"):
        tag = tag.split("}", 1)[1]
    return tag


class _XmlIndex:
    def __init__(self, path: str):
        self.path = path
        self.lines: list[str] = []
        self.root = None
        try:
            with open(path, "rb") as f:
                data = f.read()
            self.lines = data.decode("utf-8", "replace").splitlines()
            parser = etree.XMLParser(recover=True, remove_comments=True, huge_tree=True)
            self.root = etree.fromstring(data, parser)
        except (OSError, etree.XMLSyntaxError, ValueError):
            self.root = None

    def elements(self, tags: tuple[str, ...], name: str) -> list:
        if self.root is None:
            return []
        wanted = {t.split(":")[-1] for t in tags}
        out = []
        for el in self.root.iter():
            local = _local(el.tag).split(":")[-1]
            if local in wanted and el.get("name") == name:
                out.append(el)
        return out

    def column(self, el) -> int | None:
        line = getattr(el, "sourceline", None)
        if line is None or not (1 <= line <= len(self.lines)):
            return None
        text = self.lines[line - 1]
        tag = _local(el.tag)
        name = el.get("name")
        starts = [m.start() for m in re.finditer(r"<" + re.escape(tag) + r"\b", text)]
        for s in starts:
            if name is None or re.match(r"[^>]*\bname\s*=\s*[\"']" + re.escape(name) + "[\"']",
                                        text[s:]):
                return s + 1
        return starts[0] + 1 if starts else None


def _ancestor_names(el) -> list[str]:
    names = []
    parent = el.getparent()
    while parent is not None:
        if _local(parent.tag) in ("model", "robot", "mujoco") and parent.get("name"):
            names.append(parent.get("name"))
        parent = parent.getparent()
    return names


def _descendant(el, path: tuple[str, ...]):
    """The first descendant along ``path`` (local tag names), or None."""
    current = el
    for step in path:
        found = None
        for sub in current:
            if _local(sub.tag).split(":")[-1] == step:
                found = sub
                break
        if found is None:
            return None
        current = found
    return current


class Locator:
    """Looks model elements up by name in the files a model came from."""

    def __init__(self, files: list[str]):
        self.files = [f for f in dict.fromkeys(files) if f]
        self._xml: dict[str, _XmlIndex] = {}
        self._text: dict[str, list[str]] = {}

    def add_file(self, path: str | None) -> None:
        if path and path not in self.files:
            self.files.append(path)

    def find(self, kind: str, name: str, instance: str | None = None,
             child: tuple[tuple[str, ...], ...] = ()) -> Location | None:
        """Where the ``kind`` element called ``name`` was written.

        ``instance`` (a model instance name, maybe scoped ``a::b``) picks
        among elements of the same name in different models; ``child`` lists
        descendant paths to prefer (``(("limit",), ("axis", "limit"))``), the
        first one present wins.
        """
        tags = _XML_TAGS.get(kind, (kind,))
        scopes = set(instance.split("::")) if instance else set()
        for path in self.files:
            if path.lower().endswith((".yaml", ".yml")):
                hit = self._find_in_text(path, name)
                if hit:
                    return hit
                continue
            index = self._index(path)
            matches = index.elements(tags, name)
            if not matches:
                continue
            best = max(matches, key=lambda el: len(scopes.intersection(_ancestor_names(el))))
            for steps in child:
                sub = _descendant(best, steps)
                if sub is not None:
                    return Location(path, sub.sourceline, index.column(sub))
            return Location(path, best.sourceline, index.column(best))
        return None

    def column_at(self, file: str, line: int | None, tags: tuple[str, ...]) -> int | None:
        """The column of the first start tag among ``tags`` (any tag when empty)
        on ``line``."""
        if line is None or file.lower().endswith((".yaml", ".yml")):
            return None
        lines = self._index(file).lines
        if not (1 <= line <= len(lines)):
            return None
        patterns = [r"<" + re.escape(t) + r"\b" for t in tags] or [r"<[A-Za-z]"]
        hits = [m.start() + 1 for p in patterns for m in re.finditer(p, lines[line - 1])]
        return min(hits) if hits else None

    def _index(self, path: str) -> _XmlIndex:
        if path not in self._xml:
            self._xml[path] = _XmlIndex(path)
        return self._xml[path]

    def _find_in_text(self, path: str, name: str) -> Location | None:
        if path not in self._text:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    self._text[path] = f.read().splitlines()
            except OSError:
                self._text[path] = []
        pattern = re.compile(r"(?<![\w:])" + re.escape(name) + r"(?![\w])")
        for i, text in enumerate(self._text[path], start=1):
            m = pattern.search(text)
            if m:
                return Location(path, i, m.start() + 1)
        return None


def related_files(main: str, extra: list[str | None]) -> list[str]:
    """The main file first, then other existing model files in ``extra``."""
    out = [main]
    for f in extra:
        if f and f not in out and os.path.isfile(f) and not f.lower().endswith(
                (".obj", ".stl", ".dae", ".gltf", ".glb", ".vtk", ".png", ".jpg")):
            out.append(f)
    return out
