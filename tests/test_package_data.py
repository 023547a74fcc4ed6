"""Every file of the package that is not Python source is installed with
it: ``pip install .`` (not editable) copies only what
``[tool.setuptools.package-data]`` names, and a schema left out makes every
file of its format an internal error on a user's machine, while the
editable install of the tests reads it from the source tree."""
from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_data_file_of_the_package_is_package_data():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["mbparse"]
    package = ROOT / "src" / "mbparse"
    data = [p.relative_to(package).as_posix() for p in package.rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert "formats/mjcf/schema.json" in data  # (the one a regular install lacked)
    missing = [f for f in data if not any(fnmatch.fnmatch(f, pat) for pat in patterns)]
    assert not missing, f"not installed by a regular install: {missing}"
