"""The documentation site builds with ``mkdocs build --strict`` (a broken
link, a page missing from the build or an API reference entry that no longer
resolves fails it). Skipped where mkdocs and mkdocstrings are not installed
(``pip install -e '.[docs]'``; the ``test`` extra has them)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                          str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "WARNING" not in run.stderr, run.stderr[-4000:]
    reference = (tmp_path / "site" / "REFERENCE" / "index.html").read_text(encoding="utf-8")
    for name in ("mbparse.Parser.add_models", "mbparse.MultibodyPlant.finalize",
                 "mbparse.loading.load", "mbparse.lint.runner.lint_file"):
        assert f'id="{name}"' in reference, name


def test_every_page_of_docs_is_in_the_site_navigation():
    """A page left out of ``nav`` is built but cannot be reached from the
    menu (mkdocs only says so at INFO level)."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    missing = [p for p in pages if f": {p}" not in nav]
    assert not missing, f"add these pages to nav in mkdocs.yml: {missing}"
