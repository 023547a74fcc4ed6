"""Development tool: turns the SDFormat specification files (``sdf/1.12/*.sdf``
of a libsdformat checkout) into ``schema.json``, the table of elements,
attributes, value types, defaults and multiplicities that ``schema.py`` reads.

Usage: python -m mbparse.formats.sdformat.make_schema SPEC_DIR
(SPEC_DIR holds root.sdf, model.sdf, ...). Not imported by the reader.
"""
from __future__ import annotations

import json
import os
import sys

from lxml import etree


def build(spec_dir: str) -> dict:
    nodes: list = []
    file_roots: dict[str, int] = {}

    def load_file(filename: str) -> int:
        if filename in file_roots:
            return file_roots[filename]
        tree = etree.parse(os.path.join(spec_dir, filename))
        root = tree.getroot()
        index = len(nodes)
        nodes.append(None)
        file_roots[filename] = index
        fill(root, index)
        return index

    def element(el) -> int:
        index = len(nodes)
        nodes.append(None)
        fill(el, index)
        return index

    def fill(el, index: int) -> None:
        ref = el.get("ref")
        if ref:
            # The element takes the description of another file's root.
            target = load_file(ref + ".sdf")
            nodes[index] = {"ref": target}
            return
        node = {"name": el.get("name", ""), "type": el.get("type", ""),
                "default": el.get("default", ""), "attrs": {}, "children": {},
                "copy": el.get("copy_data") == "true"}
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if child.tag == "attribute":
                node["attrs"][child.get("name")] = [child.get("type", "string"),
                                                    child.get("default", ""),
                                                    child.get("required", "0")]
            elif child.tag == "element":
                if child.get("copy_data") == "true":
                    node["copy"] = True
                    continue
                sub = element(child)
                node["children"][child.get("name")] = [sub, child.get("required", "0")]
            elif child.tag == "include":
                sub = load_file(child.get("filename"))
                name = _root_name(spec_dir, child.get("filename"))
                node["children"][name] = [sub, child.get("required", "0")]
        nodes[index] = node

    root = load_file("root.sdf")
    # Resolve refs to the referenced node, keeping the element's own name.
    for i, node in enumerate(nodes):
        if "ref" in node:
            nodes[i] = dict(nodes[node["ref"]])
    return {"root": root, "nodes": nodes}


def _root_name(spec_dir: str, filename: str) -> str:
    return etree.parse(os.path.join(spec_dir, filename)).getroot().get("name")


def main() -> None:
    spec_dir = sys.argv[1]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema.json")
    with open(out, "w") as f:
        json.dump(build(spec_dir), f, separators=(",", ":"))
    print(out)


if __name__ == "__main__":
    main()
