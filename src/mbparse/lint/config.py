"""What ``mbparse check`` reports: the settings (flags over the
``[tool.mbparse.check]`` table of the nearest ``pyproject.toml``), the
selection of findings by code, and the model files under a folder."""
from __future__ import annotations

import os
import tomllib
from typing import Iterable, Iterator

from .. import formats
from ..diagnostics import ParseError
from ..records import ValueRecord
from .findings import Finding

FORMATS = ("text", "json", "jsonl", "sarif", "github")
# Keys of [tool.mbparse.check] → their type.
KEYS = {"select": list, "ignore": list, "show-notes": bool, "warnings-as-errors": bool,
        "format": str, "for": list}


class CheckSettings(ValueRecord):
    """How findings are chosen and reported. ``select``/``ignore`` hold
    codes or code prefixes (``urdf-`` selects every URDF rule); an empty
    ``select`` selects everything. ``consumers``: those whose reading of
    the files is reported (check --for)."""

    _fields = ("select", "ignore", "show_notes", "warnings_as_errors", "format",
               "config_file", "consumers")

    def __init__(self, select: list[str] | None = None, ignore: list[str] | None = None,
                 show_notes: bool = False, warnings_as_errors: bool = False,
                 format: str = "text", config_file: str | None = None,
                 consumers: list[str] | None = None) -> None:
        self.select: list[str] = [] if select is None else select
        self.ignore: list[str] = [] if ignore is None else ignore
        self.show_notes = show_notes
        self.warnings_as_errors = warnings_as_errors
        self.format = format
        self.config_file = config_file
        self.consumers: list[str] = [] if consumers is None else consumers

    def wants(self, finding: Finding) -> bool:
        """Whether ``finding`` is reported."""
        if finding.severity == "note" and not self.show_notes:
            return False
        if self.select and not _matches(finding.rule, self.select):
            return False
        return not _matches(finding.rule, self.ignore)

    def chosen(self, findings: Iterable[Finding]) -> list[Finding]:
        return [f for f in findings if self.wants(f)]

    def fails(self, findings: Iterable[Finding]) -> bool:
        """Whether the reported ``findings`` make ``check`` exit with 1."""
        failing = ("error", "warning") if self.warnings_as_errors else ("error",)
        return any(f.severity in failing for f in findings)


def _matches(code: str, patterns: list[str]) -> bool:
    return any(code == p or code.startswith(p) for p in patterns)


def nearest_pyproject(start: str) -> str | None:
    """The ``pyproject.toml`` in ``start`` (a folder or file) or the
    nearest folder above it, or None."""
    folder = os.path.abspath(start)
    if not os.path.isdir(folder):
        folder = os.path.dirname(folder)
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def read_config(path: str) -> dict:
    """The ``[tool.mbparse.check]`` table of ``path`` (empty when absent);
    a ParseError for an unreadable file or a wrong key or value."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ParseError(f"{path}: cannot read it as TOML: {e}") from None
    table = data.get("tool", {}).get("mbparse", {}).get("check", {})
    if not isinstance(table, dict):
        raise ParseError(f"{path}: [tool.mbparse.check] should be a table")
    for key, value in table.items():
        kind = KEYS.get(key)
        if kind is None:
            raise ParseError(f"{path}: [tool.mbparse.check] has no key '{key}' (keys: "
                             f"{', '.join(KEYS)})")
        if kind is list and isinstance(value, str):
            table[key] = value = [value]
        if not isinstance(value, kind) or (kind is list and
                                           not all(isinstance(v, str) for v in value)):
            raise ParseError(f"{path}: [tool.mbparse.check] {key} should be a "
                             f"{'list of codes' if kind is list else kind.__name__}")
    if "for" in table:
        from .portability import parse_consumers
        try:
            table["for"] = parse_consumers(",".join(table["for"]))
        except ValueError as e:
            raise ParseError(f"{path}: [tool.mbparse.check] for: {e}") from None
    if table.get("format", "text") not in FORMATS:
        raise ParseError(f"{path}: [tool.mbparse.check] format should be one of "
                         f"{', '.join(FORMATS)}")
    return table


def settings_from(config_path: str | None, select: list[str] | None = None,
                  ignore: list[str] | None = None, show_notes: bool | None = None,
                  warnings_as_errors: bool | None = None,
                  output_format: str | None = None,
                  consumers: list[str] | None = None) -> CheckSettings:
    """Settings from the config file (when given), each overridden by the
    flag given on the command line (None: not given)."""
    table = read_config(config_path) if config_path else {}
    s = CheckSettings(list(table.get("select", [])), list(table.get("ignore", [])),
                      table.get("show-notes", False), table.get("warnings-as-errors", False),
                      table.get("format", "text"), config_path, list(table.get("for", [])))
    if select is not None:
        s.select = select
    if ignore is not None:
        s.ignore = s.ignore + ignore
    if show_notes is not None:
        s.show_notes = show_notes
    if warnings_as_errors is not None:
        s.warnings_as_errors = warnings_as_errors
    if output_format is not None:
        s.format = output_format
    if consumers is not None:
        s.consumers = list(dict.fromkeys(consumers))
    return s


def model_files(paths: Iterable[str]) -> Iterator[str]:
    """The files to check: each file as given; for a folder, the model files
    under it (recursively, sorted, hidden folders skipped). Under a folder,
    ``.xml`` files count only when they are MJCF (a ``<mujoco>`` root) and
    ``.obj`` files not at all (they are meshes; the models that use them
    check them)."""
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                full = os.path.join(folder, name)
                fmt = formats.format_of(name)
                if fmt is None or fmt == "obj":
                    continue
                if fmt == "mjcf" and not _is_mjcf(full):
                    continue
                yield full


# How much of an .xml file is read to tell an MJCF model from a fragment.
MJCF_SNIFF = 8 << 20


def _is_mjcf(path: str) -> bool:
    """Whether a ``.xml`` file under a folder is an MJCF model: a ``<mujoco>``
    root with a ``<worldbody>`` or an ``<include>``. A file with neither
    (materials, a skybox, bodies without a world) is a fragment that other
    files include, and is checked through them."""
    try:
        with open(path, "rb") as f:
            text = f.read(MJCF_SNIFF)
    except OSError:
        return False
    return b"<mujoco" in text[:65536] and (b"<worldbody" in text or b"<include" in text)
