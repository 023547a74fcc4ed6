"""The geometry part of the USD writer (:mod:`.usd`): visuals and collisions
as UsdGeom prims under their body, their colours and named materials, the
physics materials of their friction, meshes written into the file, and the
forms USD needs for what UsdPhysics does not collide with (an ellipsoid as a
convex mesh, a half space as a static plane)."""
from __future__ import annotations

import os

from ...description import facts
from ...geometry import (Box, Capsule, Convex, Cylinder, Ellipsoid, Geometry, HalfSpace, Mesh,
                         Sphere)
from ...geometry.properties import PROXIMITY
from ..loss import APPROXIMATED, DROPPED, ConvertError
from .base import geometry_label
from .walk import BodyNode

# The facts (mbparse.description) of a geometry this writer carries: a
# visual's material name (its bound UsdPreviewSurface material).
WRITTEN_GEOMETRY_FACTS = ("material",)

ELLIPSOID_SEGMENTS = 24  # around z; half as many from pole to pole
ELLIPSOID_TRIANGLES = 2 * ELLIPSOID_SEGMENTS * (ELLIPSOID_SEGMENTS // 2 - 1)


def ellipsoid_triangles(a: float, b: float, c: float):
    """A closed, outward-wound triangle mesh on the ellipsoid of semi-axes
    a, b, c (latitude rings between two poles)."""
    import numpy as np
    from ...geometry.meshes import TriangleMesh
    n, m = ELLIPSOID_SEGMENTS, ELLIPSOID_SEGMENTS // 2
    phi = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
    theta = np.linspace(0.0, np.pi, m + 1)[1:-1]
    ring = np.stack([np.outer(np.sin(theta), np.cos(phi)).ravel(),
                     np.outer(np.sin(theta), np.sin(phi)).ravel(),
                     np.repeat(np.cos(theta), n)], axis=1)
    V = np.vstack([[0.0, 0.0, 1.0], ring, [0.0, 0.0, -1.0]]) * np.array([a, b, c])
    top, bottom = 0, len(V) - 1
    faces = []
    for j in range(n):
        faces.append((top, 1 + j, 1 + (j + 1) % n))
    for i in range(m - 2):
        for j in range(n):
            p, q = 1 + i * n + j, 1 + i * n + (j + 1) % n
            faces += [(p, p + n, q + n), (p, q + n, q)]
    last = 1 + (m - 2) * n
    for j in range(n):
        faces.append((last + j, bottom, last + (j + 1) % n))
    return TriangleMesh(V, np.asarray(faces, dtype=np.int64))



def fixed_to_world(node: BodyNode) -> bool:
    """Whether a body is welded to the world, directly or through welds."""
    while node is not None:
        h = node.hinge
        if h is None:
            return node.welded_root
        if h.joint.type_name != "weld":
            return False
        node = node.parent
    return True


class UsdGeometry:
    """Geometry for :class:`.usd.UsdWriter` (which holds the stage, the
    names and the poses these methods use)."""

    # -- geometry -----------------------------------------------------------
    def _group(self, body_path, kind: str):
        """The Scope ``visuals`` or ``collisions`` of a body, made on first use."""
        _, _, _, UsdGeom, _, _, _ = self.pxr
        key = (str(body_path), kind)
        path = self.groups.get(key)
        if path is None:
            path = body_path.AppendChild(self._prim_name(str(body_path), kind, None))
            UsdGeom.Scope.Define(self.stage, path)
            self.groups[key] = path
        return path

    def _geometry(self, body_path, g: Geometry) -> None:
        collision, visual = self.is_collision(g), self.is_visual(g)
        written: tuple[str, ...] = ()
        if visual:
            prim = self._shape(body_path, "visuals", g)
            if prim is not None:
                self._colour(prim, g)
                written = WRITTEN_GEOMETRY_FACTS
        if collision:
            X = None
            if isinstance(g.shape, HalfSpace) and g.body != 0:
                # UsdPhysics collides with planes on static geometry only.
                node = self.walk.nodes[g.body]
                if not fixed_to_world(node):
                    self.report.add(DROPPED, geometry_label(g), "a half space on a body that "
                                    "can move (UsdPhysics allows planes on static geometry "
                                    "only)", g.instance.source)
                    body_path = None
                else:
                    X = self.X_W[g.body] @ g.X_BG
                    body_path = self._world_path()
                    self.report.add(APPROXIMATED, geometry_label(g), "the half space is "
                                    "written as a static plane where its body, fixed to the "
                                    "world, holds it (UsdPhysics allows planes on static "
                                    "geometry only)", g.instance.source)
            prim = self._shape(body_path, "collisions", g, X) if body_path is not None else None
            if prim is not None:
                self._collision(prim, g)
        self.report_facts(g.instance, geometry_label(g), written, g.instance.source)

    def _world_path(self):
        """The Xform of the geometry fixed in the world (no rigid body)."""
        if self.world_path is None:
            UsdGeom = self.pxr[3]
            self.world_path = self.root_path.AppendChild(
                self._prim_name(str(self.root_path), "world", None))
            UsdGeom.Xform.Define(self.stage, self.world_path)
        return self.world_path

    def _shape(self, body_path, kind: str, g: Geometry, X=None):
        """The prim of a geometry under ``body_path``'s ``kind`` group, at
        its pose in the body (or at ``X``); None, reported, when USD has no
        form for it."""
        Gf, _, _, UsdGeom, _, _, Vt = self.pxr
        s = g.shape
        if isinstance(s, Mesh):
            mesh = self._triangles(g, s)
            if mesh is None:
                return None
        parent = self._group(body_path, kind)
        name = self.geometry_name(g)
        what = f"geometry '{g.name}'"
        X = g.X_BG if X is None else X
        if isinstance(s, Box):
            obj = self._define(UsdGeom.Cube, parent, name, what)
            obj.CreateSizeAttr(1.0)
            self._set_pose(obj, X, s.size())
        elif isinstance(s, Sphere):
            obj = self._define(UsdGeom.Sphere, parent, name, what)
            obj.CreateRadiusAttr(float(s.radius))
            self._set_pose(obj, X)
        elif isinstance(s, (Cylinder, Capsule)):
            obj = self._define(UsdGeom.Cylinder if isinstance(s, Cylinder) else UsdGeom.Capsule,
                               parent, name, what)
            obj.CreateRadiusAttr(float(s.radius))
            obj.CreateHeightAttr(float(s.length))
            obj.CreateAxisAttr(UsdGeom.Tokens.z)
            self._set_pose(obj, X)
        elif isinstance(s, Ellipsoid) and kind == "visuals":
            obj = self._define(UsdGeom.Sphere, parent, name, what)
            obj.CreateRadiusAttr(1.0)
            self._set_pose(obj, X, (s.a, s.b, s.c))
        elif isinstance(s, Ellipsoid):
            # UsdPhysics collides with no scaled sphere: a convex mesh.
            obj = self._mesh(parent, name, g, s, ellipsoid_triangles(s.a, s.b, s.c))
            obj.GetPrim().SetCustomDataByKey("mbparse:convex", True)
            self._set_pose(obj, X)
            self.report.add(APPROXIMATED, geometry_label(g),
                            f"UsdPhysics has no ellipsoid: a convex mesh of "
                            f"{ELLIPSOID_TRIANGLES} triangles on the ellipsoid is written",
                            g.instance.source)
        elif isinstance(s, HalfSpace):
            obj = self._define(UsdGeom.Plane, parent, name, what)
            obj.CreateAxisAttr(UsdGeom.Tokens.z)
            self._set_pose(obj, X)
        elif isinstance(s, Mesh):
            obj = self._mesh(parent, name, g, s, mesh)
            self._set_pose(obj, X)
        else:
            self.report.add(DROPPED, geometry_label(g), f"a {s.type_name} has no USD shape",
                            g.instance.source)
            return None
        return obj.GetPrim()

    def _triangles(self, g: Geometry, s: Mesh):
        """The mesh's triangles, scaled (its hull for a convex shape); None,
        reported, when the file cannot be read."""
        from ...geometry.meshes import MeshError, shape_triangles
        import numpy as np
        try:
            mesh = shape_triangles(s)
        except (MeshError, OSError) as e:
            self.report.add(DROPPED, geometry_label(g), f"the mesh cannot be read to be written "
                            f"into the USD file: {e}", g.instance.source)
            return None
        if not np.isfinite(mesh.vertices).all():
            raise ConvertError(f"the mesh of {geometry_label(g)} scaled by {s.scale} has a "
                               "vertex that is not finite; nothing was written")
        return mesh

    def _mesh(self, parent, name: str, g: Geometry, s: Mesh, mesh):
        Gf, _, _, UsdGeom, _, _, Vt = self.pxr
        import numpy as np
        obj = self._define(UsdGeom.Mesh, parent, name, f"geometry '{g.name}'")
        obj.CreatePointsAttr(Vt.Vec3fArray.FromNumpy(mesh.vertices.astype(np.float32)))
        obj.CreateFaceVertexCountsAttr(Vt.IntArray.FromNumpy(
            np.full(len(mesh.faces), 3, dtype=np.int32)))
        obj.CreateFaceVertexIndicesAttr(Vt.IntArray.FromNumpy(
            mesh.faces.reshape(-1).astype(np.int32)))
        obj.CreateSubdivisionSchemeAttr(UsdGeom.Tokens.none)
        prim = obj.GetPrim()
        if isinstance(s, Mesh):
            prim.SetCustomDataByKey("mbparse:source", os.path.basename(s.filename))
        if isinstance(s, Convex):
            prim.SetCustomDataByKey("mbparse:convex", True)
        return obj

    def _colour(self, prim, g: Geometry) -> None:
        """A visual's colour as its displayColor (what every USD viewer
        draws) and, when the source named its material, as a
        UsdPreviewSurface material of that name bound to it."""
        Gf, _, _, UsdGeom, _, UsdShade, Vt = self.pxr
        color = self.rgba(g)
        if color is None:
            return
        gprim = UsdGeom.Gprim(prim)
        gprim.CreateDisplayColorAttr(Vt.Vec3fArray([Gf.Vec3f(color.r, color.g, color.b)]))
        if color.a != 1.0:
            gprim.CreateDisplayOpacityAttr(Vt.FloatArray([color.a]))
        name = facts(g.instance).get("material")
        if name:
            UsdShade.MaterialBindingAPI.Apply(prim).Bind(self._look(name, color))

    def _look(self, name: str, color):
        """The UsdPreviewSurface material ``name`` of colour ``color`` (one
        per name and colour, under the robot's ``Looks``)."""
        Gf, Sdf, _, _, _, UsdShade, _ = self.pxr
        key = (name, tuple(color.to_list()))
        material = self.looks.get(key)
        if material is None:
            if self.looks_path is None:
                self.looks_path = self._scope("Looks")
            material = self._define(UsdShade.Material, self.looks_path, name,
                                    f"material '{name}'")
            shader = UsdShade.Shader.Define(self.stage, material.GetPath().AppendChild("surface"))
            shader.CreateIdAttr("UsdPreviewSurface")
            shader.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).Set(
                Gf.Vec3f(color.r, color.g, color.b))
            shader.CreateInput("opacity", Sdf.ValueTypeNames.Float).Set(float(color.a))
            material.CreateSurfaceOutput().ConnectToSource(shader.ConnectableAPI(), "surface")
            self.looks[key] = material
        return material

    def _collision(self, prim, g: Geometry) -> None:
        _, _, _, UsdGeom, UsdPhysics, UsdShade, _ = self.pxr
        UsdPhysics.CollisionAPI.Apply(prim)
        UsdGeom.Imageable(prim).CreatePurposeAttr(UsdGeom.Tokens.guide)
        s = g.shape
        if isinstance(s, (Mesh, Ellipsoid)):
            api = UsdPhysics.MeshCollisionAPI.Apply(prim)
            api.CreateApproximationAttr(UsdPhysics.Tokens.convexHull
                                        if isinstance(s, (Convex, Ellipsoid))
                                        else UsdPhysics.Tokens.none)
        friction = self.friction(g)
        if friction is not None:
            UsdShade.MaterialBindingAPI.Apply(prim).Bind(
                self._physics_material(friction), UsdShade.Tokens.weakerThanDescendants,
                "physics")
        props = g.properties(PROXIMITY)
        for (group, name), _ in (props.items() if props is not None else ()):
            if (group, name) != ("material", "coulomb_friction"):
                self.report.add(DROPPED, geometry_label(g),
                                f"the proximity property {group}/{name} (UsdPhysics has no "
                                "place for it)", g.instance.source)

    def _physics_material(self, friction):
        _, _, _, _, UsdPhysics, UsdShade, _ = self.pxr
        key = (friction.static_friction, friction.dynamic_friction)
        material = self.materials.get(key)
        if material is None:
            if self.materials_path is None:
                self.materials_path = self._scope("PhysicsMaterials")
            parent = self.materials_path
            material = UsdShade.Material.Define(
                self.stage, parent.AppendChild(f"friction_{len(self.materials)}"))
            api = UsdPhysics.MaterialAPI.Apply(material.GetPrim())
            api.CreateStaticFrictionAttr(float(friction.static_friction))
            api.CreateDynamicFrictionAttr(float(friction.dynamic_friction))
            self.materials[key] = material
        return material
