"""The plant's elements other than joints: bodies, frames, actuators,
constraints, force elements and sensors."""
from __future__ import annotations

import math

from ..records import Record
from ..source_location import UNKNOWN, Source
from ..spatial import RigidTransform, SpatialInertia, Vec3

TYPE_CHECKING = False  # typing is left unimported at run time (start-up time)
if TYPE_CHECKING:
    from typing import Any


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


class ModelInstance(Record):
    """A named group of model elements (Drake's model instance); ``static``:
    its bodies are welded to the world at finalize."""

    _fields = ("index", "name", "static")

    def __init__(self, index: int, name: str, static: bool = False) -> None:
        self.index = index
        self.name = name
        self.static = static
        self.description: dict | None = None  # mbparse.description


class RigidBody(Record):
    """A rigid body with its spatial inertia about its origin; ``source`` is
    the (file, line) where a reader declared it (mbparse.source_location)."""

    # a model holds one per link: no __dict__
    __slots__ = ("index", "name", "model_instance", "default_spatial_inertia", "body_frame",
                 "is_floating_base_body", "default_free_body_pose", "gravity_enabled", "source")
    _fields = ("index", "name", "model_instance", "default_spatial_inertia",
               "is_floating_base_body", "default_free_body_pose", "gravity_enabled")
    __match_args__ = __slots__

    def __init__(self, index: int, name: str, model_instance: int,
                 default_spatial_inertia: SpatialInertia,
                 body_frame: "Frame" = None,  # type: ignore[assignment]
                 is_floating_base_body: bool = False,
                 default_free_body_pose: RigidTransform | None = None,
                 gravity_enabled: bool = True, source: Source = UNKNOWN) -> None:
        self.index = index
        self.name = name
        self.model_instance = model_instance
        self.default_spatial_inertia = default_spatial_inertia
        self.body_frame = body_frame
        self.is_floating_base_body = is_floating_base_body
        self.default_free_body_pose = default_free_body_pose
        self.gravity_enabled = gravity_enabled
        self.source = source

    @property
    def mass(self) -> float:
        return self.default_spatial_inertia.mass

    def is_world(self) -> bool:
        return self.index == 0


class Frame(Record):
    """A frame fixed to a body: ``X_BF`` is its pose in the body frame.
    ``is_ephemeral``: made by finalize() to model a joint (Drake's mobilizer
    offset frames), not declared by a model file."""

    # a model holds one per link: no __dict__
    __slots__ = ("index", "name", "model_instance", "body", "X_BF", "is_body_frame",
                 "is_ephemeral", "source")
    _fields = ("index", "name", "model_instance", "body", "X_BF", "is_body_frame",
               "is_ephemeral")
    __match_args__ = __slots__

    def __init__(self, index: int, name: str, model_instance: int, body: RigidBody,
                 X_BF: RigidTransform, is_body_frame: bool = False, is_ephemeral: bool = False,
                 source: Source = UNKNOWN) -> None:
        self.index = index
        self.name = name
        self.model_instance = model_instance
        self.body = body
        self.X_BF = X_BF
        self.is_body_frame = is_body_frame
        self.is_ephemeral = is_ephemeral
        self.source = source

    def get_fixed_pose_in_body_frame(self) -> RigidTransform:
        return self.X_BF


class PdControllerGains(Record):
    """Proportional and derivative gains of an actuator's PD controller."""

    _fields = ("p", "d")

    def __init__(self, p: float, d: float) -> None:
        self.p = p
        self.d = d


class JointActuator(Record):
    """An actuator on one joint, with its effort limit, gearing and rotor inertia."""

    _fields = ("index", "name", "joint", "effort_limit", "gear_ratio", "rotor_inertia",
               "controller_gains")
    __match_args__ = (*_fields, "source")

    def __init__(self, index: int, name: str, joint: Any, effort_limit: float = math.inf,
                 gear_ratio: float = 1.0, rotor_inertia: float = 0.0,
                 controller_gains: PdControllerGains | None = None,
                 source: Source = UNKNOWN) -> None:
        self.index = index
        self.name = name
        self.joint = joint  # a Joint
        self.effort_limit = effort_limit
        self.gear_ratio = gear_ratio
        self.rotor_inertia = rotor_inertia
        self.controller_gains = controller_gains
        self.source = source

    @property
    def model_instance(self) -> int:
        return self.joint.model_instance

    def has_controller(self) -> bool:
        return self.controller_gains is not None


class CouplerConstraint(Record):
    """q0 = gear_ratio · q1 + offset."""

    _fields = ("joint0", "joint1", "gear_ratio", "offset", "type")

    def __init__(self, joint0: Any, joint1: Any, gear_ratio: float = 1.0, offset: float = 0.0,
                 type: str = "coupler") -> None:
        self.joint0 = joint0
        self.joint1 = joint1
        self.gear_ratio = gear_ratio
        self.offset = offset
        self.type = type


class BallConstraint(Record):
    """Point P on body A coincides with point Q on body B."""

    _fields = ("body_A", "p_AP", "body_B", "p_BQ", "type")

    def __init__(self, body_A: RigidBody, p_AP: Vec3, body_B: RigidBody,
                 p_BQ: Vec3 | None = None, type: str = "ball") -> None:
        self.body_A = body_A
        self.p_AP = p_AP
        self.body_B = body_B
        self.p_BQ = p_BQ
        self.type = type


