"""``mbparse.load(path)``: a model file loaded and finalized in one line, with
forward kinematics by joint name, for users of yourdfpy and pydrake.

::

    model = mbparse.load("examples/two_link_arm.urdf")
    X_WB = model.poses({"shoulder": 0.3, "elbow": -0.5})["forearm"]
    X_AB = model.transform("base", "forearm", {"elbow": 0.5})
    print(X_AB.translation(), X_AB.rotation())

Names are the ones the file gives (``elbow``, ``forearm``); a name that two
model instances share is written scoped (``arm::elbow``), and the scoped
name is always accepted. A misspelled name is a :class:`ModelError` with a
did-you-mean.
"""
from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterable, Mapping

from .diagnostics import Diagnostic, ParseWarning
from .loading import LoadOptions
from .loading import load as _load
from .plant import ModelError, MultibodyPlant
from .records import replace
from .spatial import RigidTransform

WORLD = "world"


def load(path: str, options: LoadOptions | None = None, **option_values) -> "Model":
    """Loads the model file ``path`` as ``mbparse inspect`` does (its packages
    found above it, the same plant) and finalizes it.

    ``options`` (a :class:`mbparse.loading.LoadOptions`) or its fields by name
    (``like="drake"``, ``packages=[("my_robot", "/path")]``, ``time_step=0.0``)
    change how; warnings are issued as :class:`ParseWarning` at the model
    file's lines, and a problem that stops the load raises
    :class:`ParseError`."""
    options = options or LoadOptions()
    if option_values:
        options = replace(options, **option_values)
    loaded = _load(str(path), options)
    for d in loaded.warnings:
        warnings.warn_explicit(ParseWarning(d), ParseWarning, d.file or str(path), d.line or 0,
                               module="mbparse")
    return Model(loaded.plant, loaded.scene_graph, loaded.instances, loaded.warnings)


def _short_names(elements, plant: MultibodyPlant) -> dict[str, object]:
    """Each element by its scoped name, and by its bare name where no other
    element has that name."""
    by_name: dict[str, object] = {}
    shared: set[str] = set()
    for e in elements:
        by_name[plant.scoped_name(e)] = e
    bare: dict[str, object] = {}
    for e in elements:
        if e.name in bare:
            shared.add(e.name)
        bare[e.name] = e
    for name, e in bare.items():
        if name not in shared:
            by_name.setdefault(name, e)
    return by_name


class Model:
    """A finalized model: its plant, scene graph and model instances, the
    warnings its loading gave, and forward kinematics by joint name."""

    def __init__(self, plant: MultibodyPlant, scene_graph, instances: list[int],
                 warnings_seen: list[Diagnostic] | None = None) -> None:
        if not plant.is_finalized():
            raise ModelError("a Model needs a finalized plant; call plant.finalize() first",
                             code="model-invalid")
        self.plant = plant
        self.scene_graph = scene_graph
        self.instances = instances
        self.warnings: list[Diagnostic] = list(warnings_seen or [])
        self._joints = _short_names([j for j in plant.joints() if j.nq > 0], plant)
        self._bodies = _short_names(plant.bodies(), plant)
        self._frames = _short_names([f for f in plant.frames() if not f.is_ephemeral], plant)
        self._frames[WORLD] = plant.world_frame()

    def __repr__(self) -> str:
        return (f"Model({len(self._body_names())} bodies, {len(self.joint_names())} moving "
                f"joints, {self.plant.num_positions()} positions)")

    # ------------------------------------------------------------ names
    def joint_names(self) -> list[str]:
        """The names :meth:`poses` and :meth:`transform` take in ``q``: each
        joint that moves, by its bare name when no other joint has it, else
        scoped (``arm::elbow``)."""
        return self._preferred(self._joints)

    def _body_names(self) -> list[str]:
        return self._preferred(self._bodies)

    def _preferred(self, table: dict) -> list[str]:
        """One name per element: the bare one where it is accepted."""
        chosen: dict[int, str] = {}
        for name, e in table.items():
            if id(e) not in chosen or "::" not in name:
                chosen[id(e)] = name
        return list(chosen.values())

    def _lookup(self, table: dict, name: str, what: str):
        found = table.get(name) if isinstance(name, str) else None
        if found is not None:
            return found
        if not isinstance(name, str):
            raise ModelError(f"a {what} is named by a str, not {type(name).__name__} {name!r}",
                             code="model-unknown-name")
        from .formats.common.suggest import closest  # (only on a failed lookup)
        meant = closest(name, table)
        hint = f"; did you mean '{meant}'?" if meant is not None else ""
        bare = [n for n in table if n.endswith("::" + name)]
        if len(bare) > 1:
            hint = f"; several model instances have one: name it {' or '.join(bare)}"
        raise ModelError(f"the model has no {what} named '{name}'{hint}",
                         code="model-unknown-name")

    # ------------------------------------------------------------ kinematics
    def _positions(self, q) -> dict[str, list[float]]:
        """``q`` ({joint name: value or values}) as the plant takes it:
        scoped names, lists of numbers."""
        if q is None:
            return {}
        if not isinstance(q, Mapping):
            raise ModelError(f"q must be a dict of joint name -> position (a number, or a list "
                             f"for a joint of several), not {type(q).__name__}",
                             code="model-invalid")
        out = {}
        for name, value in q.items():
            joint = self._lookup(self._joints, name, "moving joint")
            if isinstance(value, numbers.Real) and not isinstance(value, bool):
                values = [value]
            elif isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
                values = list(value)
            else:
                raise ModelError(f"the position of joint '{name}' must be a number or a list "
                                 f"of {joint.nq}, not {type(value).__name__} {value!r}",
                                 code="model-invalid")
            if len(values) != joint.nq or not all(
                    isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v)
                    for v in values):
                raise ModelError(f"joint '{name}' ({joint.type_name}) takes {joint.nq} finite "
                                 f"number(s); given {value!r}", code="model-invalid")
            out[self.plant.scoped_name(joint)] = [float(v) for v in values]
        return out

    def poses(self, q: Mapping | None = None) -> dict[str, RigidTransform]:
        """The pose in the world of every body (X_WB) at configuration ``q``
        ({joint name: position}; joints not named stay at their default
        positions), keyed by body name (bare where no other body has it)."""
        X_WB = self.plant.calc_body_poses_in_world(self._positions(q))
        return {name: X_WB[self._bodies[name].index] for name in self._body_names()}

    def transform(self, frame_a: str, frame_b: str, q: Mapping | None = None) -> RigidTransform:
        """X_AB, the pose of frame ``frame_b`` in frame ``frame_a``, at
        configuration ``q`` (as Drake's ``CalcRelativeTransform(context, A,
        B)``). A frame is named as a body (its frame), a frame of the model,
        or ``world``."""
        A = self._lookup(self._frames, frame_a, "frame")
        B = self._lookup(self._frames, frame_b, "frame")
        X_WB = self.plant.calc_body_poses_in_world(self._positions(q))
        X_WA = X_WB[A.body.index] @ A.X_BF
        return X_WA.inverse() @ (X_WB[B.body.index] @ B.X_BF)


__all__ = ["Model", "load"]
