"""Findings and the rules that produce them.

A :class:`Rule` is a kind of mistake (``joint-limits-inverted``) with a
default severity and a one-line hint on how to fix it; a :class:`Finding` is
one occurrence, located at file:line:column. The table :data:`RULES` is the
single list the text, JSON and SARIF reports describe.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

SEVERITIES = ("error", "warning", "note")


@dataclass(frozen=True)
class Rule:
    """A kind of problem ``mbparse check`` reports."""

    id: str
    severity: str
    summary: str
    hint: str


@dataclass(frozen=True)
class Finding:
    """One problem found in one file."""

    rule: str
    severity: str
    message: str
    hint: str
    file: str | None = None
    line: int | None = None
    column: int | None = None

    def location(self) -> str:
        where = self.file or "<unknown file>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def to_dict(self) -> dict:
        return asdict(self)


def _rules(*rules: Rule) -> dict[str, Rule]:
    return {r.id: r for r in rules}


RULES: dict[str, Rule] = _rules(
    # -- what the parser says
    Rule("parse-error", "error", "the file cannot be loaded",
         "fix the element named in the message; nothing after it was read"),
    Rule("parse-warning", "warning", "the parser worked around a problem",
         "change the element so the parser need not guess"),
    Rule("ignored-input", "warning", "an element or attribute is not supported and is ignored",
         "remove it, or use the equivalent that mbparse and Drake read"),
    Rule("internal-error", "error", "mbparse failed while reading the file",
         "this is a bug in mbparse; please report it with the file"),
    Rule("unknown-format", "error", "the file suffix names no known format",
         "use .urdf, .sdf, .xml (MuJoCo), .dmd.yaml or .obj"),
    # -- inertia and mass
    Rule("mass-nonpositive", "error", "a moving part of the model has no mass",
         "give the body (or a body welded to it or outboard of it) a positive <mass>"),
    Rule("inertia-invalid", "error",
         "the rotational inertia is not physical (not positive semi-definite, or "
         "breaks the triangle inequality Ixx + Iyy >= Izz)",
         "use the principal moments of a real shape, e.g. a box's m(b²+c²)/12, ..."),
    Rule("inertia-zero", "warning", "a moving body has mass but no rotational inertia",
         "add an <inertia> (a point mass on a rotating joint makes the dynamics singular)"),
    # -- joints
    Rule("joint-limits-inverted", "error", "a joint's lower limit is above its upper limit",
         "swap lower and upper"),
    Rule("joint-limits-empty", "warning", "a joint's lower and upper limits are equal",
         "make it a fixed joint, or widen the range"),
    Rule("joint-axis-zero", "error", "a joint axis is the zero vector",
         "give the axis a non-zero direction such as 0 0 1"),
    # -- structure and names
    Rule("body-disconnected", "warning",
         "a body is not connected to the rest of its model; it will float freely",
         "connect it with a joint (a fixed joint if it should not move)"),
    Rule("kinematic-loop", "error", "the joints form a loop",
         "cut the loop: remove one joint and replace it by a constraint"),
    Rule("duplicate-name", "error", "two elements of one kind share a name",
         "rename one of them; names must be unique within a model"),
    # -- files
    Rule("package-unresolved", "error", "a package:// or model:// URI names an unknown package",
         "add a package.xml above the file, or pass --package NAME=DIR"),
    Rule("file-missing", "error", "a referenced file does not exist",
         "fix the path, or add the missing file"),
    Rule("mesh-unsupported", "warning", "a mesh file of a type that is not read",
         "convert the mesh to .obj (or .gltf for visuals, .vtk for compliant collision)"),
    # -- units
    Rule("units-suspicious", "warning", "a value is so large or small that the units are "
         "probably wrong",
         "lengths are in metres, masses in kilograms, inertias in kg·m², angles in radians"),
)


def rule_finding(rule_id: str, message: str, file: str | None = None,
                 line: int | None = None, column: int | None = None,
                 severity: str | None = None) -> Finding:
    """A finding of ``rule_id`` with the rule's severity and hint."""
    rule = RULES[rule_id]
    return Finding(rule_id, severity or rule.severity, message, rule.hint, file, line, column)
