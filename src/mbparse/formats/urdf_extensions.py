"""URDF tags that Drake's parser does not read, read into the model anyway.

* ``<loop_joint>`` and ``<force_element>``: the extensions of Drake's older
  URDF dialect (reference 002). A loop joint becomes a
  :class:`LoopJointConstraint`: it is kept with the constraints, so the tree
  of joints that ``finalize()`` checks stays a tree. A ``LinearSpringDamper``
  becomes the plant's :class:`LinearSpringDamper`; a ``Wing`` or a ``Thrust``
  a :class:`GenericForceElement` that keeps every parameter.
* ``<sensor>`` directly under ``<robot>``: iDynTree's sensor extension
  (reference 004). Each becomes a :class:`Sensor` posed in its parent link's
  frame, the pose iDynTree gives it.

Force elements are read in two spellings: the reference's
(``<force_element name type="Wing">`` with ``<chord value=".."/>`` children)
and the older nested one that files written for Drake's MATLAB and
RigidBodyTree tools use (``<force_element name><wing chord=".." ...>``).

Drake itself refuses ``<loop_joint>`` and ignores ``<sensor>``; reading them
is a deliberate difference (see docs/SUMMARY_SCHEMA.md).
"""
from __future__ import annotations

import math
import os
import re
from typing import TYPE_CHECKING

from ..package_map import resolve_uri
from ..plant import GenericForceElement, LinearSpringDamper, LoopJointConstraint, Sensor
from ..spatial import RigidTransform, matvec, norm, parse_float_prefixes
from .xml_tools import attr, attr_names, children, first_child, qname

if TYPE_CHECKING:  # pragma: no cover
    from .urdf import UrdfReader

LOOP_JOINT_TYPES = ("continuous",)
REFERENCE_FORCE_TYPES = ("LinearSpringDamper", "Wing", "Thrust")
NESTED_FORCE_TAGS = ("linear_spring_damper", "wing", "thrust")
# Nested force elements of the older dialect that the model has no room for.
NESTED_UNSUPPORTED = ("torsional_spring", "propellor", "bluff_body", "added_mass", "buoyancy",
                      "wing_with_control_surface")
SENSOR_TYPES = ("force_torque", "gyroscope", "accelerometer")
FT_FRAMES = ("child", "parent", "sensor")
FT_DIRECTIONS = ("parent_to_child", "child_to_parent")
# How far from 1 the norm of a thrust direction may be (hand-written values
# such as 0.7071 are accepted; the stored direction is normalized).
UNIT_TOLERANCE = 1e-4
_NACA = re.compile(r"naca[\s_-]*(\d{4,5})", re.IGNORECASE)
_INF_WORDS = {"inf": math.inf, "+inf": math.inf, "-inf": -math.inf, "infinity": math.inf,
              "+infinity": math.inf, "-infinity": -math.inf}


# ---------------------------------------------------------------- loop joints
def read_loop_joint(reader: "UrdfReader", el) -> None:
    """Adds the ``<loop_joint>`` ``el`` to the plant as a loop-joint constraint.

    Frame F (on link1) and frame M (on link2) keep their origins together and
    their ``axis`` aligned; the axis is expressed in both frames.
    """
    diag, plant = reader.diag, reader.plant
    name = attr(el, "name")
    if not name:
        diag.error(el, "a <loop_joint> needs a 'name' attribute")
    jtype = attr(el, "type")
    if jtype is None:
        diag.error(el, f"loop joint '{name}' has no 'type' attribute; write "
                       "type=\"continuous\", the only loop joint type that is read")
    if jtype not in LOOP_JOINT_TYPES:
        diag.error(el, f"loop joint '{name}' has type '{jtype}'; only 'continuous' loop joints "
                       "can close a kinematic loop here")
    _warn_unknown_children(reader, el, ("link1", "link2", "axis"), f"loop joint '{name}'")
    ends = []
    for tag in ("link1", "link2"):
        node = first_child(el, tag)
        if node is None:
            diag.error(el, f"loop joint '{name}' has no <{tag}> element")
        link = attr(node, "link")
        if not link:
            diag.error(node, f"<{tag}> of loop joint '{name}' needs a 'link' attribute")
        _warn_unknown_children(reader, node, ("origin",), f"<{tag}> of loop joint '{name}'")
        ends.append((reader.body(name, link, node), _end_pose(reader, node, tag, name)))
    (body_A, X_AF), (body_B, X_BM) = ends
    if body_A is body_B:
        diag.error(el, f"loop joint '{name}' joins link '{body_A.name}' to itself")
    axis = (1.0, 0.0, 0.0)
    axis_el = first_child(el, "axis")
    if axis_el is not None:
        axis = diag.vector(axis_el, "xyz", 3, axis)
        n = norm(axis)
        if n < 1e-8:
            diag.error(axis_el, f"loop joint '{name}' has a zero axis")
        axis = (axis[0] / n, axis[1] / n, axis[2] / n)
    if plant.has_joint_named(name, reader.instance) or any(
            c.type == "loop_joint" and c.name == name
            and c.body_A.model_instance == reader.instance for c in plant.constraints()):
        diag.error(el, f"loop joint '{name}' has the name of another joint of this model")
    with diag.located(el):
        plant.add_constraint(LoopJointConstraint(name, body_A, X_AF, body_B, X_BM, axis))


