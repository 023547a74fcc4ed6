"""Writing findings as text, JSON, SARIF 2.1.0 (for CI code scanning) or
GitHub workflow annotations."""
from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from .findings import Finding
from .rules import RULES, SEVERITIES

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVEL = {"error": "error", "warning": "warning", "note": "note"}


def counts(findings: list[Finding]) -> dict[str, int]:
    """How many findings of each severity."""
    out = {s: 0 for s in SEVERITIES}
    for f in findings:
        out[f.severity] = out.get(f.severity, 0) + 1
    return out


def as_text(findings: list[Finding], files: list[str]) -> str:
    """One line per finding (``file:line:col: severity: message [rule]``),
    its hint indented below, and a closing tally."""
    lines = []
    for f in findings:
        message = f.message.replace("\n", "\n    ")
        lines.append(f"{f.location()}: {f.severity}: {message} [{f.rule}]")
        lines.append(f"    hint: {f.hint}")
    n = counts(findings)
    tally = ", ".join(f"{v} {k}{'s' if v != 1 else ''}" for k, v in n.items() if v)
    checked = f"{len(files)} file{'s' if len(files) != 1 else ''} checked"
    lines.append(f"{checked}: {tally or 'no problems found'}")
    return "\n".join(lines) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


GITHUB_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def as_github(findings: list[Finding], files: list[str]) -> str:
    """One GitHub Actions workflow command per finding
    (``::error file=F,line=L,col=C,title=CODE::message``), which GitHub
    shows as annotations on the lines of a pull request."""
    lines = []
    for f in findings:
        props = []
        if f.file:
            props.append(f"file={_escape_property(f.file)}")
        if f.line:
            props.append(f"line={f.line}")
            if f.column:
                props.append(f"col={f.column}")
        props.append(f"title={_escape_property(f.rule)}")
        lines.append(f"::{GITHUB_COMMAND[f.severity]} {','.join(props)}::"
                     f"{_escape_data(f'{f.message} (hint: {f.hint})')}")
    return "".join(line + "\n" for line in lines)


def as_json(findings: list[Finding], files: list[str]) -> str:
    """``{"files": [...], "findings": [...], "counts": {...}}``."""
    return json.dumps({"tool": "mbparse check", "version": __version__, "files": files,
                       "findings": [f.to_dict() for f in findings],
                       "counts": counts(findings)}, indent=2) + "\n"


def as_json_line(file: str, findings: list[Finding]) -> str:
    """One line of ``check --format jsonl``: a file's findings and counts."""
    return json.dumps({"file": file, "findings": [f.to_dict() for f in findings],
                       "counts": counts(findings)}) + "\n"


def _artifact(file: str | None, root: str) -> dict:
    if not file:
        return {"uri": "unknown"}
    absolute = os.path.abspath(file)
    try:
        relative = os.path.relpath(absolute, root)
    except ValueError:
        relative = os.pardir
    if relative.startswith(os.pardir):
        return {"uri": Path(absolute).as_uri()}
    return {"uri": quote(Path(relative).as_posix()), "uriBaseId": "%SRCROOT%"}


def as_sarif(findings: list[Finding], files: list[str], root: str | None = None) -> str:
    """A SARIF 2.1.0 log with one run: the rules used, one result per
    finding; paths under ``root`` (default: the working folder) are relative
    to ``%SRCROOT%``, the others absolute ``file://`` URIs."""
    root = os.path.abspath(root or os.getcwd())
    used = sorted({f.rule for f in findings})
    index = {rule: i for i, rule in enumerate(used)}
    rules = []
    for rule_id in used:
        rule = RULES[rule_id]
        rules.append({
            "id": rule.id,
            "name": "".join(w.capitalize() for w in rule.id.split("-")),
            "shortDescription": {"text": rule.summary},
            "help": {"text": rule.hint},
            "defaultConfiguration": {"level": SARIF_LEVEL[rule.severity]},
        })
    results = []
    for f in findings:
        region = {}
        if f.line:
            region["startLine"] = f.line
            if f.column:
                region["startColumn"] = f.column
        location = {"artifactLocation": _artifact(f.file, root)}
        if region:
            location["region"] = region
        results.append({
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": SARIF_LEVEL.get(f.severity, "warning"),
            "message": {"text": f"{f.message.rstrip('.')}. Hint: {f.hint}."},
            "locations": [{"physicalLocation": location}],
        })
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "mbparse", "version": __version__, "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(root).as_uri() + "/"}},
            "artifacts": [{"location": _artifact(p, root)} for p in files],
            "results": results,
        }],
    }
    return json.dumps(log, indent=2) + "\n"
