"""Ctrl-C during ``mbparse check -j 2 --progress always DIR`` prints no
traceback: the findings of the files already checked are reported, then a
last line says the run was interrupted (exit status 130). A folder with no
model file in it is said to be so, with a non-zero exit status."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mbparse.cli import main

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _chain(n: int) -> str:
    """A URDF of ``n`` links whose first link has a negative mass (one error
    per file), long enough that a file takes a moment."""
    inertial = ('<inertial><mass value="{m}"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" '
                'iyz="0"/></inertial>')
    links = "".join(f'<link name="l{i}">{inertial.format(m=-1 if i == 0 else 1)}</link>\n'
                    for i in range(n))
    joints = "".join(f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/>'
                     f'<child link="l{i}"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" '
                     'effort="1" velocity="1"/></joint>\n' for i in range(1, n))
    return f'<robot name="r">\n{links}{joints}</robot>\n'


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups (POSIX)")
def test_ctrl_c_reports_what_was_found_and_says_it_was_interrupted(tmp_path):
    text = _chain(400)
    for i in range(400):
        (tmp_path / f"r{i:03d}.urdf").write_text(text)
    env = {**os.environ, "PYTHONPATH": SRC}
    # A session of its own, so that the signal goes to the whole process group
    # (the command and its workers), as a terminal sends Ctrl-C.
    proc = subprocess.Popen([sys.executable, "-m", "mbparse", "check", "--no-config", "-j", "2",
                             "--progress", "always", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            start_new_session=True)
    seen = b""
    deadline = time.monotonic() + 120
    while b"] 3/400" not in seen and time.monotonic() < deadline:
        chunk = os.read(proc.stderr.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
    assert b"] 3/400" in seen, seen[-500:]
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    err = (seen + err).decode()
    out = out.decode()
    assert proc.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    last = err.replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith("mbparse check: interrupted (Ctrl-C) after ") and "of 400 files" in last
    done = int(last.split(" after ")[1].split(" ")[0])
    assert 3 <= done < 400
    # Each file checked has its one error reported, and the tally counts them.
    assert out.count("[mass-negative]") == done
    assert f"{done} files checked: {done} errors" in out


def test_a_folder_without_a_model_says_so_and_fails(tmp_path, capsys):
    (tmp_path / "README.txt").write_text("no model here\n")
    (tmp_path / "mesh.obj").write_text("v 0 0 0\n")
    status = main(["check", "--no-config", str(tmp_path)])
    _, err = capsys.readouterr()
    assert status == 2
    assert f"no model file in '{tmp_path}'" in err


def test_an_empty_folder_beside_a_model_is_said_and_the_model_checked(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    model = tmp_path / "r.urdf"
    model.write_text(_chain(2))
    status = main(["check", "--no-config", str(empty), str(model)])
    out, err = capsys.readouterr()
    assert status == 1 and "[mass-negative]" in out and "1 file checked" in out
    assert f"no model file in '{empty}'" in err
