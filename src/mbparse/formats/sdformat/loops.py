"""SDFormat joints that Drake refuses only because its joints must form a
tree: a joint that closes a kinematic loop, and a ``gearbox`` joint.

In the default mode a revolute, continuous, prismatic, ball or fixed joint
that closes a loop is kept as a :class:`LoopJointConstraint` (as URDF
``<loop_joint>`` is), and a gearbox
becomes a coupler constraint between the two joints that turn its parent and
its child in its reference body; each with a warning that Drake refuses it.
In Drake's mode the loop-closing joint is added as Drake adds it (so
``finalize()`` refuses the loop, as Drake's does) and a gearbox is Drake's
error.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ...plant import LoopJointConstraint, RevoluteJoint
from ...spatial import RigidTransform, dot, matvec, norm
from ..common.xml import first_child

if TYPE_CHECKING:  # pragma: no cover
    from .joints import Axis, JointReader

# SDFormat joint types whose loop closure is a LoopJointConstraint, with the
# constraint's joint type and what it keeps. A loop closed by any other type
# (universal, screw, ...) is refused at finalize().
LOOP_CLOSING_TYPES = {
    "revolute": ("revolute", "the joint frame's origin on both links together and their "
                             "axes aligned"),
    "continuous": ("revolute", "the joint frame's origin on both links together and their "
                               "axes aligned"),
    "prismatic": ("prismatic", "the joint frame's orientation on both links the same and its "
                               "origin moving along the axis only"),
    "ball": ("ball", "the joint frame's origin on both links together"),
    "fixed": ("fixed", "the joint frame on both links together"),
}
GEARBOX_TAGS = frozenset({"gearbox_ratio", "gearbox_reference_body"})
# How far from parallel a gearbox axis and its reference joint's axis may be.
PARALLEL_TOLERANCE = 1e-6


def close_loop(reader: "JointReader", el, jtype: str, parent_body, X_PJ: RigidTransform,
               child_body, X_CJ: RigidTransform, axis: "Axis | None", xyz) -> None:
    """Keeps the ``jtype`` joint ``el``, whose parent and child the plant's
    joints already join, as a loop constraint, saying what Drake does and what
    of the joint is not kept."""
    diag = reader.diag
    name = el.get("name")
    dropped = _not_kept(el, jtype, axis)
    joint_type, kept = LOOP_CLOSING_TYPES[jtype]
    what = f"mbparse keeps it as a loop constraint that holds {kept}"
    if dropped:
        what += f"; its {_listed(dropped)} {'is' if len(dropped) == 1 else 'are'} not kept"
    diag.drake_refuses(
        el, f"Joint '{name}' closes a kinematic loop: its parent '{parent_body.name}' and "
            f"child '{child_body.name}' are already joined by other joints, and Drake's joints "
            "must form a tree.", what, code="kinematic-loop")
    plant = reader.plant
    instance = child_body.model_instance
    if any(c.type == "loop_joint" and c.name == name and c.body_B.model_instance == instance
           for c in plant.constraints()):
        diag.error(el, f"Joint '{name}' closes a loop with the name of another loop-closing "
                       "joint of this model.", code="name-duplicate")
    n = norm(xyz)
    with diag.located(el):
        plant.add_constraint(LoopJointConstraint(
            name, parent_body, X_PJ, child_body, X_CJ, (xyz[0] / n, xyz[1] / n, xyz[2] / n),
            joint_type))


def _not_kept(el, jtype: str, axis: "Axis | None") -> list[str]:
    """What a loop constraint does not hold of the joint ``el``."""
    dropped = []
    if first_child(el, "drake:mimic") is not None:
        dropped.append("drake:mimic")
    if axis is None or jtype in ("ball", "fixed"):
        return dropped  # Drake reads no limit, spring or actuator of these either
    if jtype != "continuous" and (math.isfinite(axis.lower) or math.isfinite(axis.upper)):
        dropped.append("limits")
    if axis.damping > 0:
        dropped.append("damping")
    if axis.spring_stiffness != 0:
        dropped.append("spring")
    if axis.effort != 0:
        dropped.append("actuator (its effort limit is not zero)")
    return dropped


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def refuse_or_defer_gearbox(reader: "JointReader", vertex, instance: int) -> None:
    """Drake's error for a gearbox joint in its mode; otherwise the warning,
    and the gearbox waits until every joint of its scope exists."""
    el = vertex.el
    reader.diag.drake_refuses(
        el, f"Joint type (gearbox) not supported for joint '{el.get('name')}'.",
        "mbparse couples the two joints that turn the gearbox's parent and child in its "
        "reference body (theta_2 = -gearbox_ratio * theta_1)", code="sdf-not-supported")
    reader.kept_as_constraints.add(el)
    reader.gearboxes.append((vertex, instance))


def couple_gearbox(reader: "JointReader", vertex, ratio: float, axes_W) -> None:
    """The coupler constraint of the gearbox joint ``vertex``: SDFormat's
    theta_2 = -gearbox_ratio * theta_1, where theta_1 turns the parent and
    theta_2 the child in the reference body, about ``axis`` and ``axis2``
    (``axes_W``: the two, in the world)."""
    diag, ctx, plant = reader.diag, reader.ctx, reader.plant
    el = vertex.el
    name = el.get("name")
    ref_el = first_child(el, "gearbox_reference_body")
    ref_name = (ref_el.text or "").strip() if ref_el is not None else ""
    if not ref_name or ref_name == "__default__":
        diag.error(ref_el if ref_el is not None else el,
                   f"Gearbox joint '{name}' names no <gearbox_reference_body>: name the link in "
                   "which both of its gears turn.", code="sdf-element-missing")
    graph = ctx.graph
    ref_vid = graph.body_of(graph.resolve(vertex.scope, ref_name, ref_el,
                                          "gearbox reference body"))
    reference = ctx.body_of_vertex(ref_vid, ref_el)
    turns = []
    for end, tag, g_W in (("parent", "axis", axes_W[0]), ("child", "axis2", axes_W[1])):
        body, _ = ctx.joint_end_body(vertex, end)
        turns.append(_reference_joint(reader, el, reference, body, end, tag, g_W))
    (joint1, s1), (joint2, s2) = turns
    if not plant.supports_constraints():
        diag.warning(el, f"Gearbox joint '{name}' is not kept: its coupler constraint needs a "
                         "continuous plant or the sap, similar or lagged contact approximation "
                         "(--time-step 0 or --contact-approximation sap).",
                     code="constraint-needs-sap")
        return
    with diag.located(el):
        plant.add_coupler_constraint(joint2, joint1, -ratio * s1 * s2, 0.0)


def _reference_joint(reader: "JointReader", el, reference, body, end: str, tag: str,
                     g_W) -> tuple:
    """The revolute joint between ``reference`` and ``body`` (the gearbox's
    ``end`` link) and the sign that turns its position into the angle of
    ``body`` in ``reference`` about the gearbox axis ``g_W`` (in the world)."""
    diag = reader.diag
    name = el.get("name")
    found = [j for j in reader.plant.joints()
             if {j.parent_body.index, j.child_body.index} == {reference.index, body.index}]
    if len(found) != 1 or not isinstance(found[0], RevoluteJoint):
        diag.error(el, f"Gearbox joint '{name}' couples the joints that turn its {end} "
                       f"'{body.name}' in its reference body '{reference.name}', but "
                       f"{'no joint' if not found else 'no single revolute joint'} joins them; "
                       "add one revolute joint between the two links.",
                   code="sdf-structure")
    joint = found[0]
    X_WP = joint.parent_body.default_free_body_pose
    if joint.parent_body.is_world():
        X_WP = RigidTransform()
    if X_WP is None:
        diag.error(el, f"Gearbox joint '{name}': the pose of link '{joint.parent_body.name}' is "
                       "not known, so its joint's axis cannot be compared with the gearbox's.",
                   code="sdf-structure")
    a_W = matvec(X_WP.R, matvec(joint.frame_on_parent.X_BF.R, joint.axis))
    g = norm(g_W)
    cosine = dot(a_W, g_W) / g
    if abs(abs(cosine) - 1.0) > PARALLEL_TOLERANCE:
        diag.error(el, f"Gearbox joint '{name}': its <{tag}> is not parallel to the axis of "
                       f"joint '{joint.name}', which turns its {end} '{body.name}'; a gearbox "
                       "couples angles about the same axis.", code="sdf-structure")
    sign = 1.0 if cosine > 0 else -1.0
    if joint.child_body is not body:  # the joint turns the reference in the gear
        sign = -sign
    return joint, sign
