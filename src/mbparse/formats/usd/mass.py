"""A body's mass properties as the UsdPhysics schema gives them: the
``PhysicsMassAPI`` values as written, and what they leave out from OpenUSD's
``RigidBodyAPI.ComputeMassProperties`` (density times the collision shapes'
volumes, each shape measured here)."""
from __future__ import annotations

import math
import warnings

import numpy as np

from ...geometry import Box, Capsule, Cylinder, Ellipsoid, Mesh, Sphere
from ...geometry.meshes import MeshError, shape_triangles
from ...spatial import SpatialInertia, matrix_to_quaternion
from ..mjcf.inertia import primitive_inertia, primitive_volume
from .poses import quat_matrix


class UsdMass:
    """Mass properties for :class:`.model.UsdModelReader` (which holds the
    bodies, their shapes and the stage's units)."""

    def _masses(self) -> None:
        """Each body's mass, centre of mass and inertia as the UsdPhysics
        schema gives them (OpenUSD's ComputeMassProperties: MassAPI values
        first, then density times the collision shapes' volumes)."""
        from pxr import UsdPhysics
        info_cache: dict[str, object] = {}

        def mass_information(prim):
            key = prim.GetPath().pathString
            if key not in info_cache:
                info_cache[key] = self._mass_information(prim)
            return info_cache[key]

        u = self.units
        for key, body in self.bodies.items():
            prim = self.stage.GetPrimAtPath(key)
            given_mass, given_diagonal, given_axes, given_com = authored_mass(prim)
            scale = self.scales[key]
            mass, diagonal, com, axes = 0.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), None
            if given_mass is None and not self.colliders.get(key):
                pass  # neither a mass nor a collision shape: massless (as Newton reads it)
            elif given_mass is None or given_diagonal is None or given_com is None:
                api = UsdPhysics.RigidBodyAPI(prim)
                mass, diagonal, com, axes = api.ComputeMassProperties(mass_information)
                if mass < 0:
                    # Neither a mass nor a collision shape to give one: a
                    # massless body (as Newton reads it).
                    mass, diagonal, com, axes = 0.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), None
            if not all(math.isfinite(float(v)) for v in (*diagonal, *com)):
                # (a mass given, and no collision shape left to spread it)
                self.warn(key, "no collision shape gives it an inertia or a centre of mass to "
                          "go with its mass; they are read as zero", code="usd-value-invalid")
                diagonal, com, axes = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), None
            if given_mass is not None:
                mass = given_mass
            if given_diagonal is not None:
                diagonal, axes = given_diagonal, given_axes
            com = tuple(float(v) for v in com)
            if given_com is not None:  # given in the body's scaled frame
                com = tuple(c * s for c, s in zip(given_com, scale))
            values = (mass, *diagonal, *com)
            if not all(math.isfinite(float(v)) for v in values) or mass < 0:
                self.fail(key, f"its mass properties are not finite or negative (mass {mass}, "
                          f"principal moments {tuple(diagonal)}, centre of mass {com})")
            Rm = np.array(quat_matrix(axes) if axes is not None else np.eye(3))
            D = np.diag([u.inertia(float(v)) for v in diagonal])
            I = Rm @ D @ Rm.T
            I6 = (I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2])
            M = SpatialInertia(u.mass(float(mass)), tuple(u.length(c) for c in com),
                               tuple(float(v) for v in I6))
            problem = M.problem()
            if problem is not None:
                self.warn(key, f"its mass properties are not physical ({problem[1]}); they are "
                          "read as given", code="usd-value-invalid")
            body.default_spatial_inertia = M

    def _mass_information(self, prim):
        """OpenUSD's MassInformation of a collision prim (per unit density, in
        stage units): volume, inertia about its centre, centre and pose in
        its body."""
        from pxr import Gf, UsdPhysics
        info = UsdPhysics.RigidBodyAPI.MassInformation()
        info.volume = 0.0  # (a prim that is no shape adds nothing)
        info.inertia = Gf.Matrix3f(0.0)
        info.centerOfMass = Gf.Vec3f(0.0)
        info.localPos = Gf.Vec3f(0.0)
        info.localRot = Gf.Quatf(1.0)
        body_key = self._body_above(prim.GetPath().pathString) or (
            prim.GetPath().pathString if prim.GetPath().pathString in self.bodies else None)
        if body_key is None:
            return info
        with warnings.catch_warnings():
            shape, X = self._shape_quietly(prim, body_key)
        if shape is None:
            return info
        try:
            volume, com, I = unit_mass_properties(shape)
        except (MeshError, ValueError) as e:
            self.warn(prim.GetPath(), f"its volume cannot be measured for its body's mass "
                      f"({e}); it adds no mass", code="usd-value-invalid")
            return info
        m = self.units.meters
        info.volume = volume / m ** 3
        info.centerOfMass = Gf.Vec3f(*(c / m for c in com))
        info.inertia = Gf.Matrix3f(*[v / m ** 5 for row in I for v in row])
        info.localPos = Gf.Vec3f(*(v / m for v in X.p))
        q = matrix_to_quaternion(X.R)
        info.localRot = Gf.Quatf(q[0], Gf.Vec3f(q[1], q[2], q[3]))
        return info

    def _shape_quietly(self, prim, body_key):
        """The shape as :meth:`_shape` gives it, without a second warning
        (its collision was read, and warned about, already)."""
        policy = self.diagnostic
        seen = len(policy.warnings_seen)
        strict, policy.strict = policy.strict, False
        try:
            return self._shape(prim, body_key, collision=True)
        finally:
            policy.strict = strict
            del policy.warnings_seen[seen:]


