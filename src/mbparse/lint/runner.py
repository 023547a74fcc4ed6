"""Linting one file: load it collecting every error, turn each diagnostic
into a finding by its code, then check what could be loaded.

:func:`lint_file` is pure (a path and options in, findings out), so that a
caller may run it on many files at once.
"""
from __future__ import annotations

import re
from typing import Sequence

from .. import formats, records
from ..diagnostics import Diagnostic, ParseError
from ..internal_errors import showing_tracebacks
from ..loading import LoadOptions, Loaded, load
from ..memory import collector_paused
from ..plant import ModelError
from ..records import ValueRecord
from .findings import Finding, finding_from_diagnostic, rule_finding
from .model_rules import ModelContext, check_model


# Without options, a file is read into a plant that holds every constraint it
# declares (Drake's default TAMSI plant would drop them).
CHECK_OPTIONS = LoadOptions(contact_approximation="sap")


class Reading(ValueRecord):
    """What loading one file for ``check`` gave: every diagnostic (the
    plant's refusal at finalize included) and the finalized plant, or None
    when nothing could be loaded or the plant refused the model."""

    _fields = ("diagnostics", "loaded")

    def __init__(self, diagnostics: list[Diagnostic], loaded: Loaded | None) -> None:
        self.diagnostics = diagnostics
        self.loaded = loaded


def read_for_check(path: str, options: LoadOptions) -> Reading:
    """Loads ``path`` collecting every error (reading goes on after one) and
    finalizes the plant. Failures of mbparse itself become
    ``internal-error`` diagnostics, never exceptions."""
    options = records.replace(options, collect_errors=True, strict=False)
    try:
        loaded = load(path, options, finalize=False)
    except ParseError as e:  # the options (a package folder) refused before reading
        return Reading([e.diagnostic], None)
    except Exception as e:  # a bug in mbparse, not a problem in the file
        if showing_tracebacks():
            raise
        return Reading([_internal(f"{type(e).__name__}: {e}", path)], None)
    diagnostics = [*loaded.warnings, *loaded.errors]
    if not loaded.instances and loaded.errors:
        return Reading(diagnostics, None)
    try:
        loaded.plant.finalize()
    except ModelError as e:
        file, line = getattr(e.element, "source", None) or (None, None)
        diagnostics.append(Diagnostic("error", str(e), file or path, line, code=e.code))
        return Reading(diagnostics, None)
    except Exception as e:  # a bug in mbparse
        if showing_tracebacks():
            raise
        diagnostics.append(_internal(f"finalizing the model failed: {type(e).__name__}: {e}",
                                     path))
        return Reading(diagnostics, None)
    return Reading(diagnostics, loaded)


def _internal(message: str, path: str) -> Diagnostic:
    return Diagnostic("error", message, path, code="internal-error")


def lint_file(path: str, options: LoadOptions | None = None,
              consumers: Sequence[str] = ()) -> list[Finding]:
    """Every finding for the model file ``path`` loaded with ``options``
    (default :data:`CHECK_OPTIONS`), notes included, in file order: the
    readers' diagnostics (reading goes on after an error, with the next
    element), the plant's refusal at finalize, the model checks on what was
    loaded and, for each consumer named in ``consumers`` (see
    :mod:`.portability`), how that consumer reads the file differently."""
    if formats.format_of(path) is None:
        return [rule_finding("file-type-unknown", f"'{path}' has no known model suffix", path)]
    options = options or CHECK_OPTIONS
    return lint_reading(path, read_for_check(path, options), options, consumers)


def lint_reading(path: str, reading: Reading, options: LoadOptions,
                 consumers: Sequence[str] = ()) -> list[Finding]:
    """:func:`lint_file`'s findings once ``path`` is read (``reading``, from
    :func:`read_for_check` with ``options``): everything ``check`` does
    after loading."""
    findings = [finding_from_diagnostic(d, path) for d in reading.diagnostics]
    if reading.loaded is not None:
        try:
            with collector_paused():  # the checks free nothing until they end
                findings += check_model(ModelContext(reading.loaded.plant, path))
        except Exception as e:  # a check that tripped over an unusual model
            if showing_tracebacks():
                raise
            findings.append(rule_finding("internal-error", f"a model check failed: "
                                         f"{type(e).__name__}: {e}", path))
    if consumers:
        from .portability import check_for
        findings = check_for(consumers, path, options, reading, findings)
    return _sorted(findings)


# Rules whose findings, repeated with the same message in one file, are one
# finding: the same unknown tag on every link is a deliberate extension of some
# tool rather than a typo, and one line says so as well as forty.
GROUPED = re.compile(r"-unknown-(element|attribute)$")


def _sorted(findings: list[Finding]) -> list[Finding]:
    unique = sorted(dict.fromkeys(findings),
                    key=lambda f: (f.file or "", f.line or 0, f.column or 0))
    return _grouped(unique)


def _grouped(findings: list[Finding]) -> list[Finding]:
    """``findings`` with each repeated unknown element or attribute (same
    rule, file and message) kept once, at its first place, its message
    naming the other lines."""
    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        if GROUPED.search(f.rule):
            groups.setdefault((f.rule, f.file, f.message), []).append(f)
    out = []
    for f in findings:
        group = groups.get((f.rule, f.file, f.message))
        if group is None:
            out.append(f)
        elif group[0] is f:
            out.append(_with_others(f, group[1:]) if len(group) > 1 else f)
    return out


def _with_others(first: Finding, others: list[Finding]) -> Finding:
    lines = sorted({o.line for o in others if o.line})
    shown = ", ".join(map(str, lines[:10])) + (", ..." if len(lines) > 10 else "")
    where = f" (also on line{'s' if len(lines) > 1 else ''} {shown})" if lines else ""
    return records.replace(first, message=f"{first.message} [{len(others) + 1} times in this "
                                          f"file{where}]")