def _end_pose(reader: "UrdfReader", node, tag: str, name: str) -> RigidTransform:
    """The pose of a loop joint's end: an ``<origin>`` child (the reference) or
    ``xyz``/``rpy`` attributes on the end itself (the older files)."""
    diag = reader.diag
    origin = first_child(node, "origin")
    inline = attr(node, "xyz") is not None or attr(node, "rpy") is not None
    if origin is not None and inline:
        diag.error(node, f"<{tag}> of loop joint '{name}' gives its pose twice: as an <origin> "
                         "and as xyz/rpy attributes; keep one")
    return diag.origin(origin if origin is not None else (node if inline else None))


# ---------------------------------------------------------------- force elements
def read_force_element(reader: "UrdfReader", el) -> None:
    """Adds the ``<force_element>`` ``el`` to the plant (or warns that its kind
    is not read)."""
    diag = reader.diag
    name = attr(el, "name")
    if not name:
        diag.error(el, "a <force_element> needs a 'name' attribute")
    ftype = attr(el, "type")
    if ftype is not None:
        if ftype not in REFERENCE_FORCE_TYPES:
            diag.warning(el, f"force element '{name}' has type '{ftype}', which is not one of "
                             f"{', '.join(REFERENCE_FORCE_TYPES)}; it is ignored")
            return
        kind, spec, nested = ftype, el, False
    else:
        inner = [c for c in children(el)]
        known = [c for c in inner if qname(c) in NESTED_FORCE_TAGS]
        if not known:
            other = [qname(c) for c in inner if qname(c) in NESTED_UNSUPPORTED]
            if other:
                diag.warning(el, f"force element '{name}' is a <{other[0]}>, which mbparse does "
                                 "not read; it is ignored")
                return
            diag.error(el, f"force element '{name}' has no 'type' attribute (one of "
                           f"{', '.join(REFERENCE_FORCE_TYPES)})")
        if len(inner) > 1:
            diag.error(el, f"force element '{name}' holds {len(inner)} elements; it should hold "
                           "one")
        spec, nested = known[0], True
        kind = {"linear_spring_damper": "LinearSpringDamper", "wing": "Wing",
                "thrust": "Thrust"}[qname(spec)]
    _check_unique_force_name(reader, el, name)
    if kind == "LinearSpringDamper":
        _spring_damper(reader, name, spec, nested)
    elif kind == "Wing":
        _wing(reader, name, spec, nested)
    else:
        _thrust(reader, name, spec, nested)


def _check_unique_force_name(reader: "UrdfReader", el, name: str) -> None:
    for f in reader.plant.force_elements():
        body = getattr(f, "body", None) or getattr(f, "body_A", None)
        if getattr(f, "name", None) == name and body is not None \
                and body.model_instance == reader.instance:
            reader.diag.error(el, f"force element name '{name}' is used twice in this model")


