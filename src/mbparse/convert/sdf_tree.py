"""A small XML element tree for building SDFormat output.

lxml cannot hold the prefixed tag names (``ignition:foo``) that ``<gazebo>``
blobs often carry without namespace declarations, and the converter needs
exact control over child order and text. This tree holds names as written.
"""
from __future__ import annotations

import math
import re
from typing import Iterator
from xml.sax.saxutils import escape, quoteattr

from lxml import etree

from ..formats.common.xml import MEMO_LIMIT


class Node:
    """An element: name, attributes (in order), text and child elements."""

    __slots__ = ("name", "attrs", "text", "children")

    def __init__(self, name: str, attrs: dict[str, str] | None = None,
                 text: str | None = None, children: list["Node"] | None = None):
        self.name = name
        self.attrs: dict[str, str] = dict(attrs or {})
        self.text = text
        self.children: list[Node] = list(children or [])

    def __repr__(self) -> str:
        return f"<Node {self.name} {self.attrs} {len(self.children)} children>"

    def first(self, name: str) -> "Node | None":
        for c in self.children:
            if c.name == name:
                return c
        return None

    def last(self, name: str) -> "Node | None":
        for c in reversed(self.children):
            if c.name == name:
                return c
        return None

    def all(self, name: str) -> list["Node"]:
        return [c for c in self.children if c.name == name]

    def append(self, child: "Node") -> "Node":
        self.children.append(child)
        return child

    def remove(self, child: "Node") -> None:
        for i, c in enumerate(self.children):
            if c is child:
                del self.children[i]
                return

    def sub(self, name: str, text: str | None = None, **attrs: str) -> "Node":
        """Appends and returns a new child."""
        return self.append(Node(name, attrs, text))

    def set_value(self, name: str, text: str) -> "Node":
        """Replaces the first child called ``name`` (if any) by a new one with ``text``,
        added at the end."""
        old = self.first(name)
        if old is not None:
            self.remove(old)
        return self.sub(name, text)

    def copy(self) -> "Node":
        return Node(self.name, self.attrs, self.text, [c.copy() for c in self.children])

    def iter(self) -> Iterator["Node"]:
        yield self
        for c in self.children:
            yield from c.iter()

    def value(self) -> str:
        """The value as the converter reads keys: a ``value`` attribute, else the
        trimmed text."""
        if "value" in self.attrs:
            return self.attrs["value"].strip()
        return (self.text or "").strip()

    def to_string(self, indent: str = "") -> str:
        """Indented XML, two spaces per level, attributes in single quotes."""
        out: list[str] = []
        self._write(out, indent)
        return "".join(out)

    def _write(self, out: list[str], indent: str) -> None:
        attrs = "".join(f" {k}={_quote(v)}" for k, v in self.attrs.items())
        if not self.children and self.text is None:
            out.append(f"{indent}<{self.name}{attrs}/>\n")
        elif not self.children:
            out.append(f"{indent}<{self.name}{attrs}>{escape(self.text)}</{self.name}>\n")
        else:
            out.append(f"{indent}<{self.name}{attrs}>")
            if self.text is not None and self.text.strip():
                out.append(escape(self.text.strip()))
            out.append("\n")
            for c in self.children:
                c._write(out, indent + "  ")
            out.append(f"{indent}</{self.name}>\n")


def _quote(v: str) -> str:
    q = quoteattr(v)
    if q.startswith('"') and "'" not in v:
        q = "'" + q[1:-1].replace("&quot;", '"') + "'"
    return q


def from_lxml(el) -> Node:
    """A copy of an lxml element (comments and processing instructions dropped)."""
    node = Node(_written_name(el), {_written_name_attr(el, k): v for k, v in el.attrib.items()})
    kids = [c for c in el if isinstance(c.tag, str)]
    text = el.text
    if text is not None and not text.strip() and kids:
        text = None
    if text is not None and not text.strip() and not kids:
        text = None
    node.text = text
    node.children = [from_lxml(c) for c in kids]
    return node


def _written_name(el) -> str:
    tag = el.tag
    if tag.startswith("{"):
        uri, local = tag[1:].split("}", 1)
        for prefix, u in (el.nsmap or {}).items():
            if u == uri and prefix:
                return f"{prefix}:{local}"
        return local
    return tag


def _written_name_attr(el, key: str) -> str:
    if key.startswith("{"):
        uri, local = key[1:].split("}", 1)
        for prefix, u in (el.nsmap or {}).items():
            if u == uri and prefix:
                return f"{prefix}:{local}"
        return local
    return key


def _finite(v: float) -> None:
    if not math.isfinite(v):
        from .loss import ConvertError
        raise ConvertError(f"the SDFormat output would hold the number {v}; no model file can "
                           "hold it, so nothing was written")


# Texts fmt wrote (a model repeats a few numbers many times), at most
# MEMO_LIMIT of them.
_TEXTS: dict[float, str] = {}


def fmt(v: float) -> str:
    """A double as the converter writes it: 16 significant digits, zero as "0"."""
    text = _TEXTS.get(v)
    if text is not None:
        return text
    if v == 0.0:
        return "0"
    _finite(v)
    text = format(v, ".16g")
    if len(_TEXTS) < MEMO_LIMIT:
        _TEXTS[v] = text
    return text


def fmt_short(v: float) -> str:
    """A double as a default C++ stream writes it (6 significant digits)."""
    _finite(v)
    s = format(v, ".6g")
    return s


def fmt_values(values) -> str:
    return " ".join(fmt(v) for v in values)


_DOUBLE_COLON = "__double_colon__"


def parse_xml_text(text: str | bytes) -> Node:
    """A Node from XML text such as libsdformat prints (used by tests and the
    comparison tool): names like ``ignition::corrected_offsets`` and
    undeclared prefixes are accepted."""
    if isinstance(text, bytes):
        text = text.decode()
    text = re.sub(r"(</?[A-Za-z_][\w.:-]*?)::", lambda m: m.group(1) + _DOUBLE_COLON, text)
    parser = etree.XMLParser(recover=True, remove_comments=True)
    root = etree.fromstring(text.encode(), parser)
    node = from_lxml(root)
    for n in node.iter():
        n.name = n.name.replace(_DOUBLE_COLON, "::")
    return node
