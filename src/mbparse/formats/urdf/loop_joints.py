"""``<loop_joint>`` of Drake's older URDF dialect (reference 002).

A loop joint becomes a :class:`LoopJointConstraint`: it is kept with the
constraints, so the tree of joints that ``finalize()`` checks stays a tree.
Drake itself refuses ``<loop_joint>``; reading it is a deliberate difference
(see docs/SUMMARY_SCHEMA.md).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...plant import LoopJointConstraint
from ...spatial import RigidTransform, norm
from ..common.xml import attr, first_child
from .unknown import warn_unknown_children as _warn_unknown_children

if TYPE_CHECKING:  # pragma: no cover
    from . import UrdfReader

LOOP_JOINT_TYPES = ("continuous",)


def read_loop_joint(reader: "UrdfReader", el) -> None:
    """Adds the ``<loop_joint>`` ``el`` to the plant as a loop-joint constraint.

    Frame F (on link1) and frame M (on link2) keep their origins together and
    their ``axis`` aligned; the axis is expressed in both frames.
    """
    diag, plant = reader.diag, reader.plant
    name = attr(el, "name")
    if not name:
        diag.error(el, "a <loop_joint> needs a 'name' attribute", code="urdf-attribute-missing")
    jtype = attr(el, "type")
    if jtype is None:
        diag.error(el, f"loop joint '{name}' has no 'type' attribute; write "
                       "type=\"continuous\", the only loop joint type that is read",
                   code="urdf-attribute-missing")
    if jtype not in LOOP_JOINT_TYPES:
        diag.error(el, f"loop joint '{name}' has type '{jtype}'; only 'continuous' loop joints "
                       "can close a kinematic loop here", code="urdf-not-supported")
    _warn_unknown_children(reader, el, ("link1", "link2", "axis"), f"loop joint '{name}'")
    ends = []
    for tag in ("link1", "link2"):
        end = reader.link_end(el, tag, name, f"loop joint '{name}'")
        _warn_unknown_children(reader, end.node, ("origin",), f"<{tag}> of loop joint '{name}'")
        ends.append((end.body, _end_pose(reader, end.node, tag, name)))
    (body_A, X_AF), (body_B, X_BM) = ends
    if body_A is body_B:
        diag.error(el, f"loop joint '{name}' joins link '{body_A.name}' to itself",
                   code="joint-same-body")
    axis = (1.0, 0.0, 0.0)
    axis_el = first_child(el, "axis")
    if axis_el is not None:
        axis = diag.vector(axis_el, "xyz", 3, axis)
        n = norm(axis)
        if n < 1e-8:
            diag.error(axis_el, f"loop joint '{name}' has a zero axis", code="axis-zero")
        axis = (axis[0] / n, axis[1] / n, axis[2] / n)
    if plant.has_joint_named(name, reader.instance) or any(
            c.type == "loop_joint" and c.name == name
            and c.body_A.model_instance == reader.instance for c in plant.constraints()):
        diag.error(el, f"loop joint '{name}' has the name of another joint of this model",
                   code="name-duplicate")
    with diag.located(el):
        plant.add_constraint(LoopJointConstraint(name, body_A, X_AF, body_B, X_BM, axis))


def _end_pose(reader: "UrdfReader", node, tag: str, name: str) -> RigidTransform:
    """The pose of a loop joint's end: an ``<origin>`` child (the reference) or
    ``xyz``/``rpy`` attributes on the end itself (the older files)."""
    diag = reader.diag
    origin = first_child(node, "origin")
    inline = attr(node, "xyz") is not None or attr(node, "rpy") is not None
    if origin is not None and inline:
        diag.error(node, f"<{tag}> of loop joint '{name}' gives its pose twice: as an <origin> "
                         "and as xyz/rpy attributes; keep one", code="urdf-conflict")
    return diag.origin(origin if origin is not None else (node if inline else None))