def _value(reader: "UrdfReader", spec, nested: bool, key: str, nested_key: str | None = None,
           default: float | None = None, required: bool = False, what: str = "") -> float | None:
    """A number: ``<key value=".."/>`` (reference) or attribute ``nested_key``
    of the nested element (older files)."""
    diag = reader.diag
    if nested:
        value = diag.scalar(spec, nested_key or key)
        where = spec
    else:
        node = first_child(spec, key)
        where = node if node is not None else spec
        value = None
        if node is not None:
            value = diag.scalar(node, "value")
            if value is None:
                diag.error(node, f"<{key}> of {what} needs a 'value' attribute")
    if value is None:
        if required:
            place = f"attribute '{nested_key or key}'" if nested else f"<{key}>"
            diag.error(where, f"{what} needs {place}")
        return default
    if not math.isfinite(value):
        diag.error(where, f"{key} of {what} is not a finite number")
    return value


def _parent_body(reader: "UrdfReader", spec, name: str, what: str):
    diag = reader.diag
    node = first_child(spec, "parent")
    if node is None:
        diag.error(spec, f"{what} needs a <parent link=\"...\"/> element")
    link = attr(node, "link")
    if not link:
        diag.error(node, f"<parent> of {what} needs a 'link' attribute")
    return reader.body(name, link, node)


def _point(reader: "UrdfReader", spec, nested: bool, what: str):
    """The ``<origin>`` point of a wing or a thruster, and its rotation."""
    diag = reader.diag
    node = first_child(spec, "origin")
    if node is None:
        if not nested:
            diag.error(spec, f"{what} needs an <origin xyz=\"...\"/> element")
        return (0.0, 0.0, 0.0), None, None
    xyz = diag.vector(node, "xyz", 3, (0.0, 0.0, 0.0))
    rpy = diag.vector(node, "rpy", 3, (0.0, 0.0, 0.0))
    return xyz, (rpy if any(v != 0.0 for v in rpy) else None), node


def _spring_damper(reader: "UrdfReader", name: str, spec, nested: bool) -> None:
    diag = reader.diag
    what = f"linear spring-damper '{name}'"
    ends = []
    for tag in ("link1", "link2"):
        node = first_child(spec, tag)
        if node is None:
            diag.error(spec, f"{what} has no <{tag}> element")
        link = attr(node, "link")
        if not link:
            diag.error(node, f"<{tag}> of {what} needs a 'link' attribute")
        ends.append((reader.body(name, link, node), diag.vector(node, "xyz", 3, (0.0, 0.0, 0.0))))
    values = []
    for key in ("rest_length", "stiffness", "damping"):
        value = _value(reader, spec, nested, key, default=0.0, what=what)
        if value < 0:
            diag.error(first_child(spec, key) if not nested else spec,
                       f"{key} of {what} is negative ({value:g}); it must be zero or more")
        values.append(value)
    known = ("link1", "link2") if nested else ("link1", "link2", "rest_length", "stiffness",
                                               "damping")
    _warn_unknown_children(reader, spec, known, what)
    if nested:
        _warn_unknown_attributes(reader, spec, ("rest_length", "stiffness", "damping"), what)
    (body_A, p_AP), (body_B, p_BQ) = ends
    with diag.located(spec):
        reader.plant.add_force_element(
            LinearSpringDamper(body_A, p_AP, body_B, p_BQ, *values, name=name))


