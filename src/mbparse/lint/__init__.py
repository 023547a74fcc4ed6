"""``mbparse check``'s engine: the rule table, findings, the per-file linter
and the reports."""
from .findings import Finding, finding_from_diagnostic, rule_finding
from .rules import RULES, SEVERITIES, Rule
from .runner import lint_file

__all__ = ["RULES", "SEVERITIES", "Finding", "Rule", "rule_finding", "finding_from_diagnostic",
           "lint_file"]
