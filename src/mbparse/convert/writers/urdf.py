"""URDF from the model, with Drake's ``drake:`` extensions for what plain URDF
cannot hold (ball, universal, screw joints, capsules, ellipsoids, convex
meshes, proximity properties, collision filter groups, bushings, ball
constraints, rotor inertia and gains of actuators).

URDF puts a link's frame on its parent joint; a joint whose frame on the
child is not the child's body frame is written through an extra massless
link (reported as split), so every body keeps its own frame.
"""
from __future__ import annotations

import copy
import math

from lxml import etree

from ...geometry import Box, Capsule, Convex, Cylinder, Ellipsoid, Geometry, Mesh, Sphere
from ...geometry.properties import HydroelasticType, PROXIMITY
from ...plant.elements import (BallConstraint, CouplerConstraint, LinearBushingRollPitchYaw,
                               LinearSpringDamper)
from ...spatial import RigidTransform
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


class UrdfWriter(Writer):
    target = "URDF"

    def build(self):
        walk = self.walk
        name = walk.model_name("robot")
        robot = etree.Element("robot", {"name": name}, nsmap={"drake": DRAKE_NS})
        self.robot = robot
        self.link_names = {n.body.index: self.name(n.body) for n in walk.preorder()}
        self.taken = set(self.link_names.values()) | {"world"}
        self.materials: set[str] = set()
        self.searched: dict[int, dict[str, int]] = {}  # by id of a set of names (unique_name)
        self.geometry_names: dict[str, set[str]] = {}
        if (walk.world_geometries or walk.world_frames
                or any(r.hinge is not None or r.welded_root for r in walk.roots)):
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
        shape = self._shape_element(g)
        if shape is None:
            return
        taken = self.geometry_names.setdefault(link.get("name"), set())
        for role, is_role in (("visual", self.is_visual), ("collision", self.is_collision)):
            if not is_role(g):
                continue
            if role == "collision" and not self.collision_mesh_ok(g):
                continue
            el = sub(link, role, {"name": self._unique(self.geometry_name(g), taken)})
            sub(el, "origin", xyz_rpy(g.X_BG, f"the pose of geometry '{g.name}'"))
            geometry = sub(el, "geometry")
            geometry.append(copy.deepcopy(shape))  # (each role its own copy)
            if role == "visual":
                color = self.rgba(g)
                if color is not None:
                    material = sub(el, "material", {"name": self._unique(
                        f"{self.geometry_name(g)}_material", self.materials)})
                    sub(material, "color", {"rgba": nums(color.to_list(), "a colour")})
            else:
                drake = etree.Element(D + "proximity_properties")
                if proximity_children(drake, g, self, D):
                    el.append(drake)

    def _shape_element(self, g: Geometry):
        s = g.shape
        what = f"the shape of geometry '{g.name}'"
        if isinstance(s, Box):
            return etree.Element("box", {"size": nums(s.size(), what)})
        if isinstance(s, Sphere):
            return etree.Element("sphere", {"radius": num(s.radius, what)})
        if isinstance(s, Cylinder):
            return etree.Element("cylinder", {"radius": num(s.radius, what),
                                              "length": num(s.length, what)})
        if isinstance(s, Capsule):
            return etree.Element(D + "capsule", {"radius": num(s.radius, what),
                                                 "length": num(s.length, what)}, nsmap={"drake": DRAKE_NS})
        if isinstance(s, Ellipsoid):
            return etree.Element(D + "ellipsoid", {"a": num(s.a, what), "b": num(s.b, what),
                                                   "c": num(s.c, what)}, nsmap={"drake": DRAKE_NS})
        if isinstance(s, Mesh):
            el = etree.Element("mesh", {"filename": self.mesh_uri(s.filename),
                                        "scale": nums(s.scale, what)})
            if isinstance(s, Convex):
                sub(el, D + "declare_convex")
            return el
        self.report.add(DROPPED, geometry_label(g),
                        f"a {s.type_name} has no URDF shape", g.instance.source)
        return None

    # -- joints -----------------------------------------------------------
    def _joint(self, node: BodyNode) -> None:
        child = self.link_names[node.body.index]
        parent = self.link_names[node.parent.body.index] if node.parent else "world"
        h = node.hinge
        if h is None:
            if node.welded_root:
                self._fixed(f"{child}_weld", parent, child, node.X_PB(True))
            elif not node.X_PB(True).is_exactly_identity():
                self.report.add(APPROXIMATED, f"body '{node.name}'",
                                "its default pose as a free body (URDF places free bodies at "
                                "the world origin)", where(node.body))
            return
        j = h.joint
        if j.type_name == "weld":
            self._fixed(self.name(j), parent, child, node.X_PB(True), j)
            return
        if j.type_name in ("quaternion_floating", "rpy_floating"):
            self.report.add(APPROXIMATED, f"joint '{j.name}'",
                            f"the {j.type_name} joint is written as a free body (its pose is "
                            "lost)", where(j))
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
            self._fixed(self._unique(f"{j.name}_offset"), target, child, h.X_CM.inverse())
        self._moving(node, h, parent, target)

    def _unique(self, name: str, taken: set[str] | None = None) -> str:
        taken = self.taken if taken is None else taken
        return unique_name(name, taken, self.searched.setdefault(id(taken), {}))

    def _fixed(self, name: str, parent: str, child: str, X: RigidTransform, joint=None) -> None:
        el = sub(self.robot, "joint", {"name": name, "type": "fixed"})
        sub(el, "origin", xyz_rpy(X, f"the pose of joint '{name}'"))
        sub(el, "parent", {"link": parent})
        sub(el, "child", {"link": child})

    def _moving(self, node: BodyNode, h: Hinge, parent: str, child: str) -> None:
        j = h.joint
        kind = j.type_name
        name = self.name(j)
        if kind == "revolute":
            limited = any(math.isfinite(v) for v in j.pos_lower + j.pos_upper)
            utype = "revolute" if limited else "continuous"
            el = sub(self.robot, "joint", {"name": name, "type": utype})
        elif kind in URDF_TYPES:
            el = sub(self.robot, "joint", {"name": name, "type": URDF_TYPES[kind]})
        elif kind in DRAKE_TYPES:
            el = sub(self.robot, D + "joint", {"name": name, "type": DRAKE_TYPES[kind]})
        else:
            self.report.add(APPROXIMATED, f"joint '{j.name}'",
                            f"a {kind} joint has no URDF form; it is written as a fixed joint",
                            where(j))
            self._fixed(name, parent, child, h.X_PF)
            return
        what = f"joint '{j.name}'"
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
            sub(el, D + "initial_tangent", {"xyz": nums(j.tangent, what)})
            sub(el, D + "plane_normal", {"xyz": nums(j.normal, what)})
            sub(el, D + "is_periodic", {"value": "true" if j.is_periodic else "false"})
            curves = sub(el, D + "curves")
            for shape, a, b in curve_segments(j):
                if shape == "line":
                    sub(curves, D + "line_segment", {"length": num(a, what)})
                else:
                    sub(curves, D + "circular_arc", {"radius": num(a, what), "angle": num(b, what)})
        if kind in ("revolute", "prismatic"):
            self._limits(el, j)
        damping = j.damping
        if any(damping):
            if kind == "planar":
                sub(el, "dynamics", {"damping": nums(damping, what)})
            else:
                if len(set(damping)) > 1:
                    self.report.add(APPROXIMATED, what, f"per-axis damping {damping} is written "
                                                        f"as {damping[0]}", where(j))
                sub(el, "dynamics", {"damping": num(damping[0], what)})
        if kind not in ("revolute", "prismatic", "curvilinear") and (
                any(math.isfinite(v) for v in j.pos_lower + j.pos_upper + j.vel_upper)):
            self.report.add(DROPPED, what, f"the limits of a {kind} joint", where(j))
        for c in self.plant.constraints():
            if isinstance(c, CouplerConstraint) and c.joint0 is j:
                sub(el, "mimic", {"joint": self.name(c.joint1), "multiplier": num(c.gear_ratio),
                                  "offset": num(c.offset)})

    def _limits(self, el, j) -> None:
        attrs = {}
        for key, value in (("lower", j.pos_lower[0]), ("upper", j.pos_upper[0]),
                           ("velocity", j.vel_upper[0]), (D + "acceleration", j.acc_upper[0])):
            if math.isfinite(value):
                attrs[key] = num(value)
        if j.vel_lower[0] != -j.vel_upper[0] or j.acc_lower[0] != -j.acc_upper[0]:
            self.report.add(APPROXIMATED, f"joint '{j.name}'",
                            "asymmetric velocity or acceleration limits are written "
                            "symmetric", where(j))
        actuators = [a for a in self.plant.actuators() if a.joint is j]
        if actuators and math.isfinite(actuators[0].effort_limit):
            attrs["effort"] = num(actuators[0].effort_limit)
        if attrs:
            sub(el, "limit", attrs)

    # -- frames, actuators, filters, forces ---------------------------------
    def _frame(self, frame, link: str) -> None:
        sub(self.robot, "frame", {"name": self.name(frame), "link": link,
                                  **xyz_rpy(frame.X_BF, f"the pose of frame '{frame.name}'")})

    def _transmissions(self) -> None:
        for a in self.plant.actuators():
            t = sub(self.robot, "transmission")
            sub(t, "type", text="transmission_interface/SimpleTransmission")
            joint = sub(t, "joint", {"name": self.name(a.joint)})
            sub(joint, "hardwareInterface", text="hardware_interface/EffortJointInterface")
            act = sub(t, "actuator", {"name": self.name(a)})
            if a.rotor_inertia:
                sub(act, D + "rotor_inertia", {"value": num(a.rotor_inertia)})
            if a.gear_ratio != 1.0:
                sub(act, D + "gear_ratio", {"value": num(a.gear_ratio)})
            if a.controller_gains is not None:
                sub(act, D + "controller_gains", {"p": num(a.controller_gains.p),
                                                  "d": num(a.controller_gains.d)})

    def _filters(self) -> None:
        for i, (a, b) in enumerate(self.filtered_pairs()):
            group = sub(self.robot, D + "collision_filter_group", {"name": f"filter_{i}"})
            sub(group, D + "member", {"link": self.link_names[a.body.index]})
            sub(group, D + "member", {"link": self.link_names[b.body.index]})
            sub(group, D + "ignored_collision_filter_group", {"name": f"filter_{i}"})

    def _forces_and_constraints(self) -> None:
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



