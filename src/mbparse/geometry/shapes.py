"""Geometric shapes, validated on construction as SceneGraph's are."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass


class ShapeError(ValueError):
    """A shape parameter that no shape can have (negative radius, ...)."""


_INF = math.inf


def _check_positive(kind: str, **values: float) -> None:
    """Refuses a size that is not positive and finite (shapes call it only
    when a one-line test of every size has failed)."""
    for name, v in values.items():
        if not (v > 0) or math.isinf(v):
            raise ShapeError(f"{kind} {name} should be a positive finite value; it was {v}")


class Shape:
    """Base class; ``type_name`` is Drake's shape name (Box, Sphere, ...)."""

    __slots__ = ()  # subclasses are slotted dataclasses: no per-shape __dict__
    type_name = "Shape"

    def summary(self) -> dict:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Box(Shape):
    """A box of the given width (x), depth (y) and height (z), centred on its frame."""

    width: float
    depth: float
    height: float
    type_name = "Box"

    def __post_init__(self):
        if not (0.0 < self.width < _INF and 0.0 < self.depth < _INF
                and 0.0 < self.height < _INF):
            _check_positive("Box", width=self.width, depth=self.depth, height=self.height)

    def size(self) -> tuple[float, float, float]:
        return (self.width, self.depth, self.height)

    def summary(self) -> dict:
        return {"type": "box", "size": [self.width, self.depth, self.height]}


@dataclass(frozen=True, slots=True)
class Sphere(Shape):
    """A sphere of the given radius about its frame's origin."""

    radius: float
    type_name = "Sphere"

    def __post_init__(self):
        if not (self.radius >= 0) or math.isinf(self.radius):
            raise ShapeError(f"Sphere radius should be a non-negative finite value; it was "
                             f"{self.radius}")

    def summary(self) -> dict:
        return {"type": "sphere", "radius": self.radius}


@dataclass(frozen=True, slots=True)
class Cylinder(Shape):
    """A cylinder along its frame's z axis, centred on the origin."""

    radius: float
    length: float
    type_name = "Cylinder"

    def __post_init__(self):
        if not (0.0 < self.radius < _INF and 0.0 < self.length < _INF):
            _check_positive("Cylinder", radius=self.radius, length=self.length)

    def summary(self) -> dict:
        return {"type": "cylinder", "radius": self.radius, "length": self.length}


@dataclass(frozen=True, slots=True)
class Capsule(Shape):
    """A cylinder with hemispherical caps, along its frame's z axis."""

    radius: float
    length: float
    type_name = "Capsule"

    def __post_init__(self):
        if not (0.0 < self.radius < _INF and 0.0 < self.length < _INF):
            _check_positive("Capsule", radius=self.radius, length=self.length)

    def summary(self) -> dict:
        return {"type": "capsule", "radius": self.radius, "length": self.length}


@dataclass(frozen=True, slots=True)
class Ellipsoid(Shape):
    """An ellipsoid with semi-axes a, b and c along its frame's x, y and z."""

    a: float
    b: float
    c: float
    type_name = "Ellipsoid"

    def __post_init__(self):
        if not (0.0 < self.a < _INF and 0.0 < self.b < _INF and 0.0 < self.c < _INF):
            _check_positive("Ellipsoid", a=self.a, b=self.b, c=self.c)

    def summary(self) -> dict:
        return {"type": "ellipsoid", "abc": [self.a, self.b, self.c]}


@dataclass(frozen=True, slots=True)
class HalfSpace(Shape):
    """The half space below its frame's x-y plane (z <= 0)."""

    type_name = "HalfSpace"

    def summary(self) -> dict:
        return {"type": "halfspace"}


@dataclass(frozen=True, slots=True)
class Mesh(Shape):
    """A mesh file (path resolved, not read) with a per-axis scale."""

    filename: str
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    type_name = "Mesh"

    def __post_init__(self):
        for s in self.scale:
            if s == 0 or math.isnan(s) or math.isinf(s):
                raise ShapeError(f"{self.type_name} |scale| cannot be < 1e-8; given {s}"
                                 if s == 0 else f"{self.type_name} scale must be finite; "
                                 f"given {s}")
            if abs(s) < 1e-8:
                raise ShapeError(f"{self.type_name} |scale| cannot be < 1e-8; given {s}")

    def extension(self) -> str:
        return os.path.splitext(self.filename)[1].lower()

    def summary(self) -> dict:
        return {"type": "mesh", "file": os.path.basename(self.filename),
                "scale": list(self.scale)}


@dataclass(frozen=True, slots=True)
class Convex(Mesh):
    """The convex hull of a mesh file."""

    type_name = "Convex"

    def summary(self) -> dict:
        d = Mesh.summary(self)  # (super() fails in slotted dataclasses)
        d["type"] = "convex"
        return d
