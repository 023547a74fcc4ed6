"""MJCF from the model, written to compile in MuJoCo to the same bodies.

Angles in radians, inertias given explicitly (``inertiafromgeom="false"``:
``fullinertia`` about the centre of mass in the body's axes, so MuJoCo finds
the principal axes itself), bodies nested at the joints' default positions
with each joint's ``ref`` set to its default position, visual and collision
geoms as two ``<default>`` classes, meshes as ``<asset><mesh>``, filters as
``<contact><exclude>``, couplers and ball constraints in ``<equality>``.

MuJoCo refuses a moving body whose welded cluster has no mass or a zero
principal inertia; such a body gets a tiny mass and inertia (1e-9), reported
as approximated.
"""
from __future__ import annotations

import math
import os
import re

from lxml import etree

from ...geometry import Box, Capsule, Convex, Cylinder, Ellipsoid, Geometry, HalfSpace, Mesh, Sphere
from ...plant.elements import BallConstraint, CouplerConstraint, RevoluteSpring, WeldConstraint
from ...spatial import (IDENTITY, RigidTransform, inertia_matrix, matrix_to_quaternion,
                        point_mass_inertia, principal_moments, reexpress_inertia)
from ...description import facts
from ..loss import APPROXIMATED, DROPPED, SPLIT, ConvertError
from .base import HALF_SPACE_BOX, Writer, geometry_label, num, nums, sub, unique_name
from .joint_chains import constrained_bodies, joint_chain
from .walk import BodyNode, where

MUJOCO_MESHES = (".obj", ".stl", ".msh")
STL_MAX_FACES = 200000  # MuJoCo's STL reader refuses more
TINY = 1e-9     # mass and inertia given to a moving body MuJoCo would refuse
MINIMUM = 1e-12  # below this MuJoCo's check (mjMINVAL) is too close to call
MUJOCO_EPS = 1e-14  # MuJoCo's smallest principal moment of a fullinertia (mjEPS)


def pos_quat(X, what: str) -> dict[str, str]:
    attrs = {}
    if any(X.p):
        attrs["pos"] = nums(X.p, what)
    q = matrix_to_quaternion(X.R)
    if tuple(q) != (1.0, 0.0, 0.0, 0.0):
        attrs["quat"] = nums(q, what)
    return attrs


def mujoco_inertia(I) -> tuple[dict, str | None]:
    """The MJCF attributes of a rotational inertia (about the centre of
    mass, in body axes) that MuJoCo accepts, and why it was changed (None
    when it was not): ``fullinertia`` (MuJoCo wants its smallest principal
    moment at least 1e-14), else ``quat`` + ``diaginertia`` of the principal
    moments, negative ones raised to zero and the largest lowered to the sum
    of the other two when they break the triangle inequality (MuJoCo's
    check has no tolerance)."""
    ixx, iyy, izz, ixy, ixz, iyz = I
    if not (ixy or ixz or iyz):
        moments, R = [ixx, iyy, izz], None
    else:
        import numpy as np
        values, vectors = np.linalg.eigh(np.array(inertia_matrix(I)))
        moments = [float(v) for v in values]
        if moments[0] >= MUJOCO_EPS and moments[0] + moments[1] >= moments[2] * (1 + 1e-9):
            return {"fullinertia": (ixx, iyy, izz, ixy, ixz, iyz)}, None
        if np.linalg.det(vectors) < 0:
            vectors[:, 2] = -vectors[:, 2]
        R = tuple(tuple(float(v) for v in row) for row in vectors)
    why = []
    if min(moments) < 0:
        why.append("a negative principal moment")
        moments = [max(m, 0.0) for m in moments]
    for k in range(3):
        others = sum(moments) - moments[k]
        if moments[k] > others:
            why.append("its principal moments break the triangle inequality")
            moments[k] = others
    change = "; ".join(why) if max(
        abs(a - b) for a, b in zip(moments, principal_moments(I) if R is not None
                                   else (ixx, iyy, izz))
        ) > 1e-9 * max(1e-300, *(abs(v) for v in I)) else None
    if R is None:
        if not why:
            return {"diaginertia": (ixx, iyy, izz)}, None
        return {"diaginertia": tuple(moments)}, change
    return {"quat": matrix_to_quaternion(R), "diaginertia": tuple(moments)}, change


