"""Linting one file: parse it, turn every diagnostic into a finding, then
run the model checks on what was loaded."""
from __future__ import annotations

from .. import formats
from ..diagnostics import Diagnostic, ParseError
from ..loading import LoadOptions, load
from ..plant import ModelError
from .findings import Finding, rule_finding
from .locator import Locator, related_files
from .model_rules import ModelContext, check_model
from .parse_rules import finding_from_diagnostic


def lint_file(path: str, options: LoadOptions | None = None) -> list[Finding]:
    """Every finding for the model file ``path``, loaded with ``options``."""
    if formats.format_of(path) is None:
        return [rule_finding("unknown-format", f"'{path}' has no known model suffix", path)]
    try:
        loaded = load(path, options, finalize=False)
    except ParseError as e:
        seen = list(getattr(e, "warnings_seen", []))
        locator = Locator(related_files(path, [d.file for d in [*seen, e.diagnostic]]))
        return _sorted([finding_from_diagnostic(d, path, locator) for d in seen]
                       + [finding_from_diagnostic(e.diagnostic, path, locator)])
    except Exception as e:  # a bug in mbparse, not a problem in the file
        return [rule_finding("internal-error", f"{type(e).__name__}: {e}", path)]

    sg = loaded.plant.scene_graph
    sources = [g.instance.source[0] for g in sg.geometries()] if sg is not None else []
    locator = Locator(related_files(path, [d.file for d in loaded.warnings] + sources))
    findings = [finding_from_diagnostic(d, path, locator) for d in loaded.warnings]
    try:
        loaded.plant.finalize()
    except ModelError as e:
        findings.append(finding_from_diagnostic(Diagnostic("error", str(e), path), path, locator))
        return _sorted(findings)
    try:
        findings += check_model(ModelContext(loaded.plant, path, locator))
    except Exception as e:  # a check that tripped over an unusual model
        findings.append(rule_finding("internal-error", f"a model check failed: "
                                     f"{type(e).__name__}: {e}", path))
    return _sorted(findings)


def _sorted(findings: list[Finding]) -> list[Finding]:
    unique = list(dict.fromkeys(findings))
    return sorted(unique, key=lambda f: (f.file or "", f.line or 0, f.column or 0))
