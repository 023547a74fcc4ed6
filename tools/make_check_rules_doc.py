"""Writes docs/CHECK_RULES.md from the rule table (src/mbparse/lint/rules.py).

Run after changing a rule: ``python tools/make_check_rules_doc.py``; a test
fails while the page is out of date.
"""
from pathlib import Path

from mbparse.lint.rules import as_markdown

if __name__ == "__main__":
    target = Path(__file__).resolve().parents[1] / "docs" / "CHECK_RULES.md"
    target.write_text(as_markdown(), encoding="utf-8")
    print(f"wrote {target}")
