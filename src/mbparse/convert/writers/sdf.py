"""SDFormat 1.9 from the model: a ``<model>`` per model instance (nested in
one top model when there are several, as a directives scene composes them),
links placed in the model frame at zero joint positions, joints posed in
their child link, Drake's ``drake:`` elements for proximity properties,
actuator extensions, mimic, planar joints, bushings, ball constraints and
collision filter groups."""
from __future__ import annotations

import math
import os

from lxml import etree

from ...geometry import Box, Capsule, Convex, Cylinder, Ellipsoid, Geometry, HalfSpace, Mesh, Sphere
from ...plant.elements import (BallConstraint, CouplerConstraint, LinearBushingRollPitchYaw,
                               LinearSpringDamper, RevoluteSpring)
from ...spatial import IDENTITY, RigidTransform
from ..loss import APPROXIMATED, DROPPED, RENAMED, SPLIT
from .base import Writer, curve_segments, geometry_label, num, nums, pose_text, sub
from .urdf import DRAKE_NS, proximity_children
from .walk import BodyNode, where

D = f"{{{DRAKE_NS}}}"
SDF_TYPES = {"weld": "fixed", "prismatic": "prismatic", "ball_rpy": "ball",
             "universal": "universal", "screw": "screw"}


class SdfWriter(Writer):
    target = "SDFormat"

    def name(self, element) -> str:
        """Names stay as the model has them; instances become nested models."""
        if element is None:
            return "world"
        if getattr(element, "index", None) == 0 and hasattr(element, "body_frame"):
            return "world"
        if getattr(element, "is_body_frame", False):
            return self.name(element.body)
        return element.name

    def scoped(self, element, scope: int | None) -> str:
        """``element``'s name as seen from the model of instance ``scope``
        (None: the top model)."""
        body = getattr(element, "body", element)
        if getattr(body, "index", None) == 0:
            return "world"
        if self.walk.single_instance() or element.model_instance == scope:
            return self.name(element)
        return f"{self.model_name(element.model_instance)}::{self.name(element)}"

    def model_name(self, instance: int) -> str:
        """A nested model's name: the instance's, with '::' (which SDFormat
        names may not hold) written '__'."""
        return self.walk.instance_name(instance).replace("::", "__")

    def build(self):
        walk = self.walk
        sdf = etree.Element("sdf", {"version": "1.9"}, nsmap={"drake": DRAKE_NS})
        stem = os.path.basename(self.report.source or "scene").split(".")[0] or "scene"
        if walk.single_instance():
            top = sub(sdf, "model", {"name": walk.model_name(stem).replace("::", "__")})
            self.models = {walk.instances[0]: top} if walk.instances else {}
        else:
            top = sub(sdf, "model", {"name": stem})
            # Only instances with links become nested models (SDFormat wants a
            # link in every model); the frames of the others go in the top model.
            with_links = sorted({n.body.model_instance for n in walk.preorder()})
            self.models = {mi: sub(top, "model", {"name": self.model_name(mi)})
                           for mi in with_links}
            self.report.add(RENAMED, "model instances",
                            f"each instance is a model nested in '{stem}', so Drake names it "
                            f"'{stem}::INSTANCE'")
        self.top = top
        for mi, model in self.models.items():
            if self.plant.model_instance(mi).static:
                sub(model, "static", text="true")
        self.X_WB: dict[int, RigidTransform] = {}
        for node in walk.preorder():
            X_WP = self.X_WB[node.parent.body.index] if node.parent else IDENTITY
            self.X_WB[node.body.index] = X_WP @ node.X_PB(at_default=node.hinge is None)
            self._link(node)
        if walk.world_geometries:
            self._world_link()
        self._name_joints_and_frames()
        for node in walk.preorder():
            self._joint(node)
        for node in walk.preorder():
            for frame in node.frames:
                self._frame(frame)
        for frame in walk.world_frames:
            self._frame(frame)
        self._filters()
        self._forces_and_constraints()
        return sdf

    def _name_joints_and_frames(self) -> None:
        """Links, joints and frames share one name space in an SDFormat model;
        a joint or frame whose name a link took is renamed (and reported)."""
        # One name space per written <model> (instances without links put
        # their frames in the top model, so they share its names).
        taken: dict[int, set[str]] = {id(self.top): {m.get("name") for m in self.models.values()
                                                     if m is not self.top}}
        for node in self.walk.preorder():
            taken.setdefault(id(self._model_of(node.body)), set()).add(node.body.name)
        self.written_names: dict[int, str] = {}
        elements = [n.hinge.joint for n in self.walk.preorder() if n.hinge is not None]
        elements += [f for n in self.walk.preorder() for f in n.frames] + self.walk.world_frames
        for e in elements:
            model = self._model_of(e)
            if hasattr(e, "type_name") and 0 not in (e.parent_body.index, e.child_body.index) \
                    and e.parent_body.model_instance != e.child_body.model_instance:
                model = self.top  # a joint between two models stands in the top model
            if not hasattr(e, "type_name") and e.body.index == 0:
                model = self.top
            names = taken.setdefault(id(model), set())
            name = e.name
            if name in names:
                kind = "joint" if hasattr(e, "type_name") else "frame"
                base, n = f"{name}_{kind}", 1
                name = base
                while name in names:
                    name = f"{base}_{n}"
                    n += 1
                self.report.add(RENAMED, f"{kind} '{e.name}'",
                                f"SDFormat gives links, joints and frames one name space; "
                                f"it is written as '{name}'", where(e))
            names.add(name)
            self.written_names[id(e)] = name

    def _model_of(self, element):
        return self.models.get(element.model_instance, self.top)

    # -- links ------------------------------------------------------------
    def _link(self, node: BodyNode) -> None:
        body = node.body
        model = self._model_of(body)
        link = sub(model, "link", {"name": body.name})
        sub(link, "pose", text=pose_text(self.X_WB[body.index], f"the pose of body '{body.name}'"))
        M = body.default_spatial_inertia
        what = f"the inertia of body '{body.name}'"
        inertial = sub(link, "inertial")
        sub(inertial, "pose", text=nums(tuple(M.com) + (0.0, 0.0, 0.0), what))
        sub(inertial, "mass", text=num(M.mass, what))
        inertia = sub(inertial, "inertia")
        ixx, iyy, izz, ixy, ixz, iyz = M.I_cm
        for k, v in (("ixx", ixx), ("ixy", ixy), ("ixz", ixz), ("iyy", iyy), ("iyz", iyz),
                     ("izz", izz)):
            sub(inertia, k, text=num(v, what))
        if not body.gravity_enabled:
            sub(link, "gravity", text="false")
        self._geometries(link, node.geometries)

    def _geometries(self, link, geometries: list[Geometry]) -> None:
        names: set[tuple[str, str]] = set()
        for g in geometries:
            for role, is_role in (("visual", self.is_visual), ("collision", self.is_collision)):
                if not is_role(g):
                    continue
                shape = self._shape(g)
                if shape is None:
                    continue
                name = self.geometry_name(g)
                base, n = name, 1
                while (role, name) in names:
                    name = f"{base}_{n}"
                    n += 1
                names.add((role, name))
                el = sub(link, role, {"name": name})
                sub(el, "pose", text=pose_text(g.X_BG, f"the pose of geometry '{g.name}'"))
                sub(el, "geometry").append(shape)
                if role == "visual":
                    color = self.rgba(g)
                    if color is not None:
                        material = sub(el, "material")
                        sub(material, "diffuse", text=nums(color.to_list(), "a colour"))
                else:
                    drake = etree.Element(D + "proximity_properties")
                    if proximity_children(drake, g, self, D, as_text=True):
                        el.append(drake)

    def _shape(self, g: Geometry):
        s = g.shape
        what = f"the shape of geometry '{g.name}'"
        if isinstance(s, Box):
            el = etree.Element("box")
            sub(el, "size", text=nums(s.size(), what))
        elif isinstance(s, Sphere):
            el = etree.Element("sphere")
            sub(el, "radius", text=num(s.radius, what))
        elif isinstance(s, (Cylinder, Capsule)):
            el = etree.Element("cylinder" if isinstance(s, Cylinder) else "capsule")
            sub(el, "radius", text=num(s.radius, what))
            sub(el, "length", text=num(s.length, what))
        elif isinstance(s, Ellipsoid):
            el = etree.Element("ellipsoid")
            sub(el, "radii", text=nums((s.a, s.b, s.c), what))
        elif isinstance(s, HalfSpace):
            el = etree.Element("plane")
            sub(el, "normal", text="0 0 1")
            sub(el, "size", text="1 1")
        elif isinstance(s, Mesh):
            el = etree.Element("mesh")
            sub(el, "uri", text=self.mesh_uri(s.filename))
            sub(el, "scale", text=nums(s.scale, what))
            if isinstance(s, Convex):
                sub(el, D + "declare_convex")
        else:
            self.report.add(DROPPED, geometry_label(g),
                            f"a {s.type_name} has no SDFormat shape", g.instance.source)
            return None
        return el

    def _world_link(self) -> None:
        name = "world_geometry"
        self.report.add(SPLIT, "the world body",
                        f"its geometries are written on a link '{name}' welded to the world "
                        "(an SDFormat model cannot put geometry on the world)")
        link = sub(self.top, "link", {"name": name})
        self._geometries(link, self.walk.world_geometries)
        joint = sub(self.top, "joint", {"name": f"{name}_weld", "type": "fixed"})
        sub(joint, "parent", text="world")
        sub(joint, "child", text=name)

    # -- joints -----------------------------------------------------------
    def _joint(self, node: BodyNode) -> None:
        h = node.hinge
        if h is None:
            if node.welded_root and not self.plant.model_instance(node.body.model_instance).static:
                self._joint_element(f"{node.name}_weld", "fixed", None, node, IDENTITY)
            return
        j = h.joint
        kind = j.type_name
        if kind in ("quaternion_floating", "rpy_floating"):
            self.report.add(APPROXIMATED, f"joint '{j.name}'",
                            f"the {kind} joint is written as a free link at its default pose",
                            where(j))
            return
        if kind == "weld":
            self._joint_element(self.written_names[id(j)], "fixed", node.parent, node, h.X_CM, j)
            return
        if any(q != z for q, z in zip(j.default_positions, j.zero_positions())):
            self.report.add(DROPPED, f"joint '{j.name}'",
                            f"its default positions {j.default_positions} (the SDFormat reader "
                            "has none; the model is written at zero positions)", where(j))
        if kind == "revolute":
            limited = any(math.isfinite(v) for v in j.pos_lower + j.pos_upper)
            stype = "revolute" if limited else "continuous"
        elif kind in SDF_TYPES:
            stype = SDF_TYPES[kind]
        elif kind == "planar":
            self._planar_chain(node)
            return
        elif kind == "curvilinear":
            self._curvilinear(node)
            return
        else:
            self.report.add(APPROXIMATED, f"joint '{j.name}'",
                            f"a {kind} joint has no SDFormat form; it is written as a fixed "
                            "joint", where(j))
            self._joint_element(self.written_names[id(j)], "fixed", node.parent, node, h.X_CM, j)
            return
        el = self._joint_element(self.written_names[id(j)], stype, node.parent, node, h.X_CM, j)
        what = f"joint '{j.name}'"
        if kind in ("revolute", "prismatic", "screw"):
            axis = sub(el, "axis")
            sub(axis, "xyz", text=nums(h.axis, what))
            self._axis_values(axis, j, kind)
        elif kind == "universal":
            for tag, xyz in (("axis", "1 0 0"), ("axis2", "0 1 0")):
                axis = sub(el, tag)
                sub(axis, "xyz", text=xyz)
                limit = sub(axis, "limit")
                sub(limit, "effort", text="0")
                if j.damping[0]:
                    sub(sub(axis, "dynamics"), "damping", text=num(j.damping[0], what))
        elif kind == "ball" or kind == "ball_rpy":
            if j.damping[0]:
                axis = sub(el, "axis")
                sub(sub(axis, "dynamics"), "damping", text=num(j.damping[0], what))
        if kind == "screw":
            sub(el, "screw_thread_pitch", text=num(j.screw_pitch, what))
        actuators = self._actuators_of(j)
        if actuators:
            a = actuators[0]
            if a.name != self.written_names[id(j)]:
                self.report.add(RENAMED, f"actuator '{a.name}'",
                                f"SDFormat names a joint's actuator after the joint ('{j.name}')",
                                where(a))
            if a.rotor_inertia:
                sub(el, D + "rotor_inertia", text=num(a.rotor_inertia))
            if a.gear_ratio != 1.0:
                sub(el, D + "gear_ratio", text=num(a.gear_ratio))
            if a.controller_gains is not None:
                sub(el, D + "controller_gains", {"p": num(a.controller_gains.p),
                                                 "d": num(a.controller_gains.d)})
        for c in self.plant.constraints():
            if isinstance(c, CouplerConstraint) and c.joint0 is j:
                sub(el, D + "mimic", {"joint": self.written_names.get(id(c.joint1), c.joint1.name),
                                      "multiplier": num(c.gear_ratio), "offset": num(c.offset)})

    def _curvilinear(self, node: BodyNode) -> None:
        """A curvilinear joint as Drake's ``<drake:joint type="curvilinear">``,
        which takes no pose: two frames carry the joint's frames on its
        bodies (reported as split)."""
        h = node.hinge
        j = h.joint
        name = self.written_names[id(j)]
        model = self._model_of(node.body)
        scope = node.body.model_instance
        if node.parent is not None and node.parent.body.model_instance != scope:
            model, scope = self.top, None
        taken = {el.get("name") for el in model if el.get("name")}
        taken |= set(self.written_names.values())
        what = f"joint '{j.name}'"
        frames = []
        for end, body, X in (("parent", node.parent.body if node.parent else None, h.X_PF),
                             ("child", node.body, h.X_CM)):
            base, n = f"{name}_{end}_frame", 1
            frame_name = base
            while frame_name in taken:
                frame_name = f"{base}_{n}"
                n += 1
            taken.add(frame_name)
            frames.append(frame_name)
            attached = self.scoped(body, scope) if body is not None else "world"
            el = sub(model, "frame", {"name": frame_name, "attached_to": attached})
            sub(el, "pose", text=pose_text(X, what))
        self.report.add(SPLIT, what, "Drake's SDFormat curvilinear joint takes no pose; the "
                        f"joint's frames are written as frames '{frames[0]}' and '{frames[1]}'",
                        where(j))
        el = sub(model, D + "joint", {"name": name, "type": "curvilinear"})
        sub(el, D + "parent", text=frames[0])
        sub(el, D + "child", text=frames[1])
        sub(sub(el, D + "plane_normal"), "xyz", text=nums(j.normal, what))
        sub(sub(el, D + "initial_tangent"), "xyz", text=nums(j.tangent, what))
        sub(el, D + "is_periodic", text="true" if j.is_periodic else "false")
        if j.damping[0]:
            sub(el, D + "damping", text=num(j.damping[0], what))
        curves = sub(el, D + "curves")
        for shape, a, b in curve_segments(j):
            if shape == "line":
                sub(sub(curves, D + "line_segment"), D + "length", text=num(a, what))
            else:
                arc = sub(curves, D + "circular_arc")
                sub(arc, D + "radius", text=num(a, what))
                sub(arc, D + "angle", text=num(b, what))

    def _planar_chain(self, node: BodyNode) -> None:
        """A planar joint, which SDFormat has no type for, as a chain: a slide
        along the joint's x to a massless link, a slide along its y to a
        second one, a revolute joint about its z to the body (reported as
        split). The extra links stand at the joint's frame on the child."""
        h = node.hinge
        j = h.joint
        name = self.written_names[id(j)]
        model = self._model_of(node.body)
        scope = node.body.model_instance
        taken = {el.get("name") for el in model if el.get("name")}
        taken |= set(self.written_names.values())
        links, slides = [], []
        for suffix in ("x", "y"):
            base, n = f"{name}_{suffix}", 1
            joint_name = base
            while joint_name in taken or f"{joint_name}_link" in taken:
                joint_name = f"{base}_{n}"
                n += 1
            taken |= {joint_name, f"{joint_name}_link"}
            slides.append(joint_name)
            links.append(f"{joint_name}_link")
        self.report.add(SPLIT, f"joint '{j.name}'",
                        "SDFormat has no planar joint; it is written as prismatic joints "
                        f"'{slides[0]}' (along x) to a massless link '{links[0]}' and "
                        f"'{slides[1]}' (along y) to a massless link '{links[1]}', then a "
                        f"revolute joint '{name}' about z", where(j))
        X_WM = self.X_WB[node.body.index] @ h.X_CM
        parent = self.scoped(node.parent.body, scope) if node.parent else "world"
        if node.parent is not None and node.parent.body.model_instance != scope:
            parent = self.scoped(node.parent.body, None)
        for link_name in links:
            link = sub(model, "link", {"name": link_name})
            sub(link, "pose", text=pose_text(X_WM, f"the pose of joint '{j.name}'"))
            inertial = sub(link, "inertial")
            sub(inertial, "mass", text="0")
            inertia = sub(inertial, "inertia")
            for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
                sub(inertia, k, text="0")
        chain = [(slides[0], "prismatic", parent, links[0], "1 0 0", IDENTITY),
                 (slides[1], "prismatic", links[0], links[1], "0 1 0", IDENTITY),
                 (name, "revolute", links[1], self.scoped(node.body, scope), "0 0 1", h.X_CM)]
        for index, (joint_name, stype, parent_name, child_name, xyz, X) in enumerate(chain):
            el = sub(model, "joint", {"name": joint_name,
                                      "type": "continuous" if stype == "revolute" else stype})
            sub(el, "pose", text=pose_text(X, f"the pose of joint '{j.name}'"))
            sub(el, "parent", text=parent_name)
            sub(el, "child", text=child_name)
            axis = sub(el, "axis")
            sub(axis, "xyz", text=xyz)
            sub(sub(axis, "limit"), "effort", text="0")
            if j.damping[index]:
                sub(sub(axis, "dynamics"), "damping", text=num(j.damping[index]))

    def _joint_element(self, name, stype, parent: BodyNode | None, child: BodyNode,
                       X_CM: RigidTransform, joint=None):
        scope = child.body.model_instance
        parent_body = parent.body if parent else None
        model = self._model_of(child.body)
        if parent_body is not None and parent_body.model_instance != scope:
            model, scope = self.top, None
        el = sub(model, "joint", {"name": name, "type": stype})
        sub(el, "pose", text=pose_text(X_CM, f"the pose of joint '{name}'"))
        sub(el, "parent", text=self.scoped(parent_body, scope) if parent_body else "world")
        sub(el, "child", text=self.scoped(child.body, scope))
        return el

    def _actuators_of(self, joint) -> list:
        """The joint's actuators in the plant's order (an index made once: a
        search of every actuator per joint is quadratic on a large model)."""
        index = getattr(self, "_actuator_index", None)
        if index is None:
            index = self._actuator_index = {}
            for a in self.plant.actuators():
                index.setdefault(id(a.joint), []).append(a)
        return index.get(id(joint), [])

    def _axis_values(self, axis, j, kind: str) -> None:
        limit = sub(axis, "limit")
        for tag, value in (("lower", j.pos_lower[0]), ("upper", j.pos_upper[0])):
            if math.isfinite(value) and kind != "screw":
                sub(limit, tag, text=num(value))
        actuators = self._actuators_of(j)
        if not actuators:
            sub(limit, "effort", text="0")
        elif math.isfinite(actuators[0].effort_limit):
            sub(limit, "effort", text=num(actuators[0].effort_limit))
        if math.isfinite(j.vel_upper[0]):
            sub(limit, "velocity", text=num(j.vel_upper[0]))
        if math.isfinite(j.acc_upper[0]):
            sub(limit, D + "acceleration", text=num(j.acc_upper[0]))
        dynamics = sub(axis, "dynamics")
        if j.damping[0]:
            sub(dynamics, "damping", text=num(j.damping[0]))
        for f in self.plant.force_elements():
            if isinstance(f, RevoluteSpring) and f.joint is j:
                sub(dynamics, "spring_reference", text=num(f.nominal_angle))
                sub(dynamics, "spring_stiffness", text=num(f.stiffness))
        if len(dynamics) == 0:
            axis.remove(dynamics)

    # -- frames, filters, forces --------------------------------------------
    def _frame(self, frame) -> None:
        model = self._model_of(frame) if frame.body.index != 0 else self.top
        scope = frame.model_instance if model is not self.top else None
        # A model's frame is the world's at the written (identity) model pose.
        attached = "__model__" if frame.body.index == 0 else self.scoped(frame.body, scope)
        el = sub(model, "frame", {"name": self.written_names[id(frame)],
                                  "attached_to": attached})
        sub(el, "pose", text=pose_text(frame.X_BF, f"the pose of frame '{frame.name}'"))

    def _filters(self) -> None:
        for i, (a, b) in enumerate(self.filtered_pairs()):
            group = sub(self.top, D + "collision_filter_group", {"name": f"filter_{i}"})
            sub(group, D + "member", text=self.scoped(a.body, None))
            sub(group, D + "member", text=self.scoped(b.body, None))
            sub(group, D + "ignored_collision_filter_group", text=f"filter_{i}")

    def _forces_and_constraints(self) -> None:
        top = self.top
        for f in self.plant.force_elements():
            if isinstance(f, LinearBushingRollPitchYaw):
                el = sub(top, D + "linear_bushing_rpy")
                sub(el, D + "bushing_frameA", text=self.scoped(f.frameA, None))
                sub(el, D + "bushing_frameC", text=self.scoped(f.frameC, None))
                for tag, v in (("torque_stiffness", f.torque_stiffness),
                               ("torque_damping", f.torque_damping),
                               ("force_stiffness", f.force_stiffness),
                               ("force_damping", f.force_damping)):
                    sub(el, D + f"bushing_{tag}", text=nums(v, "a bushing"))
            elif isinstance(f, LinearSpringDamper):
                el = sub(top, D + "linear_spring_damper")
                sub(el, D + "linear_spring_damper_body_A", text=self.scoped(f.body_A, None))
                sub(el, D + "linear_spring_damper_body_B", text=self.scoped(f.body_B, None))
                sub(el, D + "linear_spring_damper_p_AP", text=nums(f.p_AP))
                sub(el, D + "linear_spring_damper_p_BQ", text=nums(f.p_BQ))
                for tag in ("free_length", "stiffness", "damping"):
                    sub(el, D + f"linear_spring_damper_{tag}", text=num(getattr(f, tag)))
        for c in self.plant.constraints():
            if isinstance(c, BallConstraint):
                el = sub(top, D + "ball_constraint")
                sub(el, D + "ball_constraint_body_A", text=self.scoped(c.body_A, None))
                sub(el, D + "ball_constraint_body_B", text=self.scoped(c.body_B, None))
                sub(el, D + "ball_constraint_p_AP", text=nums(c.p_AP))
                if c.p_BQ is not None:
                    sub(el, D + "ball_constraint_p_BQ", text=nums(c.p_BQ))
        self.report_unwritten({LinearBushingRollPitchYaw: "", LinearSpringDamper: "",
                               BallConstraint: "", CouplerConstraint: "", RevoluteSpring: ""})
