"""SDFormat ``<joint>`` as Drake reads it: the joint types, axes (with
``expressed_in``), limits, damping, springs, effort limits that become
actuators, Drake's actuator extensions and ``<drake:mimic>``."""
from __future__ import annotations

import math

from ...plant import (BallRpyJoint, PrismaticJoint, RevoluteJoint, RevoluteSpring, ScrewJoint,
                      UniversalJoint, WeldJoint)
from ...description import describe
from ...numbers import non_finite_code, non_finite_problem
from ...plant.topology import JointConnectivity
from ...spatial import RigidTransform, cross, dot, fast_number, matvec, norm
from . import loops, values
from ..common.xml import first_child
from .lookup import child_index
from .diagnostic import SdfDiagnostic, check_supported, local_name

INF = math.inf
JOINT_TAGS = frozenset({"axis", "axis2", "child", "drake:rotor_inertia", "drake:gear_ratio",
                        "drake:controller_gains", "drake:mimic", "parent", "pose",
                        "screw_thread_pitch"})
LIMIT_TAGS = frozenset({"drake:acceleration", "effort", "lower", "stiffness", "upper",
                        "velocity"})
ONE_AXIS = ("revolute", "continuous", "prismatic", "screw")


def _attribute_number(diag: SdfDiagnostic, el, name: str) -> float:
    """The number an (already required) attribute holds; a located error
    when it holds none or one that is not finite."""
    try:
        return values.parse_double(el.get(name))
    except ValueError as e:
        diag.error(el, f"Cannot read attribute '{name}' of <{local_name(el)}> as a number: {e}.",
                   code="sdf-value-invalid")


def read_number(diag: SdfDiagnostic, el, default: float, infinite: bool = False) -> float:
    """The number an element holds (``default`` when it is absent or empty);
    a located error when it holds none, or (unless ``infinite`` allows it, as
    for a limit) when it is infinite: a damping, stiffness, mass or ratio of
    ``inf`` means nothing."""
    if el is None:
        return default
    text = el.text
    if not text or not text.strip():
        return default
    value = fast_number(text)  # (a plain finite number: nothing more to check)
    if value is not None:
        return value
    try:
        value = values.parse_double(text)
    except ValueError:
        diag.error(el, f"Cannot read <{local_name(el)}> as a number: '{el.text}'.",
                   code="sdf-value-invalid")
    if not infinite and math.isinf(value):
        diag.error(el, f"<{local_name(el)}> must be a finite number: "
                       f"{non_finite_problem(el.text.strip(), [value])}.",
                   code=non_finite_code([value]))
    return value


class Axis:
    """One ``<axis>``: direction in its expressed-in frame and its values."""

    def __init__(self, diag: SdfDiagnostic, el):
        self.el = el
        kids = child_index(el)
        xyz_el = kids.get("xyz")
        self.xyz = (0.0, 0.0, 1.0)
        self.expressed_in = None
        if xyz_el is not None:
            if (xyz_el.text or "").strip():
                # (the document check refused what does not read; in check's
                # mode, which reads on, the default stands in for it)
                self.xyz = diag.checked(xyz_el, "vector3",
                                        lambda: values.parse_numbers(xyz_el.text, 3), self.xyz)
            self.expressed_in = xyz_el.get("expressed_in") or None
        if norm(self.xyz) == 0:
            diag.error(xyz_el if xyz_el is not None else el,
                       "The norm of the xyz vector cannot be zero.", code="axis-zero")
        dyn = kids.get("dynamics")
        if dyn is None:
            self.damping = self.spring_reference = self.spring_stiffness = 0.0
            self.friction = 0.0
        else:
            found = child_index(dyn)
            self.damping = read_number(diag, found.get("damping"), 0.0)
            self.friction = read_number(diag, found.get("friction"), 0.0)
            self.spring_reference = read_number(diag, found.get("spring_reference"), 0.0)
            self.spring_stiffness = read_number(diag, found.get("spring_stiffness"), 0.0)
        limit = kids.get("limit")
        self.limit_el = limit
        self.limit_kids: dict | None = None
        if limit is None:
            self.lower, self.upper, effort, velocity = -INF, INF, INF, INF
        else:
            found = self.limit_kids = child_index(limit)
            self.lower = read_number(diag, found.get("lower"), -INF, infinite=True)
            self.upper = read_number(diag, found.get("upper"), INF, infinite=True)
            effort = read_number(diag, found.get("effort"), INF, infinite=True)
            velocity = read_number(diag, found.get("velocity"), INF, infinite=True)
            for tag, value, side in (("lower", self.lower, INF), ("upper", self.upper, -INF)):
                if value == side:
                    # Drake keeps such a limit: no position satisfies it.
                    joint = el.getparent()
                    name = joint.get("name") if joint is not None else ""
                    diag.warning(found[tag], f"Joint '{name}': a {tag} limit of {value} leaves "
                                             "it no position it may take (Drake keeps the limit "
                                             "as written); write -inf for lower and inf for "
                                             "upper, or leave the limit out, for no limit",
                                 code="limit-infinite")
        self.effort = INF if effort < 0 else effort
        self.velocity = INF if velocity < 0 else velocity


