"""What a model file said that Drake's plant does not keep, kept beside the
plant for the writers.

The plant (``mbparse.plant``) is Drake's model: a URDF joint's effort limit
becomes an actuator only when a ``<transmission>`` names the joint, joint
friction and a safety controller are warned about and left out, MuJoCo's
``armature`` and ``frictionloss`` have no place in it. A conversion must not
lose what the target can hold only because Drake's engine has no room for it.

So every reader also records, on the plant element it made, the facts of the
source that the element does not hold: ``element.description`` is ``None`` or
a ``dict`` from a key below to a value. The plant never reads it; the summary
and the oracle comparisons never see it; the writers (``convert.writers``)
read it through :func:`facts` and report through
:meth:`convert.writers.base.Writer.report_facts` each fact they cannot write,
so that what a target cannot hold is in the loss report, never lost in silence.

The MJCF reader records its facts in the default mode only (Drake's mode
reads as Drake does, which ignores these attributes). A fact is stored in the
source's own units after the reader's conversion to SI (metres, radians,
kilograms, newtons), never as text.

Keys, by element (readers add keys here first; a writer that meets a key it
does not know reports it as dropped):

Joints (``Joint.description``):

========================  ===================================================
``effort``                per-dof effort (force or torque) limit the file gave
                          (URDF ``<limit effort>``, SDFormat ``<limit><effort>``
                          of a ball or universal joint, which Drake does not
                          actuate, MJCF ``actuatorfrcrange``, a USD drive's
                          ``maxForce``), a
                          ``list[float]``; kept whether or not an actuator was
                          made
``effort_range``          per-dof ``[lower, upper]`` clamp of the actuators'
                          force where it is not symmetric (MJCF
                          ``actuatorfrcrange``), ``list[list[float]]``
``velocity``              per-dof velocity limit as written, ``list[float]``,
                          where the plant's own limit was not set from it
                          (SDFormat ball and universal joints)
``friction``              per-dof Coulomb (dry) friction, ``list[float]`` (URDF
                          ``<dynamics friction>``, SDFormat ``<friction>``,
                          MJCF ``frictionloss``)
``spring_stiffness``      per-dof spring stiffness, ``list[float]``, where the
                          plant made no spring of it (SDFormat prismatic joints,
                          MJCF ``stiffness`` of a slide joint)
``spring_reference``      per-dof spring rest position, ``list[float]`` (MJCF
                          ``springref``)
``spring_damper``         MJCF ``springdamper``: ``[timeconst, dampratio]`` from
                          which MuJoCo's compiler makes the joint's stiffness and
                          damping (from the mass it moves), in place of both
``armature``              per-dof added rotor inertia, ``list[float]`` (MJCF
                          ``armature`` of a joint no actuator drives; on a driven
                          joint it is the actuator's rotor inertia)
``damping``               per-dof damping the plant could not take, as written,
                          ``list[float]``: a negative MJCF joint damping,
                          which MuJoCo simulates and Drake refuses (the
                          plant's joint has damping 0)
``safety_controller``     URDF ``<safety_controller>``: ``dict`` of
                          ``soft_lower_limit``, ``soft_upper_limit``,
                          ``k_position``, ``k_velocity`` as given
``calibration``           URDF ``<calibration>``: ``dict`` of ``rising``,
                          ``falling``, ``reference_position`` as given
========================  ===================================================

Geometries (``GeometryInstance.description``):

========================  ===================================================
``material``              the name of the file's material (URDF
                          ``<material name>``, MJCF ``material``, USD's bound
                          material)
``texture``               a texture file, resolved to a path
========================  ===================================================

Model instances (``ModelInstance.description``): ``static`` (an SDFormat
``<static>`` model whose bodies were kept as links); ``free_joints``, a
``dict`` from a free body's name to the name of the joint that made it free
(MJCF ``<freejoint name>``, ``<joint type="free" name>``: the plant has no
joint there).
"""
from __future__ import annotations

from typing import Any

JOINT_KEYS = ("effort", "effort_range", "velocity", "friction", "spring_stiffness",
              "spring_reference", "spring_damper", "armature", "damping",
              "safety_controller", "calibration")
GEOMETRY_KEYS = ("material", "texture")
MODEL_KEYS = ("static", "free_joints")

_EMPTY: dict[str, Any] = {}


def describe(element: Any, key: str, value: Any) -> None:
    """Records ``key = value`` on ``element`` (a joint, geometry instance or
    model instance), making its description on first use."""
    d = element.description
    if d is None:
        element.description = {key: value}
    else:
        d[key] = value


def facts(element: Any) -> dict[str, Any]:
    """The element's recorded facts (empty when it has none); read-only by
    convention: writers never change what a reader recorded."""
    return getattr(element, "description", None) or _EMPTY


__all__ = ["describe", "facts", "JOINT_KEYS", "GEOMETRY_KEYS", "MODEL_KEYS"]
