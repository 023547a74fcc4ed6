"""Development tool: turns MuJoCo's own MJCF schema table into
``src/mbparse/formats/mjcf/schema.json``, which ``formats/mjcf/schema.py``
reads to check every element's attributes and children.

MuJoCo validates a model against a table of rows: an element's name, its
multiplicity (``!`` exactly one, ``?`` at most one, ``*`` any number, ``R``
any number and recursive) and its attribute names, with ``{"<"}`` / ``{">"}``
rows opening and closing the children of the row before. The table is
read here as data -- string literals between braces -- from the C++ file
that holds it: ``src/xml/generated/mjcf_table.inc`` (MuJoCo >= 3.12) or
``src/xml/xml_native_reader.cc`` (older releases, including those whose rows
carry an attribute count in the third column).

Usage: python tools/make_mjcf_schema.py SOURCE_FILE [--version X.Y.Z] [--output PATH]

Without --version, the version is read from include/mujoco/mujoco.h of the
checkout SOURCE_FILE belongs to (mjVERSION_HEADER).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys

OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "src", "mbparse",
                      "formats", "mjcf", "schema.json")
TABLE_START = re.compile(r"\bMJCF\s*\[[^\]]*\]\s*(?:\[[^\]]*\]\s*)?=\s*\{")
MULTIPLICITY = {"!": "one", "?": "optional", "*": "any", "R": "recursive"}


def table_rows(text: str) -> list[list[str]]:
    """The rows of the MJCF table in ``text``, each a list of its strings."""
    match = TABLE_START.search(text)
    if match is None:
        raise ValueError("no MJCF[] table initializer found")
    rows: list[list[str]] = []
    row: list[str] | None = None
    depth, i, n = 1, match.end(), len(text)
    while i < n and depth > 0:
        c = text[i]
        if text.startswith("//", i):
            i = text.index("\n", i)
            continue
        if text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        if c == '"':
            end = i + 1
            while text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            if row is None:
                raise ValueError(f"a string outside a row at offset {i}")
            row.append(text[i + 1:end])
            i = end + 1
            continue
        if c == "{":
            depth += 1
            if depth == 2:
                row = []
        elif c == "}":
            depth -= 1
            if depth == 1 and row is not None:
                rows.append(row)
                row = None
        i += 1
    return [_without_count(r) for r in rows]


def _without_count(row: list[str]) -> list[str]:
    """Older tables give the number of attributes in the third column."""
    if len(row) >= 3 and row[2].isdigit() and int(row[2]) == len(row) - 3:
        return row[:2] + row[3:]
    return row


def build(rows: list[list[str]]) -> list[dict]:
    """The elements in table order (depth first), each with its children's ids."""
    elements: list[dict] = []

    def element(start: int, parent: int | None) -> int:
        """Adds the element of row ``start``; returns the row after its block."""
        name, mult, *attributes = rows[start]
        if mult not in MULTIPLICITY:
            raise ValueError(f"row {start} ({name}): unknown multiplicity '{mult}'")
        index = len(elements)
        path = name if parent is None else f"{elements[parent]['path']}/{name}"
        elements.append({"id": index, "name": name, "path": path,
                         "multiplicity": MULTIPLICITY[mult], "attributes": attributes,
                         "children": []})
        if parent is not None:
            elements[parent]["children"].append(index)
        row = start + 1
        if row < len(rows) and rows[row] == ["<"]:
            row += 1
            while rows[row] != [">"]:
                row = element(row, index)
            row += 1
        return row

    end = element(0, None)
    if end != len(rows):
        raise ValueError(f"rows after the root element's block (row {end} of {len(rows)})")
    return elements


def source_version(source: str) -> str:
    """MuJoCo's version from the checkout's mujoco.h (e.g. 3012001 -> 3.12.1)."""
    folder = os.path.dirname(os.path.abspath(source))
    for _ in range(4):
        header = os.path.join(folder, "include", "mujoco", "mujoco.h")
        if os.path.isfile(header):
            with open(header, encoding="utf-8") as f:
                found = re.search(r"#define\s+mjVERSION_HEADER\s+(\d+)", f.read())
            if found:
                v = int(found.group(1))
                return f"{v // 1000000}.{v // 1000 % 1000}.{v % 1000}" if v > 9999 else \
                    f"{v // 100}.{v // 10 % 10}.{v % 10}"
        folder = os.path.dirname(folder)
    raise ValueError("cannot tell MuJoCo's version: pass --version")


def as_json(elements: list[dict], version: str, source_name: str) -> str:
    """The schema as JSON, one line per element."""
    dump = json.dumps
    about = [f"MJCF elements of MuJoCo {version}, generated by tools/make_mjcf_schema.py",
             f"from the schema table in MuJoCo's {source_name}; do not edit by hand.",
             "children are element ids; multiplicity: one, optional (at most one), any,",
             "recursive (any, and the element may hold itself)."]
    lines = ["{", '"about": [' + ",\n          ".join(dump(a) for a in about) + "],",
             f'"mujoco_version": {dump(version)},', '"root": 0,', '"elements": [']
    for e in elements:
        lines.append(" " + dump(e, separators=(", ", ": "))
                     + ("," if e["id"] < len(elements) - 1 else ""))
    return "\n".join(lines + ["]", "}"]) + "\n"


def generate(source: str, version: str | None = None) -> str:
    """The text of schema.json for the table in ``source``."""
    with open(source, encoding="utf-8") as f:
        rows = table_rows(f.read())
    rel = source.replace(os.sep, "/")
    name = rel[rel.index("src/xml/"):] if "src/xml/" in rel else os.path.basename(source)
    return as_json(build(rows), version or source_version(source), name)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("source", help="mjcf_table.inc or xml_native_reader.cc of a MuJoCo checkout")
    p.add_argument("--version", help="MuJoCo's version (default: from include/mujoco/mujoco.h)")
    p.add_argument("--output", default=OUTPUT, help="where to write (default: the package's)")
    args = p.parse_args(argv)
    text = generate(args.source, args.version)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print(os.path.normpath(args.output))


if __name__ == "__main__":
    main(sys.argv[1:])
