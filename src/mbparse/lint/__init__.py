"""``mbparse check``'s engine: rules, locating elements, and the checks."""
from .findings import RULES, SEVERITIES, Finding, Rule, rule_finding
from .runner import lint_file

__all__ = ["RULES", "SEVERITIES", "Finding", "Rule", "rule_finding", "lint_file"]
