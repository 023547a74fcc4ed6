"""The plant's elements other than joints: bodies, frames, actuators,
constraints, force elements and sensors."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..source_location import UNKNOWN, Source
from ..spatial import RigidTransform, SpatialInertia, Vec3


class ModelError(ValueError):
    """A request the model refuses (duplicate name, invalid value, ...).

    Readers turn it into a located ParseError. ``element`` is the model
    element at fault when there is one (the joint that closes a loop), so
    that a caller can say where the model file declared it. ``code`` names
    the kind of refusal (``mbparse check --list-rules``).
    """

    def __init__(self, message: str = "", element: Any = None, code: str = "model-invalid"):
        super().__init__(message)
        self.element = element
        self.code = code


@dataclass(eq=False)
class ModelInstance:
    """A named group of model elements (Drake's model instance)."""

    index: int
    name: str
    static: bool = False  # bodies are welded to the world at finalize


@dataclass(eq=False, slots=True)  # a model holds one per link: no __dict__
class RigidBody:
    """A rigid body with its spatial inertia about its origin."""

    index: int
    name: str
    model_instance: int
    default_spatial_inertia: SpatialInertia
    body_frame: "Frame" = field(default=None, repr=False)  # type: ignore[assignment]
    is_floating_base_body: bool = False
    default_free_body_pose: RigidTransform | None = None
    gravity_enabled: bool = True
    # (file, line) where a reader declared it (mbparse.source_location)
    source: Source = field(default=UNKNOWN, repr=False, compare=False)

    @property
    def mass(self) -> float:
        return self.default_spatial_inertia.mass

    def is_world(self) -> bool:
        return self.index == 0


@dataclass(eq=False, slots=True)  # a model holds one per link: no __dict__
class Frame:
    """A frame fixed to a body: ``X_BF`` is its pose in the body frame."""

    index: int
    name: str
    model_instance: int
    body: RigidBody
    X_BF: RigidTransform
    is_body_frame: bool = False
    # Made by finalize() to model a joint (Drake's mobilizer offset frames),
    # not declared by a model file.
    is_ephemeral: bool = False
    source: Source = field(default=UNKNOWN, repr=False, compare=False)

    def get_fixed_pose_in_body_frame(self) -> RigidTransform:
        return self.X_BF


@dataclass(eq=False)
class PdControllerGains:
    """Proportional and derivative gains of an actuator's PD controller."""

    p: float
    d: float


@dataclass(eq=False)
class JointActuator:
    """An actuator on one joint, with its effort limit, gearing and rotor inertia."""

    index: int
    name: str
    joint: Any  # Joint
    effort_limit: float = math.inf
    gear_ratio: float = 1.0
    rotor_inertia: float = 0.0
    controller_gains: PdControllerGains | None = None
    source: Source = field(default=UNKNOWN, repr=False, compare=False)

    @property
    def model_instance(self) -> int:
        return self.joint.model_instance

    def has_controller(self) -> bool:
        return self.controller_gains is not None


@dataclass(eq=False)
class CouplerConstraint:
    """q0 = gear_ratio · q1 + offset."""

    joint0: Any
    joint1: Any
    gear_ratio: float = 1.0
    offset: float = 0.0
    type: str = "coupler"


@dataclass(eq=False)
class BallConstraint:
    """Point P on body A coincides with point Q on body B."""

    body_A: RigidBody
    p_AP: Vec3
    body_B: RigidBody
    p_BQ: Vec3 | None = None
    type: str = "ball"


@dataclass(eq=False)
class DistanceConstraint:
    """Points P on body A and Q on body B kept at a distance (soft when stiffness is finite)."""

    body_A: RigidBody
    p_AP: Vec3
    body_B: RigidBody
    p_BQ: Vec3
    distance: float
    stiffness: float = math.inf
    damping: float = 0.0
    type: str = "distance"


@dataclass(eq=False)
class WeldConstraint:
    """Frame P on body A welded to frame Q on body B."""

    body_A: RigidBody
    X_AP: RigidTransform
    body_B: RigidBody
    X_BQ: RigidTransform
    type: str = "weld"


@dataclass(eq=False)
class LoopJointConstraint:
    """A joint that closes a kinematic loop, kept as a constraint between
    frame F (on body A) and frame M (on body B), which coincide at zero:
    ``revolute`` keeps their origins together and their ``axis`` aligned (URDF
    ``<loop_joint>``), ``prismatic`` keeps their orientations and lets M move
    along ``axis`` only, ``ball`` keeps their origins together, ``fixed``
    keeps the two frames together."""

    name: str
    body_A: RigidBody
    X_AF: RigidTransform
    body_B: RigidBody
    X_BM: RigidTransform
    axis: Vec3
    joint_type: str = "revolute"
    type: str = "loop_joint"


@dataclass(eq=False)
class LinearBushingRollPitchYaw:
    """A bushing between frames A and C: roll-pitch-yaw torque and linear force
    springs and dampers."""

    frameA: Frame
    frameC: Frame
    torque_stiffness: Vec3
    torque_damping: Vec3
    force_stiffness: Vec3
    force_damping: Vec3
    type: str = "linear_bushing_rpy"


@dataclass(eq=False)
class RevoluteSpring:
    """A torsional spring on a revolute joint about a nominal angle."""

    joint: Any
    nominal_angle: float
    stiffness: float
    type: str = "revolute_spring"


@dataclass(eq=False)
class LinearSpringDamper:
    """A spring-damper between point P on body A and point Q on body B."""

    body_A: RigidBody
    p_AP: Vec3
    body_B: RigidBody
    p_BQ: Vec3
    free_length: float
    stiffness: float
    damping: float
    type: str = "linear_spring_damper"
    name: str | None = None  # a name the model file gave it (URDF <force_element>)


@dataclass(eq=False)
class GenericForceElement:
    """A force element the plant stores but does not evaluate (a wing, a
    thruster): its ``type`` and every parameter the model file gave."""

    type: str
    name: str
    body: RigidBody
    X_BF: RigidTransform
    parameters: dict[str, Any] = field(default_factory=dict)


@dataclass(eq=False)
class Sensor:
    """A sensor mounted on a body or a joint, with its pose in the parent link."""

    name: str
    type: str
    parent: str  # link or joint name
    parent_link: RigidBody
    X_PS: RigidTransform
    model_instance: int
    parameters: dict[str, Any] = field(default_factory=dict)
