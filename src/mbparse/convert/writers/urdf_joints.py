"""The URDF writer's joints: each of the model's joints as one or more URDF
joints (standard URDF, or Drake's ``drake:joint`` when asked), with the
limits urdfdom needs, dynamics, mimics and the facts the source gave
(mbparse.description): effort, friction, safety controller, calibration."""
from __future__ import annotations

import math
import sys

from ...description import facts
from ...plant.elements import CouplerConstraint
from ...spatial import IDENTITY, RigidTransform
from ..loss import APPROXIMATED, DROPPED, SPLIT
from .base import curve_segments, num, nums, sub, xyz_rpy
from .walk import BodyNode, Hinge, where

DRAKE_NS = "http://drake.mit.edu"
D = f"{{{DRAKE_NS}}}"
URDF_TYPES = {"weld": "fixed", "prismatic": "prismatic", "planar": "planar"}
DRAKE_TYPES = {"ball_rpy": "ball", "universal": "universal", "screw": "screw",
               "curvilinear": "curvilinear"}
# URDF readers (urdfdom) need a number for every limit a <limit> holds; where
# the model has no limit, the largest double says "no limit" as closely as a
# number can.
NO_LIMIT = sys.float_info.max
# Joints of several degrees of freedom as chains of one-axis URDF joints
# (standard URDF): the axes, in order from the parent, whose rotations or
# translations compose to the joint's X_FM.
X_AXIS, Y_AXIS, Z_AXIS = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
CHAINS = {
    # rpy_to_matrix(q) = Rz(yaw) Ry(pitch) Rx(roll)
    "ball_rpy": [("z", "continuous", Z_AXIS, 2), ("y", "continuous", Y_AXIS, 1),
                 ("x", "continuous", X_AXIS, 0)],
    # Rx(q0) Ry(q1)
    "universal": [("x", "continuous", X_AXIS, 0), ("y", "continuous", Y_AXIS, 1)],
    # translation (x, y), then Rz(theta)
    "planar": [("x", "prismatic", X_AXIS, 0), ("y", "prismatic", Y_AXIS, 1),
               ("theta", "continuous", Z_AXIS, 2)],
}