def stl_problem(path: str) -> str | None:
    """Why MuJoCo's STL reader refuses a file: text (ASCII) STL, no faces or
    more faces than it takes; None when it reads it."""
    try:
        with open(path, "rb") as f:
            head = f.read(84)
        size = os.path.getsize(path)
    except OSError:
        return None  # reported where the mesh is read
    faces = int.from_bytes(head[80:84], "little") if len(head) == 84 else -1
    if faces < 0 or 84 + 50 * faces != size:
        return "MuJoCo reads binary STL only, and this is text (ASCII) STL"
    if not 1 <= faces <= STL_MAX_FACES:
        return f"MuJoCo reads STL files of 1 to {STL_MAX_FACES} faces; this one has {faces}"
    return None


# How each joint type is written: (MJCF joint type, axis in the joint's child
# frame M (None: the joint's own axis), name suffix), applied in order.
X, Y, Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
MOTIONS = {
    "revolute": [("hinge", None, "")],
    "prismatic": [("slide", None, "")],
    "ball_rpy": [("ball", None, "")],
    "universal": [("hinge", X, "_x"), ("hinge", Y, "_y")],
    "planar": [("slide", X, "_x"), ("slide", Y, "_y"), ("hinge", Z, "_theta")],
    "screw": [("hinge", None, "_rotation"), ("slide", None, "_translation")],
    "quaternion_floating": [("slide", X, "_x"), ("slide", Y, "_y"), ("slide", Z, "_z"),
                            ("ball", None, "_rotation")],
    "rpy_floating": [("slide", X, "_x"), ("slide", Y, "_y"), ("slide", Z, "_z"),
                     ("ball", None, "_rotation")],
}


# A face corner that gives a normal (``v/vt/vn`` or ``v//vn``), and a face
# line all of whose corners do; face lines start with "f " as MuJoCo reads them.
_GOOD_CORNER = rb"[^\s/]*/[^\s/]*/[^\s/]+"
_FACE_LINE = re.compile(rb"^f ", re.M)
_FACE_WITH_A_NORMAL = re.compile(rb"^f .*?(?<=[ \t])" + _GOOD_CORNER + rb"(?=[ \t\r]|$)", re.M)
_FACE_ALL_NORMALS = re.compile(rb"^f(?:[ \t]+" + _GOOD_CORNER + rb")+[ \t\r]*$", re.M)


def obj_problem(path: str) -> str | None:
    """Why MuJoCo's OBJ reader refuses a file mbparse reads: faces that give
    normals for some corners and none for others; None when it reads it.
    Read in blocks of whole lines by regular expressions (a mesh of
    millions of faces took seconds a million line by line)."""
    with_normals = without = False
    try:
        with open(path, "rb") as f:
            rest = b""
            while True:
                block = f.read(1 << 22)
                text = rest + block
                if block:
                    cut = text.rfind(b"\n") + 1
                    text, rest = text[:cut], text[cut:]
                with_normals = with_normals or _FACE_WITH_A_NORMAL.search(text) is not None
                without = without or (len(_FACE_LINE.findall(text))
                                      > len(_FACE_ALL_NORMALS.findall(text)))
                if with_normals and without:
                    return ("MuJoCo's OBJ reader refuses faces that give normals for some "
                            "corners and none for others, as this file does")
                if not block:
                    return None
    except OSError:
        return None  # reported where the mesh is read


def _motor_limits(span: tuple[float, float]) -> dict[str, str]:
    """A motor's attributes that limit its control and its force to
    ``span`` (gain 1: the control is the force)."""
    text = nums(span, "an effort limit")
    return {"ctrllimited": "true", "ctrlrange": text, "forcelimited": "true",
            "forcerange": text}


ALL_DOFS = "all"  # a ball joint: MJCF gives its three dofs one value


def _dof_of_motion(kind: str, index: int):
    """The model joint's degree of freedom that the ``index``-th MJCF joint
    written for it moves (see MOTIONS), ALL_DOFS for a ball joint, or None
    where the two do not match one to one (a screw's slide, a floating
    joint's pieces)."""
    if kind in ("revolute", "prismatic", "universal", "planar"):
        return index
    if kind == "ball_rpy":
        return ALL_DOFS
    if kind == "screw" and index == 0:
        return 0
    return None


