"""Geometric shapes, validated on construction as SceneGraph's are."""
from __future__ import annotations

import math
import os

from ..records import FrozenRecord, _set


class ShapeError(ValueError):
    """A shape parameter that no shape can have (negative radius, ...)."""


_INF = math.inf


def _check_positive(kind: str, **values: float) -> None:
    """Refuses a size that is not positive and finite (shapes call it only
    when a one-line test of every size has failed)."""
    for name, v in values.items():
        if not (v > 0) or math.isinf(v):
            raise ShapeError(f"{kind} {name} should be a positive finite value; it was {v}")


class Shape(FrozenRecord):
    """Base class; ``type_name`` is Drake's shape name (Box, Sphere, ...).

    Shapes are immutable values: equal (and hashing alike) when of the same
    class with the same sizes. Each lists its fields in ``__slots__`` (no
    per-shape ``__dict__``) and ``_fields``."""

    __slots__ = ()
    type_name = "Shape"

    def summary(self) -> dict:
        raise NotImplementedError


class Box(Shape):
    """A box of the given width (x), depth (y) and height (z), centred on its frame."""

    __slots__ = _fields = ("width", "depth", "height")
    type_name = "Box"

    def __init__(self, width: float, depth: float, height: float) -> None:
        if not (0.0 < width < _INF and 0.0 < depth < _INF and 0.0 < height < _INF):
            _check_positive("Box", width=width, depth=depth, height=height)
        _set(self, "width", width)
        _set(self, "depth", depth)
        _set(self, "height", height)

    def size(self) -> tuple[float, float, float]:
        return (self.width, self.depth, self.height)

    def summary(self) -> dict:
        return {"type": "box", "size": [self.width, self.depth, self.height]}


class Sphere(Shape):
    """A sphere of the given radius about its frame's origin."""

    __slots__ = _fields = ("radius",)
    type_name = "Sphere"

    def __init__(self, radius: float) -> None:
        if not (radius >= 0) or math.isinf(radius):
            raise ShapeError(f"Sphere radius should be a non-negative finite value; it was "
                             f"{radius}")
        _set(self, "radius", radius)

    def summary(self) -> dict:
        return {"type": "sphere", "radius": self.radius}


class Cylinder(Shape):
    """A cylinder along its frame's z axis, centred on the origin."""

    __slots__ = _fields = ("radius", "length")
    type_name = "Cylinder"

    def __init__(self, radius: float, length: float) -> None:
        if not (0.0 < radius < _INF and 0.0 < length < _INF):
            _check_positive("Cylinder", radius=radius, length=length)
        _set(self, "radius", radius)
        _set(self, "length", length)

    def summary(self) -> dict:
        return {"type": "cylinder", "radius": self.radius, "length": self.length}


class Capsule(Shape):
    """A cylinder with hemispherical caps, along its frame's z axis."""

    __slots__ = _fields = ("radius", "length")
    type_name = "Capsule"

    def __init__(self, radius: float, length: float) -> None:
        if not (0.0 < radius < _INF and 0.0 < length < _INF):
            _check_positive("Capsule", radius=radius, length=length)
        _set(self, "radius", radius)
        _set(self, "length", length)

    def summary(self) -> dict:
        return {"type": "capsule", "radius": self.radius, "length": self.length}


class Ellipsoid(Shape):
    """An ellipsoid with semi-axes a, b and c along its frame's x, y and z."""

    __slots__ = _fields = ("a", "b", "c")
    type_name = "Ellipsoid"

    def __init__(self, a: float, b: float, c: float) -> None:
        if not (0.0 < a < _INF and 0.0 < b < _INF and 0.0 < c < _INF):
            _check_positive("Ellipsoid", a=a, b=b, c=c)
        _set(self, "a", a)
        _set(self, "b", b)
        _set(self, "c", c)

    def summary(self) -> dict:
        return {"type": "ellipsoid", "abc": [self.a, self.b, self.c]}


class HalfSpace(Shape):
    """The half space below its frame's x-y plane (z <= 0)."""

    __slots__ = ()
    type_name = "HalfSpace"

    def summary(self) -> dict:
        return {"type": "halfspace"}


class Mesh(Shape):
    """A mesh file (path resolved, not read) with a per-axis scale."""

    __slots__ = _fields = ("filename", "scale")
    type_name = "Mesh"

    def __init__(self, filename: str,
                 scale: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> None:
        for s in scale:
            if 1e-8 <= s < _INF or -_INF < s <= -1e-8:
                continue  # (the common case: one test)
            if s == 0 or math.isnan(s) or math.isinf(s):
                raise ShapeError(f"{self.type_name} |scale| cannot be < 1e-8; given {s}"
                                 if s == 0 else f"{self.type_name} scale must be finite; "
                                 f"given {s}")
            if abs(s) < 1e-8:
                raise ShapeError(f"{self.type_name} |scale| cannot be < 1e-8; given {s}")
        _set(self, "filename", filename)
        _set(self, "scale", scale)

    def extension(self) -> str:
        return os.path.splitext(self.filename)[1].lower()

    def summary(self) -> dict:
        return {"type": "mesh", "file": os.path.basename(self.filename),
                "scale": list(self.scale)}


class Convex(Mesh):
    """The convex hull of a mesh file."""

    __slots__ = ()
    type_name = "Convex"

    def summary(self) -> dict:
        d = super().summary()
        d["type"] = "convex"
        return d
