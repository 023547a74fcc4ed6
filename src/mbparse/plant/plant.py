"""MultibodyPlant: model instances, bodies, frames, joints, actuators,
constraints, force elements and sensors, and the scene graph they register
geometry with. Names and behaviour follow Drake's MultibodyPlant."""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence

from ..geometry import DEFAULT_FRICTION, GeometryInstance, GeometryProperties, SceneGraph
from ..limits import MAX_BODIES, current_limits, raise_hint  # noqa: F401 (MAX_BODIES: its home was here)
from ..geometry.properties import (ILLUSTRATION, PERCEPTION, PROXIMITY,
                                   default_proximity_properties, no_properties)
from ..memory import collector_paused
from ..numbers import all_finite, shown
from ..source_location import CURRENT_SOURCE, UNKNOWN
from ..spatial import IDENTITY, RigidTransform, SpatialInertia
from . import topology
from .name_table import NameIndex
from .elements import (BallConstraint, CouplerConstraint, DistanceConstraint, Frame,
                       JointActuator, ModelError, ModelInstance, PdControllerGains,
                       RigidBody, Sensor, WeldConstraint)
from .joints import Joint

WORLD_MODEL_INSTANCE = 0
_new = object.__new__
DEFAULT_MODEL_INSTANCE = 1
CONTACT_APPROXIMATIONS = ("tamsi", "sap", "similar", "lagged")
# A plant holds at most the limit max_bodies (mbparse.limits) of bodies
# besides the world, MAX_BODIES by default.


