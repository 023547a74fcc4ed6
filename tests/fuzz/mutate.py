"""Structure-aware mutations of model files, one family per format.

Every mutator takes a ``random.Random`` and bytes and returns bytes, so a
campaign is reproducible from its seed. XML formats are mutated on the tree
(elements deleted, duplicated, reordered, renamed, nested deep; attributes
deleted, copied, given hostile values), YAML and OBJ on lines and tokens, and
every format on raw bytes (flips, truncation, splices).
"""
from __future__ import annotations

import random
import re
from typing import Callable

from lxml import etree

# Numbers and texts that broke, or could break, a reader.
HOSTILE_NUMBERS = [
    "1e400", "-1e400", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e200", "-1e200",
    "1e308", "1e-400", "1,2", "0x1p3", "0x10", "", " ", "1.5abc", "abc", "1 2 3 4 5 6 7",
    "0", "-0", "1e-300", "-1", "9" * 400, "1_000", "+", "-", ".", "e5", "1e", "\u00a01",
    "1e100000", "4294967297", "-2147483649", "0 0 0", "1 0 0 0", "1e200 0 0 0",
]
HOSTILE_TEXTS = [
    "", "..", "../../../../etc/passwd", "package://pkg/../../etc/passwd", "file:///dev/zero",
    "/dev/zero", "model://x/../../..", "a" * 5000, "x::y", "::", "world", "__model__",
    "\x00", "\udc80", "\ud800x", "http://example.com/x", "package://", "package:///",
    "file://", "a/b\\c", "%s%n", "{0}", "true", "false", "-1",
]
DEPTHS = [2, 50, 300, 1500]
# Trees of more elements than this are not grown further (copied, nested,
# duplicated): fifty copies of a grown tree, again and again, would fill the
# memory of the fuzzer before the reader sees the input.
MAX_GROWTH_ELEMENTS = 10_000


def hostile_value(rng: random.Random) -> str:
    pool = HOSTILE_NUMBERS if rng.random() < 0.7 else HOSTILE_TEXTS
    value = rng.choice(pool)
    if rng.random() < 0.3:  # inside a vector
        parts = ["0"] * rng.randint(1, 6)
        parts[rng.randrange(len(parts))] = value
        value = " ".join(parts)
    return value


# ---------------------------------------------------------------- bytes

def _flip(rng, data: bytes) -> bytes:
    if not data:
        return data
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(b))
        b[i] = rng.choice([b[i] ^ (1 << rng.randrange(8)), rng.randrange(256),
                           ord(rng.choice("<>/=\"' \n&;:."))])
    return bytes(b)


def _truncate(rng, data: bytes) -> bytes:
    return data[:rng.randrange(len(data) + 1)]


def _splice(rng, data: bytes) -> bytes:
    if len(data) < 2:
        return data
    i, j = sorted(rng.randrange(len(data)) for _ in range(2))
    k = rng.randrange(len(data))
    if rng.random() < 0.5:
        return data[:i] + data[j:]                  # delete a range
    return data[:k] + data[i:j] + data[k:]         # duplicate a range elsewhere


def _insert_hostile(rng, data: bytes) -> bytes:
    k = rng.randrange(len(data) + 1)
    return data[:k] + hostile_value(rng).encode("utf-8", "surrogatepass") + data[k:]


def _numbers(rng, data: bytes) -> bytes:
    """Replaces some numbers of the text with hostile ones."""
    text = data.decode("utf-8", "surrogateescape")
    spans = [m.span() for m in re.finditer(r"[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?", text)]
    if not spans:
        return _insert_hostile(rng, data)
    for a, b in sorted(rng.sample(spans, min(len(spans), rng.randint(1, 3))), reverse=True):
        text = text[:a] + hostile_value(rng) + text[b:]
    return text.encode("utf-8", "surrogatepass" if _has_lone(text) else "surrogateescape")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_lone(text: str) -> bool:
    return _LONE_SURROGATE.search(text) is not None


BYTE_MUTATORS = [_flip, _truncate, _splice, _insert_hostile, _numbers]


# ---------------------------------------------------------------- XML trees

_XML_PARSER = etree.XMLParser(recover=True, resolve_entities=False, no_network=True,
                              huge_tree=True, remove_comments=False)


def _elements(root) -> list:
    return list(root.iter(etree.Element))  # elements only, in document order


def _xml_mutation(rng: random.Random, root) -> None:
    els = _elements(root)
    el = rng.choice(els)
    parent = el.getparent()
    op = rng.randrange(11)
    if op in (1, 9, 10) and len(els) > MAX_GROWTH_ELEMENTS:
        return
    if op == 0 and parent is not None:
        parent.remove(el)
    elif op == 1 and parent is not None:
        parent.insert(parent.index(el) + rng.choice([0, 1]), el.__copy__())
    elif op == 2 and parent is not None and len(parent) > 1:
        parent.remove(el)
        parent.insert(rng.randrange(len(parent) + 1), el)
    elif op == 3:
        el.tag = rng.choice(els).tag if rng.random() < 0.7 else rng.choice(
            ["model", "body", "link", "joint", "include", "frame", "geom", "x", "inertial"])
    elif op == 4 and el.attrib:
        del el.attrib[rng.choice(list(el.attrib))]
    elif op in (5, 6):
        names = list(el.attrib) or ["name", "size", "pos", "xyz", "rpy", "value"]
        try:
            el.set(rng.choice(names), _xml_safe(hostile_value(rng)))
        except (ValueError, TypeError):
            pass
    elif op == 7:
        other = rng.choice(els)
        if other.attrib:
            key = rng.choice(list(other.attrib))
            try:
                el.set(key, other.get(key))
            except (ValueError, TypeError):
                pass
    elif op == 8 and len(el) == 0:
        el.text = _xml_safe(hostile_value(rng))
    elif op == 9 and parent is not None:
        _nest(rng, el)
    elif op == 10 and parent is not None:
        for _ in range(rng.choice([2, 10, 50])):
            parent.append(el.__copy__())


