"""ROS (urdfdom, the URDF parser behind ``check_urdf``, robot_state_publisher,
RViz and MoveIt): what it refuses, and what it reads only in part.

urdfdom refuses the whole file (``check_urdf`` fails) for a robot without a
name, a top-level ``<material>`` without a colour or texture, a link or joint
without a name or used twice, a joint without a known type, a ``<limit>``
(on any joint) without ``effort`` or ``velocity``, a revolute or prismatic
joint without ``<limit>``, a ``<safety_controller>`` without
``k_velocity``, a ``<mimic>`` without ``joint``, a ``<dynamics>`` with
neither ``damping`` nor ``friction``, a number it cannot read (it takes
``1e3`` and ``.5``, not ``1,5``, ``inf``, ``nan`` or a trailing space), a
vector of other than 3 numbers, a joint naming a link that does not exist,
and a tree with other than one root link. Where a link's ``<inertial>``,
``<visual>`` or ``<collision>`` cannot be read, it logs an error and stops
reading that link there, but loads the file.

A missing required attribute next to one a letter or two away (``velocty``)
is named as the likely misspelling.
"""
from __future__ import annotations

import re
from typing import Iterator

from ... import formats
from ...formats.common.suggest import closest
from ..findings import Finding

NAME = "ros"
TITLE = "ROS (urdfdom)"
READS = ("urdf",)
READS_TEXT = "its robot_description is URDF"

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
# A number as urdfdom reads one (a C++ stream in the classic locale, which
# must reach the end of the text): leading spaces only, no inf or nan.
NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
SHAPES = {"sphere": ("radius",), "box": ("size",), "cylinder": ("radius", "length"),
          "mesh": ("filename",)}
INERTIA = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
REFUSES = "for-ros-refuses"
DROPPED = "for-ros-element-dropped"


class Problem(Exception):
    """What urdfdom says about an element it cannot read, and where."""

    def __init__(self, el, message: str):
        super().__init__(message)
        self.el = el
        self.message = message
        self.what = ""  # the link's element it is in, for what urdfdom leaves out


def check(ctx) -> Iterator[Finding]:
    urdf = ctx.urdf
    if urdf is None:
        if formats.format_of(ctx.path) == "urdf":  # (check's own findings say why)
            yield ctx.finding(REFUSES, "the file is not a URDF document urdfdom can read: "
                              "urdfdom (ROS) refuses it")
        return
    root = urdf.root
    for problem in _refusals(root):
        yield ctx.finding(REFUSES, f"{problem.message}: urdfdom (ROS: check_urdf, "
                          "robot_state_publisher, RViz, MoveIt) refuses the file",
                          urdf.line(problem.el))
    for link in _children(root, "link"):
        problem = _link_problem(link)
        if problem is not None:
            yield ctx.finding(DROPPED, f"{problem.message}: urdfdom (ROS) cannot read this "
                              f"<{problem.what}>; it logs an error and stops reading link "
                              f"'{link.get('name')}' there (what this element and the link's "
                              "later ones say is lost)", urdf.line(problem.el))


def _children(el, tag: str) -> list:
    return [c for c in el if c.tag == tag]


def _first(el, tag: str):
    for c in el:
        if c.tag == tag:
            return c
    return None


# ------------------------------------------------------------ values
# The attributes urdfdom reads, by element: a written one that is not among
# them may be a misspelling of a missing one.
ATTRIBUTES = {"robot": ("name", "version"), "material": ("name",), "link": ("name",),
              "joint": ("name", "type"), "limit": ("lower", "upper", "effort", "velocity"),
              "safety_controller": ("soft_lower_limit", "soft_upper_limit", "k_position",
                                    "k_velocity"),
              "calibration": ("rising", "falling", "reference_position"),
              "mimic": ("joint", "multiplier", "offset"), "dynamics": ("damping", "friction"),
              "mass": ("value",), "inertia": INERTIA, "sphere": ("radius",), "box": ("size",),
              "cylinder": ("radius", "length"), "mesh": ("filename", "scale")}


def _misspelled(el, names: tuple[str, ...]) -> str:
    """`` ('x' is written: ...)`` for an attribute of ``el`` that urdfdom
    does not read and that is close to one of ``names``; else ''."""
    known = ATTRIBUTES.get(el.tag, ())
    for written in el.keys():
        if written not in known:
            match = closest(written, names)
            if match is not None:
                return f" ('{written}' is written: a misspelling of '{match}'?)"
    return ""