class MultibodyPlant:
    """A collection of rigid bodies connected by joints.

    ``time_step`` > 0 makes a discrete plant; 0 a continuous one. As in Drake,
    a discrete plant with the ``"tamsi"`` contact approximation cannot hold
    coupler, ball, distance or weld constraints (the parsers then warn about
    ``<mimic>``, or reject the constraint); ``"sap"``, ``"similar"``,
    ``"lagged"`` and continuous plants can.
    """

    def __init__(self, time_step: float = 0.0, discrete_contact_approximation: str = "tamsi"):
        if time_step < 0:
            raise ValueError("time_step must be non-negative")
        if discrete_contact_approximation not in CONTACT_APPROXIMATIONS:
            raise ValueError(f"discrete_contact_approximation must be one of "
                             f"{CONTACT_APPROXIMATIONS}")
        self.time_step = float(time_step)
        self.discrete_contact_approximation = discrete_contact_approximation
        self._instances: list[ModelInstance] = []
        self._instance_by_name: dict[str, int] = {}
        self._bodies: list[RigidBody] = []
        self._frames: list[Frame] = []
        self._joints: list[Joint] = []
        self._actuators: list[JointActuator] = []
        self._constraints: list = []
        self._force_elements: list = []
        self._sensors: list[Sensor] = []
        self._body_names: dict[tuple[int, str], RigidBody] = {}
        self._frame_names: dict[tuple[int, str], Frame] = {}
        self._joint_names: dict[tuple[int, str], Joint] = {}
        self._actuator_names: dict[tuple[int, str], JointActuator] = {}
        # Each table's keys by bare name, for lookups without a model instance.
        self._name_index = {id(t): NameIndex(t) for t in (
            self._body_names, self._frame_names, self._joint_names, self._actuator_names)}
        self._scene_graph: SceneGraph | None = None
        self._finalized = False
        self._adjacent_bodies_collision_filters = True
        self.add_model_instance("WorldModelInstance")
        self.add_model_instance("DefaultModelInstance")
        self._add_body("world", WORLD_MODEL_INSTANCE, SpatialInertia.zero(), CURRENT_SOURCE.get())

    # ------------------------------------------------------------ state
    def __repr__(self) -> str:
        state = "finalized" if self.is_finalized() else "not finalized"
        return (f"MultibodyPlant({self.num_model_instances()} instances, {self.num_bodies()} bodies, "
                f"{self.num_joints()} joints, time_step={self.time_step:g}, {state})")

    def is_discrete(self) -> bool:
        """Whether the plant has a positive time step."""
        return self.time_step > 0

    def supports_constraints(self) -> bool:
        """False for a discrete plant using the TAMSI contact approximation."""
        return not self.is_discrete() or self.discrete_contact_approximation != "tamsi"

    def is_finalized(self) -> bool:
        """Whether :meth:`finalize` has run."""
        return self._finalized

    def _throw_if_finalized(self) -> None:
        if self._finalized:
            raise ModelError("The plant is finalized; nothing more can be added to it",
                             code="model-invalid")

    # ------------------------------------------------------------ scene graph
    def register_as_source_for_scene_graph(self, scene_graph: SceneGraph) -> None:
        """Makes ``scene_graph`` the place this plant registers geometry."""
        self._scene_graph = scene_graph

    def geometry_source_is_registered(self) -> bool:
        """Whether a scene graph has been registered."""
        return self._scene_graph is not None

    @property
    def scene_graph(self) -> SceneGraph | None:
        """The registered scene graph, or None."""
        return self._scene_graph

    # ------------------------------------------------------------ model instances
    def add_model_instance(self, name: str) -> int:
        """Adds a model instance named ``name``; returns its index."""
        if self._finalized:  # (the call only to refuse)
            self._throw_if_finalized()
        if name in self._instance_by_name:
            raise ModelError(f"a model instance named '{name}' already exists; model instance "
                             "names must be unique (auto-renaming or a name prefix avoids this)",
                             code="name-duplicate")
        index = len(self._instances)
        self._instances.append(ModelInstance(index, name))
        self._instance_by_name[name] = index
        return index

    def rename_model_instance(self, index: int, name: str) -> None:
        """Renames model instance ``index``; the new name must be free."""
        if name in self._instance_by_name and self._instance_by_name[name] != index:
            raise ModelError(f"This model already contains a model instance named '{name}'.",
                             code="name-duplicate")
        old = self._instances[index].name
        del self._instance_by_name[old]
        self._instances[index].name = name
        self._instance_by_name[name] = index

    def num_model_instances(self) -> int:
        """How many model instances there are (world and default included)."""
        return len(self._instances)

    def has_model_instance_named(self, name: str) -> bool:
        """Whether a model instance has that name."""
        return name in self._instance_by_name

    def get_model_instance_by_name(self, name: str) -> int:
        """The index of the named model instance; an unknown name is an error."""
        try:
            return self._instance_by_name[name]
        except KeyError:
            raise ModelError(f"There is no model instance named '{name}'",
                             code="model-unknown-name") from None

    def get_model_instance_name(self, index: int) -> str:
        """The name of model instance ``index``."""
        return self._instances[index].name

    def model_instance(self, index: int) -> ModelInstance:
        """The :class:`ModelInstance` record of ``index``."""
        return self._instances[index]

    def set_model_instance_static(self, index: int, static: bool = True) -> None:
        """Bodies of a static model instance are welded to the world at finalize."""
        self._instances[index].static = static

    # ------------------------------------------------------------ bodies
    @staticmethod
    def _declared(element):
        """Records where the reader declared ``element`` (its ``source``),
        unless it already knows."""
        if getattr(element, "source", UNKNOWN) == UNKNOWN:
            element.source = CURRENT_SOURCE.get()
        return element

    def _add_body(self, name: str, model_instance: int, M: SpatialInertia,
                  source) -> RigidBody:
        """Adds a body and its body frame (both declared at ``source``)."""
        bodies, frames = self._bodies, self._frames
        # Made without __init__ (every field of both set here): calling a
        # class costs more than what its __init__ sets, 2,000 instructions a
        # body, 1% of a nested MJCF body's load.
        body = _new(RigidBody)
        body.index = len(bodies)
        body.name = name
        body.model_instance = model_instance
        body.default_spatial_inertia = M
        body.is_floating_base_body = False
        body.default_free_body_pose = None
        body.gravity_enabled = True
        body.source = source
        body.body_frame = frame = _new(Frame)
        frame.index = len(frames)
        frame.name = name
        frame.model_instance = model_instance
        frame.body = body
        frame.X_BF = IDENTITY
        frame.is_body_frame = True
        frame.is_ephemeral = False
        frame.source = source
        key = (model_instance, name)
        bodies.append(body)
        self._body_names[key] = body
        frames.append(frame)
        self._frame_names[key] = frame
        return body

    def add_rigid_body(self, name: str, model_instance: int = DEFAULT_MODEL_INSTANCE,
                       spatial_inertia: SpatialInertia | None = None) -> RigidBody:
        """Adds a body; its inertia defaults to zero (a massless body)."""
        if self._finalized:
            self._throw_if_finalized()
        if model_instance.__class__ is not int or not (
                0 <= model_instance < len(self._instances)):
            self._check_instance(model_instance)
        if name.__class__ is not str:
            raise ModelError(f"A body's name must be a string, not {name!r}",
                             code="model-invalid")
        most = current_limits().max_bodies
        if most and len(self._bodies) > most:  # (the world aside)
            raise ModelError(f"Body '{name}' is not added: the plant has {most:,} bodies, "
                             "mbparse's limit (a limit that keeps any model's load within "
                             f"seconds); {raise_hint('max_bodies')}", code="size-limit")
        key = (model_instance, name)
        if key in self._frame_names:  # (a body's frame has its name)
            what = "body" if key in self._body_names else "frame"
            raise ModelError(f"model instance '{self.get_model_instance_name(model_instance)}' "
                             f"already has a {what} named '{name}'", code="name-duplicate")
        M = spatial_inertia if spatial_inertia is not None else SpatialInertia.zero()
        problem = M.problem()
        if problem is not None:
            raise ModelError(f"Body '{name}': spatial inertia is not physically valid: "
                             f"{problem[1]}", code=problem[0])
        return self._add_body(name, model_instance, M, CURRENT_SOURCE.get())

    def world_body(self) -> RigidBody:
        """The world body (index 0)."""
        return self._bodies[0]

    def world_frame(self) -> Frame:
        """The world frame."""
        return self._bodies[0].body_frame

    def num_bodies(self) -> int:
        """How many bodies there are, the world included."""
        return len(self._bodies)

    def get_body(self, index: int) -> RigidBody:
        """The body of that index."""
        return self._bodies[index]

    def bodies(self) -> list[RigidBody]:
        """Every body, the world first."""
        return list(self._bodies)

    def has_body_named(self, name: str, model_instance: int | None = None) -> bool:
        """Whether a body has that name (in ``model_instance``, or in any)."""
        return self._find(self._body_names, name, model_instance, "body", quiet=True) is not None

    def find_body(self, name: str, model_instance: int) -> RigidBody | None:
        """The body named ``name`` in ``model_instance``, or None (one lookup,
        for readers that check names they were given)."""
        if model_instance.__class__ is not int or not (
                0 <= model_instance < len(self._instances)):  # (the call only to refuse)
            self._check_instance(model_instance)
        return self._body_names.get((model_instance, name))

    def get_body_by_name(self, name: str, model_instance: int | None = None) -> RigidBody:
        """The body named ``name`` (in ``model_instance``, or the only one anywhere)."""
        return self._find(self._body_names, name, model_instance, "body")

    def get_bodies_in_model_instance(self, model_instance: int) -> list[RigidBody]:
        """The bodies of one model instance."""
        return [b for b in self._bodies if b.model_instance == model_instance]

    def set_default_free_body_pose(self, body: RigidBody, X_WB: RigidTransform) -> None:
        """The pose a floating body starts at (before finalize)."""
        body.default_free_body_pose = X_WB

    # ------------------------------------------------------------ frames
    def add_frame(self, name: str, parent: Frame, X_PF: RigidTransform = IDENTITY,
                  model_instance: int | None = None) -> Frame:
        """Adds a frame fixed to ``parent`` at pose ``X_PF``."""
        if self._finalized:  # (the call only to refuse)
            self._throw_if_finalized()
        mi = parent.model_instance if model_instance is None else model_instance
        if parent.is_body_frame:
            X_BF = X_PF
        else:
            X_BF = parent.X_BF @ X_PF
            if not all_finite(X_BF.p):  # (each pose finite, their sum past a double)
                raise ModelError(f"frame '{name}' is not at a finite place: its pose in frame "
                                 f"'{parent.name}', composed with that frame's pose in body "
                                 f"'{parent.body.name}', gives the position "
                                 f"{shown(X_BF.p)}; give smaller numbers",
                                 code="number-not-finite")
        return self._register_frame(Frame(-1, name, mi, parent.body, X_BF, False, False,
                                          CURRENT_SOURCE.get()))

    def num_frames(self) -> int:
        """How many frames there are, body frames included."""
        return len(self._frames)

    def get_frame(self, index: int) -> Frame:
        """The frame of that index."""
        return self._frames[index]

    def frames(self) -> list[Frame]:
        """Every frame, body frames included."""
        return list(self._frames)

    def _drop_frame(self, frame: Frame) -> None:
        """Removes a frame no element uses yet (one a reader made and then
        replaced by a frame the model names)."""
        self._frames.remove(frame)
        del self._frame_names[(frame.model_instance, frame.name)]
        self._name_index[id(self._frame_names)].forget()

    def has_frame_named(self, name: str, model_instance: int | None = None) -> bool:
        """Whether a frame has that name (in ``model_instance``, or in any)."""
        return self._find(self._frame_names, name, model_instance, "frame", quiet=True) is not None

    def get_frame_by_name(self, name: str, model_instance: int | None = None) -> Frame:
        """The named frame; an unknown or ambiguous name is an error."""
        return self._find(self._frame_names, name, model_instance, "frame")

    # ------------------------------------------------------------ joints
    def add_joint(self, joint_type: type, name: str, parent: RigidBody,
                  X_PF: RigidTransform | None, child: RigidBody,
                  X_CM: RigidTransform | None, *args, **kwargs) -> Joint:
        """Adds a joint of ``joint_type`` between ``parent`` and ``child``.

        ``X_PF`` / ``X_CM`` place the joint frames in the parent / child body
        frames; None means the body frame itself (no new frame is made).
        Further arguments go to the joint's constructor.
        """
        if self._finalized:
            self._throw_if_finalized()
        instance = child.model_instance
        if (instance, name) in self._joint_names:
            raise ModelError(f"model instance '{self.get_model_instance_name(instance)}' "
                             f"already has a joint named '{name}'", code="name-duplicate")
        if parent is child:
            raise ModelError(f"joint '{name}' has body '{parent.name}' as both parent and child",
                             code="joint-same-body")
        # Construct first (it validates its arguments) so that a rejected
        # joint leaves no frames behind.
        source = CURRENT_SOURCE.get()
        frame_on_parent = parent.body_frame if X_PF is None else Frame(
            -1, f"{name}_parent", instance, parent, X_PF, False, False, source)
        frame_on_child = child.body_frame if X_CM is None else Frame(
            -1, f"{name}_child", instance, child, X_CM, False, False, source)
        joint = joint_type(name, frame_on_parent, frame_on_child, *args, **kwargs)
        # The joint accepted its frames: the new ones join the plant (as
        # add_frame would add them, fixed to the body frames).
        if X_PF is not None:
            self._register_frame(frame_on_parent)
        if X_CM is not None:
            self._register_frame(frame_on_child)
        joint.model_instance = instance
        return self._register_joint(joint, source)

    def _register_frame(self, frame: Frame) -> Frame:
        """Gives a new frame (its ``source`` set) its index and name in the
        plant (its name must be free in its model instance)."""
        key = (frame.model_instance, frame.name)
        names = self._frame_names
        if key in names:
            raise ModelError(f"model instance '{self.get_model_instance_name(key[0])}' already "
                             f"has a frame named '{frame.name}'", code="name-duplicate")
        frames = self._frames
        frame.index = len(frames)
        frames.append(frame)
        names[key] = frame
        return frame

    def add_joint_between_frames(self, joint_type: type, name: str, frame_on_parent: Frame,
                                 frame_on_child: Frame, *args, **kwargs) -> Joint:
        """Adds a joint of ``joint_type`` that connects two existing frames
        (Drake's ``AddJoint`` with frames, as ``WeldFrames`` uses); the
        joint belongs to the child frame's model instance. Further arguments
        go to the joint's constructor."""
        if self._finalized:  # (the call only to refuse)
            self._throw_if_finalized()
        instance = frame_on_child.model_instance
        if (instance, name) in self._joint_names:
            raise ModelError(f"model instance '{self.get_model_instance_name(instance)}' "
                             f"already has a joint named '{name}'", code="name-duplicate")
        if frame_on_parent.body is frame_on_child.body:
            raise ModelError(f"joint '{name}' has body '{frame_on_parent.body.name}' as both "
                             f"parent and child", code="joint-same-body")
        joint = joint_type(name, frame_on_parent, frame_on_child, *args, **kwargs)
        joint.model_instance = instance
        return self._register_joint(joint)

    def _register_joint(self, joint: Joint, source=None) -> Joint:
        """Gives a new joint its index and name in the plant, and its
        ``source`` (``source``, or where the element being read was
        written) unless it has one."""
        if joint.source == UNKNOWN:
            joint.source = source if source is not None else CURRENT_SOURCE.get()
        joints = self._joints
        joint.index = len(joints)
        joints.append(joint)
        self._joint_names[(joint.model_instance, joint.name)] = joint
        return joint

    def num_joints(self) -> int:
        """How many joints there are (with those finalize added)."""
        return len(self._joints)

    def get_joint(self, index: int) -> Joint:
        """The joint of that index."""
        return self._joints[index]

    def joints(self) -> list[Joint]:
        """Every joint, in the order added."""
        return list(self._joints)

    def has_joint_named(self, name: str, model_instance: int | None = None) -> bool:
        """Whether a joint has that name (in ``model_instance``, or in any)."""
        return self._find(self._joint_names, name, model_instance, "joint", quiet=True) is not None

    def find_joint(self, name: str, model_instance: int) -> Joint | None:
        """The joint named ``name`` in ``model_instance``, or None (one
        lookup, for readers that check names they were given)."""
        if model_instance.__class__ is not int or not (
                0 <= model_instance < len(self._instances)):  # (the call only to refuse)
            self._check_instance(model_instance)
        return self._joint_names.get((model_instance, name))

    def get_joint_by_name(self, name: str, model_instance: int | None = None) -> Joint:
        """The named joint; an unknown or ambiguous name is an error."""
        return self._find(self._joint_names, name, model_instance, "joint")

    def num_positions(self) -> int:
        """The size of the generalized positions of all joints."""
        return sum(j.nq for j in self._joints)

    def num_velocities(self) -> int:
        """The size of the generalized velocities of all joints."""
        return sum(j.nv for j in self._joints)

    # ------------------------------------------------------------ actuators
    def add_joint_actuator(self, name: str, joint: Joint,
                           effort_limit: float = math.inf) -> JointActuator:
        """Adds an actuator on ``joint`` with a positive effort limit; returns it."""
        if self._finalized:  # (the call only to refuse)
            self._throw_if_finalized()
        if (joint.model_instance, name) in self._actuator_names:
            raise ModelError(f"model instance '{self.get_model_instance_name(joint.model_instance)}"
                             f"' already has an actuator named '{name}'", code="name-duplicate")
        if not (effort_limit > 0):
            raise ModelError(f"Actuator '{name}': the effort limit must be positive; given "
                             f"{effort_limit}", code="value-out-of-range")
        actuator = self._declared(JointActuator(len(self._actuators), name, joint,
                                                float(effort_limit)))
        self._actuators.append(actuator)
        self._actuator_names[(joint.model_instance, name)] = actuator
        return actuator

    def num_actuators(self) -> int:
        """How many joint actuators there are."""
        return len(self._actuators)

    def get_joint_actuator(self, index: int) -> JointActuator:
        """The actuator of that index."""
        return self._actuators[index]

    def actuators(self) -> list[JointActuator]:
        """Every joint actuator."""
        return list(self._actuators)

    def has_joint_actuator_named(self, name: str, model_instance: int | None = None) -> bool:
        """Whether an actuator has that name (in ``model_instance``, or in any)."""
        return self._find(self._actuator_names, name, model_instance, "actuator",
                          quiet=True) is not None

    def find_joint_actuator(self, name: str, model_instance: int) -> JointActuator | None:
        """The actuator named ``name`` in ``model_instance``, or None (one
        lookup, for readers that check names they were given)."""
        if model_instance.__class__ is not int or not (
                0 <= model_instance < len(self._instances)):  # (the call only to refuse)
            self._check_instance(model_instance)
        return self._actuator_names.get((model_instance, name))

    def get_joint_actuator_by_name(self, name: str,
                                   model_instance: int | None = None) -> JointActuator:
        """The named actuator; an unknown or ambiguous name is an error."""
        return self._find(self._actuator_names, name, model_instance, "actuator")

    @staticmethod
    def set_controller_gains(actuator: JointActuator, p: float, d: float) -> None:
        """Gives an actuator PD controller gains (``p`` > 0, ``d`` >= 0)."""
        if not (p > 0) or not (d >= 0):
            raise ModelError(f"Actuator '{actuator.name}': PD gains need p > 0 and d >= 0; "
                             f"given p={p}, d={d}", code="value-out-of-range")
        actuator.controller_gains = PdControllerGains(float(p), float(d))

    # ------------------------------------------------------------ constraints
    def _check_constraints_supported(self, kind: str) -> None:
        self._throw_if_finalized()
        if not self.supports_constraints():
            raise ModelError(
                f"a {kind} constraint needs a continuous plant or a discrete one using the sap, "
                "similar or lagged contact approximation; this plant is discrete with the tamsi "
                "approximation (Drake's default), which holds no constraints",
                code="constraint-needs-sap")

    def add_coupler_constraint(self, joint0: Joint, joint1: Joint, gear_ratio: float = 1.0,
                               offset: float = 0.0) -> CouplerConstraint:
        """Couples ``joint0`` to ``joint1``: q0 = gear_ratio * q1 + offset (as Drake)."""
        self._check_constraints_supported("coupler")
        if joint0.nv != 1 or joint1.nv != 1:
            raise ModelError(f"a coupler constraint joins single-dof joints only; '{joint0.name}' "
                             f"has {joint0.nv} and '{joint1.name}' has {joint1.nv}",
                             code="model-invalid")
        c = CouplerConstraint(joint0, joint1, float(gear_ratio), float(offset))
        self._constraints.append(self._declared(c))
        return c

    def add_ball_constraint(self, body_A: RigidBody, p_AP, body_B: RigidBody,
                            p_BQ=None) -> BallConstraint:
        """Keeps point P of body A and point Q of body B together."""
        self._check_constraints_supported("ball")
        if body_A is body_B:
            raise ModelError(f"a ball constraint needs two different bodies; both are "
                             f"'{body_A.name}'", code="joint-same-body")
        c = BallConstraint(body_A, tuple(p_AP), body_B,
                           tuple(p_BQ) if p_BQ is not None else None)
        self._constraints.append(self._declared(c))
        return c

    def add_distance_constraint(self, body_A: RigidBody, p_AP, body_B: RigidBody, p_BQ,
                                distance: float, stiffness: float = math.inf,
                                damping: float = 0.0) -> DistanceConstraint:
        """Keeps points P (body A) and Q (body B) at a distance, with stiffness and damping."""
        self._check_constraints_supported("distance")
        if body_A is body_B:
            raise ModelError("A distance constraint needs two different bodies",
                             code="joint-same-body")
        if not (distance > 0) or not (stiffness > 0) or not (damping >= 0):
            raise ModelError("A distance constraint needs distance > 0, stiffness > 0 and "
                             "damping >= 0", code="value-out-of-range")
        c = DistanceConstraint(body_A, tuple(p_AP), body_B, tuple(p_BQ), float(distance),
                               float(stiffness), float(damping))
        self._constraints.append(self._declared(c))
        return c

    def add_weld_constraint(self, body_A: RigidBody, X_AP: RigidTransform, body_B: RigidBody,
                            X_BQ: RigidTransform) -> WeldConstraint:
        """Welds frame P of body A to frame Q of body B."""
        self._check_constraints_supported("weld")
        if body_A is body_B:
            raise ModelError("A weld constraint needs two different bodies", code="joint-same-body")
        c = WeldConstraint(body_A, X_AP, body_B, X_BQ)
        self._constraints.append(self._declared(c))
        return c

    def add_constraint(self, constraint) -> None:
        """Adds a constraint object that is not one of Drake's (a loop joint)."""
        self._throw_if_finalized()
        self._constraints.append(self._declared(constraint))

    def num_constraints(self) -> int:
        """How many constraints there are."""
        return len(self._constraints)

    def constraints(self) -> list:
        """Every constraint, in the order added."""
        return list(self._constraints)

    # ------------------------------------------------------------ forces, sensors
    def add_force_element(self, element):
        """Adds a force element (spring, damper, bushing, ...); returns it."""
        self._throw_if_finalized()
        self._force_elements.append(self._declared(element))
        return element

    def num_force_elements(self) -> int:
        """How many force elements there are."""
        return len(self._force_elements)

    def force_elements(self) -> list:
        """Every force element, in the order added."""
        return list(self._force_elements)

    def add_sensor(self, sensor: Sensor) -> Sensor:
        """Adds a sensor record; sensor names are unique per model instance."""
        self._throw_if_finalized()
        if any(s.name == sensor.name and s.model_instance == sensor.model_instance
               for s in self._sensors):
            raise ModelError(f"A sensor named '{sensor.name}' already exists in model instance "
                             f"'{self.get_model_instance_name(sensor.model_instance)}'",
                             code="name-duplicate")
        self._sensors.append(self._declared(sensor))
        return sensor

    def sensors(self) -> list[Sensor]:
        """Every sensor, in the order added."""
        return list(self._sensors)

    # ------------------------------------------------------------ geometry
    def register_visual_geometry(self, body: RigidBody, instance: GeometryInstance):
        """Registers a visual; it gets illustration and perception roles
        unless ``instance`` already says which."""
        sg = self._scene_graph
        if sg is None or self._finalized:
            sg = self._require_scene_graph()
        properties = instance.properties
        if not properties:
            properties[ILLUSTRATION] = no_properties()
            properties[PERCEPTION] = no_properties()
        return self._register_geometry(sg, body, instance)

    def register_collision_geometry(self, body: RigidBody, instance: GeometryInstance,
                                    properties: GeometryProperties | None = None):
        """Registers a collision geometry with proximity ``properties``
        (Coulomb friction defaults to 1, 1 when absent)."""
        sg = self._scene_graph
        if sg is None or self._finalized:
            sg = self._require_scene_graph()
        props = properties if properties is not None else instance.properties.get(PROXIMITY)
        if props is None:
            props = default_proximity_properties()
        elif not props.has_property("material", "coulomb_friction"):
            props.add_property("material", "coulomb_friction", DEFAULT_FRICTION)
        roles = instance.properties
        if len(roles) != 1 or roles.get(PROXIMITY) is not props:
            instance.properties = {PROXIMITY: props}
        return self._register_geometry(sg, body, instance)

    def _register_geometry(self, sg: SceneGraph, body: RigidBody, instance: GeometryInstance):
        """Gives ``instance`` its scoped name and its source, and registers it on ``body``."""
        model_instance = body.model_instance
        if model_instance > DEFAULT_MODEL_INSTANCE:
            instance.name = f"{self._instances[model_instance].name}::{instance.name}"
        if instance.source == UNKNOWN:
            instance.source = CURRENT_SOURCE.get()
        return sg.register_geometry(body.index, instance)

    def _require_scene_graph(self) -> SceneGraph:
        self._throw_if_finalized()
        if self._scene_graph is None:
            raise ModelError("No scene graph is registered with this plant", code="model-invalid")
        return self._scene_graph

    def get_collision_geometries_for_body(self, body: RigidBody):
        """The geometries on ``body`` with the proximity (collision) role."""
        if self._scene_graph is None:
            return []
        return [g for g in self._scene_graph.geometries_on_body(body.index)
                if g.has_role(PROXIMITY)]

    def get_visual_geometries_for_body(self, body: RigidBody):
        """The geometries on ``body`` without the proximity role (visuals)."""
        if self._scene_graph is None:
            return []
        return [g for g in self._scene_graph.geometries_on_body(body.index)
                if not g.has_role(PROXIMITY)]

    def exclude_collisions_between(self, bodies_a: Iterable[RigidBody],
                                   bodies_b: Iterable[RigidBody]) -> None:
        """Filters out collisions between every body of one set and every body of the other."""
        if self._scene_graph is not None:
            self._scene_graph.exclude_between([b.index for b in bodies_a],
                                              [b.index for b in bodies_b])

    def set_adjacent_bodies_collision_filters(self, value: bool) -> None:
        """Whether finalize filters collisions between bodies joined by a joint."""
        self._adjacent_bodies_collision_filters = value

    # ------------------------------------------------------------ finalize
    def finalize(self) -> None:
        """Completes the tree: every body gets a path to the world (free
        bodies a floating joint), kinematic loops are rejected, default
        collision filters are applied, and default poses become available."""
        self._throw_if_finalized()
        with collector_paused():
            topology.finalize(self)
        self._finalized = True

    # ------------------------------------------------------------ kinematics
    def calc_body_poses_in_world(self, positions: dict[str, Sequence[float]] | None = None
                                 ) -> list[RigidTransform]:
        """X_WB for every body (by index) at the default positions, with
        ``positions`` overriding some joints ({scoped joint name: q})."""
        if not self._finalized:
            raise ModelError("Forward kinematics needs a finalized plant", code="model-invalid")
        return topology.body_poses(self, self._checked_positions(positions))

    def _checked_positions(self, positions) -> dict[str, list[float]]:
        """``positions`` checked: scoped joint names, each with its joint's
        number of finite numbers; a clear error (naming what exists) otherwise."""
        if positions is None:
            return {}
        if not isinstance(positions, Mapping):
            raise ModelError(f"positions must be a dict of scoped joint name -> list of "
                             f"numbers, not {type(positions).__name__}", code="model-invalid")
        joints = {self.scoped_name(j): j for j in self._joints}
        out = {}
        for name, q in positions.items():
            joint = joints.get(name) if isinstance(name, str) else None
            if joint is None:
                scoped = [s for s, j in joints.items() if j.name == name]
                hint = (f"; joint names are scoped: did you mean {' or '.join(map(repr, scoped))}?"
                        if scoped else "")
                shown = ", ".join(sorted(joints)[:30]) + (", ..." if len(joints) > 30 else "")
                raise ModelError(f"positions name the joint {name!r}, which the plant does not "
                                 f"have{hint} (its joints: {shown or 'none'})",
                                 code="model-unknown-name")
            if isinstance(q, (str, bytes)) or not isinstance(q, Iterable):
                raise ModelError(f"positions of joint '{name}' must be a list of {joint.nq} "
                                 f"number(s), not {type(q).__name__} {q!r}", code="model-invalid")
            values = list(q)
            if len(values) != joint.nq or not all(
                    isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v)
                    for v in values):
                raise ModelError(f"positions of joint '{name}' ({joint.type_name}) must be "
                                 f"{joint.nq} finite number(s); given {values!r}",
                                 code="model-invalid")
            out[name] = [float(v) for v in values]
        return out

    def calc_frame_pose_in_world(self, frame: Frame,
                                 positions: dict[str, Sequence[float]] | None = None
                                 ) -> RigidTransform:
        """The pose of ``frame`` in the world for the given joint positions."""
        return self.calc_body_poses_in_world(positions)[frame.body.index] @ frame.X_BF

    def scoped_name(self, element) -> str:
        """``INSTANCE::name`` for a body, frame, joint or actuator."""
        return f"{self.get_model_instance_name(element.model_instance)}::{element.name}"

    # ------------------------------------------------------------ lookup
    def _check_instance(self, index: int) -> None:
        if index.__class__ is int and 0 <= index < len(self._instances):
            return  # (the common case: one test)
        if isinstance(index, bool) or not isinstance(index, int):
            raise ModelError(f"A model instance is given by its index (an int), not "
                             f"{type(index).__name__} {index!r}; the instances are "
                             f"{self._instance_list()}", code="model-unknown-name")
        if not (0 <= index < len(self._instances)):
            raise ModelError(f"There is no model instance with index {index}; the instances "
                             f"are {self._instance_list()}", code="model-unknown-name")

    def _instance_list(self) -> str:
        return ", ".join(f"{i} '{m.name}'" for i, m in enumerate(self._instances))

    def _find(self, table: dict, name: str, model_instance: int | None, what: str,
              quiet: bool = False):
        if not isinstance(name, str):
            raise ModelError(f"A {what} is looked up by its name (a str), not "
                             f"{type(name).__name__} {name!r}", code="model-unknown-name")
        if model_instance is not None:
            if model_instance.__class__ is not int or not (
                    0 <= model_instance < len(self._instances)):  # (the call only to refuse)
                self._check_instance(model_instance)
            found = table.get((model_instance, name))
            if found is None and not quiet:
                raise ModelError(f"There is no {what} named '{name}' in model instance "
                                 f"'{self.get_model_instance_name(model_instance)}'"
                                 + _did_you_mean(name, table, model_instance),
                                 code="model-unknown-name")
            return found
        matches = self._name_index[id(table)].named(name)
        if len(matches) == 1:
            return matches[0]
        if quiet:
            return matches[0] if matches else None
        if not matches:
            raise ModelError(f"There is no {what} named '{name}' anywhere in the model"
                             + _did_you_mean(name, table, None), code="model-unknown-name")
        raise ModelError(f"The {what} name '{name}' is not unique: give a model instance",
                         code="model-unknown-name")


def _did_you_mean(name: str, table: dict, model_instance: int | None) -> str:
    """"; did you mean 'x'?" for a name looked up in a name table (keys
    (instance, name)) that is a typo of one of its names (of
    ``model_instance`` when given), else ""."""
    from ..formats.common.suggest import closest, too_many  # (only on a failed lookup)

    if too_many(len(table)):
        return ""
    meant = closest(name, {n for (mi, n) in table
                           if model_instance is None or mi == model_instance})
    return f"; did you mean '{meant}'?" if meant is not None else ""