class UrdfJoints:
    """The joint half of :class:`~.urdf.UrdfWriter` (a mixin: it uses the
    writer's ``robot``, names, ``drake`` flag and report)."""

    def _joint(self, node: BodyNode) -> None:
        child = self.link_names[node.body.index]
        parent = self.link_names[node.parent.body.index] if node.parent else "world"
        h = node.hinge
        if h is None:
            if node.welded_root:
                self._fixed(self._joint_name(f"{child}_weld"), parent, child, node.X_PB(True))
            else:
                self._free(node, child, node.X_PB(True), None)
            return
        j = h.joint
        if j.type_name == "weld":
            self._fixed(self.name(j), parent, child, node.X_PB(True), j)
            return
        if j.type_name in ("quaternion_floating", "rpy_floating"):
            self._free(node, child, node.X_PB(True), j, parent)
            return
        if any(q != z for q, z in zip(j.default_positions, j.zero_positions())):
            self.report.add(DROPPED, f"joint '{j.name}'",
                            f"its default positions {j.default_positions} (URDF has none; the "
                            "model is written at zero positions)", where(j))
        target = child
        if not h.X_CM.is_exactly_identity():
            target = self._unique(f"{j.name}_frame")
            self.report.add(SPLIT, f"joint '{j.name}'",
                            f"its frame on body '{node.name}' is not the body's frame; an "
                            f"extra massless link '{target}' carries it", where(j))
            sub(self.robot, "link", {"name": target})
            self._fixed(self._joint_name(f"{j.name}_offset"), target, child, h.X_CM.inverse())
        self._moving(node, h, parent, target)

    def _free(self, node: BodyNode, child: str, X_PB: RigidTransform, joint,
              parent: str = "world") -> None:
        """A body that moves freely: the root of the file when it is the one
        tree, else on a ``floating`` joint from its parent at its default
        pose (standard URDF, which urdfdom reads; Drake and mbparse read a
        floating joint as a free body at the world origin)."""
        label = f"joint '{joint.name}'" if joint is not None else f"body '{node.name}'"
        source = where(joint) if joint is not None else where(node.body)
        if not self.has_world and parent == "world":
            if not X_PB.is_exactly_identity():
                self.report.add(APPROXIMATED, label,
                                "its default pose as a free body (URDF places free bodies at "
                                "the world origin)", source)
            return
        name = self.name(joint) if joint is not None else self._joint_name(f"{child}_floating")
        el = sub(self.robot, "joint", {"name": name, "type": "floating"})
        sub(el, "origin", xyz_rpy(X_PB, f"the pose of body '{node.name}'"))
        sub(el, "parent", {"link": parent})
        sub(el, "child", {"link": child})
        if parent != "world" or not X_PB.is_exactly_identity() or joint is not None:
            self.report.add(APPROXIMATED, label,
                            f"a free body written on a floating joint from '{parent}' at its "
                            "default pose: ROS tools read the pose, but Drake (and mbparse) "
                            "read a floating joint as a free body at the world origin", source)
        if joint is not None:
            if any(joint.damping):
                self.report.add(DROPPED, label, f"its damping {joint.damping} (a URDF floating "
                                "joint has none)", source)
            self.report_facts(joint, label, ())

    def _fixed(self, name: str, parent: str, child: str, X: RigidTransform, joint=None) -> None:
        self.joint_names.add(name)
        el = sub(self.robot, "joint", {"name": name, "type": "fixed"})
        sub(el, "origin", xyz_rpy(X, f"the pose of joint '{name}'"))
        sub(el, "parent", {"link": parent})
        sub(el, "child", {"link": child})
        if joint is not None:
            self._joint_facts(el, joint, ())

    def _moving(self, node: BodyNode, h: Hinge, parent: str, child: str) -> None:
        j = h.joint
        kind = j.type_name
        name = self.name(j)
        what = f"joint '{j.name}'"
        if kind in CHAINS and not self.drake and (kind != "planar" or any(j.damping)):
            self._chain(h, parent, child)
            return
        if kind == "screw" and not self.drake:
            self._screw(h, parent, child)
            return
        if kind == "revolute":
            limited = any(math.isfinite(v) for v in j.pos_lower + j.pos_upper)
            utype = "revolute" if limited else "continuous"
            el = sub(self.robot, "joint", {"name": name, "type": utype})
        elif kind in URDF_TYPES:
            utype = URDF_TYPES[kind]
            el = sub(self.robot, "joint", {"name": name, "type": utype})
        elif kind in DRAKE_TYPES and self.drake:
            utype = kind
            el = sub(self.robot, D + "joint", {"name": name, "type": DRAKE_TYPES[kind]})
        else:
            how = "" if self.drake else " in standard URDF (--drake-extensions writes it)"
            self.report.add(APPROXIMATED, what,
                            f"a {kind} joint has no URDF form{how}; it is written as a fixed "
                            "joint at its default position", where(j))
            self._fixed(name, parent, child, h.X_PF @ h.X_FM(True), j)
            return
        sub(el, "origin", xyz_rpy(h.X_PF, what))
        sub(el, "parent", {"link": parent})
        sub(el, "child", {"link": child})
        if h.axis is not None:
            sub(el, "axis", {"xyz": nums(h.axis, what)})
        elif kind == "planar":
            sub(el, "axis", {"xyz": "0 0 1"})
        if kind == "screw":
            sub(el, D + "screw_thread_pitch", {"value": num(j.screw_pitch, what)})
        if kind == "curvilinear":
            self._curves(el, j, what)
        written: tuple[str, ...] = ()
        if utype in ("revolute", "continuous", "prismatic"):
            written = self._limits(el, j, utype)
        self._dynamics(el, j, kind, what)
        if kind not in ("revolute", "prismatic", "curvilinear") and (
                any(math.isfinite(v) for v in j.pos_lower + j.pos_upper + j.vel_upper)):
            self.report.add(DROPPED, what, f"the limits of a {kind} joint", where(j))
        self._mimic(el, j)
        self._joint_facts(el, j, written)

    def _curves(self, el, j, what: str) -> None:
        sub(el, D + "initial_tangent", {"xyz": nums(j.tangent, what)})
        sub(el, D + "plane_normal", {"xyz": nums(j.normal, what)})
        sub(el, D + "is_periodic", {"value": "true" if j.is_periodic else "false"})
        curves = sub(el, D + "curves")
        for shape, a, b in curve_segments(j):
            if shape == "line":
                sub(curves, D + "line_segment", {"length": num(a, what)})
            else:
                sub(curves, D + "circular_arc", {"radius": num(a, what), "angle": num(b, what)})

    def _dynamics(self, el, j, kind: str, what: str) -> None:
        """``<dynamics damping friction>``: the joint's damping and the dry
        friction the source gave (mbparse.description)."""
        damping = list(j.damping)
        friction = list(facts(j).get("friction") or [0.0])
        if not any(damping) and not any(friction):
            return
        if kind == "planar":  # (Drake's planar joint: three dampings)
            sub(el, "dynamics", {"damping": nums(damping, what)})
            return
        for label, values in (("damping", damping), ("friction", friction)):
            if len(set(values)) > 1:
                self.report.add(APPROXIMATED, what, f"per-axis {label} {values} is written "
                                                    f"as {values[0]}", where(j))
        sub(el, "dynamics", {"damping": num(damping[0], what),
                             "friction": num(friction[0], what)})

    def _limits(self, el, j, utype: str, written_as: str | None = None) -> tuple[str, ...]:
        """``<limit>``: urdfdom refuses a revolute or prismatic joint without
        one, and any ``<limit>`` without both ``effort`` and ``velocity``; a
        continuous joint gets one only when it has an effort or velocity
        limit. What the model does not limit is written as the largest
        double and reported. Returns the description keys written."""
        what = f"joint '{j.name}'"
        # (one axis of a joint written as several: its own facts and actuator)
        base, dof = (j.joint, j.dof) if isinstance(j, _OneAxis) else (j, 0)
        f = facts(base)
        velocity = j.vel_upper[0]
        if not math.isfinite(velocity) and len(f.get("velocity") or ()) > dof:
            velocity = f["velocity"][dof]
        effort = math.inf
        actuators = [a for a in self.plant.actuators() if a.joint is base]
        if actuators and math.isfinite(actuators[0].effort_limit):
            effort = actuators[0].effort_limit
        elif len(f.get("effort") or ()) > dof:
            effort = f["effort"][dof]
        if utype == "continuous" and not (math.isfinite(effort) or math.isfinite(velocity)):
            return ()
        attrs, invented = {}, []
        if utype != "continuous":
            for key, value, sign in (("lower", j.pos_lower[0], -1.0),
                                     ("upper", j.pos_upper[0], 1.0)):
                if not math.isfinite(value):
                    invented.append(key)
                    value = sign * NO_LIMIT
                attrs[key] = num(value, what)
        for key, value in (("effort", effort), ("velocity", velocity)):
            if not math.isfinite(value):
                invented.append(key)
                value = NO_LIMIT
            attrs[key] = num(value, what)
        accel = j.acc_upper[0]
        if math.isfinite(accel):
            if self.drake:
                attrs[D + "acceleration"] = num(accel, what)
            else:
                self.report.add(DROPPED, what, f"its acceleration limit {accel:g} (standard "
                                "URDF has none; --drake-extensions writes drake:acceleration)",
                                where(j))
        if j.vel_lower[0] != -j.vel_upper[0] or j.acc_lower[0] != -j.acc_upper[0]:
            self.report.add(APPROXIMATED, what,
                            "asymmetric velocity or acceleration limits are written "
                            "symmetric", where(j))
        if invented:
            part = f" (written as the {utype} joint '{written_as}')" if written_as else ""
            self.report.add(APPROXIMATED, what,
                            f"it has no {', '.join(invented)} limit{part}: URDF readers "
                            f"(urdfdom) need each in a {utype} joint's <limit>, so each is "
                            f"written as ±{NO_LIMIT!r}, the largest number", where(j))
        sub(el, "limit", attrs)
        if base is j and (len(set(f.get("effort") or [0])) > 1
                          or len(set(f.get("velocity") or [0])) > 1):
            self.report.add(APPROXIMATED, what, "per-axis effort or velocity limits are "
                                                "written as the first axis's", where(j))
        return ("effort", "velocity")

    def _mimic(self, el, j) -> None:
        for c in self.plant.constraints():
            if isinstance(c, CouplerConstraint) and c.joint0 is j:
                sub(el, "mimic", {"joint": self.name(c.joint1), "multiplier": num(c.gear_ratio),
                                  "offset": num(c.offset)})
                self.mimics.add(id(c))

    def _unwritten_couplers(self) -> None:
        """Couplers whose following joint was not written as a URDF joint
        that can hold a ``<mimic>`` (a joint written fixed, or as a chain)."""
        for c in self.plant.constraints():
            if isinstance(c, CouplerConstraint) and id(c) not in self.mimics:
                self.report.add(DROPPED, f"joint '{c.joint0.name}'",
                                f"its coupling to joint '{c.joint1.name}' (a <mimic>): the "
                                "joint is not written as one URDF joint", where(c))

    def _joint_facts(self, el, j, written: tuple[str, ...]) -> None:
        """The safety controller and calibration the source gave, and a
        report of every other fact of the joint not written."""
        f = facts(j)
        what = f"joint '{j.name}'"
        done = set(written)
        if "friction" in f and el.find("dynamics") is not None:
            done.add("friction")
        # urdfdom's order of children does not matter; it needs k_velocity.
        safety = f.get("safety_controller")
        if safety is not None and el.tag == "joint":
            attrs = {k: num(v, what) for k, v in safety.items()}
            if "k_velocity" not in attrs:
                attrs["k_velocity"] = "0"
                self.report.add(APPROXIMATED, what, "its <safety_controller> has no k_velocity, "
                                "which urdfdom needs: written as 0", where(j))
            sub(el, "safety_controller", attrs)
            done.add("safety_controller")
        calibration = f.get("calibration")
        if calibration is not None and el.tag == "joint":
            sub(el, "calibration", {k: num(v, what) for k, v in calibration.items()})
            done.add("calibration")
        self.report_facts(j, what, done)

    def _chain(self, h: Hinge, parent: str, child: str) -> None:
        """A ball, universal or (damped) planar joint in standard URDF: one
        revolute or prismatic joint per degree of freedom, through massless
        links; the last keeps the joint's name."""
        j = h.joint
        steps = CHAINS[j.type_name]
        names = []
        for suffix, _, _, _ in steps[:-1]:
            names.append(self._joint_name(f"{j.name}_{suffix}"))
        names.append(self.name(j))
        links = [parent] + [self._unique(f"{n}_link") for n in names[:-1]] + [child]
        self.report.add(SPLIT, f"joint '{j.name}'",
                        f"standard URDF has no {j.type_name} joint: it is written as the "
                        f"joints {', '.join(repr(n) for n in names)} through the massless "
                        f"links {', '.join(repr(n) for n in links[1:-1])} "
                        "(--drake-extensions writes a drake:joint)", where(j))
        what = f"joint '{j.name}'"
        written: set[str] = set()
        for k, (suffix, utype, axis, dof) in enumerate(steps):
            if k < len(steps) - 1:
                sub(self.robot, "link", {"name": links[k + 1]})
            one = _OneAxis(j, dof)
            if utype == "continuous" and any(map(math.isfinite, one.pos_lower + one.pos_upper)):
                utype = "revolute"
            el = sub(self.robot, "joint", {"name": names[k], "type": utype})
            sub(el, "origin", xyz_rpy(h.X_PF if k == 0 else IDENTITY, what))
            sub(el, "parent", {"link": links[k]})
            sub(el, "child", {"link": links[k + 1]})
            sub(el, "axis", {"xyz": nums(axis, what)})
            written |= set(self._limits(el, one, utype, names[k]))
            damping = j.damping[dof] if dof < len(j.damping) else 0.0
            if damping:
                sub(el, "dynamics", {"damping": num(damping, what), "friction": "0"})
        self.report_facts(j, what, written)

    def _screw(self, h: Hinge, parent: str, child: str) -> None:
        """A screw joint in standard URDF: a continuous joint about the axis
        and a prismatic joint along it that mimics the rotation by
        pitch / 2π (a coupler constraint in Drake)."""
        j = h.joint
        what = f"joint '{j.name}'"
        name = self.name(j)
        slide = self._joint_name(f"{j.name}_translation")
        link = self._unique(f"{j.name}_link")
        self.report.add(SPLIT, what,
                        f"standard URDF has no screw joint: it is written as a continuous "
                        f"joint '{name}' and a prismatic joint '{slide}' that mimics it "
                        f"(multiplier pitch/2π) through the massless link '{link}' "
                        "(--drake-extensions writes a drake:joint)", where(j))
        axis = nums(h.axis, what)
        sub(self.robot, "link", {"name": link})
        rotation = _OneAxis(j, 0)
        limited = any(map(math.isfinite, rotation.pos_lower + rotation.pos_upper))
        utype = "revolute" if limited else "continuous"
        el = sub(self.robot, "joint", {"name": name, "type": utype})
        sub(el, "origin", xyz_rpy(h.X_PF, what))
        sub(el, "parent", {"link": parent})
        sub(el, "child", {"link": link})
        sub(el, "axis", {"xyz": axis})
        written = self._limits(el, rotation, utype, name)
        self._dynamics(el, j, "screw", what)
        self._mimic(el, j)  # (the screw's position is the rotation's)
        self._joint_facts(el, j, written)
        el = sub(self.robot, "joint", {"name": slide, "type": "prismatic"})
        sub(el, "origin", xyz_rpy(IDENTITY, what))
        sub(el, "parent", {"link": link})
        sub(el, "child", {"link": child})
        sub(el, "axis", {"xyz": axis})
        self._limits(el, _OneAxis(j, 0, free=True), "prismatic", slide)
        sub(el, "mimic", {"joint": name, "multiplier": num(j.screw_pitch / (2 * math.pi), what),
                          "offset": "0"})


class _OneAxis:
    """One degree of freedom ``dof`` of ``joint``, as :meth:`UrdfJoints._limits`
    reads a joint: its limits, and the joint's facts and actuator; when
    ``free`` (a screw's translation, which only follows its rotation), no
    limits, facts or actuator."""

    def __init__(self, joint, dof: int, free: bool = False):
        inf = math.inf
        self.joint = self if free else joint
        self.dof = dof
        self.name = joint.name
        self.source = getattr(joint, "source", None)
        self.description = None
        pick = (lambda seq, default: [default]) if free else (
            lambda seq, default: [seq[dof]] if dof < len(seq) else [default])
        self.pos_lower = pick(joint.pos_lower, -inf)
        self.pos_upper = pick(joint.pos_upper, inf)
        self.vel_lower = pick(joint.vel_lower, -inf)
        self.vel_upper = pick(joint.vel_upper, inf)
        self.acc_lower = pick(joint.acc_lower, -inf)
        self.acc_upper = pick(joint.acc_upper, inf)