def _missing(el, name: str, what: str) -> Problem:
    """A required attribute ``name`` that ``el`` lacks, naming an
    attribute written in its place when one is close to it."""
    return Problem(el, f"{what} has no '{name}' attribute{_misspelled(el, (name,))}")


def _number(el, name: str, what: str, required: bool = False) -> None:
    value = el.get(name)
    if value is None:
        if required:
            raise _missing(el, name, what)
        return
    if NUMBER.fullmatch(value) is None:
        raise Problem(el, f"the '{name}' of {what} is '{value}', which urdfdom does not read "
                          "as a number")


def _vector(el, name: str, what: str, required: bool = False) -> None:
    value = el.get(name)
    if value is None:
        if required:
            raise _missing(el, name, what)
        return
    parts = value.split()
    if len(parts) != 3 or any(NUMBER.fullmatch(p) is None for p in parts):
        raise Problem(el, f"the '{name}' of {what} is '{value}'; urdfdom reads exactly 3 "
                          "numbers, separated by spaces")


def _origin(el, what: str) -> None:
    origin = _first(el, "origin")
    if origin is not None:
        _vector(origin, "xyz", f"the <origin> of {what}")
        _vector(origin, "rpy", f"the <origin> of {what}")


# ------------------------------------------------------------ what urdfdom refuses
def _refusals(root) -> Iterator[Problem]:
    if root.get("name") is None:
        yield _missing(root, "name", "<robot>")
    version = root.get("version")
    if version is not None and version.strip() not in ("1.0", "1"):
        yield Problem(root, f"<robot version='{version}'>: urdfdom reads only version 1.0")
    yield from _materials(root)
    yield from _links(root)
    yield from _joints(root)
    yield from _tree(root)


def _materials(root) -> Iterator[Problem]:
    seen: set = set()
    for material in _children(root, "material"):
        name = material.get("name")
        if name is None:
            yield _missing(material, "name", "<material>")
            continue
        color, texture = _first(material, "color"), _first(material, "texture")
        if (color is None or color.get("rgba") is None) and \
                (texture is None or texture.get("filename") is None):
            yield Problem(material, f"the top-level <material name='{name}'> has neither a "
                                    "<color rgba> nor a <texture filename>")
        elif color is not None and color.get("rgba") is not None:
            parts = color.get("rgba").split()
            if len(parts) != 4 or any(NUMBER.fullmatch(p) is None for p in parts):
                yield Problem(color, f"the 'rgba' of material '{name}' is '{color.get('rgba')}'; "
                                     "urdfdom reads exactly 4 numbers")
        if name in seen:
            yield Problem(material, f"material '{name}' is defined twice at the top level")
        seen.add(name)


def _links(root) -> Iterator[Problem]:
    links = _children(root, "link")
    if not links:
        yield Problem(root, "the robot has no <link>")
    seen: set = set()
    for link in links:
        name = link.get("name")
        if name is None:
            yield _missing(link, "name", "a <link>")
        elif name in seen:
            yield Problem(link, f"link '{name}' is defined twice")
        seen.add(name)


def _joints(root) -> Iterator[Problem]:
    seen: set = set()
    for joint in _children(root, "joint"):
        try:
            _joint(joint)
        except Problem as p:
            yield p
            continue
        name = joint.get("name")
        if name in seen:
            yield Problem(joint, f"joint '{name}' is defined twice")
        seen.add(name)


def _joint(joint) -> None:
    name = joint.get("name")
    if name is None:
        raise _missing(joint, "name", "a <joint>")
    what = f"joint '{name}'"
    _origin(joint, what)
    kind = joint.get("type")
    if kind is None:
        raise _missing(joint, "type", what)
    if kind not in JOINT_TYPES:
        raise Problem(joint, f"{what} has type '{kind}', which urdfdom does not know (it knows "
                             f"{', '.join(JOINT_TYPES)})")
    axis = _first(joint, "axis")
    if axis is not None and kind not in ("fixed", "floating"):
        _vector(axis, "xyz", f"the <axis> of {what}")
    limit = _first(joint, "limit")
    if limit is not None:
        for attr in ("lower", "upper"):
            _number(limit, attr, f"the <limit> of {what}")
        for attr in ("effort", "velocity"):
            _number(limit, attr, f"the <limit> of {what}", required=True)
    elif kind in ("revolute", "prismatic"):
        raise Problem(joint, f"{what} is {kind} but has no <limit> (urdfdom needs one with "
                             "'effort' and 'velocity')")
    safety = _first(joint, "safety_controller")
    if safety is not None:
        for attr in ("soft_lower_limit", "soft_upper_limit", "k_position"):
            _number(safety, attr, f"the <safety_controller> of {what}")
        _number(safety, "k_velocity", f"the <safety_controller> of {what}", required=True)
    calibration = _first(joint, "calibration")
    if calibration is not None:
        for attr in ("rising", "falling"):
            _number(calibration, attr, f"the <calibration> of {what}")
    mimic = _first(joint, "mimic")
    if mimic is not None:
        if mimic.get("joint") is None:
            raise _missing(mimic, "joint", f"the <mimic> of {what}")
        for attr in ("multiplier", "offset"):
            _number(mimic, attr, f"the <mimic> of {what}")
    dynamics = _first(joint, "dynamics")
    if dynamics is not None:
        if dynamics.get("damping") is None and dynamics.get("friction") is None:
            raise Problem(dynamics, f"the <dynamics> of {what} has neither 'damping' nor "
                                    f"'friction'{_misspelled(dynamics, ('damping', 'friction'))}")
        for attr in ("damping", "friction"):
            _number(dynamics, attr, f"the <dynamics> of {what}")


