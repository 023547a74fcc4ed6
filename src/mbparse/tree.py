"""The kinematic tree as a graph: bodies are nodes (with their mass), joints
are edges from parent to child labelled with their type, axis and limits, and
each model instance is a cluster. The graph is written in Graphviz's DOT
language here; pictures are drawn by Graphviz's ``dot`` program when it is
installed (``mbparse tree`` is the command around this module).
"""
from __future__ import annotations

import math
import os
import shutil
import subprocess

from .plant import MultibodyPlant
from .plant.topology import welded_subgraphs

RENDERED = ("svg", "png", "pdf")
INSTALL_DOT = ("drawing a picture needs Graphviz's 'dot' program: install it with "
               "'apt-get install graphviz' (Debian, Ubuntu), 'brew install graphviz' (macOS) "
               "or from https://graphviz.org/download/, or write the graph as text with "
               "'-o tree.dot'")
JOINT_COLORS = {"revolute": "#1f6fb2", "prismatic": "#2e8b57", "weld": "#888888",
                "quaternion_floating": "#b8860b", "rpy_floating": "#b8860b"}


# ---------------------------------------------------------------- DOT text
def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _num(v: float) -> str:
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    return f"{v:.4g}"


def joint_label(joint) -> str:
    """Name, type, axis and finite limits of a joint, one per line."""
    kind = joint.type_name.replace("_", " ")
    if joint.is_ephemeral:
        kind += " (added: free body)" if joint.type_name != "weld" else " (static model)"
    lines = [joint.name, kind]
    axis = getattr(joint, "axis", None)
    if axis is not None:
        lines.append("axis (" + ", ".join(_num(a) for a in axis) + ")")
    unit = {"revolute": " rad", "prismatic": " m", "screw": " rad"}.get(joint.type_name, "")
    limits = [f"[{_num(lo)}, {_num(up)}]" for lo, up in zip(joint.pos_lower, joint.pos_upper)
              if not (math.isinf(lo) and math.isinf(up))]
    if limits and not joint.is_ephemeral:
        lines.append(" ".join(limits) + unit)
    return "\n".join(lines)


def body_label(body) -> str:
    if body.is_world():
        return "world"
    return f"{body.name}\n{_num(body.mass)} kg"


def to_dot(plant: MultibodyPlant, title: str = "", rankdir: str = "TB") -> str:
    """The plant's bodies and joints as a DOT digraph, one cluster per model instance."""
    out = ["digraph kinematic_tree {",
           f"  graph [rankdir={rankdir}, fontname=\"Helvetica\", fontsize=12, "
           f"labelloc=t, label={_quote(title)}, nodesep=0.3, ranksep=0.45];",
           "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", "
           "color=\"#4a6a94\", fontname=\"Helvetica\", fontsize=11];",
           "  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.7];",
           "  b0 [label=\"world\", shape=ellipse, fillcolor=\"#d9d9d9\", color=\"#555555\"];"]
    anchored = next((g for g in welded_subgraphs(plant) if 0 in g), {0})
    by_instance: dict[int, list] = {}
    for body in plant.bodies()[1:]:
        by_instance.setdefault(body.model_instance, []).append(body)
    for instance, bodies in by_instance.items():
        name = plant.get_model_instance_name(instance)
        out.append(f"  subgraph cluster_{instance} {{")
        out.append(f"    label={_quote(name)}; style=\"rounded,dashed\"; color=\"#7f8fa6\"; "
                   "fontcolor=\"#34495e\";")
        for body in bodies:
            style = ""
            if body.mass <= 0 and body.index not in anchored:  # massless and moving
                style = ", fillcolor=\"#fdecea\", color=\"#c0392b\""
            out.append(f"    b{body.index} [label={_quote(body_label(body))}{style}];")
        out.append("  }")
    for joint in plant.joints():
        color = JOINT_COLORS.get(joint.type_name, "#8e44ad")
        style = "dotted" if joint.is_ephemeral else ("dashed" if joint.type_name == "weld"
                                                     else "solid")
        out.append(f"  b{joint.parent_body.index} -> b{joint.child_body.index} "
                   f"[label={_quote(joint_label(joint))}, color=\"{color}\", "
                   f"fontcolor=\"{color}\", style={style}];")
    out.append("}")
    return "\n".join(out) + "\n"


def render(dot_text: str, output: str | None, fmt: str) -> bytes | None:
    """Draws DOT text into ``output`` with Graphviz's ``dot`` (``fmt``: svg,
    png, pdf); without ``output``, returns the picture's bytes."""
    exe = shutil.which("dot")
    if exe is None:
        raise FileNotFoundError(INSTALL_DOT)
    to = ["-o", output] if output is not None else []
    result = subprocess.run([exe, f"-T{fmt}", *to], input=dot_text.encode(),
                            capture_output=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"Graphviz failed: {result.stderr.decode(errors='replace').strip()}")
    return None if output is not None else result.stdout


FORMATS = ("dot", *RENDERED)


def _format_of_suffix(path: str) -> str | None:
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext in ("dot", "gv"):
        return "dot"
    return ext if ext in RENDERED else None


def output_format(path: str | None, requested: str | None = None) -> str:
    """What to write: ``requested`` (one of :data:`FORMATS`, the command's
    ``--format``) or else what the suffix of ``path`` names (DOT without a
    path). A suffix that names another format than the one requested, or no
    format at all without one requested, is a ValueError."""
    if requested is not None:
        if requested not in FORMATS:
            raise ValueError(f"unknown format '{requested}': use {', '.join(FORMATS)}")
        named = _format_of_suffix(path) if path is not None else None
        if named is not None and named != requested:
            raise ValueError(f"--format {requested} asks for {requested}, but '{path}' is a "
                             f".{named} file name; give a name "
                             f"ending in .{requested} (or no --format)")
        return requested
    if path is None:
        return "dot"
    named = _format_of_suffix(path)
    if named is None:
        raise ValueError(f"cannot tell what to write from '{path}': use a .svg, .png, .pdf, "
                         ".dot or .gv file name, or --format svg|png|pdf|dot")
    return named
