"""UsdPhysics joints as the plant's joints.

A joint's frames are its ``localPos``/``localRot`` in ``body0`` (the parent;
the world when empty) and ``body1``; a revolute or prismatic joint moves
along its frame's ``axis`` token. A D6 joint (a generic ``PhysicsJoint``)
locks each degree of freedom whose ``PhysicsLimitAPI`` has low > high; the
free ones choose the plant's joint. Angles are degrees in USD, radians here.
A joint that closes a kinematic loop is kept as a loop constraint, as the
SDFormat reader does in the default mode.
"""
from __future__ import annotations

import math

from ...description import describe
from ...plant import ModelError
from ...plant.elements import LoopJointConstraint
from ...plant.joints import (BallRpyJoint, PlanarJoint, PrismaticJoint, QuaternionFloatingJoint,
                             RevoluteJoint, UniversalJoint, WeldJoint)
from ...spatial import IDENTITY, RigidTransform, matmul, matrix_to_rpy
from .poses import pose_of

RADIANS = math.pi / 180.0
FLT_MAX = 3.4028234663852886e38
AXES = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}
DOF_NAMES = ("transX", "transY", "transZ", "rotX", "rotY", "rotZ")
# A D6 joint free to turn about two axes other than x then y is the plant's
# universal joint (about x, then y) in joint frames turned by these rotations
# (columns: where the universal joint's x, y and z go).
UNIVERSAL_TURNS = {
    ("rotX", "rotZ"): ((1.0, 0.0, 0.0), (0.0, 0.0, -1.0), (0.0, 1.0, 0.0)),
    ("rotY", "rotZ"): ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)),
}


def _axis_token(axis) -> str:
    return str(axis).rsplit(".", 1)[-1].upper()


def _dof_name(dof) -> str:
    """A JointDOF enum value as USD's token (transX ... rotZ)."""
    text = str(dof).rsplit(".", 1)[-1]
    return {"TransX": "transX", "TransY": "transY", "TransZ": "transZ", "RotX": "rotX",
            "RotY": "rotY", "RotZ": "rotZ", "Distance": "distance"}.get(text, text)


