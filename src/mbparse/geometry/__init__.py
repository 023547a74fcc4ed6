"""Shapes, roles and properties, and the scene graph that holds them."""
from .properties import (CoulombFriction, GeometryProperties, HydroelasticType, Rgba,
                         ILLUSTRATION, PERCEPTION, PROXIMITY, DEFAULT_FRICTION)
from .scene_graph import Geometry, GeometryInstance, SceneGraph
from .shapes import (Box, Capsule, Convex, Cylinder, Ellipsoid, HalfSpace, Mesh, Shape,
                     ShapeError, Sphere)

__all__ = ["Box", "Capsule", "Convex", "CoulombFriction", "Cylinder", "DEFAULT_FRICTION",
           "Ellipsoid", "Geometry", "GeometryInstance", "GeometryProperties", "HalfSpace",
           "HydroelasticType", "ILLUSTRATION", "Mesh", "PERCEPTION", "PROXIMITY", "Rgba",
           "SceneGraph", "Shape", "ShapeError", "Sphere"]
