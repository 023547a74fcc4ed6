"""OpenUSD from the model, in the UsdPhysics schema (Pixar's ``usd-core``).

The stage is in metres and kilograms with +z up; its default prim is the
robot, an ``Xform``. Each body is an ``Xform`` child of it at its world pose
(the joints' default positions), with ``PhysicsRigidBodyAPI`` and
``PhysicsMassAPI`` (mass, centre of mass, the principal moments of the
inertia about it and their axes); the base body of each tree of joints has
``PhysicsArticulationRootAPI``. Geometry hangs
below its body: visuals under ``visuals`` as ``Cube`` / ``Sphere`` /
``Cylinder`` / ``Capsule`` / ``Plane`` / ``Mesh`` prims with their colour
(``primvars:displayColor``), collisions under ``collisions`` with
``PhysicsCollisionAPI`` (a mesh with ``PhysicsMeshCollisionAPI``: ``convexHull``
for a convex shape, ``none`` for a mesh), their friction in a physics
material. Meshes are written into the file (points and faces), so the file
stands alone. Joints are ``PhysicsRevoluteJoint`` / ``PhysicsPrismaticJoint`` /
``PhysicsSphericalJoint`` / ``PhysicsFixedJoint``, or a generic
``PhysicsJoint`` with ``PhysicsLimitAPI`` per locked or limited degree of
freedom (a D6 joint) where nothing else fits; limits in USD's units
(degrees), ``PhysicsDriveAPI`` where the source gives an effort limit or
damping. A body welded to the world gets a fixed joint with no ``body0``.

Prim names must be identifiers; a name that is not keeps its own as the
prim's ``displayName`` (which the USD reader of mbparse reads back).

``pxr`` is imported on first use; without it, :class:`UsdWriter` refuses
with the command that installs it.
"""
from __future__ import annotations

import math

from ...description import facts
from ...spatial import (IDENTITY, RigidTransform, inertia_matrix, make_from_one_unit_vector,
                        matmul, matrix_to_quaternion)
from ..loss import APPROXIMATED, DROPPED, RENAMED, SPLIT, ConvertError
from .base import Writer
from .usd_geometry import UsdGeometry
from .walk import BodyNode, where

INSTALL_HINT = "pip install 'mbparse[usd]'"
SUFFIXES = (".usda", ".usdc", ".usd")
DEGREES = 180.0 / math.pi
# What a massless body with collision shapes, and a zero (or negative)
# principal moment of inertia, are given: UsdPhysics reads zeros as "not
# given" and computes them, and OpenUSD's validator wants positive moments.
TINY_MASS = 1e-9
TINY_INERTIA = 1e-12

# The joints written as a D6 (generic PhysicsJoint): the degrees of freedom
# each leaves free, in the joint frame (x along the model joint's axis for a
# screw). The others are locked (a LimitAPI with low > high).
D6_FREE = {
    "universal": ("rotX", "rotY"),
    "planar": ("transX", "transY", "rotZ"),
    "screw": ("transX", "rotX"),
    "quaternion_floating": ("transX", "transY", "transZ", "rotX", "rotY", "rotZ"),
    "rpy_floating": ("transX", "transY", "transZ", "rotX", "rotY", "rotZ"),
}
D6_DOFS = ("transX", "transY", "transZ", "rotX", "rotY", "rotZ")

# The facts (mbparse.description) of a joint this writer carries: its effort
# limit (a drive's maxForce).
WRITTEN_JOINT_FACTS = ("effort",)


def import_pxr():
    """The ``pxr`` modules this writer uses; a ConvertError naming the
    package to install when OpenUSD is absent."""
    try:
        from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics, UsdShade, Vt
    except ImportError as e:
        raise ConvertError(f"writing USD needs Pixar's OpenUSD (usd-core), which cannot be "
                           f"imported ({e}); install it: {INSTALL_HINT}") from None
    return Gf, Sdf, Usd, UsdGeom, UsdPhysics, UsdShade, Vt


