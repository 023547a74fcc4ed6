"""Joints: the relative motion a joint allows between its two frames.

Every joint connects frame F (on the parent body) to frame M (on the child
body); ``X_FM(q)`` is the pose of M in F for the positions ``q``.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from ..spatial import (IDENTITY, IDENTITY3, RigidTransform, axis_angle_to_matrix, matmul,
                       make_from_one_unit_vector,
                       normalized, norm, quaternion_to_matrix, rpy_to_matrix, scale)
from .elements import Frame, ModelError

INF = math.inf
NEG_INF = -math.inf


class Joint:
    """Base joint. Subclasses set ``type_name``, ``nq``, ``nv``."""

    type_name = "joint"
    nq = 0
    nv = 0
    # Where a model file declared the joint (file, line), when a reader says.
    source: tuple[str | None, int | None] = (None, None)

    def __init__(self, name: str, frame_on_parent: Frame, frame_on_child: Frame,
                 pos_lower: Sequence[float] | None = None,
                 pos_upper: Sequence[float] | None = None,
                 damping: Sequence[float] | None = None):
        nq, nv = self.nq, self.nv
        self._init(name, frame_on_parent, frame_on_child,
                   list(pos_lower) if pos_lower is not None else [NEG_INF] * nq,
                   list(pos_upper) if pos_upper is not None else [INF] * nq,
                   list(damping) if damping is not None else [0.0] * nv)

    def _init(self, name: str, frame_on_parent: Frame, frame_on_child: Frame,
              lower: list[float], upper: list[float], damping: list[float]) -> None:
        """What the constructor does, with position limits and damping given
        as new lists (the joint keeps them): the subclasses that make them
        call this, not the constructor, which copies what it is given."""
        self._set_fields(name, frame_on_parent, frame_on_child, lower, upper, damping)
        for lo, up in zip(lower, upper):
            if lo > up:
                self._check_limits("position", lower, upper)
        for d in damping:
            if not (d >= 0):
                self._refuse_damping(d)

    def _set_fields(self, name: str, frame_on_parent: Frame, frame_on_child: Frame,
                    lower: list[float], upper: list[float], damping: list[float]) -> None:
        """:meth:`_init` without its checks of the limits and damping, for
        the subclasses that check them as the numbers they were given (a
        joint of one degree of freedom: two comparisons, where the loops
        over one-element lists cost a third of making the joint)."""
        self.index = -1
        self.name = name
        self.frame_on_parent = frame_on_parent
        self.frame_on_child = frame_on_child
        self.model_instance = frame_on_child.model_instance
        self.is_ephemeral = False
        # What the file said that the joint does not hold (mbparse.description).
        self.description: dict | None = None
        nv = self.nv
        self.pos_lower = lower
        self.pos_upper = upper
        self.vel_lower = [NEG_INF] * nv
        self.vel_upper = [INF] * nv
        self.acc_lower = [NEG_INF] * nv
        self.acc_upper = [INF] * nv
        self.damping = damping
        self.default_positions = self.zero_positions()

    def _refuse_damping(self, d: float) -> None:
        raise ModelError(f"Joint '{self.name}': damping must be non-negative; given {d}",
                         code="value-out-of-range")

    # -- structure
    @property
    def parent_body(self):
        return self.frame_on_parent.body

    @property
    def child_body(self):
        return self.frame_on_child.body

    def num_positions(self) -> int:
        return self.nq

    def num_velocities(self) -> int:
        return self.nv

    def zero_positions(self) -> list[float]:
        return [0.0] * self.nq

    # -- limits
    def _check_limits(self, what: str, lower: Sequence[float], upper: Sequence[float]) -> None:
        for lo, up in zip(lower, upper):
            if lo > up:
                raise ModelError(f"Joint '{self.name}': the {what} lower limit {lo} is "
                                 f"greater than the upper limit {up}", code="limit-inverted")

    def set_position_limits(self, lower: Sequence[float], upper: Sequence[float]) -> None:
        self._check_limits("position", lower, upper)
        self.pos_lower, self.pos_upper = list(lower), list(upper)

    def set_velocity_limits(self, lower: Sequence[float], upper: Sequence[float]) -> None:
        self._check_limits("velocity", lower, upper)
        self.vel_lower, self.vel_upper = list(lower), list(upper)

    def set_acceleration_limits(self, lower: Sequence[float], upper: Sequence[float]) -> None:
        self._check_limits("acceleration", lower, upper)
        self.acc_lower, self.acc_upper = list(lower), list(upper)

    def set_velocity_and_acceleration_limits(self, velocity: float, acceleration: float) -> None:
        """Limits a single-dof joint's velocity to +-``velocity`` and its
        acceleration to +-``acceleration`` (as :meth:`set_velocity_limits`
        and :meth:`set_acceleration_limits` with those bounds, in one call)."""
        if velocity < 0 or acceleration < 0:  # (a lower bound above the upper one)
            self.set_velocity_limits([-velocity], [velocity])
            self.set_acceleration_limits([-acceleration], [acceleration])
        self.vel_lower, self.vel_upper = [-velocity], [velocity]
        self.acc_lower, self.acc_upper = [-acceleration], [acceleration]

    def set_default_positions(self, q: Sequence[float]) -> None:
        if len(q) != self.nq:
            raise ModelError(f"Joint '{self.name}' has {self.nq} positions; {len(q)} given",
                             code="model-invalid")
        self.default_positions = [float(v) for v in q]

    def set_default_damping(self, damping: Sequence[float]) -> None:
        self.damping = list(damping)

    # -- kinematics
    def X_FM(self, q: Sequence[float]) -> RigidTransform:
        return IDENTITY

    def extra_summary(self) -> dict:
        return {}

    def mobilizer_frames(self, reversed_: bool) -> list[tuple[Frame, str, RigidTransform]]:
        """Offset frames Drake adds to model this joint with its mobilizers:
        (frame they are fixed to, name suffix, pose in that frame).
        ``reversed_`` is True when the child is nearer the world."""
        return []

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class WeldJoint(Joint):
    type_name = "weld"

    def __init__(self, name, frame_on_parent, frame_on_child,
                 X_FM: RigidTransform = IDENTITY):
        self._set_fields(name, frame_on_parent, frame_on_child, [], [], [])  # (nothing to check)
        self.X_FM_fixed = X_FM

    def X_FM(self, q):
        return self.X_FM_fixed

    def mobilizer_frames(self, reversed_):
        if self.X_FM_fixed.is_exactly_identity():
            return []
        if reversed_:
            return [(self.frame_on_child, "F", self.X_FM_fixed.inverse())]
        return [(self.frame_on_parent, "F", self.X_FM_fixed)]


class _AxisJoint(Joint):
    nq = nv = 1

    def __init__(self, name, frame_on_parent, frame_on_child, axis: Sequence[float],
                 pos_lower: float = -INF, pos_upper: float = INF, damping: float = 0.0):
        x, y, z = axis[0], axis[1], axis[2]
        n = math.sqrt(x * x + y * y + z * z)  # (norm(), written out: one per joint)
        if not (0.0 < n < INF):
            raise ModelError(f"Joint '{name}': the axis must be a non-zero, finite vector; it "
                             f"is {list(axis)}", code="axis-zero")
        self.axis = (x / n, y / n, z / n)  # (normalized(), its norm known)
        self._set_fields(name, frame_on_parent, frame_on_child, [pos_lower], [pos_upper],
                         [damping])
        if pos_lower > pos_upper:  # (_init's checks, of the one limit and damping)
            self._check_limits("position", self.pos_lower, self.pos_upper)
        if not (damping >= 0):
            self._refuse_damping(damping)

    def extra_summary(self) -> dict:
        return {"axis": list(self.axis)}

    def mobilizer_frames(self, reversed_):
        axis = self.axis
        if reversed_:
            axis = (-axis[0], -axis[1], -axis[2])
        if axis[0] == 1.0 or axis[1] == 1.0 or axis[2] == 1.0:
            return []
        X = RigidTransform(make_from_one_unit_vector(axis, 2))
        inboard, outboard = ((self.frame_on_child, self.frame_on_parent) if reversed_
                             else (self.frame_on_parent, self.frame_on_child))
        return [(inboard, "F", X), (outboard, "M", X)]


class RevoluteJoint(_AxisJoint):
    type_name = "revolute"

    def X_FM(self, q):
        if q[0] == 0.0:
            return IDENTITY
        return RigidTransform(axis_angle_to_matrix(self.axis, q[0]))


class PrismaticJoint(_AxisJoint):
    type_name = "prismatic"

    def X_FM(self, q):
        return RigidTransform(IDENTITY3, scale(q[0], self.axis))


class ScrewJoint(Joint):
    type_name = "screw"
    nq = nv = 1

    def __init__(self, name, frame_on_parent, frame_on_child, axis: Sequence[float],
                 screw_pitch: float, damping: float = 0.0):
        if not (norm(axis) > 0):
            raise ModelError(f"Joint '{name}': the axis must be a non-zero vector",
                             code="axis-zero")
        self.axis = normalized(axis)
        self.screw_pitch = float(screw_pitch)
        super().__init__(name, frame_on_parent, frame_on_child, None, None, [damping])

    def X_FM(self, q):
        return RigidTransform(axis_angle_to_matrix(self.axis, q[0]),
                              scale(self.screw_pitch * q[0] / (2 * math.pi), self.axis))

    def extra_summary(self) -> dict:
        return {"screw_pitch": self.screw_pitch}


class BallRpyJoint(Joint):
    type_name = "ball_rpy"
    nq = nv = 3

    def __init__(self, name, frame_on_parent, frame_on_child, damping: float = 0.0):
        super().__init__(name, frame_on_parent, frame_on_child, None, None, [damping] * 3)

    def X_FM(self, q):
        return RigidTransform(rpy_to_matrix(q))


class UniversalJoint(Joint):
    type_name = "universal"
    nq = nv = 2

    def __init__(self, name, frame_on_parent, frame_on_child, damping: float = 0.0):
        super().__init__(name, frame_on_parent, frame_on_child, None, None, [damping] * 2)

    def X_FM(self, q):
        return RigidTransform(matmul(axis_angle_to_matrix((1.0, 0.0, 0.0), q[0]),
                                     axis_angle_to_matrix((0.0, 1.0, 0.0), q[1])))


class PlanarJoint(Joint):
    type_name = "planar"
    nq = nv = 3

    def __init__(self, name, frame_on_parent, frame_on_child,
                 damping: Sequence[float] = (0.0, 0.0, 0.0)):
        super().__init__(name, frame_on_parent, frame_on_child, None, None, list(damping))

    def X_FM(self, q):
        return RigidTransform(axis_angle_to_matrix((0.0, 0.0, 1.0), q[2]), (q[0], q[1], 0.0))


class QuaternionFloatingJoint(Joint):
    type_name = "quaternion_floating"
    nq, nv = 7, 6

    def __init__(self, name, frame_on_parent, frame_on_child, damping: float = 0.0):
        # (the lists the base constructor would copy, made once: one of
        # these joins each free body to the world at finalize)
        self._init(name, frame_on_parent, frame_on_child, [NEG_INF] * 7, [INF] * 7, [damping] * 6)

    def zero_positions(self):
        return [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]

    def X_FM(self, q):
        return RigidTransform(quaternion_to_matrix(q[:4]), q[4:7])


class RpyFloatingJoint(Joint):
    type_name = "rpy_floating"
    nq = nv = 6

    def __init__(self, name, frame_on_parent, frame_on_child, damping: float = 0.0):
        super().__init__(name, frame_on_parent, frame_on_child, None, None, [damping] * 6)

    def X_FM(self, q):
        return RigidTransform(rpy_to_matrix(q[:3]), q[3:6])


class CurvilinearJoint(Joint):
    """Motion along a planar path of line segments and circular arcs.

    ``breaks`` are the arc lengths where segments start and end (from 0);
    ``turning_rates`` the curvature of each segment (0 for a line).
    """

    type_name = "curvilinear"
    nq = nv = 1

    def __init__(self, name, frame_on_parent, frame_on_child, breaks: Sequence[float],
                 turning_rates: Sequence[float], initial_tangent: Sequence[float],
                 plane_normal: Sequence[float], is_periodic: bool, damping: float = 0.0):
        self.breaks = list(breaks)
        self.turning_rates = list(turning_rates)
        for what, v in (("initial tangent", initial_tangent), ("plane normal", plane_normal)):
            n = norm(v)
            if not (n > 0) or not math.isfinite(n):
                raise ModelError(f"Joint '{name}': the {what} must be a non-zero, finite "
                                 f"vector; it is {list(v)}", code="axis-zero")
        if any(not math.isfinite(b) for b in breaks) or any(
                not math.isfinite(r) for r in turning_rates):
            raise ModelError(f"Joint '{name}': its curves' lengths and turning rates must be "
                             "finite", code="number-not-finite")
        self.tangent = normalized(initial_tangent)
        self.normal = normalized(plane_normal)
        self.is_periodic = is_periodic
        lower, upper = ([-INF], [INF]) if is_periodic else ([self.breaks[0]], [self.breaks[-1]])
        super().__init__(name, frame_on_parent, frame_on_child, lower, upper, [damping])

    def X_FM(self, q):
        t, n = self.tangent, self.normal
        b = (n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0])
        R0 = ((t[0], b[0], n[0]), (t[1], b[1], n[1]), (t[2], b[2], n[2]))
        s = q[0]
        length = self.breaks[-1]
        if self.is_periodic and length > 0:
            s = s % length
        X = RigidTransform(R0)
        for i, k in enumerate(self.turning_rates):
            seg = min(max(s - self.breaks[i], 0.0), self.breaks[i + 1] - self.breaks[i])
            if seg <= 0:
                break
            if k == 0:
                step = RigidTransform(IDENTITY3, (seg, 0.0, 0.0))
            else:
                ang = k * seg
                step = RigidTransform(axis_angle_to_matrix((0.0, 0.0, 1.0), ang),
                                      (math.sin(ang) / k, (1 - math.cos(ang)) / k, 0.0))
            X = X @ step
        return X


JOINT_TYPES = {cls.type_name: cls for cls in (
    WeldJoint, RevoluteJoint, PrismaticJoint, ScrewJoint, BallRpyJoint, UniversalJoint,
    PlanarJoint, QuaternionFloatingJoint, RpyFloatingJoint, CurvilinearJoint)}
