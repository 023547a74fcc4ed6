"""Writers from the in-memory model to URDF, SDFormat and MJCF.

``write(plant, scene_graph, "mjcf")`` gives the text and a
:class:`~mbparse.convert.loss.LossReport` of everything the target could not
hold. Each writer walks the model the same way (:mod:`.walk`); the URDF to
SDFormat conversion that reproduces libsdformat lives apart, in
:mod:`mbparse.convert`.
"""
from __future__ import annotations

import os
import re

from ...geometry import SceneGraph
from ...memory import collector_paused
from ...package_map import PackageMap
from ...plant import MultibodyPlant
from ..loss import ConvertError, LossReport
from .meshes import MeshPlacer
from .walk import ModelWalk

FORMATS = ("urdf", "sdf", "mjcf", "usd")
SUFFIXES = {"urdf": ".urdf", "sdf": ".sdf", "mjcf": ".xml", "usd": ".usda"}


def write(plant: MultibodyPlant, scene_graph: SceneGraph | None, target: str,
          out_dir: str | None = None, copy_meshes: str | None = None,
          package_map: PackageMap | None = None, use_packages: bool = False,
          source: str | None = None,
          drake_extensions: bool = False,
          actuators_from_effort: bool = True) -> tuple[str, LossReport]:
    """The model as ``target`` text ("urdf", "sdf", "mjcf" or "usd": USD as
    ``.usda`` text, see :func:`.usd.save_usd`) and its loss report.

    Mesh files are named relative to ``out_dir`` (the folder the text will be
    written to; the current folder by default), copied into ``copy_meshes``
    first when given, or named ``package://`` inside a package of
    ``package_map`` when ``use_packages``. ``source`` is the model file named
    in the report. A mesh the writer makes (an OBJ of a mesh the target
    cannot read, an ellipsoid's sphere in standard URDF) goes into
    ``copy_meshes``, else into ``<model name>_meshes`` beside the output.
    URDF output is standard URDF unless ``drake_extensions`` asks for Drake's
    ``drake:`` elements. ``actuators_from_effort``: a joint with an effort
    limit and no actuator gets one in a target that has actuators of its own
    (MJCF's ``motor``). Raises :class:`ConvertError` for a model with no
    bodies or a non-finite number.
    """
    if target not in FORMATS:
        raise ValueError(f"target must be one of {', '.join(FORMATS)}; got {target!r}")
    report = LossReport(source, target)
    walk = ModelWalk(plant, scene_graph if scene_graph is not None else plant.scene_graph,
                     report)
    out_dir = out_dir or os.getcwd()
    meshes = MeshPlacer(out_dir, copy_meshes, package_map, use_packages,
                        converted_to=os.path.join(out_dir, _file_stem(walk.model_name("scene"))
                                                  + "_meshes"))
    if target == "urdf":
        from .urdf import UrdfWriter
        writer = UrdfWriter(walk, meshes, report, drake_extensions=drake_extensions)
    else:
        writer = _writer_class(target)(walk, meshes, report)
    writer.actuators_from_effort = actuators_from_effort
    with collector_paused():  # many new objects, none freed until the text is made
        return writer.write(), report


def _file_stem(name: str) -> str:
    """A model name as a portable file name: letters, digits, ``_.-``."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".") or "model"


def _writer_class(target: str):
    if target == "urdf":
        from .urdf import UrdfWriter
        return UrdfWriter
    if target == "sdf":
        from .sdf import SdfWriter
        return SdfWriter
    if target == "usd":
        from .usd import UsdWriter
        return UsdWriter
    from .mjcf import MjcfWriter
    return MjcfWriter


__all__ = ["FORMATS", "ConvertError", "LossReport", "write"]