def authored_mass(prim):
    """(mass, principal moments, principal axes, centre of mass) a body's
    PhysicsMassAPI gives, each None where not given: a mass of 0, moments of
    0 and an infinite centre mean "not given" in the schema. (OpenUSD's own
    ComputeMassProperties also drops principal moments below 1e-6, real for
    small links; given values are taken here as written, as Newton does.)"""
    from pxr import UsdPhysics
    api = UsdPhysics.MassAPI(prim)
    if not api:
        return None, None, None, None
    mass = api.GetMassAttr().Get()
    mass = float(mass) if mass is not None and math.isfinite(mass) and mass > 0 else None
    diagonal = api.GetDiagonalInertiaAttr().Get()
    if diagonal is None or all(v == 0 for v in diagonal) or not all(
            math.isfinite(v) and v >= 0 for v in diagonal):
        diagonal = None
    axes = api.GetPrincipalAxesAttr().Get()
    if axes is not None and axes.GetReal() == 0 and not any(axes.GetImaginary()):
        axes = None
    com = api.GetCenterOfMassAttr().Get()
    com = tuple(float(v) for v in com) if com is not None and all(
        math.isfinite(v) for v in com) else None
    return mass, (tuple(diagonal) if diagonal is not None else None), axes, com


def unit_mass_properties(shape) -> tuple[float, tuple, tuple]:
    """(volume, centre, inertia about the centre as rows) of a shape at unit
    density, in its own frame."""
    zero = (0.0, 0.0, 0.0)
    if isinstance(shape, Box):
        size = tuple(v / 2 for v in shape.size())
        kind = "box"
    elif isinstance(shape, Sphere):
        size, kind = (shape.radius,), "sphere"
    elif isinstance(shape, Ellipsoid):
        size, kind = (shape.a, shape.b, shape.c), "ellipsoid"
    elif isinstance(shape, (Cylinder, Capsule)):
        size = (shape.radius, shape.length / 2)
        kind = "cylinder" if isinstance(shape, Cylinder) else "capsule"
    elif isinstance(shape, Mesh):
        mass, com, I = shape_triangles(shape).mass_properties(1.0)
        ixx, iyy, izz, ixy, ixz, iyz = I
        return mass, tuple(com), ((ixx, ixy, ixz), (ixy, iyy, iyz), (ixz, iyz, izz))
    else:
        return 0.0, zero, ((0.0,) * 3,) * 3
    volume = primitive_volume(kind, size, False)
    if kind == "box":
        a, b, c = (2 * v for v in size)
        d = (volume * (b * b + c * c) / 12, volume * (a * a + c * c) / 12,
             volume * (a * a + b * b) / 12)
    else:
        d = primitive_inertia(kind, size, volume, False)
    return volume, zero, ((d[0], 0.0, 0.0), (0.0, d[1], 0.0), (0.0, 0.0, d[2]))