class JointBuilder:
    """Adds the stage's joints to the reader's plant."""

    def __init__(self, reader):
        self.r = reader
        self.plant = reader.plant
        self.names: dict[int, set[str]] = {}  # model instance -> joint names
        # Bodies joined so far (union-find over body indices; 0 is the world).
        self.parent: dict[int, int] = {}
        self.keys: dict[int, str] = {}  # body index -> prim path
        self.queued: list = []  # (path, prim, parent, child, X_PF, X_CM, spec)

    def _root(self, i: int) -> int:
        while self.parent.get(i, i) != i:
            self.parent[i] = self.parent.get(self.parent[i], self.parent[i])
            i = self.parent[i]
        return i

    # -- one joint ------------------------------------------------------------
    def add(self, path, kind, desc) -> None:
        from pxr import UsdPhysics
        r = self.r
        T = UsdPhysics.ObjectType
        prim = r.stage.GetPrimAtPath(path)
        if kind in (T.DistanceJoint, T.CustomJoint):
            r.warn(path, f"a {prim.GetTypeName() or 'custom'} joint has no joint in the plant; it "
                   "is left out")
            return
        if not desc.jointEnabled:
            r.warn(path, "a disabled joint (physics:jointEnabled = false) is left out")
            return
        for end, target in (("body0", desc.rel0), ("body1", desc.rel1)):
            if target and not target.isEmpty and not r.stage.GetPrimAtPath(target):
                r.warn(path, f"its {end} <{target}> names no prim; the joint is left out",
                       code="usd-structure")
                return
        b0, b1 = desc.body0, desc.body1
        parent, child = r.body_of(b0), r.body_of(b1)
        for end, body_path, body in (("body0", b0, parent), ("body1", b1, child)):
            if body_path and not body_path.isEmpty and body is None:
                r.warn(path, f"its {end} <{body_path}> is not a rigid body; the joint is "
                       "left out", code="usd-structure")
                return
        try:
            X_PF = pose_of(desc.localPose0Position, desc.localPose0Orientation)
            X_CM = pose_of(desc.localPose1Position, desc.localPose1Orientation)
        except ValueError as e:
            r.warn(path, f"{e}; the joint is left out", code="usd-value-invalid")
            return
        m = r.units.meters
        X_PF = RigidTransform(X_PF.R, tuple(v * m for v in X_PF.p))
        X_CM = RigidTransform(X_CM.R, tuple(v * m for v in X_CM.p))
        if parent is None and child is None:
            r.warn(path, "a joint with neither body0 nor body1 is left out", code="usd-structure")
            return
        if child is None:  # joined to the world by body0: the world is the parent
            parent, child, X_PF, X_CM = child, parent, X_CM, X_PF
        if parent is None:
            # body0's frame is the world: the stage's frame, turned to z up.
            X_PF = RigidTransform(r.units.R_up, (0.0, 0.0, 0.0)) @ X_PF
            parent = self.plant.world_body()
        spec = self._spec(path, kind, desc)
        if spec is None:
            return
        self.queued.append((path, prim, parent, child, X_PF, X_CM, spec))

    def finish(self) -> None:
        """Adds the queued joints in the stage's order. Several joints
        between the same two bodies (MJCF's hinges of one body, as NVIDIA's
        converter writes them) are a chain through massless bodies at the
        child's pose, as Drake reads such an MJCF body; bodies no joint holds
        float where the stage puts them (set as they were read)."""
        from pxr import Usd
        order = {prim.GetPath(): i for i, prim in enumerate(self.r.stage.Traverse(
            Usd.TraverseInstanceProxies(Usd.PrimDefaultPredicate)))}
        self.queued.sort(key=lambda q: order.get(q[0], len(order)))
        groups: dict[tuple[int, int], list] = {}
        for q in self.queued:
            key = tuple(sorted((q[2].index, q[3].index)))
            groups.setdefault(key, []).append(q)
        for q in self.queued:
            group = groups[tuple(sorted((q[2].index, q[3].index)))]
            if len(group) == 1:
                self._place(*q)
            elif q is group[0]:
                self._chain(group)

    def _chain(self, group: list) -> None:
        r = self.r
        first = group[0]
        parent, child = first[2], first[3]
        names = [n for n in (self._display(q[1]) for q in group)]
        r.warn(first[0], f"{len(group)} joints ({', '.join(names)}) join the same two bodies; "
               f"they are read as a chain through {len(group) - 1} massless bod"
               f"{'y' if len(group) == 2 else 'ies'} at the pose of body '{child.name}' (as "
               "Drake reads an MJCF body of several joints)", code="usd-joint-chain")
        X_WC = r.X_WB[self._key(child)]
        previous = parent
        for k, (path, prim, p, c, X_PF, X_CM, spec) in enumerate(group):
            if (p, c) != (parent, child):  # declared the other way round
                X_PF, X_CM = X_CM, X_PF
            if k > 0:
                X_PF = X_CM  # the massless body stands where the child does
            if k < len(group) - 1:
                name = f"{child.name}_{self._display(prim)}"
                while self.plant.has_body_named(name, child.model_instance):
                    name += "_"
                body = self.plant.add_rigid_body(name, child.model_instance)
                key = f"{path.pathString}#body"
                r.X_WB[key] = X_WC
                self.keys[body.index] = key
            else:
                body = child
            self._place(path, prim, previous, body, X_PF, X_CM, spec)
            previous = body

    @staticmethod
    def _display(prim) -> str:
        return prim.GetDisplayName() or prim.GetName()

    def _place(self, path, prim, parent, child, X_PF, X_CM, spec) -> None:
        r = self.r
        cls, axis, lo, hi, damping, effort, turn = spec
        if turn is not None:  # (a universal joint about other axes than x then y)
            X_PF = RigidTransform(matmul(X_PF.R, turn), X_PF.p)
            X_CM = RigidTransform(matmul(X_CM.R, turn), X_CM.p)
        name = r.unique_name(prim, self.names.setdefault(child.model_instance, set()))
        if self._root(parent.index) == self._root(child.index):
            self._loop(path, name, cls, parent, X_PF, child, X_CM, axis)
            return
        try:
            if cls in (RevoluteJoint, PrismaticJoint):
                joint = self.plant.add_joint(cls, name, parent, X_PF, child, X_CM, axis, lo, hi,
                                             damping)
            elif cls is WeldJoint:
                joint = self.plant.add_joint(cls, name, parent, X_PF, child, X_CM)
            else:
                joint = self.plant.add_joint(cls, name, parent, X_PF, child, X_CM)
                if lo is not None:  # (a D6 joint's limits, per degree of freedom)
                    joint.set_position_limits(*lo)
        except ModelError as e:
            r.fail(path, str(e), code=e.code)
        self.parent[self._root(child.index)] = self._root(parent.index)
        if effort is not None:  # (a drive: its force limit and PD gains)
            limit, gains = effort
            if limit is not None:
                describe(joint, "effort", [limit])
            try:
                actuator = self.plant.add_joint_actuator(
                    name, joint, limit if limit is not None else math.inf)
                if gains is not None:
                    self.plant.set_controller_gains(actuator, *gains)
            except ModelError as e:
                r.warn(path, f"its drive is not read as an actuator: {e}")
        self._default_positions(joint, parent, child)

    def _spec(self, path, kind, desc):
        """(joint class, axis, lower, upper, damping, effort) of a joint desc;
        None after a warning when the plant has no such joint."""
        from pxr import UsdPhysics
        r = self.r
        T = UsdPhysics.ObjectType
        m = r.units.meters
        if kind == T.FixedJoint:
            return WeldJoint, None, None, None, None, None, None
        if kind == T.SphericalJoint:
            if desc.limit.enabled:
                r.warn(path, "the cone limit of a spherical joint has no place in the plant; "
                       "the ball joint is read without limits")
            return BallRpyJoint, None, None, None, None, None, None
        if kind in (T.RevoluteJoint, T.PrismaticJoint):
            revolute = kind == T.RevoluteJoint
            factor = RADIANS if revolute else m
            axis = AXES[_axis_token(desc.axis)]
            lo, hi = -math.inf, math.inf
            if desc.limit.enabled:
                lo, hi = desc.limit.lower, desc.limit.upper
                lo = -math.inf if lo <= -FLT_MAX or not math.isfinite(lo) else lo * factor
                hi = math.inf if hi >= FLT_MAX or not math.isfinite(hi) else hi * factor
                if lo > hi:
                    r.warn(path, f"its limits [{desc.limit.lower}, {desc.limit.upper}] are "
                           "inverted; the joint is read without limits", code="usd-value-invalid")
                    lo, hi = -math.inf, math.inf
            damping, effort = self._drive(path, desc.drive, revolute)
            cls = RevoluteJoint if revolute else PrismaticJoint
            return cls, axis, lo, hi, damping, effort, None
        if kind == T.D6Joint:
            return self._d6(path, desc)
        r.warn(path, "this joint type has no joint in the plant; it is left out")
        return None

    def _drive(self, path, drive, revolute: bool):
        """(passive damping, (effort, PD gains) or None) of a joint's drive,
        per radian (USD's are per degree): a drive without stiffness is
        viscous damping, and an actuator when it has a maxForce; a drive
        with stiffness is an actuator with PD gains (stiffness, damping).
        Targets are warned about (the plant's PD controller takes its
        target as an input)."""
        if drive is None or not getattr(drive, "enabled", False):
            return 0.0, None
        r = self.r
        u = r.units
        per = 1.0 / RADIANS if revolute else 1.0 / (u.meters * u.meters)
        force_unit = u.kilograms * u.meters * (u.meters if revolute else 1.0)
        damping = float(drive.damping) * per * force_unit
        stiffness = float(drive.stiffness) * per * force_unit
        if not (damping >= 0 and math.isfinite(damping)):
            r.warn(path, f"its drive's damping {drive.damping} is not a non-negative number; "
                   "it is read as 0", code="usd-value-invalid")
            damping = 0.0
        if not (stiffness >= 0 and math.isfinite(stiffness)):
            r.warn(path, f"its drive's stiffness {drive.stiffness} is not a non-negative "
                   "number; it is read as 0", code="usd-value-invalid")
            stiffness = 0.0
        if drive.targetPosition or drive.targetVelocity:
            r.warn(path, f"its drive's targets (position {drive.targetPosition}, velocity "
                   f"{drive.targetVelocity}) have no place in the plant, whose PD controller "
                   "takes its target as an input")
        effort = float(drive.forceLimit)
        effort = effort * force_unit if 0 <= effort < FLT_MAX and math.isfinite(effort) else None
        if stiffness > 0:
            return 0.0, (effort, (stiffness, damping))
        return damping, ((effort, None) if effort is not None else None)

    def _d6(self, path, desc):
        r = self.r
        locked, limited = set(), {}
        for pair in desc.jointLimits:
            dof, limit = pair.first, pair.second
            name = _dof_name(dof)
            if not limit.enabled:
                continue
            if limit.lower > limit.upper:
                locked.add(name)
            else:
                limited[name] = (limit.lower, limit.upper)
        free = tuple(d for d in DOF_NAMES if d not in locked)
        for pair in desc.jointDrives:
            dof, drive = pair.first, pair.second
            if getattr(drive, "enabled", False):
                r.warn(path, f"the drive of degree of freedom {_dof_name(dof)} of a D6 joint has "
                       "no place in the plant; it is left out")
        kinds = {(): WeldJoint, ("rotX", "rotY", "rotZ"): BallRpyJoint,
                 ("rotX", "rotY"): UniversalJoint, ("transX", "transY", "rotZ"): PlanarJoint,
                 DOF_NAMES: QuaternionFloatingJoint}
        single = {"rotX": (RevoluteJoint, "X"), "rotY": (RevoluteJoint, "Y"),
                  "rotZ": (RevoluteJoint, "Z"), "transX": (PrismaticJoint, "X"),
                  "transY": (PrismaticJoint, "Y"), "transZ": (PrismaticJoint, "Z")}
        if len(free) == 1:
            cls, token = single[free[0]]
            lo, hi = limited.get(free[0], (-math.inf, math.inf))
            factor = RADIANS if cls is RevoluteJoint else r.units.meters
            lo = -math.inf if lo <= -FLT_MAX else lo * factor
            hi = math.inf if hi >= FLT_MAX else hi * factor
            return cls, AXES[token], lo, hi, 0.0, None, None
        cls, turn = kinds.get(free), None
        if free in UNIVERSAL_TURNS:
            cls, turn = UniversalJoint, UNIVERSAL_TURNS[free]
        if cls is None:
            r.warn(path, f"a D6 joint free in {', '.join(free)} has no joint in the plant; it is "
                   "left out")
            return None
        limits = None
        if any(d in limited for d in free):
            if cls is QuaternionFloatingJoint:
                r.warn(path, "the limits of a D6 joint free in every degree of freedom have no "
                       "place in the plant's floating joint; they are left out")
            else:
                if cls is BallRpyJoint:
                    r.warn(path, "the rotX, rotY, rotZ limits of a D6 joint are read as the "
                           "roll, pitch and yaw limits of a ball joint")
                lows, highs = [], []
                for d in free:
                    lo, hi = limited.get(d, (-math.inf, math.inf))
                    factor = RADIANS if d.startswith("rot") else r.units.meters
                    lows.append(-math.inf if lo <= -FLT_MAX else lo * factor)
                    highs.append(math.inf if hi >= FLT_MAX else hi * factor)
                limits = (lows, highs)
        return cls, None, limits, None, None, None, turn

    def _loop(self, path, name, cls, parent, X_PF, child, X_CM, axis) -> None:
        kinds = {RevoluteJoint: "revolute", PrismaticJoint: "prismatic", BallRpyJoint: "ball",
                 WeldJoint: "fixed"}
        kind = kinds.get(cls)
        if kind is None:
            self.r.warn(path, f"a {cls.type_name} joint that closes a kinematic loop cannot be "
                        "kept as a loop constraint; it is left out", code="usd-structure")
            return
        self.r.warn(path, "the joint closes a kinematic loop; it is kept as a loop constraint",
                    code="usd-loop-joint")
        self.plant.add_constraint(LoopJointConstraint(name, parent, X_PF, child, X_CM,
                                                      axis or (1.0, 0.0, 0.0), kind))

    # -- default positions -----------------------------------------------------
    def _default_positions(self, joint, parent, child) -> None:
        """The joint's positions that put the child where the stage poses it."""
        r = self.r
        X_WP = r.X_WB.get(self._key(parent), IDENTITY) if parent.index else IDENTITY
        X_WC = r.X_WB[self._key(child)]
        X_FM = (X_WP @ joint.frame_on_parent.X_BF).inverse() @ (X_WC @ joint.frame_on_child.X_BF)
        kind = joint.type_name
        if kind == "revolute":
            a = joint.axis
            R = X_FM.R
            # The angle about a of the relative rotation (its part about a).
            s = 0.5 * sum(a[i] * (R[(i + 2) % 3][(i + 1) % 3] - R[(i + 1) % 3][(i + 2) % 3])
                          for i in range(3))
            c = 0.5 * (R[0][0] + R[1][1] + R[2][2] - 1.0)
            q = math.atan2(s, c)
            if abs(q) > 1e-9:
                joint.set_default_positions([q])
        elif kind == "prismatic":
            q = sum(a * p for a, p in zip(joint.axis, X_FM.p))
            if abs(q) > 1e-12:
                joint.set_default_positions([q])
        elif kind == "ball_rpy":
            rpy = matrix_to_rpy(X_FM.R)
            if any(abs(v) > 1e-9 for v in rpy):
                joint.set_default_positions(list(rpy))

    def _key(self, body) -> str:
        if body.index not in self.keys:
            self.keys.update({b.index: key for key, b in self.r.bodies.items()})
        return self.keys[body.index]



__all__ = ["JointBuilder"]