# MJCF nests a child body inside its parent, so a chain of bodies is as many
# XML levels. MuJoCo's XML reader (tinyxml2) reads documents at most 499
# elements deep (measured with MuJoCo 4.0: 499 loads, 500 is refused), of
# which <mujoco>, <worldbody> and a body's own children take three.
MUJOCO_MAX_XML_DEPTH = 499
MAX_BODY_DEPTH = MUJOCO_MAX_XML_DEPTH - 3


def _deepest(roots) -> int:
    """The number of bodies on the longest path down from the roots."""
    deepest, stack = 0, [(node, 1) for node in roots]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node.children)
    return deepest


class MjcfWriter(Writer):
    target = "MJCF"

    def build(self):
        walk = self.walk
        depth = _deepest(walk.roots)
        if depth > MAX_BODY_DEPTH:
            raise ConvertError(
                f"the model's bodies are nested {depth} deep (a chain of {depth} bodies); MJCF "
                f"writes a child body inside its parent, and MuJoCo's XML reader reads at most "
                f"{MUJOCO_MAX_XML_DEPTH} levels of elements ({MAX_BODY_DEPTH} bodies), so no MJCF "
                "file can hold it and nothing was written (URDF and SDFormat keep links side by "
                "side: convert to those)")
        name = walk.model_name("scene")
        root = etree.Element("mujoco", {"model": name})
        sub(root, "compiler", {"angle": "radian", "inertiafromgeom": "false",
                               "autolimits": "true"})
        defaults = sub(root, "default")
        sub(sub(defaults, "default", {"class": "visual"}), "geom",
            {"contype": "0", "conaffinity": "0", "group": "1"})
        sub(sub(defaults, "default", {"class": "collision"}), "geom", {"group": "3"})
        self.asset = sub(root, "asset")
        self.meshes_by_key: dict[tuple, str] = {}
        # a mesh MuJoCo cannot take, and why (said again for each geometry using it)
        self.refused_meshes: dict[tuple, str] = {}
        self.joint_names: dict[int, str] = {}  # a model joint's (first) MJCF joint
        self.screws: list[tuple[str, str, float]] = []  # (slide, hinge, pitch / 2π)
        self.used: dict[str, set[str]] = {"geom": set(), "site": set(), "joint": set(),
                                          "actuator": set()}
        # (MJCF joint, force range, model joint) of each effort limit written
        self.effort_motors: list[tuple[str, tuple[float, float], object]] = []
        self.static = self._static_bodies()
        self.constrained = constrained_bodies(self.plant)
        self.searched: dict[str, dict[str, int]] = {}  # (see unique_name)
        worldbody = sub(root, "worldbody")
        for g in walk.world_geometries:
            self._geom(worldbody, g)
        for frame in walk.world_frames:
            self._site(worldbody, frame)
        # In the order the model declared them (MuJoCo numbers joints and
        # qpos in the order of the bodies: an MJCF source keeps its layout).
        for node in sorted(walk.roots, key=lambda n: n.body.index):
            self._body(worldbody, node)
        if len(self.asset) == 0:
            root.remove(self.asset)
        for index in walk.instances:
            model = self.plant.model_instance(index)
            self.report_facts(model, f"model instance '{walk.instance_name(index)}'",
                              ("static", "free_joints"))
        self._contact(root)
        self._equality(root)
        self._actuators(root)
        return root

    def _static_bodies(self) -> set[int]:
        """The world and the bodies welded to it (through other welds):
        MuJoCo's static bodies, which may hold planes."""
        static = {0}
        for node in self.walk.preorder():
            h = node.hinge
            if (h is None and node.welded_root) or (
                    h is not None and h.joint.type_name == "weld"
                    and (node.parent is None or node.parent.body.index in static)):
                static.add(node.body.index)
        return static

    def _unique(self, kind: str, name: str) -> str:
        return unique_name(name, self.used[kind], self.searched.setdefault(kind, {}))

    # -- bodies -----------------------------------------------------------
    def _body(self, parent_el, node: BodyNode) -> None:
        chain = joint_chain(node, self.constrained)
        X = node.X_PB(at_default=self._at_default(node))
        for n in chain[1:]:
            X = X @ n.X_PB(at_default=True)
        node = chain[-1]
        body = node.body
        el = sub(parent_el, "body", {"name": self.name(body),
                                     **pos_quat(X, f"the pose of body '{body.name}'")})
        for n in chain:
            self._joints(el, n)
        self._inertial(el, node)
        for g in node.geometries:
            self._geom(el, g)
        for frame in node.frames:
            self._site(el, frame)
        if not body.gravity_enabled:
            el.set("gravcomp", "1")
        for child in node.children:
            self._body(el, child)

    def _inertial(self, el, node: BodyNode) -> None:
        M = node.body.default_spatial_inertia
        mass, I = M.mass, M.I_cm
        moving = node.hinge is None and not node.welded_root or (
            node.hinge is not None and node.hinge.joint.type_name != "weld")
        if moving and self._refused(node):
            self.report.add(APPROXIMATED, f"body '{node.name}'",
                            f"MuJoCo refuses a moving body without mass or with a zero "
                            f"principal inertia; it is given {TINY:g} more mass and "
                            f"{TINY:g} more inertia about each axis", where(node.body))
            mass += TINY
            I = (I[0] + TINY, I[1] + TINY, I[2] + TINY, I[3], I[4], I[5])
        what = f"the inertia of body '{node.name}'"
        attrs = {"pos": nums(M.com, what), "mass": num(mass, what)}
        form, change = mujoco_inertia(I)
        if change:
            self.report.add(APPROXIMATED, f"body '{node.name}'",
                            f"MuJoCo refuses its rotational inertia {tuple(I)} ({change}); "
                            f"the principal moments written are {form['diaginertia']}",
                            where(node.body))
        attrs.update({k: nums(v, what) for k, v in form.items()})
        sub(el, "inertial", attrs)

    def _refused(self, node: BodyNode) -> bool:
        """Whether MuJoCo would refuse this moving body: its cluster (itself
        and the bodies welded below it) has no mass or a zero principal
        inertia."""
        stack = [(node, IDENTITY)]
        parts = []
        while stack:
            n, X = stack.pop()
            parts.append((n.body.default_spatial_inertia, X))
            for c in n.children:
                if c.hinge is not None and c.hinge.joint.type_name == "weld":
                    stack.append((c, X @ c.X_PB(True)))
        total = sum(M.mass for M, _ in parts)
        if total < MINIMUM:
            return True
        com = [sum(M.mass * X.apply(M.com)[k] for M, X in parts) / total for k in range(3)]
        I = [0.0] * 6
        own = [0.0] * 6  # the bodies' own inertias, without the masses' offsets
        for M, X in parts:
            Ic = reexpress_inertia(M.I_cm, X.R)
            c = X.apply(M.com)
            shift = point_mass_inertia(M.mass, [c[k] - com[k] for k in range(3)])
            I = [a + b + s for a, b, s in zip(I, Ic, shift)]
            own = [a + b for a, b in zip(own, Ic)]
        # MuJoCo 4 also refuses a cluster of point masses (its bodies' own
        # inertias all zero) however the masses are spread: measured, a free
        # body of zero inertia with point masses welded at (1, 0, 0) and
        # (0, 1, 0.5) is refused.
        return min(principal_moments(I)) < MINIMUM or min(principal_moments(own)) < MINIMUM

    def _joints(self, el, node: BodyNode) -> None:
        h = node.hinge
        if h is None:
            if not node.welded_root:
                el.insert(0, etree.Element("freejoint", {"name": self._unique(
                    "joint", self._free_joint_name(node.body))}))
            return
        j = h.joint
        kind = j.type_name
        what = f"joint '{j.name}'"
        if kind == "weld":
            return
        if kind in ("quaternion_floating", "rpy_floating") and node.parent is None:
            sub(el, "freejoint", {"name": self._unique("joint", self.name(j))})
            return
        motions = MOTIONS.get(kind)
        if motions is None:
            self.report.add(APPROXIMATED, what, f"a {kind} joint has no MJCF form; the body is "
                                                "welded to its parent", where(j))
            return
        if kind in ("quaternion_floating", "rpy_floating"):
            self.report.add(SPLIT, what, "a floating joint below another body is written as "
                                         "three slides and a ball joint in its body", where(j))
        elif len(motions) > 1:
            self.report.add(SPLIT, what, f"MJCF has no {kind} joint; it is written as "
                            + ", ".join(f"{m[0]} '{self.name(j)}{m[2]}'" for m in motions)
                            + " in the body" + (" and a joint equality that keeps the slide "
                                                "at pitch/2π times the hinge"
                                                if kind == "screw" else ""), where(j))
        at_default = self._at_default(node)
        if not at_default:
            self.report.add(DROPPED, what, f"the default positions {j.default_positions} of a "
                                           f"{kind} joint (MJCF's ref is for single hinges and "
                                           "slides; the body is written at zero positions)",
                            where(j))
        R_CM = h.X_CM.R
        written = []
        facts_written: set[str] = set()
        for index, (mtype, axis, suffix) in enumerate(motions):
            attrs = {"name": self._unique("joint", self.name(j) + suffix), "type": mtype}
            if mtype in ("hinge", "slide"):
                a = h.axis if axis is None else axis
                attrs["axis"] = nums(tuple(sum(R_CM[r][k] * a[k] for k in range(3))
                                           for r in range(3)), what)
            if any(h.X_CM.p) and mtype != "slide":
                attrs["pos"] = nums(h.X_CM.p, what)
            if kind in ("revolute", "prismatic"):
                self._range(attrs, j, what)
                if j.default_positions[0]:
                    attrs["ref"] = num(j.default_positions[0], what)
                for f in self.plant.force_elements():
                    if isinstance(f, RevoluteSpring) and f.joint is j:
                        attrs["stiffness"] = num(f.stiffness)
                        attrs["springref"] = num(f.nominal_angle)
            damping = j.damping[min(index, len(j.damping) - 1)] if j.damping else 0.0
            if kind == "screw" and mtype == "slide":
                damping = 0.0
            if damping:
                attrs["damping"] = num(damping, what)
            if index == 0:
                actuated = [a for a in self.plant.actuators() if a.joint is j]
                if actuated and actuated[0].rotor_inertia:
                    a = actuated[0]
                    attrs["armature"] = num(a.rotor_inertia * a.gear_ratio * a.gear_ratio, what)
            dof = _dof_of_motion(kind, index)
            if dof is not None:
                facts_written |= self._joint_facts(attrs, j, dof, mtype, what)
            written.append(sub(el, "joint", attrs))
        self.report_facts(j, what, facts_written, where(j))
        self.joint_names[id(j)] = written[0].get("name")
        if kind == "screw":
            self.screws.append((written[1].get("name"), written[0].get("name"),
                                j.screw_pitch / (2 * math.pi)))
        if kind == "ball_rpy" and any(j.pos_lower[k] > -math.inf or j.pos_upper[k] < math.inf
                                      for k in range(3)):
            self.report.add(DROPPED, what, "the limits of a ball joint", where(j))
        if any(math.isfinite(v) for v in j.vel_upper + j.acc_upper):
            self.report.add(DROPPED, what, "velocity and acceleration limits (MJCF has none)",
                            where(j))

    def _joint_facts(self, attrs: dict, j, dof, mtype: str, what: str) -> set[str]:
        """Writes into one MJCF joint's ``attrs`` what the source said of the
        model joint's degree of freedom ``dof`` (an index, or ``ALL_DOFS``
        for a ball joint, whose dofs MJCF gives one value) beyond the plant
        (mbparse.description): dry friction as ``frictionloss``, armature,
        a spring the plant did not make, the effort limit as
        ``actuatorfrcrange``, which also makes a motor (see _actuators).
        Returns the keys written; the caller reports the others."""
        told = facts(j)
        if not told:
            return set()
        done = set()

        def value(key):
            v = told.get(key)
            if not v:
                return None
            if dof is ALL_DOFS:
                return v[0] if all(x == v[0] for x in v) else None
            return v[dof] if dof < len(v) else None

        for key, attr in (("friction", "frictionloss"), ("armature", "armature")):
            v = value(key)
            if v is not None:
                if v:
                    attrs[attr] = num(v, what)
                done.add(key)
        if mtype not in ("hinge", "slide"):
            return done
        k = value("spring_stiffness")
        if k is not None and "stiffness" not in attrs:
            attrs["stiffness"] = num(k, what)
            ref = value("spring_reference")
            if ref:
                attrs["springref"] = num(ref, what)
            done |= {"spring_stiffness", "spring_reference"}
        spring_damper = told.get("spring_damper")
        if spring_damper is not None:
            attrs["springdamper"] = nums(spring_damper, what)
            done.add("spring_damper")
        effort, span = value("effort"), value("effort_range")
        if effort is not None and math.isfinite(effort) and effort >= 0:
            # A zero effort limit is Drake's (and URDF users') "not actuated":
            # no clamp and no motor say the same.
            if effort > 0:
                span = (-effort, effort)
            done.add("effort")
        if span is not None and span[0] < span[1] and all(math.isfinite(x) for x in span):
            attrs["actuatorfrcrange"] = nums(span, what)
            self.effort_motors.append((attrs["name"], tuple(span), j))
            done |= {"effort", "effort_range"}
        return done

    def _free_joint_name(self, body) -> str:
        """The name the source gave the joint that makes ``body`` free
        (mbparse.description), else the body's; prefixed as body names are."""
        model = self.plant.model_instance(body.model_instance)
        given = facts(model).get("free_joints", {}).get(body.name)
        if given is None:
            return self.name(body)
        full = self.name(body)
        return full[:len(full) - len(body.name)] + given

    def _at_default(self, node: BodyNode) -> bool:
        """Whether the body is written at its joint's default positions: always,
        but for a joint of several degrees of freedom off zero (MJCF's ``ref``
        belongs to one hinge or slide)."""
        h = node.hinge
        if h is None or h.joint.type_name in ("revolute", "prismatic", "weld"):
            return True
        j = h.joint
        return all(q == z for q, z in zip(j.default_positions, j.zero_positions()))

    def _range(self, attrs: dict, j, what: str) -> None:
        lo, hi = j.pos_lower[0], j.pos_upper[0]
        if math.isfinite(lo) and math.isfinite(hi) and lo < hi:
            attrs["range"] = nums((lo, hi), what)
        elif lo == hi:
            self.report.add(APPROXIMATED, what, f"the empty range [{lo}, {hi}] has no MJCF "
                                                "form; the joint is written unlimited", where(j))
        elif math.isfinite(lo) or math.isfinite(hi):
            self.report.add(APPROXIMATED, what, f"the one-sided limit [{lo}, {hi}] has no "
                                                "MJCF form; the joint is written unlimited",
                            where(j))

    # -- geometry -----------------------------------------------------------
    def _geom(self, el, g: Geometry) -> None:
        # A material's name or texture file: MJCF's materials are assets of
        # their own, and only the diffuse colour is written (rgba).
        self.report_facts(g.instance, geometry_label(g), (), g.instance.source)
        shape = None
        for cls, is_role in (("visual", self.is_visual), ("collision", self.is_collision)):
            if not is_role(g):
                continue
            if shape is None:
                shape = self._shape(g)
                if shape is None:
                    return
                X_BG = g.X_BG
                offset = shape.pop("pos_offset", None)
                if offset is not None:
                    X_BG = X_BG @ RigidTransform(p=offset)
            attrs = {"name": self._unique("geom", self.geometry_name(g)), "class": cls,
                     **shape, **pos_quat(X_BG, f"the pose of geometry '{g.name}'")}
            if cls == "visual":
                color = self.rgba(g)
                if color is not None:
                    attrs["rgba"] = nums(color.to_list(), "a colour")
            else:
                f = self.friction(g)
                if f is not None and f.static_friction != f.dynamic_friction:
                    self.report.add(APPROXIMATED, geometry_label(g),
                                    f"MuJoCo has one friction coefficient; the dynamic one "
                                    f"({f.dynamic_friction}) is written", g.instance.source)
                if f is not None and f.dynamic_friction != 1.0:
                    attrs["friction"] = num(f.dynamic_friction)
                self._report_proximity(g)
                if isinstance(g.shape, Mesh) and not isinstance(g.shape, Convex):
                    self.report.add(APPROXIMATED, geometry_label(g),
                                    "MuJoCo collides with the convex hull of a mesh",
                                    g.instance.source)
            sub(el, "geom", attrs)

    def _report_proximity(self, g: Geometry) -> None:
        from ...geometry.properties import PROXIMITY
        for (group, name), _ in g.properties(PROXIMITY).items():
            if (group, name) != ("material", "coulomb_friction"):
                self.report.add(DROPPED, geometry_label(g),
                                f"the proximity property {group}/{name}", g.instance.source)

    def _shape(self, g: Geometry) -> dict | None:
        s = g.shape
        what = f"the shape of geometry '{g.name}'"
        if isinstance(s, Box):
            return {"type": "box", "size": nums([v / 2 for v in s.size()], what)}
        if isinstance(s, Sphere):
            if s.radius <= 0:
                self.report.add(DROPPED, geometry_label(g), "a sphere of radius 0 (MuJoCo "
                                "needs a positive size)", g.instance.source)
                return None
            return {"type": "sphere", "size": num(s.radius, what)}
        if isinstance(s, (Cylinder, Capsule)):
            return {"type": "cylinder" if isinstance(s, Cylinder) else "capsule",
                    "size": nums((s.radius, s.length / 2), what)}
        if isinstance(s, Ellipsoid):
            return {"type": "ellipsoid", "size": nums((s.a, s.b, s.c), what)}
        if isinstance(s, HalfSpace):
            if g.body in self.static:
                return {"type": "plane", "size": "0 0 1"}
            # MuJoCo allows planes on static bodies only: a box whose top
            # face is the plane, as wide and deep as HALF_SPACE_BOX.
            self.report.add(APPROXIMATED, geometry_label(g),
                            "a half space on a body that can move (MuJoCo allows planes on "
                            f"static bodies only) is written as a box {2 * HALF_SPACE_BOX:g} m "
                            f"wide and deep whose top face is the plane", g.instance.source)
            return {"type": "box", "size": nums((HALF_SPACE_BOX,) * 3, what),
                    "pos_offset": (0.0, 0.0, -HALF_SPACE_BOX)}
        if isinstance(s, Mesh):
            return self._mesh(g, s)
        self.report.add(DROPPED, geometry_label(g), f"a {s.type_name} has no MJCF shape",
                        g.instance.source)
        return None

    def _mesh(self, g: Geometry, s: Mesh) -> dict | None:
        ext = os.path.splitext(s.filename)[1].lower()
        if not os.path.isfile(s.filename):
            self.report.add(DROPPED, geometry_label(g),
                            f"the mesh file '{s.filename}' does not exist, and MuJoCo needs "
                            "it", g.instance.source)
            return None
        key = (os.path.abspath(s.filename), tuple(s.scale))
        name = self.meshes_by_key.get(key)
        if name is None and key in self.refused_meshes:
            self.report.add(DROPPED, geometry_label(g), self.refused_meshes[key],
                            g.instance.source)
            return None
        uri = None
        if name is None:
            problem = None
            if ext not in MUJOCO_MESHES:
                problem = (f"MuJoCo reads no {ext or 'extension-less'} meshes (only "
                           f"{', '.join(MUJOCO_MESHES)})")
            elif ext == ".stl":
                problem = stl_problem(s.filename)
            elif ext == ".obj":
                problem = obj_problem(s.filename)
            if not self._mesh_usable(g, s):
                self.refused_meshes[key] = self.report.losses[-1].what
                return None
            if problem:
                uri = self.mesh_as_obj(g, s, problem)
                if uri is None:
                    self.refused_meshes[key] = self.report.losses[-1].what
                    return None
            stem = os.path.splitext(os.path.basename(s.filename))[0]
            name = stem
            n = 1
            while name in self.meshes_by_key.values():
                name = f"{stem}_{n}"
                n += 1
            self.meshes_by_key[key] = name
            attrs = {"name": name, "file": uri or self.mesh_uri(s.filename)}
            if tuple(s.scale) != (1.0, 1.0, 1.0):
                attrs["scale"] = nums(s.scale, f"the scale of mesh '{s.filename}'")
            attrs["inertia"] = "shell"
            sub(self.asset, "mesh", attrs)
        return {"type": "mesh", "mesh": name}

    def _mesh_usable(self, g: Geometry, s: Mesh) -> bool:
        """Whether MuJoCo's compiler takes the mesh file; what it refuses is
        reported and left out. Every mesh is written with ``inertia="shell"``:
        MuJoCo measures each mesh even when the bodies' inertias are given
        (as they are here), and refuses a flat or open one by its volume,
        while the surface of any mesh with triangles has an area."""
        from ...formats.mjcf.inertia import MeshInertiaError, mesh_properties
        from ...geometry.meshes import MeshError, read_mesh, read_msh_arrays
        path = s.filename
        try:
            if path.lower().endswith(".msh"):
                V, F = read_msh_arrays(path)
            else:
                mesh = read_mesh(path)
                V, F = mesh.vertices, mesh.faces
        except (MeshError, OSError, ValueError) as e:
            self.report.add(DROPPED, geometry_label(g), f"MuJoCo cannot read the mesh: {e}",
                            g.instance.source)
            return False
        if len(F) == 0:  # a .msh of vertices only: MuJoCo takes the hull
            return True
        try:
            mesh_properties(V, F, "shell", s.scale)
        except MeshInertiaError as e:
            self.report.add(DROPPED, geometry_label(g),
                            f"MuJoCo refuses the mesh '{path}': {e}", g.instance.source)
            return False
        return True

    def _site(self, el, frame) -> None:
        sub(el, "site", {"name": self._unique("site", self.name(frame)),
                         **pos_quat(frame.X_BF, f"the pose of frame '{frame.name}'")})

    # -- contact, equality, actuators ---------------------------------------
    def _contact(self, root) -> None:
        pairs = self.filtered_pairs()
        if pairs:
            contact = sub(root, "contact")
            for a, b in pairs:
                sub(contact, "exclude", {"body1": self.name(a.body), "body2": self.name(b.body)})

    def joint_name(self, j) -> str:
        """The MJCF joint that stands for a model joint (the first of several)."""
        return self.joint_names.get(id(j), self.name(j))

    def _equality(self, root) -> None:
        equality = etree.Element("equality")
        for slide, hinge, ratio in self.screws:
            sub(equality, "joint", {"joint1": slide, "joint2": hinge,
                                    "polycoef": nums((0, ratio, 0, 0, 0))})
        for c in self.plant.constraints():
            if isinstance(c, CouplerConstraint):
                sub(equality, "joint", {"joint1": self.joint_name(c.joint0),
                                        "joint2": self.joint_name(c.joint1),
                                        "polycoef": nums((c.offset, c.gear_ratio, 0, 0, 0))})
            elif isinstance(c, BallConstraint):
                sub(equality, "connect", {"body1": self.name(c.body_A),
                                          "body2": self.name(c.body_B),
                                          "anchor": nums(c.p_AP)})
                if c.p_BQ is not None:
                    self.report.add(APPROXIMATED, f"ball constraint of '{c.body_A.name}'",
                                    "MuJoCo takes the point on the second body from the "
                                    "default configuration, not from p_BQ", where(c))
            elif isinstance(c, WeldConstraint):
                X = c.X_AP @ c.X_BQ.inverse()
                q = matrix_to_quaternion(X.R)
                sub(equality, "weld", {"body1": self.name(c.body_A), "body2": self.name(c.body_B),
                                       "relpose": nums(tuple(X.p) + tuple(q))})
        if len(equality):
            root.append(equality)
        self.report_unwritten({CouplerConstraint: "", BallConstraint: "", WeldConstraint: "",
                               RevoluteSpring: ""})

    def _actuators(self, root) -> None:
        """The model's actuators as they are (a PD-controlled one as a
        ``position``, the others as ``motor``s), then, unless
        ``actuators_from_effort`` is off, a ``motor`` for each joint whose
        effort limit was written (``actuatorfrcrange``) and that no
        actuator drives: control and force limited to that range (a
        motor's control is its force)."""
        actuators = self.plant.actuators()
        driven = {id(a.joint) for a in actuators}
        made = [m for m in self.effort_motors if id(m[2]) not in driven] \
            if self.actuators_from_effort else []
        if not actuators and not made:
            return
        el = sub(root, "actuator")
        for a in actuators:
            attrs = {"name": self._unique("actuator", self.name(a)),
                     "joint": self.joint_name(a.joint)}
            if a.gear_ratio != 1.0:
                attrs["gear"] = num(a.gear_ratio)
            if a.controller_gains is not None:
                if math.isfinite(a.effort_limit):
                    attrs["forcelimited"] = "true"
                    attrs["forcerange"] = nums((-a.effort_limit, a.effort_limit))
                attrs["kp"] = num(a.controller_gains.p)
                attrs["kv"] = num(a.controller_gains.d)
                sub(el, "position", attrs)
            else:
                if math.isfinite(a.effort_limit):
                    attrs.update(_motor_limits((-a.effort_limit, a.effort_limit)))
                sub(el, "motor", attrs)
        for joint_name, span, _ in made:
            sub(el, "motor", {"name": self._unique("actuator", joint_name), "joint": joint_name,
                              **_motor_limits(span)})

