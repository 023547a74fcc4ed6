"""Opening a USD stage, and the stage's units and up axis as one transform."""
from __future__ import annotations

import math
import os
import re

from ...diagnostics import DiagnosticPolicy
from ...limits import current_limits, raise_hint
from ...workspace import DataSource

# +90° about x: the y axis of a Y-up stage becomes +z.
Y_UP_TO_Z_UP = ((1.0, 0.0, 0.0), (0.0, 0.0, -1.0), (0.0, 1.0, 0.0))
IDENTITY3 = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def open_stage(source: DataSource, diagnostic: DiagnosticPolicy):
    """The composed stage of a file (or of ``.usda`` text); a located error
    when OpenUSD cannot open it."""
    from pxr import Sdf, Tf, Usd
    name = source.name()
    try:
        if source.is_file():
            path = source.filename
            if not os.path.isfile(path):
                diagnostic.error(f"the USD file '{path}' does not exist", name,
                                 code="file-missing")
            most = current_limits().max_file_bytes
            if most and os.path.getsize(path) > most:
                diagnostic.error(f"the USD file is {os.path.getsize(path):,} bytes, more than the "
                                 f"{most:,} bytes mbparse reads of a model file; "
                                 f"{raise_hint('max_file_bytes')}", name, code="size-limit")
            stage = Usd.Stage.Open(os.path.abspath(path), Usd.Stage.LoadAll)
        else:
            layer = Sdf.Layer.CreateAnonymous(".usda")
            if not layer.ImportFromString(source.contents or ""):
                raise Tf.ErrorException("the text is not USD")
            stage = Usd.Stage.Open(layer, Usd.Stage.LoadAll)
    except Tf.ErrorException as e:
        where, line, column, what = _located(e)
        diagnostic.error(f"OpenUSD cannot open the stage: {what}", where or name, line, column,
                         code="usd-unreadable")
    if stage is None:
        diagnostic.error("OpenUSD cannot open the stage", name, code="usd-unreadable")
    return stage


# OpenUSD's text parser names the place: '/path/robot.usda:14:22: Expected } at ...'
_PLACE = re.compile(r"'([^':]+?):(\d+):(\d+): (.*?)'(?= in </| Error in|\s*$)")
# and every error is led by where in OpenUSD's own sources it was raised
_ORIGIN = re.compile(r"Error in '[^']*' at line \d+ in file [^:]+ : ")


def _located(e: Exception) -> tuple[str | None, int | None, int | None, str]:
    """(file, line, column, message) of OpenUSD's refusal: the first place
    its text parser names, else its first message without OpenUSD's own
    source locations."""
    text = " ".join(str(e).split())
    m = _PLACE.search(text)
    if m:
        return m.group(1), int(m.group(2)), int(m.group(3)), m.group(4).strip()
    messages = [part.strip(" '") for part in _ORIGIN.split(text) if part.strip(" '")]
    return None, None, None, (messages[0] if messages else text)[:400]


class StageUnits:
    """The stage's metres per unit, kilograms per unit and the rotation that
    makes its up axis +z."""

    def __init__(self, stage, source_name: str, diagnostic: DiagnosticPolicy):
        from pxr import UsdGeom, UsdPhysics
        self.meters = float(UsdGeom.GetStageMetersPerUnit(stage))
        self.kilograms = float(UsdPhysics.GetStageKilogramsPerUnit(stage))
        for what, v in (("metersPerUnit", self.meters), ("kilogramsPerUnit", self.kilograms)):
            if not (v > 0 and math.isfinite(v)):
                diagnostic.error(f"the stage's {what} is {v}; it must be a positive number",
                                 source_name, code="usd-value-invalid")
        up = str(UsdGeom.GetStageUpAxis(stage))
        self.up = up
        self.R_up = Y_UP_TO_Z_UP if up == "Y" else IDENTITY3

    def length(self, v: float) -> float:
        return v * self.meters

    def mass(self, m: float) -> float:
        return m * self.kilograms

    def inertia(self, i: float) -> float:
        return i * self.kilograms * self.meters * self.meters
