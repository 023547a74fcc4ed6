"""libsdformat as the judge of SDFormat output: ``sdformat_check.cc`` (beside
this file) is compiled once with g++ and pkg-config against Debian's
``libsdformat-dev`` into a cache folder named by the source's hash, then run
on written files. Tests that need it skip when the compiler or the headers
are absent (``checker`` fixture)."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

SOURCE = Path(__file__).with_name("sdformat_check.cc")
PACKAGES = ("sdformat12", "sdformat13", "sdformat14", "sdformat")


def _pkg_config_flags() -> list[str] | None:
    if shutil.which("pkg-config") is None:
        return None
    for name in PACKAGES:
        done = subprocess.run(["pkg-config", "--cflags", "--libs", name],
                              capture_output=True, text=True)
        if done.returncode == 0:
            return done.stdout.split()
    return None


def build_checker() -> tuple[Path | None, str]:
    """The checker program (built when missing) and, when it cannot be
    built, why not."""
    compiler = shutil.which("g++")
    if compiler is None:
        return None, "no g++"
    flags = _pkg_config_flags()
    if flags is None:
        return None, "no libsdformat development files (pkg-config sdformat12)"
    digest = hashlib.sha256(SOURCE.read_bytes() + " ".join(flags).encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / f"mbparse-sdformat-check-{os.getuid()}"
    folder.mkdir(exist_ok=True)
    program = folder / f"sdformat_check-{digest}"
    if not program.exists():
        partial = folder / f"{program.name}.{os.getpid()}.partial"
        done = subprocess.run([compiler, "-O0", "-o", str(partial), str(SOURCE), *flags],
                              capture_output=True, text=True)
        if done.returncode != 0:
            return None, f"the checker does not compile: {done.stderr.strip()[:400]}"
        os.replace(partial, program)  # atomic: parallel sessions share the cache
    return program, ""


class Checker:
    """Runs the built program on SDFormat files."""

    def __init__(self, program: Path):
        self.program = program

    def errors(self, path: str | os.PathLike) -> list[str]:
        """libsdformat's errors for one file (empty: it loads cleanly)."""
        done = subprocess.run([str(self.program), str(path)], capture_output=True, text=True,
                              cwd=os.path.dirname(os.path.abspath(path)))
        lines = [x for x in done.stdout.splitlines() if x.strip()]
        if done.returncode not in (0, 1) or (done.returncode == 1 and not lines):
            lines.append(f"checker exit status {done.returncode}: {done.stderr.strip()[:400]}")
        return lines


@pytest.fixture(scope="session")
def checker() -> Checker:
    """libsdformat's loader, or a skip when it cannot be built here."""
    program, why = build_checker()
    if program is None:
        pytest.skip(f"libsdformat checker unavailable: {why}")
    return Checker(program)
