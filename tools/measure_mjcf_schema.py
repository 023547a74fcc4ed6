"""Development tool: measures ``src/mbparse/formats/mjcf/schema.json`` against
the MuJoCo installed here and writes it back as that MuJoCo's schema, so the
messages that name a MuJoCo version ("MuJoCo 4.0.0 refuses it") name the one
mbparse is compared with.

``tools/make_mjcf_schema.py`` reads the schema table from a MuJoCo source
checkout; a release may be installed whose source is not at hand. This tool
asks the installed compiler instead, one small document per question:

* an element it refuses where the table puts it ("Schema violation:
  unrecognized element") is removed with everything below it;
* an attribute it refuses ("unrecognized attribute") is removed;
* a name the compiled library holds as a string (``libmujoco.so.X``) and the
  table lacks is added to an element when the compiler accepts it there.
  Elements the compiler does not check (it accepts a made-up attribute) get
  no additions. New elements are not looked for.

Each element's questions run in a child process with a time limit (a
document can make MuJoCo open files). Usage:

    python tools/measure_mjcf_schema.py [--output PATH]

It prints what changed.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_mjcf_schema import OUTPUT, as_json  # noqa: E402

CONTROL = "zzqqxxnotanattribute"
# Answers one element's questions: argv[1] is [path, [attribute or null, ...]];
# prints one JSON line per question: [attribute, "refused" | "accepted", message].
_CHILD = r'''
import json, sys, mujoco
path, names = json.loads(sys.argv[1])
parts = path.split("/")
for name in names:
    leaf = f'<{parts[-1]} {name}="0"/>' if name else f"<{parts[-1]}/>"
    xml = "".join(f"<{p}>" for p in parts[:-1]) + leaf + "".join(
        f"</{p}>" for p in reversed(parts[:-1]))
    try:
        mujoco.MjModel.from_xml_string(xml)
        message = ""
    except Exception as e:
        message = " ".join(str(e).split())
    refused = "Schema violation: unrecognized" in message
    print(json.dumps([name, "refused" if refused else "accepted", message]), flush=True)
'''


def document_path(schema_path: str) -> str:
    """Where an element of the table is written in a document: the table's
    top-level ``body`` stands for bodies in ``<worldbody>``."""
    if schema_path == "mujoco/body" or schema_path.startswith("mujoco/body/"):
        return "mujoco/worldbody/body" + schema_path[len("mujoco/body"):]
    return schema_path


def ask(path: str, names: list, timeout: float) -> dict | None:
    """{name: (verdict, message)} for each question, or None when the child
    did not finish in time."""
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD, json.dumps([path, names])],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    answers = {}
    for line in done.stdout.splitlines():
        name, verdict, message = json.loads(line)
        answers[name] = (verdict, message)
    if len(answers) < len(set(names)):  # the child died on the way
        return None
    return answers


def candidate_names(known: set[str]) -> list[str]:
    """Attribute-like strings of the installed MuJoCo library the table lacks."""
    import mujoco
    folder = os.path.dirname(mujoco.__file__)
    version = mujoco.mj_versionString()
    libraries = glob.glob(os.path.join(folder, f"libmujoco.so.{version}")) or \
        glob.glob(os.path.join(folder, "libmujoco*"))
    if not libraries:
        raise SystemExit(f"no libmujoco found in {folder}")
    data = open(libraries[0], "rb").read()
    words = set(m.decode() for m in re.findall(rb"(?<![\x21-\x7e])([a-z][a-z0-9]{1,24})\x00", data))
    return sorted(words - known)


def measure(schema: dict, timeout: float = 300.0) -> tuple[dict, list[str]]:
    """The schema as the installed MuJoCo reads it, and what changed."""
    import mujoco
    elements = {e["id"]: e for e in schema["elements"]}
    known = {e["name"] for e in elements.values()} | {
        a for e in elements.values() for a in e["attributes"]}
    candidates = candidate_names(known)
    changes: list[str] = []
    removed: set[int] = set()
    for e in schema["elements"]:
        if e["id"] in removed:
            continue
        path = document_path(e["path"])
        answers = ask(path, [None, CONTROL, *e["attributes"]], timeout)
        if answers is None:
            changes.append(f"{e['path']}: not measured (MuJoCo did not answer within "
                           f"{timeout:g} s)")
            continue
        if answers[None][0] == "refused":
            stack = [e["id"]]
            while stack:
                i = stack.pop()
                removed.add(i)
                stack.extend(elements[i]["children"])
            changes.append(f"{e['path']}: element removed ({answers[None][1]})")
            continue
        gone = [a for a in e["attributes"] if answers[a][0] == "refused"]
        for a in gone:
            changes.append(f"{e['path']}: attribute '{a}' removed")
        e["attributes"] = [a for a in e["attributes"] if a not in gone]
        if answers[CONTROL][0] != "refused":
            continue  # not checked by the compiler: nothing to learn about new names
        more = ask(path, candidates, timeout)
        if more is None:
            changes.append(f"{e['path']}: new attributes not measured (no answer)")
            continue
        added = [a for a in candidates if more[a][0] == "accepted"]
        for a in added:
            changes.append(f"{e['path']}: attribute '{a}' added")
        e["attributes"] = e["attributes"] + added
    # Drop removed elements, renumbering ids and children.
    kept = [e for e in schema["elements"] if e["id"] not in removed]
    new_id = {e["id"]: i for i, e in enumerate(kept)}
    for e in kept:
        e["children"] = [new_id[c] for c in e["children"] if c in new_id]
    for e in kept:
        e["id"] = new_id[e["id"]]
    schema = dict(schema, elements=kept, mujoco_version=mujoco.mj_versionString())
    return schema, changes


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--schema", default=OUTPUT, help="the schema to measure (default: the package's)")
    p.add_argument("--output", default=OUTPUT, help="where to write (default: the package's)")
    args = p.parse_args(argv)
    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    before = schema["mujoco_version"]
    measured, changes = measure(schema)
    text = as_json(measured["elements"], measured["mujoco_version"], "schema table")
    about = [f"MJCF elements of MuJoCo {measured['mujoco_version']}: MuJoCo {before}'s schema "
             "table (tools/make_mjcf_schema.py),",
             f"measured against the compiler of MuJoCo {measured['mujoco_version']} by "
             "tools/measure_mjcf_schema.py; do not edit by hand.",
             "children are element ids; multiplicity: one, optional (at most one), any,",
             "recursive (any, and the element may hold itself)."]
    text = re.sub(r'"about": \[.*?\],\n', '"about": [' + ",\n          ".join(
        json.dumps(a) for a in about) + "],\n", text, count=1, flags=re.S)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    for change in changes:
        print(change)
    print(f"{os.path.normpath(args.output)}: MuJoCo {before} -> {measured['mujoco_version']}, "
          f"{len(changes)} change(s)")


if __name__ == "__main__":
    main(sys.argv[1:])