class DistanceConstraint(Record):
    """Points P on body A and Q on body B kept at a distance (soft when stiffness is finite)."""

    _fields = ("body_A", "p_AP", "body_B", "p_BQ", "distance", "stiffness", "damping", "type")

    def __init__(self, body_A: RigidBody, p_AP: Vec3, body_B: RigidBody, p_BQ: Vec3,
                 distance: float, stiffness: float = math.inf, damping: float = 0.0,
                 type: str = "distance") -> None:
        self.body_A = body_A
        self.p_AP = p_AP
        self.body_B = body_B
        self.p_BQ = p_BQ
        self.distance = distance
        self.stiffness = stiffness
        self.damping = damping
        self.type = type


class WeldConstraint(Record):
    """Frame P on body A welded to frame Q on body B."""

    _fields = ("body_A", "X_AP", "body_B", "X_BQ", "type")

    def __init__(self, body_A: RigidBody, X_AP: RigidTransform, body_B: RigidBody,
                 X_BQ: RigidTransform, type: str = "weld") -> None:
        self.body_A = body_A
        self.X_AP = X_AP
        self.body_B = body_B
        self.X_BQ = X_BQ
        self.type = type


class LoopJointConstraint(Record):
    """A joint that closes a kinematic loop, kept as a constraint between
    frame F (on body A) and frame M (on body B), which coincide at zero:
    ``revolute`` keeps their origins together and their ``axis`` aligned (URDF
    ``<loop_joint>``), ``prismatic`` keeps their orientations and lets M move
    along ``axis`` only, ``ball`` keeps their origins together, ``fixed``
    keeps the two frames together."""

    _fields = ("name", "body_A", "X_AF", "body_B", "X_BM", "axis", "joint_type", "type")

    def __init__(self, name: str, body_A: RigidBody, X_AF: RigidTransform, body_B: RigidBody,
                 X_BM: RigidTransform, axis: Vec3, joint_type: str = "revolute",
                 type: str = "loop_joint") -> None:
        self.name = name
        self.body_A = body_A
        self.X_AF = X_AF
        self.body_B = body_B
        self.X_BM = X_BM
        self.axis = axis
        self.joint_type = joint_type
        self.type = type


class LinearBushingRollPitchYaw(Record):
    """A bushing between frames A and C: roll-pitch-yaw torque and linear force
    springs and dampers."""

    _fields = ("frameA", "frameC", "torque_stiffness", "torque_damping", "force_stiffness",
               "force_damping", "type")

    def __init__(self, frameA: Frame, frameC: Frame, torque_stiffness: Vec3,
                 torque_damping: Vec3, force_stiffness: Vec3, force_damping: Vec3,
                 type: str = "linear_bushing_rpy") -> None:
        self.frameA = frameA
        self.frameC = frameC
        self.torque_stiffness = torque_stiffness
        self.torque_damping = torque_damping
        self.force_stiffness = force_stiffness
        self.force_damping = force_damping
        self.type = type


class RevoluteSpring(Record):
    """A torsional spring on a revolute joint about a nominal angle."""

    _fields = ("joint", "nominal_angle", "stiffness", "type")

    def __init__(self, joint: Any, nominal_angle: float, stiffness: float,
                 type: str = "revolute_spring") -> None:
        self.joint = joint
        self.nominal_angle = nominal_angle
        self.stiffness = stiffness
        self.type = type


class LinearSpringDamper(Record):
    """A spring-damper between point P on body A and point Q on body B;
    ``name``: a name the model file gave it (URDF ``<force_element>``)."""

    _fields = ("body_A", "p_AP", "body_B", "p_BQ", "free_length", "stiffness", "damping",
               "type", "name")

    def __init__(self, body_A: RigidBody, p_AP: Vec3, body_B: RigidBody, p_BQ: Vec3,
                 free_length: float, stiffness: float, damping: float,
                 type: str = "linear_spring_damper", name: str | None = None) -> None:
        self.body_A = body_A
        self.p_AP = p_AP
        self.body_B = body_B
        self.p_BQ = p_BQ
        self.free_length = free_length
        self.stiffness = stiffness
        self.damping = damping
        self.type = type
        self.name = name


class GenericForceElement(Record):
    """A force element the plant stores but does not evaluate (a wing, a
    thruster): its ``type`` and every parameter the model file gave."""

    _fields = ("type", "name", "body", "X_BF", "parameters")

    def __init__(self, type: str, name: str, body: RigidBody, X_BF: RigidTransform,
                 parameters: dict[str, Any] | None = None) -> None:
        self.type = type
        self.name = name
        self.body = body
        self.X_BF = X_BF
        self.parameters: dict[str, Any] = {} if parameters is None else parameters


class Sensor(Record):
    """A sensor mounted on a body or a joint (``parent``: a link or joint
    name), with its pose in the parent link."""

    _fields = ("name", "type", "parent", "parent_link", "X_PS", "model_instance", "parameters")

    def __init__(self, name: str, type: str, parent: str, parent_link: RigidBody,
                 X_PS: RigidTransform, model_instance: int,
                 parameters: dict[str, Any] | None = None) -> None:
        self.name = name
        self.type = type
        self.parent = parent
        self.parent_link = parent_link
        self.X_PS = X_PS
        self.model_instance = model_instance
        self.parameters: dict[str, Any] = {} if parameters is None else parameters
