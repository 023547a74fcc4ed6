"""Conversions between model formats.

``urdf_to_sdf`` turns a URDF, with its ``<gazebo>`` extensions, into
SDFormat the way libsdformat's converter does (fixed-joint lumping included);
see ``shared/reference/003_*`` for the extension's meaning.
"""
from __future__ import annotations

from pathlib import Path

from ..diagnostics import DiagnosticPolicy
from ..formats.common.xml import XmlDiagnostic, load_xml
from ..workspace import DataSource
from .gazebo import read_extensions
from .quat import Pose, Quat
from .sdf_tree import Node
from .sdf_writer import ConvertOptions, SdfWriter
from .spec_defaults import add_required_defaults
from .urdf_model import UrdfModelReader, _Bad, parse_vector3

__all__ = ["ConvertOptions", "urdf_to_sdf", "urdf_to_sdf_tree"]


def urdf_to_sdf_tree(source: DataSource | str | Path, options: ConvertOptions | None = None,
                     policy: DiagnosticPolicy | None = None) -> Node:
    """The SDFormat ``<sdf>`` element for a URDF file (a path or a DataSource).

    Problems in the URDF raise a located ParseError; things the conversion
    leaves out are reported as warnings through ``policy``.
    """
    return converted_urdf(source, options, policy)[0]


def converted_urdf(source: DataSource | str | Path, options: ConvertOptions | None = None,
                   policy: DiagnosticPolicy | None = None):
    """(the ``<sdf>`` element, the URDF model it was made from, the URDF
    ``<robot>`` element): what :func:`urdf_to_sdf_tree` gives, with what the
    loss report compares it to."""
    options = options or ConvertOptions()
    policy = policy or DiagnosticPolicy()
    if not isinstance(source, DataSource):
        source = DataSource(filename=str(source))
    file = source.name()
    diag = XmlDiagnostic(policy, file)
    robot = load_xml(source, diag)
    model = UrdfModelReader(policy, file).read(robot)
    exts = read_extensions(robot, policy, file)
    for ref in exts.by_reference:
        if ref and ref not in model.links and ref not in model.joints:
            policy.warning(f"<gazebo reference='{ref}'> names no link or joint; it has no "
                           "effect", file, None, code="convert-gazebo-reference")
    sdf = SdfWriter(model, exts, options, policy, file).build(_robot_origin(robot, policy, file))
    add_required_defaults(sdf.first("model"))
    return sdf, model, robot


def urdf_to_sdf(source: DataSource | str | Path, options: ConvertOptions | None = None,
                policy: DiagnosticPolicy | None = None) -> str:
    """The SDFormat text for a URDF file; see :func:`urdf_to_sdf_tree`."""
    return urdf_to_sdf_tree(source, options, policy).to_string()


def _robot_origin(robot, policy: DiagnosticPolicy, file: str | None) -> Pose | None:
    origin = robot.find("origin")
    if origin is None:
        return None
    try:
        xyz = parse_vector3(origin.get("xyz")) if origin.get("xyz") is not None else (0.0, 0.0, 0.0)
        rpy = parse_vector3(origin.get("rpy")) if origin.get("rpy") is not None else (0.0, 0.0, 0.0)
    except _Bad as e:
        policy.warning(f"<robot><origin> is malformed ({e}); it is ignored", file,
                       origin.sourceline, code="convert-unsupported")
        return None
    return Pose(xyz, Quat.from_rpy(*rpy))
