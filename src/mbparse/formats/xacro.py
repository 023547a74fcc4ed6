"""xacro files (``.xacro``, ``.urdf.xacro``): expanded with the ``xacro``
package from PyPI (no ROS needed), then read as URDF.

* ``$(find pkg)`` resolves through the Parser's package map; ``package://``
  URIs in the expanded text are resolved by the URDF reader as usual.
* Every element of the xacro source (and of the files it includes) is
  marked with the file and line it was written on before xacro expands it,
  so a diagnostic about the expanded URDF names the xacro file and line
  that produced the element (for an element written in a macro, the line
  in the macro's body).
* A xacro error (an undefined property, a bad expression, a missing
  include, ...) is a located ParseError (code ``xacro-error``); what xacro
  prints as a warning becomes a ParseWarning.
* xacro runs Python expressions and copies macros without bound, so the
  expansion runs in a child process (:mod:`.xacro_expand`) limited in CPU
  time and memory; running out of either is a located error too, and the
  files it reads must be regular files.
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys

from ..workspace import DataSource
from . import urdf
from ..limits import current_limits, raise_hint
from .xacro_expand import CPU_SECONDS, MEMORY_BYTES, memory_problem  # noqa: F401 (the defaults)

# The child's wall-clock time, at most, over the CPU time it is limited to
# (the limit max_xacro_seconds: a hostile file is stopped well within 10 s by
# default, loaded machine or not).
WALL_PER_CPU_SECOND = 2
WALL_SECONDS = WALL_PER_CPU_SECOND * CPU_SECONDS


class _Expansion:
    """Where each line of an expanded text came from."""

    def __init__(self, source: DataSource, files: list[str], lines: list):
        self.source = source
        self.files = files
        self.lines: dict[int, tuple[str, int]] = {
            expanded: (files[index], written) for expanded, (index, written) in lines}

    def locate(self, file: str | None, line: int | None) -> tuple[str | None, int | None]:
        """Where a diagnostic about the expanded text came from."""
        if file != self.expanded_name or line is None:
            return file, line
        known = [n for n in self.lines if n <= line]
        if not known:
            return self.source.name(), None
        return self.lines[max(known)]

    @property
    def expanded_name(self) -> str:
        return f"{self.source.name()} (expanded)"


def _run_child(request: dict, name: str, policy) -> dict:
    """The child's answer; its death (time, memory) is a located error."""
    seconds = request["cpu_seconds"]
    wall = WALL_PER_CPU_SECOND * seconds if seconds else None
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mbparse.formats.xacro_expand"],
            input=json.dumps(request).encode("utf-8"), capture_output=True,
            timeout=wall, env=_child_environment())
    except subprocess.TimeoutExpired:
        policy.error(f"xacro could not expand the file: it did not finish within "
                     f"{wall} s; an expression or macro that grows without end? (for a large "
                     f"model you trust, {raise_hint('max_xacro_seconds')})",
                     name, None, code="xacro-error")
    except OSError as e:
        policy.error(f"xacro could not be started: {e}", name, None, code="xacro-error")
    if done.returncode in (-getattr(signal, "SIGXCPU", 24), -getattr(signal, "SIGKILL", 9)):
        policy.error(f"xacro could not expand the file: the expansion used more than "
                     f"{seconds} s of CPU time; an expression or macro that grows "
                     f"without end? (for a large model you trust, "
                     f"{raise_hint('max_xacro_seconds')})", name, None, code="xacro-error")
    try:
        return json.loads(done.stdout)
    except ValueError:
        tail = done.stderr.decode("utf-8", errors="replace").strip().splitlines()[-1:]
        why = tail[0] if tail else f"exit status {done.returncode}"
        if "MemoryError" in why:
            why = memory_problem(request["memory_bytes"])
        policy.error(f"xacro could not expand the file: {why}", name, None, code="xacro-error")


def _child_environment() -> dict:
    """The child finds this mbparse first, whether it is installed or not."""
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    return env


def expand(source: DataSource, workspace) -> tuple[DataSource, _Expansion]:
    """The URDF text of a xacro file, and how to locate its lines."""
    policy = workspace.diagnostic
    name = source.name()
    package_map = workspace.package_map
    request = {"name": name, "text": source.read_bytes().decode("latin-1"),
               "is_file": source.is_file(), "root_dir": source.root_dir(),
               "packages": {p: os.path.abspath(package_map.get_path(p))
                            for p in package_map.get_package_names()},
               "cpu_seconds": current_limits().max_xacro_seconds,
               "memory_bytes": current_limits().max_xacro_memory}
    answer = _run_child(request, name, policy)
    for level, message, file, line, code in answer["diagnostics"]:
        policy.warning(message, file, line, code=code)
    if "error" in answer:
        message, file, line, code = answer["error"]
        policy.error(message, file, line, code=code)
    if "<link" not in answer["text"]:
        _refuse_macros_only(source, name, policy)
    expansion = _Expansion(source, answer["files"], answer["lines"])
    return DataSource(contents=answer["text"], display_name=expansion.expanded_name,
                      base_dir=source.root_dir()), expansion


def _refuse_macros_only(source: DataSource, name: str, policy) -> None:
    """A file that makes no link but defines macros (hector's
    ``quadrotor_base.urdf.xacro``) is a library of macros for another xacro
    file to include and call: an error at its first macro, not a model of
    no bodies."""
    from lxml import etree

    try:
        root = etree.fromstring(source.read_bytes(),
                                etree.XMLParser(recover=True, resolve_entities=False,
                                                no_network=True))
    except etree.XMLSyntaxError:
        return
    if root is None:
        return
    macros = [el for el in root.iter(etree.Element)
              if etree.QName(el).localname == "macro" and "xacro" in (etree.QName(el).namespace
                                                                       or "")]
    if not macros:
        return
    names = ", ".join(m.get("name") or "?" for m in macros[:5]) + (", ..." if len(macros) > 5
                                                                   else "")
    policy.error(f"the file makes no <link>: it only defines xacro macros ({names}), which "
                 "another xacro file includes and calls; load that file, or call the macro "
                 "(<xacro:include filename=\"...\"/> then "
                 f"<xacro:{macros[0].get('name') or 'macro'}/>) in a file of your own",
                 name, macros[0].sourceline, code="xacro-macros-only")


@contextlib.contextmanager
def _located(expansion: _Expansion, policy):
    saved = policy.locate
    policy.locate = expansion.locate
    try:
        yield
    finally:
        policy.locate = saved


def add_all_models(source: DataSource, parent_model_name: str | None, workspace) -> list[int]:
    expanded, expansion = expand(source, workspace)
    with _located(expansion, workspace.diagnostic):
        return urdf.add_all_models(expanded, parent_model_name, workspace)


def add_model(source: DataSource, model_name: str, parent_model_name: str | None,
              workspace) -> int | None:
    expanded, expansion = expand(source, workspace)
    with _located(expansion, workspace.diagnostic):
        return urdf.add_model(expanded, model_name, parent_model_name, workspace)


def merge_model(source: DataSource, model_name: str, into_instance: int, workspace) -> str:
    expanded, expansion = expand(source, workspace)
    with _located(expansion, workspace.diagnostic):
        return urdf.merge_model(expanded, model_name, into_instance, workspace)