def _wing(reader: "UrdfReader", name: str, spec, nested: bool) -> None:
    diag = reader.diag
    what = f"wing '{name}'"
    body = _parent_body(reader, spec, name, what)
    xyz, rpy, origin = _point(reader, spec, nested, what)
    if rpy is not None:
        diag.warning(origin, f"the rpy of {what}'s <origin> is ignored: a wing's axes are those "
                             "of its parent link")
    if nested:
        profile, profile_el = attr(spec, "profile"), spec
        if profile is None:
            diag.error(spec, f"{what} needs attribute 'profile'")
    else:
        profile_el = first_child(spec, "profile")
        if profile_el is None:
            diag.error(spec, f"{what} needs a <profile value=\"...\"/> element")
        profile = attr(profile_el, "value")
        if profile is None:
            diag.error(profile_el, f"<profile> of {what} needs a 'value' attribute")
    params: dict = {"profile": profile}
    params.update(_profile(reader, profile_el, profile, what))
    for key in ("chord", "span", "stall_angle", "nominal_speed"):
        value = _value(reader, spec, nested, key, required=True, what=what)
        if key != "stall_angle" and value <= 0:
            diag.error(first_child(spec, key) if not nested else spec,
                       f"{key} of {what} must be positive, not {value:g}")
        params[key] = value
    if nested:
        visual = attr(spec, "visual_geometry")
        if visual is not None:
            if visual.strip().lower() not in ("true", "false", "1", "0"):
                diag.error(spec, f"visual_geometry of {what} should be true or false, not "
                                 f"'{visual}'")
            params["visual_geometry"] = visual.strip().lower() in ("true", "1")
        _warn_unknown_attributes(reader, spec, ("profile", "chord", "span", "stall_angle",
                                                "nominal_speed", "visual_geometry"), what)
        _warn_unknown_children(reader, spec, ("parent", "origin"), what)
    else:
        _warn_unknown_children(reader, spec, ("parent", "origin", "profile", "chord", "span",
                                              "stall_angle", "nominal_speed"), what)
    with diag.located(spec):
        reader.plant.add_force_element(
            GenericForceElement("wing", name, body, RigidTransform(p=xyz), params))


def _profile(reader: "UrdfReader", el, profile: str, what: str) -> dict:
    """Which kind of airfoil ``profile`` names, checking that a file exists."""
    diag = reader.diag
    text = profile.strip()
    if text.lower().split() == ["flat", "plate"]:
        return {"profile_kind": "flat_plate"}
    m = _NACA.fullmatch(text)
    if m:
        return {"profile_kind": "naca", "naca_digits": m.group(1)}
    ext = os.path.splitext(text)[1].lower()
    if ext not in (".dat", ".mat"):
        diag.error(el, f"the profile '{profile}' of {what} is not 'flat plate', a NACA "
                       "designation (such as NACA0012), an Xfoil .dat file or a .mat file")
    path, problem = resolve_uri(text, reader.ws.package_map, reader.source.root_dir())
    if problem:
        diag.error(el, f"the profile file of {what}: {problem}")
    if ext == ".dat" and not _looks_like_xfoil(path):
        diag.error(el, f"the profile file '{text}' of {what} is not an Xfoil airfoil: it should "
                       "list the airfoil's points as 'x y' lines")
    return {"profile_kind": "xfoil" if ext == ".dat" else "matlab",
            "profile_file": os.path.basename(path)}


