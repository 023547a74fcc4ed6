"""The URDF as the converter sees it: links, joints and materials as read by
urdfdom, the URDF library that libsdformat's converter is built on.

This is deliberately not mbparse's URDF reader (which builds Drake's model):
the conversion works on the URDF's own structure, follows urdfdom's rules for
what is accepted (revolute and prismatic joints need ``<limit>``, colours lie
in [0, 1], materials are unique, one root link) and keeps urdfdom's leniency
where it has it (a link whose ``<inertial>`` or ``<visual>`` is malformed is
kept with what was read before the problem; a warning says so).
"""
from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass, field

from ..diagnostics import DiagnosticPolicy
from ..formats.common.xml import MEMO_LIMIT
from ..numbers import quote
from .quat import Pose, Quat

_NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


class _Bad(Exception):
    """A value urdfdom would refuse; carries the message."""


# Texts read cleanly by str_to_double (a model repeats a few numbers many
# times), at most MEMO_LIMIT of them.
_DOUBLES: dict[str, float] = {}


def str_to_double(text: str) -> float:
    """A number as a C++ stream reads it when the whole text must be used."""
    value = _DOUBLES.get(text)
    if value is not None:
        return value
    m = _NUMBER.match(text)
    if not m or m.end() != len(text):
        raise _Bad(f"'{quote(text)}' is not a number")
    value = float(text)
    if not math.isfinite(value):  # 1e400: a C++ stream fails on it too
        raise _Bad(f"'{quote(text)}' is not a finite number")
    if len(_DOUBLES) < MEMO_LIMIT:
        _DOUBLES[text] = value
    return value


def parse_vector3(text: str) -> tuple[float, float, float]:
    pieces = [p for p in text.split(" ") if p != ""]
    values = [str_to_double(p) for p in pieces]
    if len(values) != 3:
        raise _Bad(f"expected 3 numbers, found {len(values)} in '{text}'")
    return (values[0], values[1], values[2])


def _float32(v: float) -> float:
    return struct.unpack("f", struct.pack("f", v))[0]


@dataclass
class Inertial:
    origin: Pose = field(default_factory=Pose)
    mass: float = 0.0
    ixx: float = 0.0
    ixy: float = 0.0
    ixz: float = 0.0
    iyy: float = 0.0
    iyz: float = 0.0
    izz: float = 0.0


@dataclass
class Material:
    name: str
    color: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)  # single precision values
    texture: str | None = None


@dataclass
class Geometry:
    kind: str  # box | cylinder | sphere | mesh
    size: tuple[float, float, float] = (0.0, 0.0, 0.0)
    radius: float = 0.0
    length: float = 0.0
    filename: str = ""
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)


@dataclass
class Shape:
    """A URDF ``<visual>`` or ``<collision>``."""

    name: str
    origin: Pose
    geometry: Geometry
    material: Material | None = None
    material_name: str = ""
    line: int | None = None


@dataclass
class Limits:
    lower: float = 0.0
    upper: float = 0.0
    effort: float = 0.0
    velocity: float = 0.0


@dataclass
class Dynamics:
    damping: float = 0.0
    friction: float = 0.0


@dataclass
class Joint:
    name: str
    type: str
    origin: Pose = field(default_factory=Pose)
    parent_name: str = ""
    child_name: str = ""
    axis: tuple[float, float, float] = (1.0, 0.0, 0.0)
    limits: Limits | None = None
    dynamics: Dynamics | None = None
    line: int | None = None


@dataclass
class Link:
    name: str
    inertial: Inertial | None = None
    visuals: list[Shape] = field(default_factory=list)
    collisions: list[Shape] = field(default_factory=list)
    parent: "Link | None" = None
    parent_joint: Joint | None = None
    child_links: list["Link"] = field(default_factory=list)
    child_joints: list[Joint] = field(default_factory=list)
    line: int | None = None


@dataclass
class UrdfModel:
    name: str
    links: dict[str, Link]
    joints: dict[str, Joint]
    materials: dict[str, Material]
    root: Link


