"""Findings: one problem found in one file, with its rule and place.

A :class:`Finding` is one occurrence of a rule (see :mod:`.rules`), located
at file:line:column, at the level ``check`` reports it.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..records import FrozenRecord, _set
from .rules import RULES, SEVERITIES, Rule, level_of, rule_of

__all__ = ["Finding", "Rule", "RULES", "SEVERITIES", "rule_finding", "finding_from_diagnostic"]


class Finding(FrozenRecord):
    """One problem found in one file (immutable)."""

    _fields = ("rule", "severity", "message", "hint", "file", "line", "column")

    def __init__(self, rule: str, severity: str, message: str, hint: str,
                 file: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        _set(self, "rule", rule)
        _set(self, "severity", severity)
        _set(self, "message", message)
        _set(self, "hint", hint)
        _set(self, "file", file)
        _set(self, "line", line)
        _set(self, "column", column)

    def location(self) -> str:
        where = self.file or "<unknown file>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def to_dict(self) -> dict:
        """Every field by name, in order."""
        return {name: getattr(self, name) for name in self._fields}


def rule_finding(rule_id: str, message: str, file: str | None = None,
                 line: int | None = None, column: int | None = None) -> Finding:
    """A finding of ``rule_id`` at the rule's level, with its hint."""
    rule = RULES[rule_id]
    return Finding(rule_id, rule.severity, message, rule.hint, file, line, column)


def finding_from_diagnostic(d: Diagnostic, path: str) -> Finding:
    """The finding of a reader's or the plant's diagnostic: its code's rule
    (a generic one when it has none), at the level :func:`.rules.level_of`
    gives, where the diagnostic says (the checked file when it does not)."""
    rule = rule_of(d.code, d.severity)
    return Finding(rule.id, level_of(rule, d.severity), d.message, rule.hint, d.file or path,
                   d.line, d.column)