def _looks_like_xfoil(path: str) -> bool:
    """An Xfoil airfoil file: an optional name line, then lines of two numbers."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [line.split() for line in f if line.strip()]
    except OSError:
        return False
    points = [ln for ln in lines if len(ln) == 2 and len(parse_float_prefixes(" ".join(ln))) == 2]
    body = lines[1:] if lines and lines[0] not in points else lines
    return len(points) >= 3 and len(points) == len(body)


def _thrust(reader: "UrdfReader", name: str, spec, nested: bool) -> None:
    diag = reader.diag
    what = f"thruster '{name}'"
    body = _parent_body(reader, spec, name, what)
    xyz, rpy, origin = _point(reader, spec, nested, what)
    if nested:
        # The older tools normalize the axis, given in the origin's frame.
        direction = (1.0, 0.0, 0.0)
        axis_el = first_child(spec, "axis")
        if axis_el is not None:
            direction = diag.vector(axis_el, "xyz", 3, direction)
        n = norm(direction)
        if n < 1e-8:
            diag.error(axis_el, f"{what} has a zero axis")
        direction = tuple(v / n for v in direction)
        if rpy is not None:
            direction = matvec(RigidTransform.from_rpy_xyz(rpy, xyz).R, direction)
        scale_factor = _value(reader, spec, True, "scale_factor", default=1.0, what=what)
        lower = _limit(reader, spec, "lower_limit", -math.inf, what)
        upper = _limit(reader, spec, "upper_limit", math.inf, what)
        if lower > upper:
            diag.error(spec, f"{what} has lower_limit {lower:g} above upper_limit {upper:g}")
        _warn_unknown_attributes(reader, spec, ("scale_factor", "lower_limit", "upper_limit"),
                                 what)
        _warn_unknown_children(reader, spec, ("parent", "origin", "axis"), what)
    else:
        if rpy is not None:
            diag.warning(origin, f"the rpy of {what}'s <origin> is ignored: its direction is "
                                 "given in the axes of its parent link")
        dir_el = first_child(spec, "direction")
        if dir_el is None:
            diag.error(spec, f"{what} needs a <direction xyz=\"...\"/> element")
        direction = diag.vector(dir_el, "xyz", 3)
        if direction is None:
            diag.error(dir_el, f"<direction> of {what} needs an 'xyz' attribute")
        n = norm(direction)
        if abs(n - 1.0) > UNIT_TOLERANCE:
            diag.error(dir_el, f"the direction of {what} must be a unit vector; its length is "
                               f"{n:g}")
        direction = tuple(v / n for v in direction)
        scale_factor = _value(reader, spec, False, "scaleFactor", required=True, what=what)
        lower, upper = -math.inf, math.inf
        limits_el = first_child(spec, "limits")
        if limits_el is not None:
            pair = _numbers(reader, limits_el, "value", 2, what)
            # The reference says "high and low limits"; either order is read.
            lower, upper = min(pair), max(pair)
        _warn_unknown_children(reader, spec, ("parent", "origin", "direction", "scaleFactor",
                                              "limits"), what)
    params = {"direction": list(direction), "scale_factor": scale_factor,
              "limits": [lower, upper]}
    with diag.located(spec):
        reader.plant.add_force_element(
            GenericForceElement("thrust", name, body, RigidTransform(p=xyz), params))


def _limit(reader: "UrdfReader", el, key: str, default: float, what: str) -> float:
    if attr(el, key) is None:
        return default
    return _numbers(reader, el, key, 1, what)[0]


def _numbers(reader: "UrdfReader", el, key: str, n: int, what: str) -> list[float]:
    """``n`` numbers of attribute ``key``, where inf and -inf are allowed."""
    text = attr(el, key)
    if text is None:
        reader.diag.error(el, f"<{qname(el)}> of {what} needs a '{key}' attribute")
    out = []
    for tok in text.split():
        if tok.lower() in _INF_WORDS:
            out.append(_INF_WORDS[tok.lower()])
            continue
        vals = parse_float_prefixes(tok)
        if len(vals) != 1 or math.isnan(vals[0]):
            break
        out.append(vals[0])
    if len(out) != n or len(text.split()) != n:
        reader.diag.error(el, f"attribute '{key}' of <{qname(el)}> ({what}) should be {n} "
                              f"number{'s' if n > 1 else ''}, not '{text}'")
    return out


# ---------------------------------------------------------------- sensors
def read_sensors(reader: "UrdfReader", robot) -> None:
    """Adds every ``<sensor>`` directly under ``robot`` to the plant."""
    diag = reader.diag
    joints = {attr(j, "name"): j for j in children(robot)
              if qname(j) in ("joint", "drake:joint") and attr(j, "name")}
    first_line: dict[str, int | None] = {}
    for el in children(robot, "sensor"):
        name = attr(el, "name")
        if not name:
            diag.error(el, "a <sensor> needs a 'name' attribute")
        if name in first_line:
            diag.error(el, f"sensor name '{name}' is used again (first at line "
                           f"{first_line[name]}); sensor names must be unique")
        first_line[name] = getattr(el, "sourceline", None)
        stype = attr(el, "type")
        if stype is None:
            diag.error(el, f"sensor '{name}' needs a 'type' attribute (one of "
                           f"{', '.join(SENSOR_TYPES)})")
        if stype == "force_torque":
            sensor = _force_torque_sensor(reader, el, name, joints)
        elif stype in SENSOR_TYPES:
            sensor = _link_sensor(reader, el, name, stype)
        else:
            diag.warning(el, f"sensor '{name}' has type '{stype}', which is not one of "
                             f"{', '.join(SENSOR_TYPES)}; it is ignored")
            continue
        with diag.located(el):
            reader.plant.add_sensor(sensor)


def _sensor_parent(reader: "UrdfReader", el, name: str, key: str) -> tuple[str, object]:
    diag = reader.diag
    node = first_child(el, "parent")
    if node is None:
        diag.error(el, f"sensor '{name}' needs a <parent {key}=\"...\"/> element")
    value = attr(node, key)
    if not value:
        other = "link" if key == "joint" else "joint"
        hint = (f"; a {attr(el, 'type')} sensor is mounted on a {key}, not on a {other}"
                if attr(node, other) else "")
        diag.error(node, f"<parent> of sensor '{name}' needs a '{key}' attribute{hint}")
    return value, node


def _link_sensor(reader: "UrdfReader", el, name: str, stype: str) -> Sensor:
    diag = reader.diag
    link, node = _sensor_parent(reader, el, name, "link")
    body = reader.body(name, link, node)
    _warn_unknown_children(reader, el, ("parent", "origin"), f"sensor '{name}'")
    X_PS = diag.origin(first_child(el, "origin"))
    return Sensor(name, stype, link, body, X_PS, reader.instance, {})


def _force_torque_sensor(reader: "UrdfReader", el, name: str, joints: dict) -> Sensor:
    diag = reader.diag
    joint, node = _sensor_parent(reader, el, name, "joint")
    joint_el = joints.get(joint)
    if joint_el is None or attr(joint_el, "drake_ignore") == "true":
        diag.error(node, f"sensor '{name}' is mounted on joint '{joint}', which this model does "
                         "not have")
    ft = first_child(el, "force_torque")
    if ft is None:
        diag.error(el, f"force-torque sensor '{name}' needs a <force_torque> element with "
                       "<frame> and <measure_direction>")
    frame = _text_choice(reader, ft, "frame", FT_FRAMES, name)
    direction = _text_choice(reader, ft, "measure_direction", FT_DIRECTIONS, name)
    _warn_unknown_children(reader, ft, ("frame", "measure_direction"), f"sensor '{name}'")
    _warn_unknown_children(reader, el, ("parent", "origin", "force_torque"), f"sensor '{name}'")
    links = []
    for side in ("parent", "child"):
        side_el = first_child(joint_el, side)
        link = attr(side_el, "link") if side_el is not None else None
        if not link:
            diag.error(joint_el, f"joint '{joint}' of sensor '{name}' has no {side} link")
        links.append(reader.body(name, link, side_el))
    X_PC = diag.origin(first_child(joint_el, "origin"))
    origin = first_child(el, "origin")
    if frame == "child":
        X_PS = X_PC
    elif frame == "parent":
        X_PS = RigidTransform()
    else:
        X_PS = X_PC @ diag.origin(origin)
    if origin is not None and frame != "sensor":
        diag.warning(origin, f"the <origin> of sensor '{name}' is ignored: its <frame> is "
                             f"'{frame}', and only a 'sensor' frame takes an origin")
    params = {"frame": frame, "measure_direction": direction, "child_link": links[1].name}
    return Sensor(name, "force_torque", joint, links[0], X_PS, reader.instance, params)


def _text_choice(reader: "UrdfReader", el, tag: str, allowed: tuple[str, ...],
                 name: str) -> str:
    node = first_child(el, tag)
    if node is None:
        reader.diag.error(el, f"force-torque sensor '{name}' needs a <{tag}> (one of "
                              f"{', '.join(allowed)})")
    text = (node.text or "").strip()
    if text not in allowed:
        reader.diag.error(node, f"<{tag}> of sensor '{name}' is '{text}'; it should be one of "
                                f"{', '.join(allowed)}")
    return text


# ---------------------------------------------------------------- helpers
def _warn_unknown_children(reader: "UrdfReader", el, known: tuple[str, ...], what: str) -> None:
    for child in children(el):
        if qname(child) not in known:
            reader.diag.warning(child, f"<{qname(child)}> in {what} is not read; it is ignored")


def _warn_unknown_attributes(reader: "UrdfReader", el, known: tuple[str, ...],
                             what: str) -> None:
    for key in attr_names(el):
        if key not in known:
            reader.diag.warning(el, f"attribute '{key}' of {what} is not read; it is ignored")
