"""Parse diagnostics as findings: each gets the rule its message is about.

The readers report through :class:`~mbparse.diagnostics.DiagnosticPolicy`
with free text; the patterns below recognise the common kinds of mistake so
that they carry the same rule id as the model checks would give them. What
is not recognised stays ``parse-error`` / ``parse-warning``.
"""
from __future__ import annotations

import re

from ..diagnostics import Diagnostic
from .findings import RULES, Finding
from .locator import Locator

_PATTERNS: tuple[tuple[str, re.Pattern], ...] = tuple(
    (rule, re.compile(pattern, re.IGNORECASE)) for rule, pattern in (
        ("unknown-format", r"not a recognized type"),
        ("joint-limits-inverted", r"lower limit .*(greater|above|more) than .*upper"
                                  r"|lower limit .* is above"),
        ("joint-axis-zero", r"axis (must|should) be a non-?zero|zero[- ]length axis"
                            r"|axis .* is (the )?zero|has a zero axis|zero axis"),
        ("mass-nonpositive", r"mass [-\d.e+]* is negative|negative mass|mass must be positive"),
        ("inertia-invalid", r"spatial inertia is not physically valid|triangle inequality"
                            r"|principal moments|inertia .* not (physically )?valid"),
        ("kinematic-loop", r"form one or more loops|closes a loop"),
        ("duplicate-name", r"already (contains|has) an? [\w ]+ named|names? .* not unique"
                           r"|duplicate .*name"),
        ("package-unresolved", r"package map does not have|unknown package"
                               r"|package '[^']*' (is )?not found"),
        ("file-missing", r"does not exist|no such file"),
        ("ignored-input", r"not supported; it is ignored|is ignored|are ignored|ignoring"),
    ))

# Quoted names in a message that say which element it is about.
_SUBJECT = re.compile(r"\b(body|link|joint|frame)\s+'([^']+)'", re.IGNORECASE)
_KIND = {"body": "body", "link": "body", "joint": "joint", "frame": "frame"}


def rule_for(message: str, severity: str) -> str:
    """The rule id a parse diagnostic's message is about."""
    for rule, pattern in _PATTERNS:
        if pattern.search(message):
            if rule == "ignored-input" and severity == "error":
                continue
            return rule
    return "parse-error" if severity == "error" else "parse-warning"


def finding_from_diagnostic(d: Diagnostic, path: str, locator: Locator | None = None) -> Finding:
    """A finding for one parse diagnostic, located as precisely as possible."""
    rule = rule_for(d.message, d.severity)
    severity = d.severity if d.severity in ("error", "warning") else "warning"
    if rule in ("file-missing", "package-unresolved"):
        # Loading goes on without a missing mesh or texture (a warning), but
        # the file still names something that is not there: a mistake.
        severity = "error"
    file, line, column = d.file or path, d.line, d.column
    if locator is not None:
        if line is None:
            loc = _locate_subject(d.message, locator)
            if loc is not None:
                file, line, column = loc.file, loc.line, loc.column
        elif column is None and file:
            column = locator.column_at(file, line, ())
    return Finding(rule, severity, d.message, RULES[rule].hint, file, line, column)


def _locate_subject(message: str, locator: Locator):
    for m in reversed(list(_SUBJECT.finditer(message))):
        name = m.group(2).split("::")[-1]
        loc = locator.find(_KIND[m.group(1).lower()], name)
        if loc is not None:
            return loc
    return None
