"""One reader per format, chosen by file suffix.

A reader is a module with ``add_all_models(source, parent_model_name,
workspace) -> list[int]`` and ``add_model(source, model_name,
parent_model_name, workspace) -> int | None``; it may also have
``merge_model(source, model_name, into_instance, workspace) -> str``.
"""
from __future__ import annotations

import importlib

# Suffix (lower case) → reader module, in the order the suffixes are tried.
SUFFIXES = (
    (".urdf", "urdf"),
    (".sdf", "sdformat"),
    (".xml", "mjcf"),
    (".dmd.yaml", "dmd"),
    (".obj", "obj"),
    (".xacro", "xacro"),   # .urdf.xacro too: expanded, then read as URDF
    (".usda", "usd"),      # OpenUSD (with usd-core: pip install 'mbparse[usd]')
    (".usdc", "usd"),
    (".usdz", "usd"),
    (".usd", "usd"),
)
KNOWN_TYPES = ".urdf, .sdf, .xml (Mujoco), .dmd.yaml, .obj, .xacro, .usd/.usda/.usdc/.usdz"


def format_of(filename: str) -> str | None:
    """The format name for a file name, by suffix (case-insensitive)."""
    lower = filename.lower()
    for suffix, module in SUFFIXES:
        if lower.endswith(suffix):
            return module
    return None


_READERS: dict = {}


def reader(fmt: str):
    """The reader module for a format name (imported on first use)."""
    module = _READERS.get(fmt)
    if module is None:
        module = _READERS[fmt] = importlib.import_module(f"{__name__}.{fmt}")
    return module


def preload(paths) -> None:
    """Imports, now, the readers the files in ``paths`` will need, and what
    they import on first use (NumPy, the SDFormat schema, YAML), so that
    worker processes forked afterwards share them instead of each importing
    them again."""
    needed = {format_of(p) for p in paths} - {None}
    if needed - {"urdf"}:
        needed |= {"urdf", "sdformat", "obj"}  # what scenes, includes and meshes pull in
        import numpy  # noqa: F401  (imported lazily by the mesh code)
    for fmt in sorted(needed):
        reader(fmt)
    if "sdformat" in needed:
        from .sdformat import schema
        schema.root()  # the specification, read once from schema.json
