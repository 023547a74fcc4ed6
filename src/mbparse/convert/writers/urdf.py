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

URDF puts a link's frame on its parent joint; a joint whose frame on the
child is not the child's body frame is written through an extra massless
link (reported as split), so every body keeps its own frame.
"""
from __future__ import annotations

import copy
import math
import sys

from lxml import etree

from ...description import facts
from ...geometry import Box, Capsule, Convex, Cylinder, Ellipsoid, Geometry, Mesh, Sphere
from ...geometry.properties import HydroelasticType, PROXIMITY
from ...plant.elements import (BallConstraint, CouplerConstraint, LinearBushingRollPitchYaw,
                               LinearSpringDamper)
from ...spatial import IDENTITY, RigidTransform
from ..loss import APPROXIMATED, DROPPED, SPLIT
from .base import (Writer, curve_segments, geometry_label, num, nums, sub, unique_name,
                   xyz_rpy)
from .walk import BodyNode, Hinge, where

DRAKE_NS = "http://drake.mit.edu"
D = f"{{{DRAKE_NS}}}"
URDF_TYPES = {"weld": "fixed", "prismatic": "prismatic", "planar": "planar"}
DRAKE_TYPES = {"ball_rpy": "ball", "universal": "universal", "screw": "screw",
               "curvilinear": "curvilinear"}
# Proximity properties as drake:proximity_properties children.
PROXIMITY_TAGS = {("hydroelastic", "hydroelastic_modulus"): "hydroelastic_modulus",
                  ("hydroelastic", "resolution_hint"): "mesh_resolution_hint",
                  ("hydroelastic", "margin"): "hydroelastic_margin",
                  ("material", "hunt_crossley_dissipation"): "hunt_crossley_dissipation",
                  ("material", "point_contact_stiffness"): "point_contact_stiffness",
                  ("material", "relaxation_time"): "relaxation_time"}
# URDF readers (urdfdom) need a number for every limit a <limit> holds; where
# the model has no limit, the largest double says "no limit" as closely as a
# number can.
NO_LIMIT = sys.float_info.max
# The facts of mbparse.description a joint's elements hold in URDF.
JOINT_FACTS_WRITTEN = ("effort", "velocity", "friction", "safety_controller", "calibration")
# Joints of several degrees of freedom as chains of one-axis URDF joints
# (standard URDF): the axes, in order from the parent, whose rotations or
# translations compose to the joint's X_FM.
X_AXIS, Y_AXIS, Z_AXIS = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
CHAINS = {
    # rpy_to_matrix(q) = Rz(yaw) Ry(pitch) Rx(roll)
    "ball_rpy": [("z", "continuous", Z_AXIS, 2), ("y", "continuous", Y_AXIS, 1),
                 ("x", "continuous", X_AXIS, 0)],
    # Rx(q0) Ry(q1)
    "universal": [("x", "continuous", X_AXIS, 0), ("y", "continuous", Y_AXIS, 1)],
    # translation (x, y), then Rz(theta)
    "planar": [("x", "prismatic", X_AXIS, 0), ("y", "prismatic", Y_AXIS, 1),
               ("theta", "continuous", Z_AXIS, 2)],
}


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


class UrdfWriter(Writer):
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
        self.joint_names: set[str] = set()
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
        self.joint_names = {self.name(j) for j in walk.joints}
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

    def _shape_elements(self, g: Geometry) -> list[tuple[str, RigidTransform, etree._Element]] | None:
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
            el = etree.Element("mesh", {"filename": self.mesh_uri(s.filename),
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
        self.report.add(DROPPED, geometry_label(g),
                        f"a {s.type_name} has no URDF shape", g.instance.source)
        return None

    def _ellipsoid_mesh(self, g: Geometry, s: Ellipsoid, what: str):
        """An ellipsoid in standard URDF: a unit sphere's mesh scaled by the
        semi-axes, written beside the output; without a folder to write it
        to, the ellipsoid is reported and left out."""
        from .meshes import unit_sphere_triangles
        if self.meshes.generated_folder() is None:
            self.report.add(DROPPED, geometry_label(g),
                            "standard URDF has no ellipsoid and the output's folder is not "
                            "known to write its mesh to (write to a file, -o, or give "
                            "--copy-meshes DIR; --drake-extensions writes drake:ellipsoid)",
                            g.instance.source)
            return None
        vertices, faces = unit_sphere_triangles()
        uri = self.meshes.generated("unit_sphere", vertices, faces,
                                    "a unit sphere, scaled to ellipsoids by <mesh scale>")
        self.report.add(APPROXIMATED, geometry_label(g),
                        f"standard URDF has no ellipsoid: it is written as the mesh '{uri}' "
                        f"(a sphere of {len(faces)} triangles) scaled by its semi-axes "
                        "(--drake-extensions writes drake:ellipsoid)", g.instance.source)
        return [("", IDENTITY, etree.Element("mesh", {"filename": uri,
                                                      "scale": nums((s.a, s.b, s.c), what)}))]

    # -- joints -----------------------------------------------------------
    def _joint(self, node: BodyNode) -> None:
        child = self.link_names[node.body.index]
        parent = self.link_names[node.parent.body.index] if node.parent else "world"
        h = node.hinge
        if h is None:
            if node.welded_root:
                self._fixed(self._joint_name(f"{child}_weld"), parent, child, node.X_PB(True))
            else:
                self._free(node, child, node.X_PB(True), None)
            return
        j = h.joint
        if j.type_name == "weld":
            self._fixed(self.name(j), parent, child, node.X_PB(True), j)
            return
        if j.type_name in ("quaternion_floating", "rpy_floating"):
            self._free(node, child, node.X_PB(True), j, parent)
            return
        if any(q != z for q, z in zip(j.default_positions, j.zero_positions())):
            self.report.add(DROPPED, f"joint '{j.name}'",
                            f"its default positions {j.default_positions} (URDF has none; the "
                            "model is written at zero positions)", where(j))
        target = child
        if not h.X_CM.is_exactly_identity():
            target = self._unique(f"{j.name}_frame")
            self.report.add(SPLIT, f"joint '{j.name}'",
                            f"its frame on body '{node.name}' is not the body's frame; an "
                            f"extra massless link '{target}' carries it", where(j))
            sub(self.robot, "link", {"name": target})
            self._fixed(self._joint_name(f"{j.name}_offset"), target, child, h.X_CM.inverse())
        self._moving(node, h, parent, target)

    def _free(self, node: BodyNode, child: str, X_PB: RigidTransform, joint,
              parent: str = "world") -> None:
        """A body that moves freely: the root of the file when it is the one
        tree, else on a ``floating`` joint from its parent at its default
        pose (standard URDF, which urdfdom reads; Drake and mbparse read a
        floating joint as a free body at the world origin)."""
        label = f"joint '{joint.name}'" if joint is not None else f"body '{node.name}'"
        source = where(joint) if joint is not None else where(node.body)
        if not self.has_world and parent == "world":
            if not X_PB.is_exactly_identity():
                self.report.add(APPROXIMATED, label,
                                "its default pose as a free body (URDF places free bodies at "
                                "the world origin)", source)
            return
        name = self.name(joint) if joint is not None else self._joint_name(f"{child}_floating")
        el = sub(self.robot, "joint", {"name": name, "type": "floating"})
        sub(el, "origin", xyz_rpy(X_PB, f"the pose of body '{node.name}'"))
        sub(el, "parent", {"link": parent})
        sub(el, "child", {"link": child})
        if parent != "world" or not X_PB.is_exactly_identity() or joint is not None:
            self.report.add(APPROXIMATED, label,
                            f"a free body written on a floating joint from '{parent}' at its "
                            "default pose: ROS tools read the pose, but Drake (and mbparse) "
                            "read a floating joint as a free body at the world origin", source)
        if joint is not None:
            self.report_facts(joint, label, ())

    def _fixed(self, name: str, parent: str, child: str, X: RigidTransform, joint=None) -> None:
        self.joint_names.add(name)
        el = sub(self.robot, "joint", {"name": name, "type": "fixed"})
        sub(el, "origin", xyz_rpy(X, f"the pose of joint '{name}'"))
        sub(el, "parent", {"link": parent})
        sub(el, "child", {"link": child})
        if joint is not None:
            self._joint_facts(el, joint, ())

    def _moving(self, node: BodyNode, h: Hinge, parent: str, child: str) -> None:
        j = h.joint
        kind = j.type_name
        name = self.name(j)
        what = f"joint '{j.name}'"
        if kind in CHAINS and not self.drake and (kind != "planar" or any(j.damping)):
            self._chain(h, parent, child)
            return
        if kind == "screw" and not self.drake:
            self._screw(h, parent, child)
            return
        if kind == "revolute":
            limited = any(math.isfinite(v) for v in j.pos_lower + j.pos_upper)
            utype = "revolute" if limited else "continuous"
            el = sub(self.robot, "joint", {"name": name, "type": utype})
        elif kind in URDF_TYPES:
            utype = URDF_TYPES[kind]
            el = sub(self.robot, "joint", {"name": name, "type": utype})
        elif kind in DRAKE_TYPES and self.drake:
            utype = kind
            el = sub(self.robot, D + "joint", {"name": name, "type": DRAKE_TYPES[kind]})
        else:
            how = "" if self.drake else " in standard URDF (--drake-extensions writes it)"
            self.report.add(APPROXIMATED, what,
                            f"a {kind} joint has no URDF form{how}; it is written as a fixed "
                            "joint at its default position", where(j))
            self._fixed(name, parent, child, h.X_PF @ h.X_FM(True), j)
            return
        sub(el, "origin", xyz_rpy(h.X_PF, what))
        sub(el, "parent", {"link": parent})
        sub(el, "child", {"link": child})
        if h.axis is not None:
            sub(el, "axis", {"xyz": nums(h.axis, what)})
        elif kind == "planar":
            sub(el, "axis", {"xyz": "0 0 1"})
        if kind == "screw":
            sub(el, D + "screw_thread_pitch", {"value": num(j.screw_pitch, what)})
        if kind == "curvilinear":
            self._curves(el, j, what)
        written: tuple[str, ...] = ()
        if utype in ("revolute", "continuous", "prismatic"):
            written = self._limits(el, j, utype)
        self._dynamics(el, j, kind, what)
        if kind not in ("revolute", "prismatic", "curvilinear") and (
                any(math.isfinite(v) for v in j.pos_lower + j.pos_upper + j.vel_upper)):
            self.report.add(DROPPED, what, f"the limits of a {kind} joint", where(j))
        self._mimic(el, j)
        self._joint_facts(el, j, written)

    def _curves(self, el, j, what: str) -> None:
        sub(el, D + "initial_tangent", {"xyz": nums(j.tangent, what)})
        sub(el, D + "plane_normal", {"xyz": nums(j.normal, what)})
        sub(el, D + "is_periodic", {"value": "true" if j.is_periodic else "false"})
        curves = sub(el, D + "curves")
        for shape, a, b in curve_segments(j):
            if shape == "line":
                sub(curves, D + "line_segment", {"length": num(a, what)})
            else:
                sub(curves, D + "circular_arc", {"radius": num(a, what), "angle": num(b, what)})

    def _dynamics(self, el, j, kind: str, what: str) -> None:
        """``<dynamics damping friction>``: the joint's damping and the dry
        friction the source gave (mbparse.description)."""
        damping = list(j.damping)
        friction = list(facts(j).get("friction") or [0.0])
        if not any(damping) and not any(friction):
            return
        if kind == "planar":  # (Drake's planar joint: three dampings)
            sub(el, "dynamics", {"damping": nums(damping, what)})
            return
        for label, values in (("damping", damping), ("friction", friction)):
            if len(set(values)) > 1:
                self.report.add(APPROXIMATED, what, f"per-axis {label} {values} is written "
                                                    f"as {values[0]}", where(j))
        sub(el, "dynamics", {"damping": num(damping[0], what),
                             "friction": num(friction[0], what)})

    def _limits(self, el, j, utype: str, written_as: str | None = None) -> tuple[str, ...]:
        """``<limit>``: urdfdom refuses a revolute or prismatic joint without
        one, and any ``<limit>`` without both ``effort`` and ``velocity``; a
        continuous joint gets one only when it has an effort or velocity
        limit. What the model does not limit is written as the largest
        double and reported. Returns the description keys written."""
        what = f"joint '{j.name}'"
        f = facts(j)
        velocity = j.vel_upper[0]
        if not math.isfinite(velocity) and f.get("velocity"):
            velocity = f["velocity"][0]
        effort = math.inf
        actuators = [a for a in self.plant.actuators() if a.joint is j]
        if actuators and math.isfinite(actuators[0].effort_limit):
            effort = actuators[0].effort_limit
        elif f.get("effort"):
            effort = f["effort"][0]
        if utype == "continuous" and not (math.isfinite(effort) or math.isfinite(velocity)):
            return ()
        attrs, invented = {}, []
        if utype != "continuous":
            for key, value, sign in (("lower", j.pos_lower[0], -1.0),
                                     ("upper", j.pos_upper[0], 1.0)):
                if not math.isfinite(value):
                    invented.append(key)
                    value = sign * NO_LIMIT
                attrs[key] = num(value, what)
        for key, value in (("effort", effort), ("velocity", velocity)):
            if not math.isfinite(value):
                invented.append(key)
                value = NO_LIMIT
            attrs[key] = num(value, what)
        accel = j.acc_upper[0]
        if math.isfinite(accel):
            if self.drake:
                attrs[D + "acceleration"] = num(accel, what)
            else:
                self.report.add(DROPPED, what, f"its acceleration limit {accel:g} (standard "
                                "URDF has none; --drake-extensions writes drake:acceleration)",
                                where(j))
        if j.vel_lower[0] != -j.vel_upper[0] or j.acc_lower[0] != -j.acc_upper[0]:
            self.report.add(APPROXIMATED, what,
                            "asymmetric velocity or acceleration limits are written "
                            "symmetric", where(j))
        if invented:
            part = f" (written as the {utype} joint '{written_as}')" if written_as else ""
            self.report.add(APPROXIMATED, what,
                            f"it has no {', '.join(invented)} limit{part}: URDF readers "
                            f"(urdfdom) need each in a {utype} joint's <limit>, so each is "
                            f"written as ±{NO_LIMIT!r}, the largest number", where(j))
        sub(el, "limit", attrs)
        if len(set(f.get("effort") or [0])) > 1 or len(set(f.get("velocity") or [0])) > 1:
            self.report.add(APPROXIMATED, what, "per-axis effort or velocity limits are "
                                                "written as the first axis's", where(j))
        return ("effort", "velocity")

    def _mimic(self, el, j) -> None:
        for c in self.plant.constraints():
            if isinstance(c, CouplerConstraint) and c.joint0 is j:
                sub(el, "mimic", {"joint": self.name(c.joint1), "multiplier": num(c.gear_ratio),
                                  "offset": num(c.offset)})
                self.mimics.add(id(c))

    def _unwritten_couplers(self) -> None:
        """Couplers whose following joint was not written as a URDF joint
        that can hold a ``<mimic>`` (a joint written fixed, or as a chain)."""
        for c in self.plant.constraints():
            if isinstance(c, CouplerConstraint) and id(c) not in self.mimics:
                self.report.add(DROPPED, f"joint '{c.joint0.name}'",
                                f"its coupling to joint '{c.joint1.name}' (a <mimic>): the "
                                "joint is not written as one URDF joint", where(c))

    def _joint_facts(self, el, j, written: tuple[str, ...]) -> None:
        """The safety controller and calibration the source gave, and a
        report of every other fact of the joint not written."""
        f = facts(j)
        what = f"joint '{j.name}'"
        done = set(written)
        if "friction" in f and el.find("dynamics") is not None:
            done.add("friction")
        # urdfdom's order of children does not matter; it needs k_velocity.
        safety = f.get("safety_controller")
        if safety is not None and el.tag == "joint":
            attrs = {k: num(v, what) for k, v in safety.items()}
            if "k_velocity" not in attrs:
                attrs["k_velocity"] = "0"
                self.report.add(APPROXIMATED, what, "its <safety_controller> has no k_velocity, "
                                "which urdfdom needs: written as 0", where(j))
            sub(el, "safety_controller", attrs)
            done.add("safety_controller")
        calibration = f.get("calibration")
        if calibration is not None and el.tag == "joint":
            sub(el, "calibration", {k: num(v, what) for k, v in calibration.items()})
            done.add("calibration")
        self.report_facts(j, what, done)

    def _chain(self, h: Hinge, parent: str, child: str) -> None:
        """A ball, universal or (damped) planar joint in standard URDF: one
        revolute or prismatic joint per degree of freedom, through massless
        links; the last keeps the joint's name."""
        j = h.joint
        steps = CHAINS[j.type_name]
        names = []
        for suffix, _, _, _ in steps[:-1]:
            names.append(self._joint_name(f"{j.name}_{suffix}"))
        names.append(self.name(j))
        links = [parent] + [self._unique(f"{n}_link") for n in names[:-1]] + [child]
        self.report.add(SPLIT, f"joint '{j.name}'",
                        f"standard URDF has no {j.type_name} joint: it is written as the "
                        f"joints {', '.join(repr(n) for n in names)} through the massless "
                        f"links {', '.join(repr(n) for n in links[1:-1])} "
                        "(--drake-extensions writes a drake:joint)", where(j))
        what = f"joint '{j.name}'"
        for k, (suffix, utype, axis, dof) in enumerate(steps):
            if k < len(steps) - 1:
                sub(self.robot, "link", {"name": links[k + 1]})
            one = _OneAxis(j, dof)
            if utype == "continuous" and any(map(math.isfinite, one.pos_lower + one.pos_upper)):
                utype = "revolute"
            el = sub(self.robot, "joint", {"name": names[k], "type": utype})
            sub(el, "origin", xyz_rpy(h.X_PF if k == 0 else IDENTITY, what))
            sub(el, "parent", {"link": links[k]})
            sub(el, "child", {"link": links[k + 1]})
            sub(el, "axis", {"xyz": nums(axis, what)})
            if utype != "continuous":
                self._limits(el, one, utype, names[k])
            damping = j.damping[dof] if dof < len(j.damping) else 0.0
            if damping:
                sub(el, "dynamics", {"damping": num(damping, what), "friction": "0"})
        self.report_facts(j, what, ())

    def _screw(self, h: Hinge, parent: str, child: str) -> None:
        """A screw joint in standard URDF: a continuous joint about the axis
        and a prismatic joint along it that mimics the rotation by
        pitch / 2π (a coupler constraint in Drake)."""
        j = h.joint
        what = f"joint '{j.name}'"
        name = self.name(j)
        slide = self._joint_name(f"{j.name}_translation")
        link = self._unique(f"{j.name}_link")
        self.report.add(SPLIT, what,
                        f"standard URDF has no screw joint: it is written as a continuous "
                        f"joint '{name}' and a prismatic joint '{slide}' that mimics it "
                        f"(multiplier pitch/2π) through the massless link '{link}' "
                        "(--drake-extensions writes a drake:joint)", where(j))
        axis = nums(h.axis, what)
        sub(self.robot, "link", {"name": link})
        el = sub(self.robot, "joint", {"name": name, "type": "continuous"})
        sub(el, "origin", xyz_rpy(h.X_PF, what))
        sub(el, "parent", {"link": parent})
        sub(el, "child", {"link": link})
        sub(el, "axis", {"xyz": axis})
        self._dynamics(el, j, "screw", what)
        self._mimic(el, j)  # (the screw's position is the rotation's)
        el = sub(self.robot, "joint", {"name": slide, "type": "prismatic"})
        sub(el, "origin", xyz_rpy(IDENTITY, what))
        sub(el, "parent", {"link": link})
        sub(el, "child", {"link": child})
        sub(el, "axis", {"xyz": axis})
        self._limits(el, _OneAxis(j, 0, free=True), "prismatic", slide)
        sub(el, "mimic", {"joint": name, "multiplier": num(j.screw_pitch / (2 * math.pi), what),
                          "offset": "0"})
        self.report_facts(j, what, ())

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


class _OneAxis:
    """One degree of freedom of a joint, as :meth:`UrdfWriter._limits` reads
    a joint: its limits (none when ``free``), and no actuator or facts."""

    def __init__(self, joint, dof: int, free: bool = False):
        inf = math.inf
        self.name = joint.name
        self.source = getattr(joint, "source", None)
        self.description = None
        pick = (lambda seq, default: [default]) if free else (
            lambda seq, default: [seq[dof]] if dof < len(seq) else [default])
        self.pos_lower = pick(joint.pos_lower, -inf)
        self.pos_upper = pick(joint.pos_upper, inf)
        self.vel_lower = pick(joint.vel_lower, -inf)
        self.vel_upper = pick(joint.vel_upper, inf)
        self.acc_lower = pick(joint.acc_lower, -inf)
        self.acc_upper = pick(joint.acc_upper, inf)