class JointReader:
    """Adds the joints of one scope; ``frames`` gives poses and bodies."""

    def __init__(self, diag: SdfDiagnostic, plant, context):
        self.diag = diag
        self.plant = plant
        self.ctx = context  # the model builder: poses, bodies, rotations
        self.connectivity = JointConnectivity(plant)
        self.kept_as_constraints: set = set()  # loop-closing and gearbox joint elements
        self.gearboxes: list = []  # (vertex, instance) coupled after every joint exists

    def add(self, vertex, instance: int, is_model_joint: bool) -> str:
        """Adds the joint of ``vertex``; returns its SDFormat type."""
        diag = self.diag
        el = vertex.el
        name = el.get("name")
        jtype = el.get("type")
        like_drake = diag.policy.like_drake
        gearbox_read = jtype == "gearbox" and not like_drake
        kids = check_supported(diag, el, JOINT_TAGS | loops.GEARBOX_TAGS if gearbox_read
                               else JOINT_TAGS, vertex.kids)
        parent_body, parent_vid = self.ctx.joint_end_body(vertex, "parent", kids)
        child_body, child_vid = self.ctx.joint_end_body(vertex, "child", kids)
        if parent_body is child_body:
            diag.error(el, f"Joint '{name}' has parent and child frames that both resolve to "
                           f"the body '{child_body.name}'.", code="joint-same-body")
        X_CJ = self.ctx.joint_pose_in_body(vertex, child_vid)
        if parent_body.is_world():
            X_PJ = self.ctx.joint_pose_in_world(vertex, is_model_joint)
        else:
            X_PJ = self.ctx.joint_pose_in_body(vertex, parent_vid)
        X_PF = None if X_PJ.is_exactly_identity() else X_PJ
        axis_el, axis2_el = kids.get("axis"), kids.get("axis2")
        axes = [Axis(diag, axis_el) if axis_el is not None else None,
                Axis(diag, axis2_el) if axis2_el is not None else None]
        plant = self.plant
        if (jtype in loops.LOOP_CLOSING_TYPES and not like_drake
                and self.connectivity.joined(parent_body, child_body)):
            axis, xyz = axes[0], (0.0, 0.0, 1.0)
            if jtype in ONE_AXIS:
                axis = self.require_axis(el, axes[0])
                if jtype == "revolute":
                    self.check_limits(el, axis)
                xyz = self.axis_in_joint(vertex, axis)
            self.damping(el, axes)
            loops.close_loop(self, el, jtype, parent_body, X_PJ, child_body, X_CJ, axis, xyz)
            self.kept_as_constraints.add(el)
            return jtype
        joint = diag.add_at(el, self.add_of_type, vertex, instance, jtype, parent_body, X_PF,
                       child_body, X_CJ, axes, kids)
        if joint is not None:
            self.describe_joint(joint, jtype, axes)
        return jtype

    def add_of_type(self, vertex, instance: int, jtype: str, parent_body, X_PF, child_body,
                    X_CJ, axes: list, kids: dict):
        """The plant joint of ``vertex`` by its SDFormat type (None for a
        gearbox, which is coupled later); its axes read, its actuator and
        spring added."""
        diag = self.diag
        el = vertex.el
        name = el.get("name")
        plant = self.plant
        joint = None
        if jtype == "fixed":
            plant.add_joint(WeldJoint, name, parent_body, X_PF, child_body, X_CJ)
        elif jtype in ("revolute", "continuous", "prismatic"):
            axis = self.require_axis(el, axes[0])
            damping = self.damping(el, axes)
            accel = self.acceleration(el, axis)
            xyz = self.axis_in_joint(vertex, axis)
            if jtype == "prismatic":
                joint = plant.add_joint(PrismaticJoint, name, parent_body, X_PF,
                                        child_body, X_CJ, xyz, axis.lower, axis.upper,
                                        damping)
            elif jtype == "revolute":
                self.check_limits(el, axis)
                joint = plant.add_joint(RevoluteJoint, name, parent_body, X_PF,
                                        child_body, X_CJ, xyz, axis.lower, axis.upper,
                                        damping)
            else:
                joint = plant.add_joint(RevoluteJoint, name, parent_body, X_PF,
                                        child_body, X_CJ, xyz, -INF, INF, damping)
            joint.set_velocity_limits([-axis.velocity], [axis.velocity])
            joint.set_acceleration_limits([-accel], [accel])
            self.actuator(el, joint, axes, kids)
            self.spring(el, jtype, joint, axis)
        elif jtype == "universal":
            damping = self.damping(el, axes)
            if axes[0] is None or axes[1] is None:
                diag.error(el, f"Both axis and axis2 must be specified for joint '{name}'",
                           code="sdf-value-invalid")
            ix = _unit(self.axis_in_joint(vertex, axes[0]))
            iy = _unit(self.axis_in_joint(vertex, axes[1]))
            iz = cross(ix, iy)
            if abs(dot(ix, iy)) > 1e-12 or abs(norm(iz) - 1) > 1e-12:
                diag.error(el, f"axis and axis2 must be orthogonal for joint '{name}'",
                           code="sdf-value-invalid")
            R_JI = ((ix[0], iy[0], iz[0]), (ix[1], iy[1], iz[1]), (ix[2], iy[2], iz[2]))
            X_JI = RigidTransform(R_JI)
            X_PI = (X_PF @ X_JI) if X_PF is not None else X_JI
            joint = plant.add_joint(UniversalJoint, name, parent_body, X_PI, child_body,
                                    X_CJ @ X_JI, damping)
            self.actuator(el, joint, axes)
        elif jtype == "ball":
            damping = self.damping(el, axes)
            joint = plant.add_joint(BallRpyJoint, name, parent_body, X_PF, child_body,
                                    X_CJ, damping)
            self.actuator(el, joint, axes)
        elif jtype == "screw":
            damping = self.damping(el, axes)
            axis = self.require_axis(el, axes[0])
            pitch = self.screw_pitch(el)
            joint = plant.add_joint(ScrewJoint, name, parent_body, X_PF, child_body, X_CJ,
                                    self.axis_in_joint(vertex, axis), pitch, damping)
            self.actuator(el, joint, axes)
        elif jtype == "gearbox":
            loops.refuse_or_defer_gearbox(self, vertex, instance)
        elif jtype == "revolute2":
            diag.error(el, f"Joint type ({jtype}) not supported for joint '{name}'.",
                       code="sdf-not-supported")
        else:
            diag.error(el, f"Joint '{name}' has an unknown type '{jtype}'.",
                       code="sdf-value-invalid")
        return joint

    def describe_joint(self, joint, jtype: str, axes) -> None:
        """Records what the axes say that Drake's plant does not keep
        (mbparse.description), for the writers: dry friction, effort and
        velocity limits of joints Drake does not actuate or limit (ball,
        universal), a prismatic spring."""
        given = [a for a in axes if a is not None]
        if not given:
            return
        if any(a.friction for a in given):
            describe(joint, "friction", [a.friction for a in given][:joint.nv])
        if jtype in ("ball", "universal"):
            for key in ("effort", "velocity"):
                got = [getattr(a, key) for a in given][:joint.nv]
                if any(math.isfinite(v) for v in got):
                    describe(joint, key, got)
        if jtype == "prismatic" and given[0].spring_stiffness > 0:
            describe(joint, "spring_stiffness", [given[0].spring_stiffness])
            describe(joint, "spring_reference", [given[0].spring_reference])

    # ------------------------------------------------------------ pieces
    def require_axis(self, el, axis: Axis | None) -> Axis:
        if axis is None:
            self.diag.error(el, f"An axis must be specified for joint '{el.get('name')}'",
                            code="sdf-value-invalid")
        return axis

    def axis_in_joint(self, vertex, axis: Axis):
        if axis.expressed_in is None:
            return axis.xyz
        return self.ctx.axis_in_joint(vertex, axis.expressed_in, axis.el, axis.xyz)

    def check_limits(self, el, axis: Axis) -> None:
        if axis.lower > axis.upper:
            self.diag.error(el, "The lower limit must be lower (or equal) than the upper limit "
                                f"for joint '{el.get('name')}'.", code="limit-inverted")

    def damping(self, el, axes) -> float:
        axis = axes[0]
        if axis is None:
            return 0.0
        if axis.damping < 0:
            self.diag.error(el, f"Joint damping is negative for joint '{el.get('name')}'. "
                                "Joint damping must be a non-negative number.",
                            code="value-out-of-range")
        if axes[1] is not None and axes[1].damping != axis.damping:
            self.diag.warning(el, f"Joint damping must be equal for both axes for joint "
                                  f"{el.get('name')}; the value of 'axis' ({axis.damping:g}) is "
                                  f"used and that of 'axis2' ({axes[1].damping:g}) is ignored.",
                              code="sdf-unsupported")
        return axis.damping

    def acceleration(self, el, axis: Axis) -> float:
        limit = axis.limit_el
        if limit is None:
            return INF
        node = check_supported(self.diag, limit, LIMIT_TAGS,
                               axis.limit_kids).get("drake:acceleration")
        if node is None:
            return INF
        value = read_number(self.diag, node, INF, infinite=True)
        if value < 0:
            self.diag.error(limit, f"Acceleration limit is negative for joint "
                                   f"'{el.get('name')}'. Acceleration limit must be a "
                                   "non-negative number.", code="value-out-of-range")
        return value

    def screw_pitch(self, el) -> float:
        node = el.find("screw_thread_pitch")
        if node is not None:
            return read_number(self.diag, node, 1.0)
        old = el.find("thread_pitch")
        if old is not None:
            value = read_number(self.diag, old, 1.0)
            return -2 * math.pi / value if value != 0 else 1.0
        return 1.0

    def actuator(self, el, joint, axes, kids: dict | None = None) -> None:
        """The actuator of a joint with a non-zero effort limit (``kids``:
        the child index of ``el``, when the caller has it)."""
        diag = self.diag
        if kids is None:
            kids = child_index(el)
        name = el.get("name")
        jtype = el.get("type")
        if jtype == "ball":
            if axes[0] is not None:
                diag.warning(el, "A ball joint axis will be ignored. Only the dynamic "
                                 "parameters and limits will be considered.",
                             code="sdf-unsupported")
                if axes[0].effort != 0:
                    diag.warning(el, f"Actuation (via non-zero effort limits) for ball joint "
                                     f"'{name}' is not implemented yet and will be ignored.",
                                 code="sdf-unsupported")
            if axes[1] is not None:
                diag.warning(el, f"An axis2 may not be specified for ball joint '{name}' and "
                                 "will be ignored", code="sdf-unsupported")
            return
        if jtype == "universal":
            efforts = [a.effort if a is not None else 0.0 for a in axes]
            if any(e != 0 for e in efforts):
                diag.warning(el, f"Actuation (via non-zero effort limits) for universal joint "
                                 f"'{name}' is not implemented yet and will be ignored.",
                             code="sdf-unsupported")
            return
        effort = axes[0].effort if axes[0] is not None else 0.0
        if effort != 0:
            actuator = diag.add_at(el, self.plant.add_joint_actuator, name, joint, effort)
            for tag, attr in (("drake:rotor_inertia", "rotor_inertia"),
                              ("drake:gear_ratio", "gear_ratio")):
                node = kids.get(tag)
                if node is not None:
                    setattr(actuator, attr, read_number(diag, node, 0.0))
            gains = kids.get("drake:controller_gains")
            if gains is not None:
                p, d = gains.get("p"), gains.get("d")
                if p is None:
                    diag.error(gains, "<drake:controller_gains>: Unable to find the 'p' "
                                      "attribute.", code="sdf-attribute-missing")
                if d is None:
                    diag.error(gains, "<drake:controller_gains>: Unable to find the 'd' "
                                      "attribute.", code="sdf-attribute-missing")
                p, d = _attribute_number(diag, gains, "p"), _attribute_number(diag, gains, "d")
                with diag.located(gains):
                    self.plant.set_controller_gains(actuator, p, d)
        if axes[1] is not None:
            diag.warning(el, f"An axis2 may not be specified for 1-dof joint '{name}' and will "
                             "be ignored", code="sdf-unsupported")

    def spring(self, el, jtype: str, joint, axis: Axis) -> None:
        stiffness = axis.spring_stiffness
        if jtype == "prismatic":
            if stiffness < 0:
                self.diag.error(el, f"The stiffness specified for joint '{el.get('name')}' must "
                                    "be non-negative.", code="value-out-of-range")
            if stiffness > 0:
                self.diag.warning(el, f"The prismatic spring of joint '{el.get('name')}' is not "
                                      "kept by mbparse: prismatic springs are not part of its "
                                      "model.", code="sdf-unsupported")
            return
        if stiffness != 0:
            if stiffness < 0:
                self.diag.error(el, f"The spring stiffness of joint '{el.get('name')}' must be "
                                    "non-negative.", code="value-out-of-range")
            self.plant.add_force_element(RevoluteSpring(joint, axis.spring_reference,
                                                        stiffness))

    def couple_gearboxes(self) -> None:
        """The gearboxes of the scope just read, as coupler constraints
        (default mode; called after every joint and mimic of the scope)."""
        diag = self.diag
        pending, self.gearboxes = self.gearboxes, []
        for vertex, _instance in pending:
            with diag.policy.recovering():
                el = vertex.el
                ratio = read_number(diag, first_child(el, "gearbox_ratio"), 1.0)
                R_WJ = self.ctx.X_W(vertex.id).R
                axes_W = []
                for tag in ("axis", "axis2"):
                    axis_el = el.find(tag)
                    xyz = ((0.0, 0.0, 1.0) if axis_el is None
                           else self.axis_in_joint(vertex, Axis(diag, axis_el)))
                    axes_W.append(matvec(R_WJ, xyz))
                loops.couple_gearbox(self, vertex, ratio, axes_W)

    def mimic(self, el, instance: int, kids: dict | None = None) -> None:
        """``<drake:mimic>`` (read after every joint exists; ``kids``: the
        child index of ``el``, when the caller has it)."""
        diag = self.diag
        node = (child_index(el) if kids is None else kids).get("drake:mimic")
        if node is None or el in self.kept_as_constraints:
            return  # a loop constraint's warning says its mimic is not kept
        name = el.get("name")
        plant = self.plant
        if not plant.supports_constraints():
            diag.warning(el, f"Joint '{name}' specifies a drake:mimic element that will be "
                             "ignored. Mimic elements are currently only supported by "
                             "MultibodyPlant with a discrete time step and using "
                             "DiscreteContactSolver::kSap, or by continuous time plants.",
                         code="sdf-unsupported")
            return
        for key in ("joint", "multiplier", "offset"):
            if node.get(key) is None:
                diag.error(node, f"Joint '{name}' drake:mimic element is missing the required "
                                 f"'{key}' attribute.", code="sdf-attribute-missing")
        target = node.get("joint")
        if not plant.has_joint_named(target, instance):
            diag.error(node, f"Joint '{name}' drake:mimic element specifies joint '{target}' "
                             "which does not exist.", code="file-missing")
        if target == name:
            diag.error(node, f"Joint '{name}' drake:mimic element specifies joint '{target}'. "
                             "Joints cannot mimic themselves.", code="sdf-mimic-invalid")
        joint0 = plant.get_joint_by_name(name, instance)
        joint1 = plant.get_joint_by_name(target, instance)
        if joint0.nv != 1 or joint1.nv != 1:
            diag.warning(node, f"Drake only supports the drake:mimic element for single-dof "
                               f"joints. The joint '{name}' (with {joint0.nv} dofs) is "
                               f"attempting to mimic joint '{target}' (with {joint1.nv} dofs). "
                               "The drake:mimic element will be ignored.", code="sdf-unsupported")
            return
        gear_ratio = _attribute_number(diag, node, "multiplier")
        offset = _attribute_number(diag, node, "offset")
        with diag.located(node):
            plant.add_coupler_constraint(joint0, joint1, gear_ratio, offset)


def _unit(v):
    n = norm(v)
    return (v[0] / n, v[1] / n, v[2] / n)
