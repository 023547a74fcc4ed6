"""``mbparse check``'s engine: the rule table, findings, the per-file linter
and the reports.

The names below are imported from their modules when first used: importing
one module of the package (``mbparse inspect`` needs only the rule table,
:mod:`.rules`) does not load the linter."""
from __future__ import annotations

import importlib

# name -> the module of this package that defines it
_MODULE_OF = {"RULES": "rules", "SEVERITIES": "rules", "Rule": "rules",
              "Finding": "findings", "rule_finding": "findings",
              "finding_from_diagnostic": "findings", "lint_file": "runner"}

__all__ = ["RULES", "SEVERITIES", "Finding", "Rule", "rule_finding", "finding_from_diagnostic",
           "lint_file"]


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
