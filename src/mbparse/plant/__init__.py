"""The multibody plant and its elements."""
from .elements import (BallConstraint, CouplerConstraint, DistanceConstraint, Frame,
                       GenericForceElement, JointActuator, LinearBushingRollPitchYaw,
                       LinearSpringDamper, LoopJointConstraint, ModelError, ModelInstance,
                       PdControllerGains, RevoluteSpring, RigidBody, Sensor, WeldConstraint)
from .joints import (BallRpyJoint, CurvilinearJoint, Joint, JOINT_TYPES, PlanarJoint,
                     PrismaticJoint, QuaternionFloatingJoint, RevoluteJoint, RpyFloatingJoint,
                     ScrewJoint, UniversalJoint, WeldJoint)
from .plant import DEFAULT_MODEL_INSTANCE, MultibodyPlant, WORLD_MODEL_INSTANCE

__all__ = [
    "BallConstraint", "BallRpyJoint", "CouplerConstraint", "CurvilinearJoint",
    "DEFAULT_MODEL_INSTANCE", "DistanceConstraint", "Frame", "GenericForceElement", "Joint",
    "JOINT_TYPES", "JointActuator", "LinearBushingRollPitchYaw", "LinearSpringDamper",
    "LoopJointConstraint", "ModelError", "ModelInstance", "MultibodyPlant", "PdControllerGains",
    "PlanarJoint", "PrismaticJoint", "QuaternionFloatingJoint", "RevoluteJoint",
    "RevoluteSpring", "RigidBody", "RpyFloatingJoint", "ScrewJoint", "Sensor",
    "UniversalJoint", "WORLD_MODEL_INSTANCE", "WeldConstraint", "WeldJoint"]