class UrdfModelReader:
    """Reads a ``<robot>`` element into a :class:`UrdfModel`."""

    def __init__(self, policy: DiagnosticPolicy, file: str | None):
        self.policy = policy
        self.file = file

    def error(self, el, message: str, code: str = "convert-invalid"):
        self.policy.error(message, self.file, getattr(el, "sourceline", None), code=code)

    def warning(self, el, message: str, code: str = "convert-warning") -> None:
        self.policy.warning(message, self.file, getattr(el, "sourceline", None), code=code)

    def read(self, robot) -> UrdfModel:
        """The model of a ``<robot>`` element (errors raise ParseError)."""
        if robot.tag != "robot":
            self.error(robot, "the root element is not <robot>", code="convert-root")
        name = robot.get("name")
        if name is None:
            self.error(robot, "<robot> has no name attribute", code="convert-attribute-missing")
        version = robot.get("version")
        if version is not None and not re.fullmatch(r"1(\.0*)?", version.strip()):
            self.error(robot, f"URDF version '{version}' is not supported (only 1.0 is)",
                       code="convert-value-invalid")
        materials: dict[str, Material] = {}
        for m_el in robot.findall("material"):
            material = self._material(m_el, only_name_ok=False)
            if material is None:
                continue
            if material.name in materials:
                self.error(m_el, f"material '{material.name}' is defined twice",
                           code="convert-conflict")
            materials[material.name] = material
        links: dict[str, Link] = {}
        for l_el in robot.findall("link"):
            link = self._link(l_el)
            if link.name in links:
                self.error(l_el, f"link '{link.name}' is defined twice", code="convert-conflict")
            for shape in link.visuals:
                self._assign_material(shape, materials, l_el)
            links[link.name] = link
        if not links:
            self.error(robot, "the robot has no links", code="convert-structure")
        joints: dict[str, Joint] = {}
        for j_el in robot.findall("joint"):
            joint = self._joint(j_el)
            if joint.name in joints:
                self.error(j_el, f"joint '{joint.name}' is defined twice", code="convert-conflict")
            joints[joint.name] = joint
        links = dict(sorted(links.items()))
        joints = dict(sorted(joints.items()))
        root = self._build_tree(robot, links, joints)
        return UrdfModel(name, links, joints, materials, root)

    # -- tree ---------------------------------------------------------------

    def _build_tree(self, robot, links, joints) -> Link:
        has_parent: set[str] = set()
        for joint in joints.values():
            if not joint.parent_name or not joint.child_name:
                self.policy.error(f"joint '{joint.name}' lacks a parent or child link",
                                  self.file, joint.line, code="convert-structure")
            child = links.get(joint.child_name)
            if child is None:
                self.policy.error(f"child link '{joint.child_name}' of joint '{joint.name}' "
                                  "is not defined", self.file, joint.line,
                                  code="convert-unknown-link")
            parent = links.get(joint.parent_name)
            if parent is None:
                self.policy.error(f"parent link '{joint.parent_name}' of joint '{joint.name}' "
                                  "is not defined (the converter needs every link declared, "
                                  "even 'world')", self.file, joint.line,
                                  code="convert-unknown-link")
            child.parent = parent
            child.parent_joint = joint
            parent.child_joints.append(joint)
            parent.child_links.append(child)
            has_parent.add(child.name)
        roots = [link for name, link in links.items() if name not in has_parent]
        if not roots:
            self.error(robot, "the links form no tree: there is no root link",
                       code="convert-structure")
        if len(roots) > 1:
            self.error(robot, f"the links form more than one tree: roots '{roots[0].name}' "
                       f"and '{roots[1].name}'", code="convert-structure")
        return roots[0]

    # -- elements -----------------------------------------------------------

    def _pose(self, el) -> Pose:
        if el is None:
            return Pose()
        xyz, rpy = (0.0, 0.0, 0.0), None
        try:
            if el.get("xyz") is not None:
                xyz = parse_vector3(el.get("xyz"))
            if el.get("rpy") is not None:
                rpy = parse_vector3(el.get("rpy"))
        except _Bad as e:
            raise _Bad(f"malformed <{el.tag}>: {e}") from None
        return Pose(xyz, Quat.from_rpy(*rpy) if rpy is not None else Quat())

    def _material(self, el, only_name_ok: bool) -> Material | None:
        name = el.get("name")
        if name is None:
            self.error(el, "<material> has no name attribute", code="convert-attribute-missing")
        material = Material(name)
        has_rgb = has_file = False
        tex = el.find("texture")
        if tex is not None and tex.get("filename") is not None:
            material.texture = tex.get("filename")
            has_file = True
        color = el.find("color")
        if color is not None and color.get("rgba") is not None:
            values = []
            for piece in color.get("rgba").split(" "):
                if not piece:
                    continue
                try:
                    v = str_to_double(piece)
                except _Bad:
                    self.error(color, f"rgba component '{piece}' is not a number",
                               code="convert-value-invalid")
                if v < 0 or v > 1:
                    self.error(color, f"rgba component '{piece}' lies outside [0, 1]",
                               code="convert-value-invalid")
                values.append(_float32(v))
            if len(values) == 4:
                material.color = tuple(values)
            else:
                self.warning(color, f"rgba of material '{name}' does not have 4 values; "
                             "black is used", code="convert-warning")
            has_rgb = True
        if not has_rgb and not has_file:
            if not only_name_ok:
                self.warning(el, f"material '{name}' has neither a colour nor a texture; "
                             "it is ignored", code="convert-unsupported")
            return None
        return material

    def _assign_material(self, shape: Shape, materials, link_el) -> None:
        if not shape.material_name:
            return
        known = materials.get(shape.material_name)
        if known is not None:
            shape.material = known
        elif shape.material is not None:
            materials[shape.material.name] = shape.material
        else:
            self.warning(link_el, f"material '{shape.material_name}' is not defined; "
                         "the visual has no material", code="convert-unknown-material")

    def _geometry(self, el) -> Geometry:
        if el is None:
            raise _Bad("it has no <geometry>")
        shapes = [c for c in el if isinstance(c.tag, str)]
        if not shapes:
            raise _Bad("<geometry> is empty")
        s = shapes[0]
        kind = s.tag

        def number(attr: str) -> float:
            text = s.get(attr)
            if text is None:
                raise _Bad(f"<{kind}> has no {attr} attribute")
            return str_to_double(text)

        if kind == "sphere":
            return Geometry("sphere", radius=number("radius"))
        if kind == "box":
            if s.get("size") is None:
                raise _Bad("<box> has no size attribute")
            return Geometry("box", size=parse_vector3(s.get("size")))
        if kind == "cylinder":
            if s.get("length") is None or s.get("radius") is None:
                raise _Bad("<cylinder> needs both length and radius")
            return Geometry("cylinder", length=number("length"), radius=number("radius"))
        if kind == "mesh":
            if s.get("filename") is None:
                raise _Bad("<mesh> has no filename attribute")
            scale = parse_vector3(s.get("scale")) if s.get("scale") is not None else (1.0, 1.0, 1.0)
            return Geometry("mesh", filename=s.get("filename"), scale=scale)
        raise _Bad(f"geometry <{kind}> is not one the converter knows "
                   "(box, cylinder, sphere, mesh)")

    def _shape(self, el, visual: bool) -> Shape:
        origin = self._pose(el.find("origin"))
        geometry = self._geometry(el.find("geometry"))
        shape = Shape(el.get("name") or "", origin, geometry, line=el.sourceline)
        if visual:
            m = el.find("material")
            if m is not None:
                if m.get("name") is None:
                    raise _Bad("its <material> has no name attribute")
                shape.material_name = m.get("name")
                shape.material = self._material(m, only_name_ok=True)
        return shape

    def _inertial(self, el, inertial: Inertial) -> None:
        inertial.origin = self._pose(el.find("origin"))
        mass = el.find("mass")
        if mass is None or mass.get("value") is None:
            raise _Bad("<inertial> has no <mass value=...>")
        inertial.mass = str_to_double(mass.get("value"))
        inertia = el.find("inertia")
        if inertia is None:
            raise _Bad("<inertial> has no <inertia>")
        values = {}
        for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
            if inertia.get(key) is None:
                raise _Bad(f"<inertia> has no {key} attribute")
            values[key] = str_to_double(inertia.get(key))
        for key, v in values.items():
            setattr(inertial, key, v)

    def _link(self, el) -> Link:
        name = el.get("name")
        if name is None:
            self.error(el, "<link> has no name attribute", code="convert-attribute-missing")
        link = Link(name, line=el.sourceline)
        i_el = el.find("inertial")
        try:
            if i_el is not None:
                link.inertial = Inertial()
                self._inertial(i_el, link.inertial)
            for kind, target in (("visual", link.visuals), ("collision", link.collisions)):
                for s_el in el.findall(kind):
                    try:
                        target.append(self._shape(s_el, kind == "visual"))
                    except _Bad as e:
                        raise _Bad(f"a <{kind}> of link '{name}' is malformed ({e})") from None
        except _Bad as e:
            self.warning(el, f"{e}; the rest of link '{name}' is ignored, as libsdformat's "
                         "converter does", code="convert-unsupported")
        return link

    def _joint(self, el) -> Joint:
        name = el.get("name")
        if name is None:
            self.error(el, "<joint> has no name attribute", code="convert-attribute-missing")
        jtype = el.get("type")
        joint = Joint(name, jtype or "", line=el.sourceline)
        try:
            joint.origin = self._pose(el.find("origin"))
            parent, child = el.find("parent"), el.find("child")
            if parent is not None and parent.get("link") is not None:
                joint.parent_name = parent.get("link")
            if child is not None and child.get("link") is not None:
                joint.child_name = child.get("link")
            if jtype not in ("planar", "floating", "revolute", "continuous", "prismatic", "fixed"):
                raise _Bad(f"type '{jtype}' is not a URDF joint type")
            if jtype not in ("floating", "fixed"):
                axis = el.find("axis")
                if axis is not None and axis.get("xyz") is not None:
                    joint.axis = parse_vector3(axis.get("xyz"))
            limit = el.find("limit")
            if limit is not None:
                joint.limits = self._limits(limit)
            elif jtype in ("revolute", "prismatic"):
                raise _Bad(f"a {jtype} joint needs <limit>")
            dyn = el.find("dynamics")
            if dyn is not None:
                if dyn.get("damping") is None and dyn.get("friction") is None:
                    raise _Bad("<dynamics> has neither damping nor friction")
                joint.dynamics = Dynamics(
                    str_to_double(dyn.get("damping")) if dyn.get("damping") is not None else 0.0,
                    str_to_double(dyn.get("friction")) if dyn.get("friction") is not None else 0.0)
            self._check_optional(el)
        except _Bad as e:
            self.error(el, f"joint '{name}': {e}", code="convert-value-invalid")
        return joint

    def _limits(self, el) -> Limits:
        lim = Limits()
        for key in ("lower", "upper"):
            if el.get(key) is not None:
                setattr(lim, key, str_to_double(el.get(key)))
        for key in ("effort", "velocity"):
            if el.get(key) is None:
                raise _Bad(f"<limit> has no {key} attribute")
            setattr(lim, key, str_to_double(el.get(key)))
        return lim

    def _check_optional(self, el) -> None:
        """The parts urdfdom validates but the conversion does not use."""
        safety = el.find("safety_controller")
        if safety is not None:
            if safety.get("k_velocity") is None:
                raise _Bad("<safety_controller> has no k_velocity attribute")
            for key in ("soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity"):
                if safety.get(key) is not None:
                    str_to_double(safety.get(key))
        calibration = el.find("calibration")
        if calibration is not None:
            for key in ("rising", "falling"):
                if calibration.get(key) is not None:
                    str_to_double(calibration.get(key))
        mimic = el.find("mimic")
        if mimic is not None:
            if mimic.get("joint") is None:
                raise _Bad("<mimic> has no joint attribute")
            for key in ("multiplier", "offset"):
                if mimic.get(key) is not None:
                    str_to_double(mimic.get(key))
