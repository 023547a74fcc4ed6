"""The README as a newcomer reads it: its Python runs as written, every
command of its tour runs on what ships with the project (or on what a
command before it made), and every file and page it names exists."""
from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])}


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, re.M | re.S)


def test_the_first_lines_install_and_test_from_a_fresh_machine():
    first = README.split("\n")[2:6]
    assert first == [
        "```bash",
        "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/mbparse inspect "
        "examples/two_link_arm.urdf",
        "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m "
        "pytest -q",
        "```"]


def test_the_python_snippet_runs_as_written():
    (block,) = _blocks("python")
    run = subprocess.run([sys.executable, "-c", block], cwd=ROOT, env=ENV, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    # The values its comments show are what it prints.
    shown = re.findall(r"print\(.*?\)\s+# (.+)$", block, re.M)
    assert run.stdout.splitlines() == shown


def _tour_commands() -> list[str]:
    """The ``mbparse ...`` lines of the README's bash blocks, in order,
    without their comments (``mbparse view`` serves until stopped: left out)."""
    out = []
    for block in _blocks("bash"):
        for line in block.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line.startswith("mbparse ") and not line.startswith("mbparse view"):
                out.append(line)
    return out


def test_every_tour_command_runs_on_what_ships(tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "mbparse"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m mbparse "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    env = {**ENV, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    commands = _tour_commands()
    assert len(commands) >= 12
    for command in commands:
        if shutil.which("dot") is None and re.search(r"tree .*\.(svg|png|pdf)\b", command):
            continue  # Graphviz is not installed here
        run = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300)
        # 0, or 1 where check finds the problems it is shown finding
        assert run.returncode in (0, 1), (command, run.stderr)
        assert "Traceback" not in run.stderr and "no such file" not in run.stderr.lower(), \
            (command, run.stderr)
        if run.returncode == 1:
            assert command.startswith("mbparse check"), (command, run.stderr)


def test_every_example_and_page_it_names_exists():
    named = set(re.findall(r"\bexamples/[\w./-]+\.\w+", README))
    assert named, "the README names no example"
    for path in named:
        if "*" not in path:
            assert (ROOT / path).is_file(), path
    for target in re.findall(r"\]\(([^)#\s]+)", README):
        if not target.startswith(("http://", "https://")):
            assert (ROOT / target).exists(), target