def _tree(root) -> Iterator[Problem]:
    links = {link.get("name") for link in _children(root, "link")}
    children: set = set()
    for joint in _children(root, "joint"):
        name = joint.get("name")
        parent, child = _first(joint, "parent"), _first(joint, "child")
        ends = [e.get("link") if e is not None else None for e in (parent, child)]
        if None in ends:
            yield Problem(joint, f"joint '{name}' does not name both its parent and its child "
                                 "link (<parent link=...>, <child link=...>)")
            continue
        for end, link in zip(("parent", "child"), ends):
            if link not in links:
                yield Problem(joint, f"the {end} link '{link}' of joint '{name}' is not a link "
                                     "of the robot")
        children.add(ends[1])
    roots = [n for n in links if n is not None and n not in children]
    if links and len(roots) > 1:
        shown = ", ".join(f"'{r}'" for r in sorted(roots)[:5])
        yield Problem(root, f"the robot has {len(roots)} root links ({shown}); urdfdom needs "
                            "one tree with one root")
    elif links and not roots:
        yield Problem(root, "every link is the child of a joint: the robot has no root link")


# ------------------------------------------------------------ what urdfdom leaves out
def _link_problem(link) -> Problem | None:
    """The first element of ``link`` urdfdom cannot read (it stops there)."""
    inertial = _first(link, "inertial")
    try:
        if inertial is not None:
            _inertial(inertial)
        for role in ("visual", "collision"):
            for el in _children(link, role):
                _geometric(el, role)
    except Problem as p:
        return p
    return None


def _inertial(inertial) -> None:
    try:
        _origin(inertial, "the <inertial>")
        mass = _first(inertial, "mass")
        if mass is None:
            raise Problem(inertial, "the <inertial> has no <mass>")
        _number(mass, "value", "<mass>", required=True)
        inertia = _first(inertial, "inertia")
        if inertia is None:
            raise Problem(inertial, "the <inertial> has no <inertia>")
        for attr in INERTIA:
            _number(inertia, attr, "<inertia>", required=True)
    except Problem as p:
        p.what = "inertial"
        raise


def _geometric(el, role: str) -> None:
    try:
        _origin(el, f"the <{role}>")
        geometry = _first(el, "geometry")
        if geometry is None:
            raise Problem(el, f"the <{role}> has no <geometry>")
        shapes = [c for c in geometry if isinstance(c.tag, str)]
        if not shapes:
            raise Problem(geometry, f"the <geometry> of the <{role}> is empty")
        shape = shapes[0]
        if shape.tag not in SHAPES:
            raise Problem(shape, f"<{shape.tag}> is not a shape urdfdom knows (it knows "
                                 f"{', '.join(SHAPES)})")
        for attr in SHAPES[shape.tag]:
            if shape.get(attr) is None:
                raise _missing(shape, attr, f"<{shape.tag}>")
        if shape.tag == "sphere":
            _number(shape, "radius", "<sphere>")
        elif shape.tag == "cylinder":
            _number(shape, "radius", "<cylinder>")
            _number(shape, "length", "<cylinder>")
        elif shape.tag == "box":
            _vector(shape, "size", "<box>")
        elif shape.get("scale") is not None:
            _vector(shape, "scale", "<mesh>")
        material = _first(el, "material") if role == "visual" else None
        if material is not None and material.get("name") is None:
            raise _missing(material, "name", "the <material> of a <visual>")
    except Problem as p:
        p.what = role
        raise
