"""Drake 1.51: what it refuses (the default mode loads it, with a
``drake-refuses`` note), what it ignores or reads differently (the MJCF
features of Drake's mode, reference 000), URDF links it makes massless and
the plant a ``<mimic>`` needs. The refusals and ignored features come from
loading the file again in Drake's mode (``--like drake``) and keeping what
that load says and the default one does not."""
from __future__ import annotations

import re
from typing import Iterator

from ... import records
from ...diagnostics import Diagnostic
from ..findings import Finding
from ..rules import level_of, rule_of

NAME = "drake"
TITLE = "Drake"
READS = ("urdf", "sdformat", "mjcf", "dmd", "obj")
READS_TEXT = "it reads URDF, SDFormat, MJCF, model directives and OBJ"

# The suffix DiagnosticPolicy.drake_refuses adds in the default mode.
_REFUSAL_NOTE = re.compile(r" \[Drake refuses this; .*\]$", re.S)
# Errors that follow from an element refused earlier (a joint naming a link
# Drake did not add): not refusals of their own.
_CASCADE = re.compile(r"(-unknown-[a-z-]+|model-unknown-name)$")


def check(ctx) -> Iterator[Finding]:
    yield from refusals_and_ignored(ctx)
    if ctx.urdf is not None:
        yield from massless_links(ctx)
        yield from mimics(ctx)


def _where(d: Diagnostic, path: str) -> tuple[str, int | None]:
    return (d.file or path, d.line)


def refusals_and_ignored(ctx) -> Iterator[Finding]:
    """``for-drake-refuses`` for what Drake refuses and the default mode
    loads; ``for-drake-ignores`` for what Drake's mode warns about and the
    default mode does not (features Drake ignores or reads differently)."""
    from ..runner import read_for_check
    default = ctx.reading.diagnostics
    drake = read_for_check(ctx.path, records.replace(ctx.options, like="drake")).diagnostics
    covered: set[tuple[str, int | None]] = set()
    refused = 0
    for d in default:
        if d.code == "drake-refuses":
            covered.add(_where(d, ctx.path))
            refused += 1
            yield ctx.finding("for-drake-refuses", _REFUSAL_NOTE.sub("", d.message) +
                              "; Drake 1.51 refuses the file", d.line, d.file or ctx.path)
        elif level_of(rule_of(d.code, d.severity), d.severity) == "error":
            covered.add(_where(d, ctx.path))  # check reports it as an error already
    seen_warnings = {(_where(d, ctx.path), d.message) for d in default if d.severity != "error"}
    for d in drake:
        where = _where(d, ctx.path)
        if d.severity == "error":
            if where in covered or (refused and _CASCADE.search(d.code or "")):
                continue
            covered.add(where)
            refused += 1
            yield ctx.finding("for-drake-refuses", f"{d.message}; Drake 1.51 refuses the file "
                              "(mbparse's default mode loads it)", d.line, d.file or ctx.path)
        elif (where, d.message) not in seen_warnings and d.code != "drake-refuses":
            yield ctx.finding("for-drake-ignores", f"{d.message} (Drake 1.51 warns and reads "
                              "the file without it)", d.line, d.file or ctx.path)


def massless_links(ctx) -> Iterator[Finding]:
    """A URDF link without ``<inertial>`` on a joint that moves (or a
    floating root): Drake gives it no mass, where pybullet gives it 1 kg and
    MuJoCo and Isaac Sim compute one from its collision shapes."""
    urdf = ctx.urdf
    for name in urdf.massless_bodies():
        el = urdf.links[name]
        joint = urdf.parent_joint.get(name)
        if joint is not None and joint.get("type") == "fixed":
            continue  # reported at the link of its group that moves
        how = (f"on joint '{joint.get('name')}'" if joint is not None
               else "as a floating base")
        yield ctx.finding("for-drake-massless-link",
                          f"link '{name}' has no <inertial>, so Drake gives it zero mass and "
                          f"inertia; it moves {how} (pybullet would give it 1 kg, MuJoCo and "
                          "Isaac Sim a mass from its collision shapes)", urdf.line(el))


def mimics(ctx) -> Iterator[Finding]:
    """A URDF ``<mimic>``: Drake makes it a coupler constraint only on a
    plant that holds constraints (the SAP discrete approximation, as check
    loads by default); on its default TAMSI plant it is ignored."""
    for joint, mimic in ctx.urdf.mimics():
        yield ctx.finding("for-drake-mimic-needs-sap",
                          f"joint '{joint.get('name')}' mimics joint '{mimic.get('joint')}': "
                          "Drake keeps this as a coupler constraint only on a plant using the "
                          "SAP contact approximation; on its default (TAMSI) plant it warns "
                          "and ignores the <mimic>", ctx.urdf.line(mimic))
