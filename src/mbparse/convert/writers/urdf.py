"""URDF from the model: standard URDF that urdfdom (ROS), yourdfpy and
pybullet read, or, when asked (``drake_extensions``), with Drake's ``drake:``
extensions for what plain URDF cannot hold (ball, universal, screw and
curvilinear joints, capsules, ellipsoids, convex meshes, proximity
properties, collision filter groups, bushings, spring-dampers, ball
constraints, acceleration limits, rotor inertia and gains of actuators).

Without the extensions, each of those is written in the closest standard form
and reported (a capsule as a cylinder and two spheres, a ball joint as three
revolute joints through massless links, a frame as a massless link on a fixed
joint), or reported dropped when no standard form says it.

The joints are written by :mod:`.urdf_joints`. URDF puts a link's frame on
its parent joint; a joint whose frame on the child is not the child's body
frame is written through an extra massless link (reported as split), so every
body keeps its own frame.
"""
from __future__ import annotations

import copy
import os

from lxml import etree

from ...description import facts
from ...geometry import (Box, Capsule, Convex, Cylinder, Ellipsoid, Geometry, HalfSpace, Mesh,
                         Sphere)
from ...geometry.properties import HydroelasticType, PROXIMITY
from ...plant.elements import (BallConstraint, CouplerConstraint, LinearBushingRollPitchYaw,
                               LinearSpringDamper)
from ...spatial import IDENTITY, RigidTransform
from ..loss import APPROXIMATED, DROPPED
from .base import HALF_SPACE_BOX, Writer, geometry_label, num, nums, sub, unique_name, xyz_rpy
from .urdf_joints import D, DRAKE_NS, NO_LIMIT, UrdfJoints
from .walk import BodyNode, where

# Mesh files written as OBJ copies of their triangles: what no URDF reader but
# mbparse reads, and, in standard URDF, what pybullet (which reads OBJ, STL and
# DAE only, and refuses the whole file otherwise) does not read. Drake reads
# glTF, so Drake's URDF keeps it.
MESHES_AS_OBJ = {".msh": "MuJoCo's MSH meshes", ".ply": "PLY meshes",
                 ".gltf": "glTF meshes", ".glb": "glTF (GLB) meshes"}
DRAKE_READS = (".gltf", ".glb")
# Proximity properties as drake:proximity_properties children.
PROXIMITY_TAGS = {("hydroelastic", "hydroelastic_modulus"): "hydroelastic_modulus",
                  ("hydroelastic", "resolution_hint"): "mesh_resolution_hint",
                  ("hydroelastic", "margin"): "hydroelastic_margin",
                  ("material", "hunt_crossley_dissipation"): "hunt_crossley_dissipation",
                  ("material", "point_contact_stiffness"): "point_contact_stiffness",
                  ("material", "relaxation_time"): "relaxation_time"}


def proximity_children(parent, g: Geometry, writer: Writer, prefix: str,
                       as_text: bool = False) -> bool:
    """Writes ``drake:`` proximity properties of ``g`` under ``parent`` (URDF
    gives values as a ``value`` attribute, SDFormat, ``as_text``, as the
    element's text); False when there are none."""
    props = g.properties(PROXIMITY)
    wrote = False

    def value_el(tag: str, value: float, what: str = "a proximity property"):
        if as_text:
            sub(parent, prefix + tag, text=num(value, what))
        else:
            sub(parent, prefix + tag, {"value": num(value, what)})

    for (group, name), value in props.items():
        if (group, name) == ("material", "coulomb_friction"):
            if (value.static_friction, value.dynamic_friction) != (1.0, 1.0):
                value_el("mu_static", value.static_friction)
                value_el("mu_dynamic", value.dynamic_friction)
                wrote = True
        elif (group, name) == ("hydroelastic", "compliance_type"):
            tag = "rigid_hydroelastic" if value == HydroelasticType.RIGID else \
                "compliant_hydroelastic"
            sub(parent, prefix + tag)
            wrote = True
        elif (group, name) in PROXIMITY_TAGS:
            value_el(PROXIMITY_TAGS[(group, name)], value, name)
            wrote = True
        else:
            writer.report.add(DROPPED, geometry_label(g),
                              f"the proximity property {group}/{name}", g.instance.source)
    return wrote