def save_usd(text: str, path: str) -> None:
    """Writes USD text (``.usda``) to ``path``: as text for ``.usda``, as
    OpenUSD's binary crate for ``.usdc`` and ``.usd`` (OpenUSD's default for
    ``.usd``)."""
    _, Sdf, _, _, _, _, _ = import_pxr()
    if path.lower().endswith(".usda"):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    layer = Sdf.Layer.CreateAnonymous(".usda")
    if not layer.ImportFromString(text):
        raise ConvertError("OpenUSD could not read back the USD text it was given")
    args = {"format": "usdc"} if path.lower().endswith(".usd") else {}
    if not layer.Export(path, args=args):
        raise OSError(f"OpenUSD could not write '{path}'")


def axis_token(axis) -> tuple[str, tuple | None]:
    """USD's axis token for a joint axis, and the rotation (None: none) that
    turns the joint's frames so that the token's axis is the model's: +x, +y
    or +z are written as X, Y or Z in the frames as they are; any other axis
    as X in frames turned to put x along it."""
    for k, token in enumerate(("X", "Y", "Z")):
        if tuple(axis) == tuple(1.0 if i == k else 0.0 for i in range(3)):
            return token, None
    return "X", make_from_one_unit_vector(axis, 0)


class UsdWriter(UsdGeometry, Writer):
    target = "USD"

    def write(self) -> str:
        Gf, Sdf, Usd, UsdGeom, UsdPhysics, UsdShade, Vt = import_pxr()
        self.pxr = (Gf, Sdf, Usd, UsdGeom, UsdPhysics, UsdShade, Vt)
        stage = Usd.Stage.CreateInMemory("model.usda")
        UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
        UsdGeom.SetStageMetersPerUnit(stage, 1.0)
        UsdPhysics.SetStageKilogramsPerUnit(stage, 1.0)
        self.stage = stage
        self.taken: dict[str, set[str]] = {}
        self._renamed: list[tuple[str, str, str]] = []  # (what, name, prim name)
        name = self.walk.model_name("scene")
        root_path = Sdf.Path.absoluteRootPath.AppendChild(
            self._prim_name("/", name, f"model '{name}'"))
        root = UsdGeom.Xform.Define(stage, root_path).GetPrim()
        stage.SetDefaultPrim(root)
        scene = UsdPhysics.Scene.Define(stage, "/physicsScene")
        scene.CreateGravityDirectionAttr(Gf.Vec3f(0.0, 0.0, -1.0))
        scene.CreateGravityMagnitudeAttr(9.81)
        self.root_path = root_path
        self.materials: dict[tuple, object] = {}
        self.materials_path = None
        self.looks: dict[tuple, object] = {}  # (name, rgba) -> UsdPreviewSurface material
        self.looks_path = None
        self.groups: dict[tuple[str, str], object] = {}
        self.body_paths: dict[int, object] = {}
        self.X_W: dict[int, RigidTransform] = {}
        self.world_path = None
        if self.walk.world_geometries or self.walk.world_frames:
            world = self._world_path()
            for g in self.walk.world_geometries:
                self._geometry(world, g)
            for frame in self.walk.world_frames:
                self._frame(world, frame)
        for node in self.walk.preorder():
            self._body(node)
        self.joints_path = None
        for node in self.walk.preorder():
            self._joint(node)
        self._filters()
        self._actuators()
        self.report_unwritten({})
        for what, name, prim_name in self._renamed:
            self.report.add(RENAMED, what, f"'{name}' is not a USD prim name; the prim is "
                            f"'{prim_name}', with '{name}' as its displayName")
        return stage.GetRootLayer().ExportToString()

    def build(self):  # pragma: no cover - the XML writers' hook; write() is overridden
        raise NotImplementedError

    # -- names --------------------------------------------------------------
    def _prim_name(self, parent: str, name: str, what: str | None) -> str:
        """A valid, unique prim name under ``parent`` for ``name``; a changed
        name is reported (its own is kept as the prim's displayName)."""
        from pxr import Tf
        valid = Tf.MakeValidIdentifier(name) if name else "_"
        taken = self.taken.setdefault(parent, set())
        candidate, k = valid, 0
        while candidate in taken:
            k += 1
            candidate = f"{valid}_{k}"
        taken.add(candidate)
        if candidate != name and what is not None:
            self._renamed.append((what, name, candidate))
        return candidate

    def _scope(self, name: str):
        """A Scope of the writer's own under the robot (a number added when
        a body took its name)."""
        path = self.root_path.AppendChild(self._prim_name(str(self.root_path), name, None))
        self.pxr[3].Scope.Define(self.stage, path)
        return path

    def _define(self, schema, parent, name: str, what: str):
        """Defines a prim of ``schema`` under ``parent`` named after ``name``;
        its displayName keeps ``name`` when the prim name differs."""
        prim_name = self._prim_name(str(parent), name, what)
        obj = schema.Define(self.stage, parent.AppendChild(prim_name))
        if prim_name != name:
            obj.GetPrim().SetDisplayName(name)
        return obj

    # -- poses --------------------------------------------------------------
    def _set_pose(self, xformable, X: RigidTransform, scale=None) -> None:
        Gf, _, _, UsdGeom, _, _, _ = self.pxr
        if any(X.p):
            xformable.AddTranslateOp(UsdGeom.XformOp.PrecisionDouble).Set(Gf.Vec3d(*X.p))
        q = matrix_to_quaternion(X.R)
        if tuple(q) != (1.0, 0.0, 0.0, 0.0):
            xformable.AddOrientOp(UsdGeom.XformOp.PrecisionDouble).Set(
                Gf.Quatd(q[0], Gf.Vec3d(q[1], q[2], q[3])))
        if scale is not None:
            xformable.AddScaleOp(UsdGeom.XformOp.PrecisionDouble).Set(Gf.Vec3d(*scale))

    def _quatf(self, R):
        Gf = self.pxr[0]
        q = matrix_to_quaternion(R)
        return Gf.Quatf(q[0], Gf.Vec3f(q[1], q[2], q[3]))

    # -- bodies -------------------------------------------------------------
    def _body(self, node: BodyNode) -> None:
        Gf, _, _, UsdGeom, UsdPhysics, _, _ = self.pxr
        body = node.body
        parent_X = self.X_W[node.parent.body.index] if node.parent is not None else IDENTITY
        X_WB = parent_X @ node.X_PB(at_default=True)
        self.X_W[body.index] = X_WB
        name = self.name(body)
        xform = self._define(UsdGeom.Xform, self.root_path, name, f"body '{body.name}'")
        self._set_pose(xform, X_WB)
        prim = xform.GetPrim()
        self.body_paths[body.index] = prim.GetPath()
        UsdPhysics.RigidBodyAPI.Apply(prim)
        if node.parent is None and (node.children or node.hinge is not None):
            # One articulation per tree, rooted at its base body (as Isaac
            # Sim's and NVIDIA's converters write it): one root over several
            # trees is refused by Newton ("multiple roots").
            UsdPhysics.ArticulationRootAPI.Apply(prim)
        self._mass(prim, node)
        if not body.gravity_enabled:
            self.report.add(DROPPED, f"body '{body.name}'", "gravity turned off for the body "
                            "(UsdPhysics has no such switch)", where(body))
        for g in node.geometries:
            self._geometry(prim.GetPath(), g)
        for frame in node.frames:
            self._frame(prim.GetPath(), frame)

    def _mass(self, prim, node: BodyNode) -> None:
        Gf, _, _, _, UsdPhysics, _, _ = self.pxr
        import numpy as np
        M = node.body.default_spatial_inertia
        what = f"the inertia of body '{node.name}'"
        for v in (M.mass, *M.com, *M.I_cm):
            if not math.isfinite(v):
                raise ConvertError(f"{what} holds {v}, which no model file can hold; nothing "
                                   "was written")
        colliding = any(self.is_collision(g) for g in node.geometries)
        if M.mass == 0 and not any(M.I_cm) and not colliding:
            # Massless, with nothing to compute a mass from: no PhysicsMassAPI
            # (its zeros mean "not given", and OpenUSD's validator refuses
            # principal axes without moments); readers find no mass.
            return
        mass_api = UsdPhysics.MassAPI.Apply(prim)
        mass = float(M.mass)
        if mass == 0 and colliding:
            # UsdPhysics reads a mass of 0 as none given and computes one
            # from the collision shapes' volume: a massless body with
            # collision shapes is written with a mass too small to matter.
            mass = TINY_MASS
            self.report.add(APPROXIMATED, f"body '{node.name}'",
                            f"its mass is 0, which UsdPhysics reads as no mass given (readers "
                            f"would compute one from its collision shapes): {TINY_MASS:g} kg "
                            "is written", where(node.body))
        mass_api.CreateMassAttr(mass)
        mass_api.CreateCenterOfMassAttr(Gf.Vec3f(*M.com))
        ixx, iyy, izz, ixy, ixz, iyz = M.I_cm
        if not (ixy or ixz or iyz):  # principal already: the body's own axes
            moments, R = [ixx, iyy, izz], IDENTITY.R
        else:
            values, vectors = np.linalg.eigh(np.array(inertia_matrix(M.I_cm), dtype=float))
            if np.linalg.det(vectors) < 0:
                vectors[:, 2] = -vectors[:, 2]
            moments = [float(v) for v in values]
            R = tuple(tuple(float(v) for v in row) for row in vectors)
        if min(moments) <= 0:
            # UsdPhysics reads moments of 0 as none given (readers would
            # compute them), and OpenUSD's validator wants each positive.
            fixed = [m if m > 0 else TINY_INERTIA for m in moments]
            self.report.add(APPROXIMATED, f"body '{node.name}'",
                            f"its principal moments of inertia {tuple(moments)} are written "
                            f"as {tuple(fixed)}: USD wants each positive (a zero moment means "
                            "none given)", where(node.body))
            moments = fixed
        mass_api.CreateDiagonalInertiaAttr(Gf.Vec3f(*moments))
        mass_api.CreatePrincipalAxesAttr(self._quatf(R))

    # -- frames -------------------------------------------------------------
    def _frame(self, parent_path, frame) -> None:
        UsdGeom = self.pxr[3]
        xform = self._define(UsdGeom.Xform, parent_path, self.name(frame) if frame.body.index
                             else frame.name, f"frame '{frame.name}'")
        self._set_pose(xform, frame.X_BF)
        xform.GetPrim().SetCustomDataByKey("mbparse:frame", True)

    # -- joints -------------------------------------------------------------
    def _joint(self, node: BodyNode) -> None:
        _, Sdf, _, UsdGeom, UsdPhysics, _, _ = self.pxr
        h = node.hinge
        if h is None and not node.welded_root:
            return  # a free body: no joint
        if self.joints_path is None:
            self.joints_path = self._scope("joints")
        body = node.body
        parent = node.parent
        if h is None:  # a static model's root: fixed where it stands
            joint = self._define(UsdPhysics.FixedJoint, self.joints_path,
                                 f"{self.name(body)}_fixed", f"the weld of body '{body.name}'")
            self._ends(joint, None, body, self.X_W[body.index], IDENTITY)
            return
        j = h.joint
        kind = j.type_name
        what = f"joint '{j.name}'"
        X_PF, X_CM = h.X_PF, h.X_CM
        if kind == "weld":
            joint = self._define(UsdPhysics.FixedJoint, self.joints_path, self.name(j), what)
            # The fixed pose of M in F goes into the parent's frame.
            X_PF = X_PF @ h.X_FM(True)
        elif kind in ("revolute", "prismatic"):
            schema = UsdPhysics.RevoluteJoint if kind == "revolute" else UsdPhysics.PrismaticJoint
            joint = self._define(schema, self.joints_path, self.name(j), what)
            token, R_a = axis_token(h.axis)
            joint.CreateAxisAttr(token)
            if R_a is not None:
                X_PF = RigidTransform(matmul(X_PF.R, R_a), X_PF.p)
                X_CM = RigidTransform(matmul(X_CM.R, R_a), X_CM.p)
            self._limits(joint, j, kind, what)
        elif kind == "ball_rpy":
            joint = self._define(UsdPhysics.SphericalJoint, self.joints_path, self.name(j), what)
            if any(math.isfinite(v) for v in j.pos_lower + j.pos_upper):
                self.report.add(DROPPED, what, "the roll-pitch-yaw limits of a ball joint "
                                "(a USD spherical joint limits a cone)", where(j))
        elif kind in D6_FREE:
            if kind in ("quaternion_floating", "rpy_floating") and parent is None:
                return  # a floating base: a free rigid body
            joint = self._define(UsdPhysics.Joint, self.joints_path, self.name(j), what)
            if kind == "screw":
                R_a = make_from_one_unit_vector(h.axis, 0)
                X_PF = RigidTransform(matmul(X_PF.R, R_a), X_PF.p)
                X_CM = RigidTransform(matmul(X_CM.R, R_a), X_CM.p)
                self.report.add(APPROXIMATED, what, "USD has no screw joint: a D6 joint free "
                                "to turn about and slide along the axis is written, without "
                                f"the pitch {j.screw_pitch} that couples them", where(j))
            else:
                self.report.add(SPLIT, what, f"USD has no {kind} joint: a D6 joint (a "
                                "PhysicsJoint with a PhysicsLimitAPI locking each degree of "
                                f"freedom other than {', '.join(D6_FREE[kind])}) is written",
                                where(j))
            for dof in D6_DOFS:
                if dof not in D6_FREE[kind]:
                    limit = UsdPhysics.LimitAPI.Apply(joint.GetPrim(), dof)
                    limit.CreateLowAttr(1.0)
                    limit.CreateHighAttr(-1.0)
            self._report_limits_of_d6(j, what)
        else:
            self.report.add(APPROXIMATED, what, f"a {kind} joint has no USD form; the body is "
                            "welded to its parent at the default configuration", where(j))
            joint = self._define(UsdPhysics.FixedJoint, self.joints_path, self.name(j), what)
            X_PF = X_PF @ h.X_FM(True)
        self._ends(joint, parent.body if parent is not None else None, body, X_PF, X_CM)
        if h.reversed:
            joint.GetPrim().SetCustomDataByKey("mbparse:reversed", True)
        self._drive(joint, j, kind, what)
        if any(math.isfinite(v) for v in j.vel_upper + j.acc_upper):
            self.report.add(DROPPED, what, "velocity and acceleration limits (UsdPhysics has "
                            "none)", where(j))
        self.report_facts(j, what, WRITTEN_JOINT_FACTS, where(j))

    def _ends(self, joint, parent_body, child_body, X_PF: RigidTransform,
              X_CM: RigidTransform) -> None:
        Gf = self.pxr[0]
        if parent_body is not None:
            joint.CreateBody0Rel().SetTargets([self.body_paths[parent_body.index]])
        joint.CreateBody1Rel().SetTargets([self.body_paths[child_body.index]])
        joint.CreateLocalPos0Attr(Gf.Vec3f(*X_PF.p))
        joint.CreateLocalRot0Attr(self._quatf(X_PF.R))
        joint.CreateLocalPos1Attr(Gf.Vec3f(*X_CM.p))
        joint.CreateLocalRot1Attr(self._quatf(X_CM.R))
        if parent_body is None and any(abs(v) > 1e3 for v in X_PF.p):
            self.report.add(APPROXIMATED, f"body '{child_body.name}'",
                            "its joint to the world is more than 1 km away; USD holds joint "
                            "positions in single precision", where(child_body))

    def _limits(self, joint, j, kind: str, what: str) -> None:
        lo, hi = j.pos_lower[0], j.pos_upper[0]
        factor = DEGREES if kind == "revolute" else 1.0
        # UsdPhysics limits a joint on both sides or not at all: an open side
        # is written as a far bound (float's largest).
        big = 3.4028234663852886e38
        if (math.isfinite(lo) and abs(lo * factor) >= big) or (
                math.isfinite(hi) and abs(hi * factor) >= big):
            self.report.add(APPROXIMATED, what, f"the limits [{lo}, {hi}] are beyond USD's "
                            "single-precision numbers; the side(s) beyond are written open",
                            where(j))
            lo = lo if abs(lo * factor) < big else -math.inf
            hi = hi if abs(hi * factor) < big else math.inf
        if not (math.isfinite(lo) or math.isfinite(hi)):
            return
        joint.CreateLowerLimitAttr(lo * factor if math.isfinite(lo) else -big)
        joint.CreateUpperLimitAttr(hi * factor if math.isfinite(hi) else big)
        if not (math.isfinite(lo) and math.isfinite(hi)):
            self.report.add(APPROXIMATED, what, f"the one-sided limit [{lo}, {hi}] is written "
                            "with the open side at float's largest value", where(j))

    def _report_limits_of_d6(self, j, what: str) -> None:
        if any(math.isfinite(v) for v in j.pos_lower + j.pos_upper):
            self.report.add(DROPPED, what, f"the position limits {j.pos_lower} .. "
                            f"{j.pos_upper} of a {j.type_name} joint", where(j))

    def _drive(self, joint, j, kind: str, what: str) -> None:
        """A drive for a revolute or prismatic joint that has an effort limit
        (an actuator's, or one the file gave), damping or an actuator:
        ``maxForce`` from the effort; ``damping`` from the joint's, or, for an
        actuator with PD gains, ``stiffness`` and ``damping`` from them (per
        degree for angles)."""
        _, _, _, _, UsdPhysics, _, _ = self.pxr
        effort = None
        actuated = [a for a in self.plant.actuators() if a.joint is j]
        if actuated and math.isfinite(actuated[0].effort_limit):
            effort = actuated[0].effort_limit
        given = facts(j).get("effort")
        if effort is None and given and math.isfinite(given[0]):
            effort = given[0]
        damping = j.damping[0] if j.damping else 0.0
        if kind not in ("revolute", "prismatic"):
            if damping or any(j.damping):
                self.report.add(DROPPED, what, f"the damping {j.damping} of a {kind} joint "
                                "(USD drives are written for revolute and prismatic joints)",
                                where(j))
            if effort is not None:
                self.report.add(DROPPED, what, f"the effort limit {effort} of a {kind} joint",
                                where(j))
            return
        if effort is None and not damping and not actuated:
            return
        drive = UsdPhysics.DriveAPI.Apply(joint.GetPrim(),
                                          "angular" if kind == "revolute" else "linear")
        drive.CreateTypeAttr("force")
        if effort is not None:
            drive.CreateMaxForceAttr(float(effort))
        per = 1.0 / DEGREES if kind == "revolute" else 1.0
        gains = actuated[0].controller_gains if actuated else None
        if gains is not None:
            # A PD-controlled actuator: the drive's stiffness and damping are
            # its gains, and a drive holds one damping.
            stiffness, damping_written = gains.p, gains.d
            if damping:
                self.report.add(DROPPED, what, f"the joint's damping {damping}: its drive "
                                f"holds the PD gains of actuator '{actuated[0].name}' (a USD "
                                "drive has one damping)", where(j))
        else:
            stiffness, damping_written = 0.0, damping
        drive.CreateDampingAttr(float(damping_written) * per)
        drive.CreateStiffnessAttr(float(stiffness) * per)

    # -- filters and actuators ----------------------------------------------
    def _filters(self) -> None:
        UsdPhysics = self.pxr[4]
        pairs: dict[int, list] = {}
        for a, b in self.filtered_pairs():
            pairs.setdefault(a.body.index, []).append(self.body_paths[b.body.index])
        for index, targets in pairs.items():
            prim = self.stage.GetPrimAtPath(self.body_paths[index])
            UsdPhysics.FilteredPairsAPI.Apply(prim).CreateFilteredPairsRel().SetTargets(targets)

    def _actuators(self) -> None:
        for a in self.plant.actuators():
            label = f"actuator '{a.name}'"
            if a.joint.type_name not in ("revolute", "prismatic"):
                continue  # (reported with its joint's effort)
            if a.gear_ratio != 1.0 or a.rotor_inertia:
                self.report.add(DROPPED, label, f"gear ratio {a.gear_ratio} and rotor inertia "
                                f"{a.rotor_inertia} (a USD drive has neither)", where(a))


__all__ = ["UsdWriter", "save_usd", "import_pxr", "INSTALL_HINT", "SUFFIXES"]