def _nest(rng, el) -> None:
    """Appends to ``el`` a chain of copies of ``el`` (attributes, text and
    tail, no children), each inside the one before, many levels deep."""
    depth = rng.choice(DEPTHS)
    tag, attrib, text, tail = el.tag, dict(el.attrib), el.text, el.tail
    try:
        etree.Element(tag, attrib)
    except ValueError:  # a name only the recovering parser takes: copy instead
        return _nest_by_copies(el, depth)
    name = attrib.get("name")
    inner = el
    for i in range(depth):
        # Made in place (not copied and appended, which walks the ancestors
        # on every append: quadratic in the depth).
        if name is not None:
            attrib["name"] = f"{name}_{i}"
        inner = etree.SubElement(inner, tag, attrib)
        inner.text, inner.tail = text, tail


def _nest_by_copies(el, depth: int) -> None:
    shell = el.__copy__()  # lxml's __copy__ copies the whole subtree
    for c in list(shell):
        shell.remove(c)
    inner = el
    for i in range(depth):
        new = shell.__copy__()
        if new.get("name") is not None:
            new.set("name", f"{new.get('name')}_{i}")
        inner.append(new)
        inner = new


def _xml_safe(text: str) -> str:
    # lxml refuses control characters and lone surrogates in attributes; keep
    # what it takes (the byte mutators put the rest in).
    return "".join(c for c in text if c in "\t\n\r" or (" " <= c and not "\ud800" <= c <= "\udfff"))


def mutate_xml(rng: random.Random, data: bytes) -> bytes:
    try:
        root = etree.fromstring(data, _XML_PARSER)
    except (etree.XMLSyntaxError, ValueError):
        root = None
    if root is None:
        return mutate_bytes(rng, data)
    for _ in range(rng.randint(1, 3)):
        try:
            _xml_mutation(rng, root)
        except (ValueError, TypeError):  # a name or value lxml refuses to hold
            pass
    return etree.tostring(root, xml_declaration=rng.random() < 0.5, encoding="utf-8")


# ---------------------------------------------------------------- lines

def _line_mutation(rng: random.Random, lines: list[bytes]) -> list[bytes]:
    if not lines:
        return [hostile_value(rng).encode("utf-8", "surrogatepass")]
    i = rng.randrange(len(lines))
    op = rng.randrange(6)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(rng.randrange(len(lines) + 1), lines[i])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines[i] = _numbers(rng, lines[i])
    elif op == 4:
        lines[i:i] = [lines[i]] * rng.choice([10, 300])
    else:
        lines[i] = _flip(rng, lines[i])
    return lines


def mutate_lines(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 3)):
        lines = _line_mutation(rng, lines)
    return b"\n".join(lines)


_CORNERS = [str(k or 1).encode() for k in range(-3, 4)]


def mutate_obj(rng: random.Random, data: bytes) -> bytes:
    r = rng.random()
    if r < 0.1:
        n = rng.choice([5, 300, 20000])
        # rng._randbelow(7) - 3 is rng.randint(-3, 3), without its overhead.
        below = rng._randbelow
        face = b"f " + b" ".join(_CORNERS[below(7)] for _ in range(n))
        return data + b"\n" + face + b"\n"
    if r < 0.15:
        return data + b"\nf 1 2 " + rng.choice([b"99999999", b"-99999999", b"0", b"1/2/3/4",
                                                 b"1//", b"//", b"a"]) + b"\n"
    return mutate_lines(rng, data)


def mutate_yaml(rng: random.Random, data: bytes) -> bytes:
    r = rng.random()
    if r < 0.05:
        depth = rng.choice(DEPTHS)
        return b"directives:\n- " + b"[" * depth + b"1" + b"]" * depth + b"\n"
    if r < 0.1:
        return rng.choice([b"~\n", b"", b"[]\n", b"directives: ~\n", b"directives:\n- ~\n",
                           b"directives: 3\n", b"!!python/object:os.system ls\n",
                           b"directives:\n- add_model: {name: a, file: 'file:///dev/zero'}\n"])
    return mutate_lines(rng, data)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    return rng.choice(BYTE_MUTATORS)(rng, data)


STRUCTURED: dict[str, Callable[[random.Random, bytes], bytes]] = {
    "urdf": mutate_xml, "sdf": mutate_xml, "mjcf": mutate_xml,
    "dmd": mutate_yaml, "obj": mutate_obj,
}


def mutate(fmt: str, rng: random.Random, data: bytes) -> bytes:
    """One to three rounds of mutation: mostly structural, sometimes raw bytes."""
    for _ in range(rng.randint(1, 2)):
        if rng.random() < 0.75:
            data = STRUCTURED[fmt](rng, data)
        else:
            data = mutate_bytes(rng, data)
    return data
