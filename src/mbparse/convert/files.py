"""Converting one model file: ``convert_file(path, "mjcf", output=...)``.

Every pair loads the file into the model and writes it with :mod:`.writers`,
which keeps every link and names meshes by paths that resolve from the
output. URDF to SDFormat can instead go through libsdformat's conversion
(``libsdformat``: ``<gazebo>`` extensions, fixed-joint lumping, ``model://``
mesh URIs), whose changes to the model are then in the loss report
(:mod:`.libsdformat_losses`). This is the unit a batch runner calls once per
file.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..diagnostics import DiagnosticPolicy, ParseError
from ..loading import LoadOptions, load
from .loss import DROPPED, ConvertError, LossReport
from .sdf_writer import ConvertOptions


@dataclass
class ConvertFileOptions:
    """How one file is converted.

    ``load`` says how the input is read (a continuous plant by default, so
    that constraints such as ``<mimic>`` are kept). ``strict`` turns any loss
    into a :class:`ConvertError`. ``copy_meshes`` is a folder that receives
    the mesh files; ``use_packages`` writes ``package://`` for meshes inside
    a known package. ``libsdformat`` sends URDF to SDFormat through
    libsdformat's conversion instead of the model writer; ``sdf_options`` are
    that conversion's choices. ``via_model`` (the model writer, now the
    default) is kept for callers of the earlier interface: it wins over
    ``libsdformat``. ``drake_extensions`` writes Drake's ``drake:``
    elements into URDF output (standard URDF otherwise). ``actuators_from_effort``
    (MJCF): a joint with an
    effort limit and no actuator gets a ``motor`` limited to it.
    """

    load: LoadOptions = field(default_factory=lambda: LoadOptions(time_step=0.0))
    strict: bool = False
    copy_meshes: str | None = None
    use_packages: bool = False
    libsdformat: bool = False
    via_model: bool = False
    sdf_options: ConvertOptions = field(default_factory=ConvertOptions)
    drake_extensions: bool = False
    actuators_from_effort: bool = True


@dataclass
class ConvertResult:
    text: str
    report: LossReport
    warnings: list = field(default_factory=list)  # the input's parse warnings


def convert_file(path: str, target: str, output: str | None = None,
                 options: ConvertFileOptions | None = None) -> ConvertResult:
    """Converts the model file ``path`` to ``target`` ("urdf", "sdf", "mjcf").

    ``output`` (a file name, written by the caller) places mesh paths; the
    text is returned, not written. Raises ParseError for an input that does
    not load and ConvertError when no faithful-enough output can be given
    (empty model, a non-finite number, a loss under ``strict``).
    """
    from .writers import write
    options = options or ConvertFileOptions()
    out_dir = os.path.dirname(os.path.abspath(output)) if output else None
    if (target == "sdf" and path.lower().endswith(".urdf") and options.libsdformat
            and not options.via_model):
        result = _urdf_to_sdf(path, options)
    else:
        loaded = load(path, options.load, finalize=False)
        text, report = write(loaded.plant, loaded.scene_graph, target, out_dir,
                             options.copy_meshes, loaded.parser.package_map(),
                             options.use_packages, source=path,
                             drake_extensions=options.drake_extensions,
                             actuators_from_effort=options.actuators_from_effort)
        result = ConvertResult(text, report, loaded.warnings)
    if options.strict and result.report:
        raise ConvertError(f"{path}: the conversion to {target} loses "
                           f"{len(result.report)} thing(s) (strict): "
                           + "; ".join(str(x) for x in result.report.losses))
    return result


def _urdf_to_sdf(path: str, options: ConvertFileOptions) -> ConvertResult:
    from . import converted_urdf
    from .libsdformat_losses import report_conversion_losses
    policy = DiagnosticPolicy(strict=options.load.strict, emit=False)
    sdf, urdf, robot = converted_urdf(path, options.sdf_options, policy)
    model = sdf.first("model")
    if model is None or model.first("link") is None:
        raise ConvertError(f"{path}: the SDFormat model would be empty: libsdformat's "
                           "conversion leaves out links without mass and everything below "
                           "them, here the whole tree; give the root link an <inertial>, or "
                           "convert without --libsdformat, which keeps every link")
    report = LossReport(path, "sdf")
    for w in policy.warnings_seen:
        report.add(DROPPED, "URDF to SDFormat", w.message, (w.file, w.line))
    report_conversion_losses(urdf, robot, sdf, report, path,
                             options.sdf_options.lumped_joint_frames)
    return ConvertResult(sdf.to_string(), report, [])


__all__ = ["ConvertFileOptions", "ConvertResult", "convert_file", "ConvertError", "ParseError"]
