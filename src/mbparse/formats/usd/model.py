"""The stage's UsdPhysics description into the plant: bodies, their mass,
geometry and joints (see the package's docstring)."""
from __future__ import annotations

import math
import warnings


from ...geometry import (CoulombFriction, GeometryInstance, GeometryProperties, ILLUSTRATION, PERCEPTION, PROXIMITY)
from ...plant import ModelError
from ...source_location import declared_at
from ...spatial import RigidTransform, matmul, matvec
from ...workspace import DataSource, Workspace
from ...description import describe
from .geometry import (SHAPE_TYPES, ShapeProblem, colour_of, material_name, mesh_shape, posed,
                       shape_of)
from .joints import JointBuilder
from .mass import UsdMass
from .poses import finite, matrix, split
from .stage import StageUnits

FLT_MAX = 3.4028234663852886e38


def load_physics(stage):
    """OpenUSD's UsdPhysics parse of the whole stage: {ObjectType: (paths, descs)}."""
    from pxr import UsdPhysics
    load = getattr(UsdPhysics, "LoadUsdPhysicsFromRange", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        newer = getattr(UsdPhysics, "UsdPhysicsLoadStageFromPrimRange", None)
        if newer is not None:
            try:
                return newer(stage, ["/"])
            except TypeError:
                pass
        return load(stage, ["/"])


class UsdModelReader(UsdMass):
    """One stage read into one model instance."""

    def __init__(self, stage, source: DataSource, workspace: Workspace):
        from pxr import UsdGeom
        self.stage = stage
        self.source = source
        self.file = source.name()
        self.workspace = workspace
        self.plant = workspace.plant
        self.diagnostic = workspace.diagnostic
        self.units = StageUnits(stage, self.file, self.diagnostic)
        self.cache = UsdGeom.XformCache()
        self.bodies: dict[str, object] = {}   # prim path -> body
        self.X_WB: dict[str, RigidTransform] = {}  # prim path -> world pose (metres, z up)
        self.scales: dict[str, tuple] = {}    # prim path -> the body prim's own scale
        self.names: dict[int, set[str]] = {}  # model instance -> body and frame names
        self.body_instance: dict[str, int] = {}  # body path -> its articulation's instance
        self.colliders: dict[str, list] = {}  # body path -> its collision prims' paths
        self._geometry_names: dict[tuple[int, str], set[str]] = {}  # (body, role) -> names

    # -- diagnostics --------------------------------------------------------
    def warn(self, path, message: str, code: str = "usd-unsupported") -> None:
        self.diagnostic.warning(f"prim <{path}>: {message}", self.file, None,
                                element=str(path), code=code)

    def fail(self, path, message: str, code: str = "usd-value-invalid") -> None:
        self.diagnostic.error(f"prim <{path}>: {message}", self.file, None,
                              element=str(path), code=code)

    # -- the model ----------------------------------------------------------
    def read(self, model_name: str, parent_model_name: str | None) -> int:
        from pxr import UsdPhysics
        from . import stem
        stage = self.stage
        default = stage.GetDefaultPrim()
        name = model_name or (self._display(default) if default else "") or stem(self.source)
        plant = self.plant
        instance_name = self.workspace.make_model_name(name, parent_model_name)
        try:
            self.instance = plant.add_model_instance(instance_name)
        except ModelError as e:
            self.diagnostic.error(str(e), self.file, code="name-duplicate")
        parsed = load_physics(stage)
        T = UsdPhysics.ObjectType
        self._articulations(instance_name, parsed.get(T.Articulation, ([], [])))
        with declared_at(self.file, None):
            for path, desc in zip(*parsed.get(T.RigidBody, ([], []))):
                self._body(path, desc)
            shapes = {}
            for kind in (T.CubeShape, T.SphereShape, T.CapsuleShape, T.CylinderShape,
                         T.MeshShape, T.PlaneShape, T.Capsule1Shape, T.Cylinder1Shape,
                         T.ConeShape, T.CustomShape, T.SpherePointsShape):
                for path, desc in zip(*parsed.get(kind, ([], []))):
                    shapes[str(path)] = (kind, desc)
            materials = {str(p): d for p, d in zip(*parsed.get(T.RigidBodyMaterial, ([], [])))}
            for path, (kind, desc) in shapes.items():
                self._collision(path, kind, desc, materials)
            self._visuals(shapes)
            self._masses()
            joints = JointBuilder(self)
            for kind in (T.FixedJoint, T.RevoluteJoint, T.PrismaticJoint, T.SphericalJoint,
                         T.D6Joint, T.DistanceJoint, T.CustomJoint):
                for path, desc in zip(*parsed.get(kind, ([], []))):
                    joints.add(path, kind, desc)
            joints.finish()
        return self.instance

    def _articulations(self, instance_name: str, articulations) -> None:
        """A stage of several articulations whose bodies' names repeat (one
        robot per environment, as Isaac Lab replicates them) gives each its
        own model instance,
        ``MODEL::NAME`` after the prim that holds its root (its path below
        the others' common folder when their names repeat)."""
        paths, descs = articulations
        self.instances = [self.instance]
        if len(paths) < 2:
            return
        # Only when their bodies' names repeat (replicated robots): a stage
        # of two differently named arms stays one model, as its URDF was.
        names_of = [self._display(self.stage.GetPrimAtPath(b)) for d in descs
                    for b in d.articulatedBodies if not b.isEmpty]
        if len(set(names_of)) == len(names_of):
            return
        names = [self._display(self.stage.GetPrimAtPath(p)) for p in paths]
        if len(set(names)) < len(names):
            parts = [p.pathString.strip("/").split("/") for p in paths]
            common = 0
            while all(len(q) > common + 1 and q[common] == parts[0][common] for q in parts):
                common += 1
            names = ["::".join(q[common:]) for q in parts]
        for name, desc in zip(names, descs):
            try:
                index = self.plant.add_model_instance(f"{instance_name}::{name}")
            except ModelError as e:
                self.diagnostic.error(str(e), self.file, code="name-duplicate")
            self.instances.append(index)
            for body_path in desc.articulatedBodies:
                if not body_path.isEmpty:
                    self.body_instance[body_path.pathString] = index

    @staticmethod
    def _display(prim) -> str:
        return prim.GetDisplayName() or prim.GetName()

    def unique_name(self, prim, taken: set[str]) -> str:
        name = self._display(prim)
        if name in taken:
            base, k = name, 1
            while f"{base}_{k}" in taken:
                k += 1
            name = f"{base}_{k}"
            self.warn(prim.GetPath(), f"its name is taken by another prim of the model; it is "
                      f"read as '{name}'", code="usd-name-duplicate")
        taken.add(name)
        return name

    # -- bodies -------------------------------------------------------------
    def world_pose(self, prim) -> tuple[RigidTransform, tuple, bool]:
        """The prim's pose in the plant's world (metres, z up), its scale and
        whether a shear was left out."""
        X, s, sheared = split(matrix(self.cache.GetLocalToWorldTransform(prim)))
        R_up, m = self.units.R_up, self.units.meters
        X = RigidTransform(matmul(R_up, X.R), matvec(R_up, tuple(v * m for v in X.p)))
        return X, s, sheared

    def _body(self, path, desc) -> None:
        prim = self.stage.GetPrimAtPath(path)
        key = str(path)
        if desc.kinematicBody:
            self.warn(path, "a kinematic body (moved by animation, not by physics) is read as "
                      "a body that floats")
        if not desc.rigidBodyEnabled:
            self.warn(path, "a disabled rigid body (physics:rigidBodyEnabled = false) is read "
                      "as a body")
        X, s, sheared = self.world_pose(prim)
        if not finite(X) or not all(math.isfinite(v) for v in s):
            self.fail(path, "its world transform holds a number that is not finite",
                      code="number-not-finite")
        if sheared:
            self.warn(path, "its transform holds a shear, which a rigid body cannot have; the "
                      "nearest rotation is read")
        instance = self.body_instance.get(key, self.instance)
        name = self.unique_name(prim, self.names.setdefault(instance, set()))
        try:
            body = self.plant.add_rigid_body(name, instance)
        except ModelError as e:
            self.fail(path, str(e), code=e.code)
        self.bodies[key] = body
        self.colliders[key] = list(desc.collisions)
        self.X_WB[key] = X
        self.scales[key] = s
        self.plant.set_default_free_body_pose(body, X)

    def body_of(self, path) -> object | None:
        """The body a rigid-body path names (None: the world)."""
        return self.bodies.get(str(path)) if path and not path.isEmpty else None

    def relative_pose(self, prim, body_path: str | None):
        """(pose in the body (the world for None), scale, sheared) of a prim."""
        X_WP, s, sheared = self.world_pose(prim)
        if body_path is None:
            return X_WP, s, sheared
        X_WB = self.X_WB[body_path]
        return X_WB.inverse() @ X_WP, s, sheared

    # -- geometry -----------------------------------------------------------
    def _collision(self, path, kind, desc, materials) -> None:
        from pxr import UsdPhysics
        T = UsdPhysics.ObjectType
        prim = self.stage.GetPrimAtPath(path)
        if kind in (T.ConeShape, T.CustomShape, T.SpherePointsShape):
            self.warn(path, f"a {prim.GetTypeName() or 'custom'} collision shape has no shape "
                      "in the plant; it is left out")
            return
        if not desc.collisionEnabled:
            self.warn(path, "a collision shape with collision turned off is left out")
            return
        body_key = str(desc.rigidBody) if not desc.rigidBody.isEmpty else None
        if body_key is not None and body_key not in self.bodies:
            body_key = None
        body = self.bodies[body_key] if body_key else self.plant.world_body()
        shape, X = self._shape(prim, body_key, collision=True)
        if shape is None:
            return
        props = GeometryProperties()
        friction = self._friction(path, desc, materials)
        if friction is not None:
            props.add_property("material", "coulomb_friction", friction)
        instance = GeometryInstance(X, shape, self.unique_geometry_name(prim, body, PROXIMITY))
        try:
            self.plant.register_collision_geometry(body, instance, props)
        except ModelError as e:
            self.fail(path, str(e), code=e.code)
        if self._visible(prim):
            self._register_visual(prim, body, shape, X)

    def _friction(self, path, desc, materials) -> CoulombFriction | None:
        for material_path in desc.materials:
            m = materials.get(str(material_path))
            if m is None:
                continue
            static, dynamic = float(m.staticFriction), float(m.dynamicFriction)
            friction = CoulombFriction(max(static, dynamic), dynamic)
            if static < dynamic:
                self.warn(path, f"its physics material's static friction {static} is below its "
                          f"dynamic friction {dynamic}; the static friction is read as {dynamic}",
                          code="usd-value-invalid")
            if friction.invalidity():
                self.warn(path, f"its physics material: {friction.invalidity()}; the default "
                          "friction is read", code="usd-value-invalid")
                return None
            return friction
        return None

    @staticmethod
    def _visible(prim) -> bool:
        """Whether a collision prim is also drawn: not a guide, not invisible."""
        from pxr import UsdGeom
        img = UsdGeom.Imageable(prim)
        if not img:
            return False
        if str(img.ComputePurpose()) in ("guide", "proxy"):
            return False
        return str(img.ComputeVisibility()) != "invisible"

    def _shape(self, prim, body_key: str | None, collision: bool):
        """(shape, pose in the body) of a geometry prim; (None, None) after a
        warning when it cannot be one."""
        from pxr import UsdPhysics
        X, s, sheared = self.relative_pose(prim, body_key)
        path = prim.GetPath()
        if not finite(X) or not all(math.isfinite(v) for v in s):
            self.warn(path, "its transform holds a number that is not finite; the geometry is "
                      "left out", code="usd-value-invalid")
            return None, None
        if sheared:
            self.warn(path, "its transform holds a shear, which the plant's shapes cannot "
                      "have; the nearest rotation is read")
        try:
            if prim.GetTypeName() == "Mesh":
                convex = False
                if collision:
                    api = UsdPhysics.MeshCollisionAPI(prim)
                    approx = str(api.GetApproximationAttr().Get()) if api else "none"
                    convex = approx not in ("none", "")
                    if approx not in ("none", "", "convexHull"):
                        self.warn(path, f"its collision approximation '{approx}' is read as "
                                  "the mesh's convex hull")
                shape = mesh_shape(prim, s, self.units.meters, convex)
                return shape, X
            shape, R_after = shape_of(prim, s, self.units.meters)
        except ShapeProblem as e:
            self.warn(path, f"{e}; the geometry is left out", code=e.code)
            return None, None
        except (ValueError, OSError) as e:  # ShapeError: a size no shape can have
            self.warn(path, f"{e}; the geometry is left out", code="usd-value-invalid")
            return None, None
        return shape, posed(X, R_after)

    def unique_geometry_name(self, prim, body, role: str) -> str:
        """A geometry's name: its prim's, unique among the body's geometries
        of the same role (a collision prim that is also drawn has one name
        in both roles)."""
        taken = self._geometry_names.setdefault((body.index, role), set())
        return self.unique_name(prim, taken)

    def _register_visual(self, prim, body, shape, X) -> None:
        props = GeometryProperties()
        colour = colour_of(prim)
        if colour is not None:
            props.add_property("phong", "diffuse", colour)
        instance = GeometryInstance(X, shape, self.unique_geometry_name(prim, body, ILLUSTRATION),
                                    {ILLUSTRATION: props, PERCEPTION: GeometryProperties(
                                        dict(props.items()))})
        material = material_name(prim)
        if material:
            describe(instance, "material", material)
        try:
            self.plant.register_visual_geometry(body, instance)
        except ModelError as e:
            self.fail(prim.GetPath(), str(e), code=e.code)

    def _visuals(self, shapes: dict) -> None:
        """Geometry prims without collision: visuals of the body above them
        (the world's when none)."""
        from pxr import Usd, UsdGeom
        # (through instance proxies: Isaac Sim's assets share their meshes
        # as instanceable prims)
        everything = Usd.TraverseInstanceProxies(Usd.PrimDefaultPredicate)
        for prim in Usd.PrimRange(self.stage.GetPseudoRoot(), everything):
            path = prim.GetPath().pathString
            key = path if path in self.bodies else None
            if (key is None and prim.GetTypeName() == "Xform"
                    and not prim.GetFilteredChildren(everything)
                    and self._body_above(path) is not None):
                self._frame(prim, self._body_above(path))
                continue
            if path in shapes or not prim.IsA(UsdGeom.Gprim):
                continue
            img = UsdGeom.Imageable(prim)
            if str(img.ComputePurpose()) in ("guide", "proxy") or str(
                    img.ComputeVisibility()) == "invisible":
                continue
            body_key = self._body_above(path) if key is None else key
            if prim.GetTypeName() not in SHAPE_TYPES:
                self.warn(prim.GetPath(), f"a {prim.GetTypeName()} prim has no shape in the "
                          "plant; it is not drawn")
                continue
            body = self.bodies[body_key] if body_key else self.plant.world_body()
            shape, X = self._shape(prim, body_key, collision=False)
            if shape is not None:
                self._register_visual(prim, body, shape, X)

    def _frame(self, prim, body_key: str) -> None:
        """An empty Xform below a body: a frame of the model (as mbparse
        writes frames, and as converters write a URDF's sensor and tool
        links merged into their body)."""
        body = self.bodies[body_key]
        X, _, _ = self.relative_pose(prim, body_key)
        name = self._display(prim)
        if self.plant.has_frame_named(name, body.model_instance):
            self.warn(prim.GetPath(), f"an empty Xform is read as a frame, but the model has a "
                      f"frame named '{name}'; it is left out", code="usd-name-duplicate")
            return
        try:
            self.plant.add_frame(name, body.body_frame, X, body.model_instance)
        except ModelError as e:
            self.fail(prim.GetPath(), str(e), code=e.code)

    def _body_above(self, path: str) -> str | None:
        while path not in ("", "/"):
            path = path.rpartition("/")[0]
            if path in self.bodies:
                return path
        return None


__all__ = ["UsdModelReader", "load_physics"]
