"""mbparse: read robot and scene descriptions into one multibody model.

URDF, SDFormat, MJCF, Drake Model Directives and Wavefront OBJ become a
:class:`MultibodyPlant` (bodies, frames, joints, actuators, constraints, force
elements, sensors) and a :class:`SceneGraph` (geometries with roles and
properties), the same model Drake's ``Parser`` builds.
"""
from .diagnostics import Diagnostic, ParseError, ParseWarning
from .geometry import SceneGraph
from .model import Model, load
from .package_map import PackageMap
from .parser import Parser
from .plant import ModelError, MultibodyPlant

__version__ = "0.1.0"

__all__ = ["Diagnostic", "Model", "ModelError", "MultibodyPlant", "PackageMap", "ParseError",
           "ParseWarning", "Parser", "SceneGraph", "load", "__version__"]