def proximity_said(g: Geometry) -> list[str]:
    """The proximity properties of ``g`` that only ``drake:`` elements could
    say (a Coulomb friction of 1 and 1, Drake's default, says nothing)."""
    out = []
    for (group, name), value in g.properties(PROXIMITY).items():
        if (group, name) == ("material", "coulomb_friction") and (
                value.static_friction, value.dynamic_friction) == (1.0, 1.0):
            continue
        out.append(f"{group}/{name}")
    return out


class UrdfWriter(UrdfJoints, Writer):
    target = "URDF"

    def __init__(self, walk, meshes, report, drake_extensions: bool = False):
        super().__init__(walk, meshes, report)
        self.drake = drake_extensions

    def build(self):
        walk = self.walk
        name = walk.model_name("robot")
        robot = etree.Element("robot", {"name": name},
                              nsmap={"drake": DRAKE_NS} if self.drake else None)
        self.robot = robot
        self.link_names = {n.body.index: self.name(n.body) for n in walk.preorder()}
        self.taken = set(self.link_names.values()) | {"world"}
        self.joint_names = {self.name(j) for j in walk.joints}
        self.materials: set[str] = set()
        self.searched: dict[int, dict[str, int]] = {}  # by id of a set of names (unique_name)
        self.geometry_names: dict[tuple[str, str], set[str]] = {}  # by (link, role)
        self.mimics: set[int] = set()  # ids of the couplers written as <mimic>
        free = [r for r in walk.roots if r.is_free()]
        # One root link (urdfdom refuses two): a world link when anything hangs
        # from the world or several trees stand free, and floating joints from
        # it to each free tree.
        self.has_world = bool(walk.world_geometries or walk.world_frames or len(free) > 1
                              or any(not r.is_free() for r in walk.roots))
        if self.has_world:
            world = sub(robot, "link", {"name": "world"})
            for g in walk.world_geometries:
                self._geometry(world, g)
        for node in walk.preorder():
            self._link(node)
        for node in walk.preorder():
            self._joint(node)
        for node in walk.preorder():
            for frame in node.frames:
                self._frame(frame, self.link_names[node.body.index])
        for frame in walk.world_frames:
            self._frame(frame, "world")
        self._transmissions()
        self._filters()
        self._forces_and_constraints()
        return robot

    def _unique(self, name: str, taken: set[str] | None = None) -> str:
        taken = self.taken if taken is None else taken
        return unique_name(name, taken, self.searched.setdefault(id(taken), {}))

    def _joint_name(self, name: str) -> str:
        return self._unique(name, self.joint_names)

    # -- links ------------------------------------------------------------
    def _link(self, node: BodyNode) -> None:
        link = sub(self.robot, "link", {"name": self.link_names[node.body.index]})
        M = node.body.default_spatial_inertia
        what = f"the inertia of body '{node.name}'"
        inertial = sub(link, "inertial")
        sub(inertial, "origin", {"xyz": nums(M.com, what), "rpy": "0 0 0"})
        sub(inertial, "mass", {"value": num(M.mass, what)})
        ixx, iyy, izz, ixy, ixz, iyz = M.I_cm
        sub(inertial, "inertia", {k: num(v, what) for k, v in (
            ("ixx", ixx), ("ixy", ixy), ("ixz", ixz), ("iyy", iyy), ("iyz", iyz),
            ("izz", izz))})
        for g in node.geometries:
            self._geometry(link, g)
        if not node.body.gravity_enabled:
            self.report.add(DROPPED, f"body '{node.name}'", "gravity is disabled on it; URDF "
                                                            "cannot say so")

    def _geometry(self, link, g: Geometry) -> None:
        pieces = self._shape_elements(g)
        if pieces is None:
            return
        material_name = facts(g.instance).get("material")
        written: tuple[str, ...] = ()
        for role, is_role in (("visual", self.is_visual), ("collision", self.is_collision)):
            if not is_role(g):
                continue
            taken = self.geometry_names.setdefault((link.get("name"), role), set())
            color = self.rgba(g) if role == "visual" else None
            proximity = self._proximity(g) if role == "collision" else None
            for suffix, X_GS, shape in pieces:
                el = sub(link, role, {"name": self._unique(self.geometry_name(g) + suffix, taken)})
                sub(el, "origin", xyz_rpy(g.X_BG @ X_GS, f"the pose of geometry '{g.name}'"))
                geometry = sub(el, "geometry")
                geometry.append(copy.deepcopy(shape))  # (each role its own copy)
                if color is not None:
                    base = material_name or f"{self.geometry_name(g)}_material"
                    material = sub(el, "material", {"name": self._unique(base, self.materials)})
                    sub(material, "color", {"rgba": nums(color.to_list(), "a colour")})
                    written = ("material",)
                if proximity is not None:
                    el.append(copy.deepcopy(proximity))
        self.report_facts(g.instance, geometry_label(g), written, g.instance.source)

    def _proximity(self, g: Geometry):
        """Drake's contact properties of a collision geometry: a
        ``drake:proximity_properties`` element (None when there are none), or,
        in standard URDF, reported."""
        if not self.drake:
            said = proximity_said(g)
            if said:
                self.report.add(DROPPED, geometry_label(g),
                                f"the proximity properties {', '.join(said)} (standard URDF "
                                "has no contact properties; --drake-extensions writes them)",
                                g.instance.source)
            return None
        drake = etree.Element(D + "proximity_properties")
        return drake if proximity_children(drake, g, self, D) else None

    def _shape_elements(self, g: Geometry
                        ) -> list[tuple[str, RigidTransform, etree._Element]] | None:
        """The shape as (name suffix, pose in the geometry's frame, URDF
        element) pieces: one, or, for a capsule in standard URDF, a cylinder and
        two spheres."""
        s = g.shape
        what = f"the shape of geometry '{g.name}'"
        if isinstance(s, Box):
            return [("", IDENTITY, etree.Element("box", {"size": nums(s.size(), what)}))]
        if isinstance(s, Sphere):
            return [("", IDENTITY, etree.Element("sphere", {"radius": num(s.radius, what)}))]
        if isinstance(s, Cylinder):
            return [("", IDENTITY, etree.Element("cylinder", {"radius": num(s.radius, what),
                                                             "length": num(s.length, what)}))]
        if isinstance(s, Capsule):
            if self.drake:
                return [("", IDENTITY, etree.Element(D + "capsule", {
                    "radius": num(s.radius, what), "length": num(s.length, what)}))]
            self.report.add(APPROXIMATED, geometry_label(g),
                            "standard URDF has no capsule: it is written as a cylinder and a "
                            "sphere at each end, the same solid (--drake-extensions writes "
                            "drake:capsule)", g.instance.source)
            r, half = num(s.radius, what), s.length / 2
            sphere = etree.Element("sphere", {"radius": r})
            return [("", IDENTITY, etree.Element("cylinder", {"radius": r,
                                                             "length": num(s.length, what)})),
                    ("_cap_top", RigidTransform(p=(0.0, 0.0, half)), sphere),
                    ("_cap_bottom", RigidTransform(p=(0.0, 0.0, -half)), copy.deepcopy(sphere))]
        if isinstance(s, Ellipsoid):
            if self.drake:
                return [("", IDENTITY, etree.Element(D + "ellipsoid", {
                    "a": num(s.a, what), "b": num(s.b, what), "c": num(s.c, what)}))]
            return self._ellipsoid_mesh(g, s, what)
        if isinstance(s, Mesh):
            uri = None
            ext = os.path.splitext(s.filename)[1].lower()
            if ext in MESHES_AS_OBJ and not (self.drake and ext in DRAKE_READS):
                uri = self._mesh_as_obj(g, s)
            el = etree.Element("mesh", {"filename": uri or self.mesh_uri(s.filename),
                                        "scale": nums(s.scale, what)})
            if isinstance(s, Convex):
                if self.drake:
                    sub(el, D + "declare_convex")
                else:
                    self.report.add(APPROXIMATED, geometry_label(g),
                                    "Drake's convex declaration: standard URDF names the mesh "
                                    "itself, not its convex hull (--drake-extensions writes "
                                    "drake:declare_convex)", g.instance.source)
            return [("", IDENTITY, el)]
        if isinstance(s, HalfSpace):
            self.report.add(APPROXIMATED, geometry_label(g),
                            f"URDF has no half space (a ground plane): it is written as a box "
                            f"{2 * HALF_SPACE_BOX:g} m on each side whose top face is the plane",
                            g.instance.source)
            side = num(2 * HALF_SPACE_BOX, what)
            return [("", RigidTransform(p=(0.0, 0.0, -HALF_SPACE_BOX)),
                     etree.Element("box", {"size": f"{side} {side} {side}"}))]
        self.report.add(DROPPED, geometry_label(g),
                        f"a {s.type_name} has no URDF shape", g.instance.source)
        return None

    def _mesh_as_obj(self, g: Geometry, s: Mesh) -> str | None:
        """The URI of an OBJ of the triangles of a mesh file URDF readers do
        not all read (MESHES_AS_OBJ), written beside the output; None,
        reported, when the file cannot be read (the mesh is then named as it
        is)."""
        kind = MESHES_AS_OBJ[os.path.splitext(s.filename)[1].lower()]
        why = f"pybullet reads OBJ, STL and DAE meshes only, not {kind}"
        if kind.startswith("MuJoCo"):
            why = f"no URDF reader (ROS, pybullet, yourdfpy, Drake) reads {kind}"
        return self.mesh_as_obj(g, s, why)

    def _ellipsoid_mesh(self, g: Geometry, s: Ellipsoid, what: str):
        """An ellipsoid in standard URDF: a unit sphere's mesh scaled by the
        semi-axes, written into the folder of meshes the writer makes."""
        from .meshes import unit_sphere_triangles
        vertices, faces = unit_sphere_triangles()
        uri = self.meshes.generated("unit_sphere", vertices, faces,
                                    "a unit sphere, scaled to ellipsoids by <mesh scale>")
        self.report.add(APPROXIMATED, geometry_label(g),
                        f"standard URDF has no ellipsoid: it is written as the mesh '{uri}' "
                        f"(a sphere of {len(faces)} triangles) scaled by its semi-axes "
                        "(--drake-extensions writes drake:ellipsoid)", g.instance.source)
        return [("", IDENTITY, etree.Element("mesh", {"filename": uri,
                                                      "scale": nums((s.a, s.b, s.c), what)}))]

    # -- frames, actuators, filters, forces ---------------------------------
    def _frame(self, frame, link: str) -> None:
        name = self.name(frame)
        X = frame.X_BF
        if self.drake:
            sub(self.robot, "frame", {"name": name, "link": link,
                                      **xyz_rpy(X, f"the pose of frame '{frame.name}'")})
            return
        target = self._unique(name)
        self.report.add(APPROXIMATED, f"frame '{frame.name}'",
                        f"standard URDF has no <frame>: it is written as the massless link "
                        f"'{target}' on a fixed joint to '{link}' (--drake-extensions writes "
                        "<frame>)", where(frame))
        sub(self.robot, "link", {"name": target})
        self._fixed(self._joint_name(f"{target}_joint"), link, target, X)

    def _transmissions(self) -> None:
        for a in self.plant.actuators():
            t = sub(self.robot, "transmission", {"name": self._unique(f"{self.name(a)}_trans")})
            sub(t, "type", text="transmission_interface/SimpleTransmission")
            joint = sub(t, "joint", {"name": self.name(a.joint)})
            sub(joint, "hardwareInterface", text="hardware_interface/EffortJointInterface")
            act = sub(t, "actuator", {"name": self.name(a)})
            if self.drake:
                if a.rotor_inertia:
                    sub(act, D + "rotor_inertia", {"value": num(a.rotor_inertia)})
                if a.gear_ratio != 1.0:
                    sub(act, D + "gear_ratio", {"value": num(a.gear_ratio)})
                if a.controller_gains is not None:
                    sub(act, D + "controller_gains", {"p": num(a.controller_gains.p),
                                                      "d": num(a.controller_gains.d)})
                continue
            label = f"actuator '{a.name}'"
            if a.gear_ratio != 1.0:
                sub(act, "mechanicalReduction", text=num(a.gear_ratio))
                self.report.add(APPROXIMATED, label,
                                f"its gear ratio {a.gear_ratio:g} is written as ROS's "
                                "<mechanicalReduction>, which Drake's reader does not read "
                                "(--drake-extensions writes drake:gear_ratio)", where(a))
            if a.rotor_inertia:
                self.report.add(DROPPED, label, f"its rotor inertia {a.rotor_inertia:g} "
                                "(standard URDF has none; --drake-extensions writes "
                                "drake:rotor_inertia)", where(a))
            if a.controller_gains is not None:
                self.report.add(DROPPED, label, "its PD controller gains (standard URDF has "
                                "none; --drake-extensions writes drake:controller_gains)",
                                where(a))

    def _filters(self) -> None:
        for i, (a, b) in enumerate(self.filtered_pairs()):
            if not self.drake:
                self.report.add(DROPPED, f"bodies '{a.name}' and '{b.name}'",
                                "the filter that keeps them from colliding (standard URDF has "
                                "no collision filters; --drake-extensions writes "
                                "drake:collision_filter_group)", where(a.body))
                continue
            group = sub(self.robot, D + "collision_filter_group", {"name": f"filter_{i}"})
            sub(group, D + "member", {"link": self.link_names[a.body.index]})
            sub(group, D + "member", {"link": self.link_names[b.body.index]})
            sub(group, D + "ignored_collision_filter_group", {"name": f"filter_{i}"})

    def _forces_and_constraints(self) -> None:
        self._unwritten_couplers()
        if not self.drake:
            self.report_unwritten({CouplerConstraint: ""})
            return
        robot = self.robot
        for f in self.plant.force_elements():
            if isinstance(f, LinearBushingRollPitchYaw):
                el = sub(robot, D + "linear_bushing_rpy")
                sub(el, D + "bushing_frameA", {"name": self.name(f.frameA)})
                sub(el, D + "bushing_frameC", {"name": self.name(f.frameC)})
                for tag, v in (("torque_stiffness", f.torque_stiffness),
                               ("torque_damping", f.torque_damping),
                               ("force_stiffness", f.force_stiffness),
                               ("force_damping", f.force_damping)):
                    sub(el, D + f"bushing_{tag}", {"value": nums(v, "a bushing")})
            elif isinstance(f, LinearSpringDamper):
                el = sub(robot, D + "linear_spring_damper")
                sub(el, D + "linear_spring_damper_body_A", {"name": self.name(f.body_A)})
                sub(el, D + "linear_spring_damper_body_B", {"name": self.name(f.body_B)})
                sub(el, D + "linear_spring_damper_p_AP", {"value": nums(f.p_AP)})
                sub(el, D + "linear_spring_damper_p_BQ", {"value": nums(f.p_BQ)})
                for tag in ("free_length", "stiffness", "damping"):
                    sub(el, D + f"linear_spring_damper_{tag}", {"value": num(getattr(f, tag))})
        for c in self.plant.constraints():
            if isinstance(c, BallConstraint):
                el = sub(robot, D + "ball_constraint")
                sub(el, D + "ball_constraint_body_A", {"name": self.name(c.body_A)})
                sub(el, D + "ball_constraint_body_B", {"name": self.name(c.body_B)})
                sub(el, D + "ball_constraint_p_AP", {"value": nums(c.p_AP)})
                if c.p_BQ is not None:
                    sub(el, D + "ball_constraint_p_BQ", {"value": nums(c.p_BQ)})
        self.report_unwritten({LinearBushingRollPitchYaw: "", LinearSpringDamper: "",
                               BallConstraint: "", CouplerConstraint: ""})


__all__ = ["UrdfWriter", "DRAKE_NS", "NO_LIMIT", "proximity_children", "proximity_said"]
