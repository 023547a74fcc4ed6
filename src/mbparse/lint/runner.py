"""Linting one file: load it collecting every error, turn each diagnostic
into a finding by its code, then check what could be loaded.

:func:`lint_file` is pure (a path and options in, findings out), so that a
caller may run it on many files at once.
"""
from __future__ import annotations

from dataclasses import replace

from .. import formats
from ..diagnostics import Diagnostic, ParseError
from ..loading import LoadOptions, load
from ..plant import ModelError
from .findings import Finding, finding_from_diagnostic, rule_finding
from .model_rules import ModelContext, check_model


# Without options, a file is read into a plant that holds every constraint it
# declares (Drake's default TAMSI plant would drop them).
CHECK_OPTIONS = LoadOptions(contact_approximation="sap")


def lint_file(path: str, options: LoadOptions | None = None) -> list[Finding]:
    """Every finding for the model file ``path`` loaded with ``options``
    (default :data:`CHECK_OPTIONS`), notes included, in file order: the
    readers' diagnostics (reading goes on after an error, with the next
    element), the plant's refusal at finalize, and the model checks on what
    was loaded."""
    if formats.format_of(path) is None:
        return [rule_finding("file-type-unknown", f"'{path}' has no known model suffix", path)]
    options = replace(options or CHECK_OPTIONS, collect_errors=True, strict=False)
    try:
        loaded = load(path, options, finalize=False)
    except ParseError as e:  # the options (a package folder) refused before reading
        return [finding_from_diagnostic(e.diagnostic, path)]
    except Exception as e:  # a bug in mbparse, not a problem in the file
        return [rule_finding("internal-error", f"{type(e).__name__}: {e}", path)]
    findings = [finding_from_diagnostic(d, path) for d in [*loaded.warnings, *loaded.errors]]
    if not loaded.instances and loaded.errors:
        return _sorted(findings)
    try:
        loaded.plant.finalize()
    except ModelError as e:
        file, line = getattr(e.element, "source", None) or (None, None)
        findings.append(finding_from_diagnostic(
            Diagnostic("error", str(e), file or path, line, code=e.code), path))
        return _sorted(findings)
    except Exception as e:  # a bug in mbparse
        findings.append(rule_finding("internal-error", f"finalizing the model failed: "
                                     f"{type(e).__name__}: {e}", path))
        return _sorted(findings)
    try:
        findings += check_model(ModelContext(loaded.plant, path))
    except Exception as e:  # a check that tripped over an unusual model
        findings.append(rule_finding("internal-error", f"a model check failed: "
                                     f"{type(e).__name__}: {e}", path))
    return _sorted(findings)


def _sorted(findings: list[Finding]) -> list[Finding]:
    unique = list(dict.fromkeys(findings))
    return sorted(unique, key=lambda f: (f.file or "", f.line or 0, f.column or 0))
