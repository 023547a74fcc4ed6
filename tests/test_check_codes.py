"""Codes at the source: every diagnostic names its rule where it is raised,
every rule is documented once, and the documents agree with the table."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mbparse.cli import main
from mbparse.lint.rules import GENERIC, RULE_LIST, RULES, as_markdown, level_of, rule_of

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "mbparse"
REPORTERS = {"error", "warning", "drake_refuses"}


def _calls():
    """Every call of a method named error/warning/drake_refuses in src/."""
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in REPORTERS):
                yield path, node


def _code(node: ast.Call):
    for kw in node.keywords:
        if kw.arg == "code":
            return kw.value
    return None


def test_every_error_and_warning_call_in_src_passes_a_code():
    missing = [f"{p.relative_to(ROOT)}:{n.lineno}" for p, n in _calls()
               if _code(n) is None and n.func.attr != "drake_refuses"]
    assert missing == [], "calls without code=: " + ", ".join(missing)


def test_every_literal_code_in_src_is_in_the_rule_table():
    literal = {(p, n.lineno, _code(n).value) for p, n in _calls()
               if isinstance(_code(n), ast.Constant)}
    assert len(literal) > 400
    unknown = sorted({c for _, _, c in literal if c not in RULES})
    assert unknown == []


def test_every_model_refusal_carries_a_code_in_the_table():
    for path in (SRC / "plant").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ModelError":
                code = _code(node)
                assert code is not None, f"{path.name}:{node.lineno} raises ModelError without code"
                if isinstance(code, ast.Constant):
                    assert code.value in RULES, f"{path.name}:{node.lineno}: {code.value}"


def test_every_code_written_as_a_string_in_src_is_in_the_table():
    # URI problems, inertia problems, defaults of helpers: codes not passed as code=.
    pattern = re.compile(r'(?:code=|code = |return |, )"([a-z]+(?:-[a-z0-9]+)+)"')
    found = set()
    for path in SRC.rglob("*.py"):
        found |= {c for c in pattern.findall(path.read_text())
                  if c.split("-")[0] in {r.id.split("-")[0] for r in RULE_LIST}}
    assert found - set(RULES) == set()


def test_a_code_raised_as_an_error_is_an_error_rule():
    # A reader cannot read past an error(), so the table must not call it less.
    wrong = sorted({_code(n).value for _, n in _calls() if n.func.attr == "error"
                    and isinstance(_code(n), ast.Constant)
                    and RULES[_code(n).value].severity != "error"})
    assert wrong == []


def test_rules_have_kebab_case_ids_levels_summaries_and_hints():
    assert len(RULES) == len(RULE_LIST)
    for r in RULE_LIST:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", r.id), r.id
        assert r.severity in ("error", "warning", "note")
        assert r.summary and r.hint


def test_a_diagnostic_without_a_code_maps_to_the_generic_rule():
    assert rule_of(None, "error").id == GENERIC["error"] == "unclassified-error"
    assert rule_of(None, "warning").id == "unclassified-warning"
    assert rule_of("no-such-code", "warning").id == "unclassified-warning"


def test_levels_errors_stay_errors_warnings_take_their_rules_level():
    assert level_of(RULES["urdf-unsupported"], "error") == "error"
    assert level_of(RULES["urdf-unsupported"], "warning") == "note"
    assert level_of(RULES["inertia-triangle"], "warning") == "error"
    assert level_of(RULES["limit-empty"], "warning") == "warning"


def test_check_rules_page_is_generated_from_the_table():
    page = (ROOT / "docs" / "CHECK_RULES.md").read_text()
    assert page == as_markdown(), "regenerate: python tools/make_check_rules_doc.py"


def test_list_rules_prints_each_rule_with_its_level(capsys):
    assert main(["check", "--list-rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(RULE_LIST)
    for line, rule in zip(lines, RULE_LIST):
        code, level, summary = line.split(None, 2)
        assert (code, level, summary) == (rule.id, rule.severity, rule.summary)


@pytest.mark.parametrize("code", ["mass-negative", "inertia-triangle", "inertia-not-positive",
                                  "mass-zero-with-inertia", "limit-inverted", "number-nan"])
def test_physically_impossible_input_is_an_error_rule(code):
    assert RULES[code].severity == "error"
