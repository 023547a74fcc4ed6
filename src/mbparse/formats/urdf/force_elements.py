"""``<force_element>`` of Drake's older URDF dialect (reference 002).

A ``LinearSpringDamper`` becomes the plant's :class:`LinearSpringDamper`; a
``Wing`` or a ``Thrust`` a :class:`GenericForceElement` that keeps every
parameter. Two spellings are read: the reference's (``<force_element name
type="Wing">`` with ``<chord value=".."/>`` children) and the older nested one
that files written for Drake's MATLAB and RigidBodyTree tools use
(``<force_element name><wing chord=".." ...>``).
"""
from __future__ import annotations

import math
import os
import re
from typing import TYPE_CHECKING

from ...files import read_regular_file
from ...package_map import resolve_uri
from ...plant import GenericForceElement, LinearSpringDamper
from ...spatial import RigidTransform, matvec, norm, parse_float_prefixes
from ..common.xml import attr, children, first_child, qname
from .unknown import warn_unknown_attributes as _warn_unknown_attributes
from .unknown import warn_unknown_children as _warn_unknown_children

if TYPE_CHECKING:  # pragma: no cover
    from . import UrdfReader

REFERENCE_FORCE_TYPES = ("LinearSpringDamper", "Wing", "Thrust")
NESTED_FORCE_TAGS = ("linear_spring_damper", "wing", "thrust")
# Nested force elements of the older dialect that the model has no room for.
NESTED_UNSUPPORTED = ("torsional_spring", "propellor", "bluff_body", "added_mass", "buoyancy",
                      "wing_with_control_surface")
# How far from 1 the norm of a thrust direction may be (hand-written values
# such as 0.7071 are accepted; the stored direction is normalized).
UNIT_TOLERANCE = 1e-4
_NACA = re.compile(r"naca[\s_-]*(\d{4,5})", re.IGNORECASE)
_INF_WORDS = {"inf": math.inf, "+inf": math.inf, "-inf": -math.inf, "infinity": math.inf,
              "+infinity": math.inf, "-infinity": -math.inf}


def read_force_element(reader: "UrdfReader", el) -> None:
    """Adds the ``<force_element>`` ``el`` to the plant (or warns that its kind
    is not read)."""
    diag = reader.diag
    name = attr(el, "name")
    if not name:
        diag.error(el, "a <force_element> needs a 'name' attribute", code="urdf-attribute-missing")
    ftype = attr(el, "type")
    if ftype is not None:
        if ftype not in REFERENCE_FORCE_TYPES:
            diag.warning(el, f"force element '{name}' has type '{ftype}', which is not one of "
                             f"{', '.join(REFERENCE_FORCE_TYPES)}; it is ignored",
                         code="urdf-unsupported")
            return
        kind, spec, nested = ftype, el, False
    else:
        inner = [c for c in children(el)]
        known = [c for c in inner if qname(c) in NESTED_FORCE_TAGS]
        if not known:
            other = [qname(c) for c in inner if qname(c) in NESTED_UNSUPPORTED]
            if other:
                diag.warning(el, f"force element '{name}' is a <{other[0]}>, which mbparse does "
                                 "not read; it is ignored", code="urdf-unsupported")
                return
            diag.error(el, f"force element '{name}' has no 'type' attribute (one of "
                           f"{', '.join(REFERENCE_FORCE_TYPES)})", code="urdf-attribute-missing")
        if len(inner) > 1:
            diag.error(el, f"force element '{name}' holds {len(inner)} elements; it should hold "
                           "one", code="urdf-value-invalid")
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
            reader.diag.error(el, f"force element name '{name}' is used twice in this model",
                              code="name-duplicate")


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
                diag.error(node, f"<{key}> of {what} needs a 'value' attribute",
                           code="urdf-attribute-missing")
    if value is None:
        if required:
            place = f"attribute '{nested_key or key}'" if nested else f"<{key}>"
            diag.error(where, f"{what} needs {place}", code="urdf-element-missing")
        return default
    if not math.isfinite(value):
        diag.error(where, f"{key} of {what} is not a finite number", code="number-not-finite")
    return value


def _parent_body(reader: "UrdfReader", spec, name: str, what: str):
    diag = reader.diag
    node = first_child(spec, "parent")
    if node is None:
        diag.error(spec, f"{what} needs a <parent link=\"...\"/> element",
                   code="urdf-element-missing")
    link = attr(node, "link")
    if not link:
        diag.error(node, f"<parent> of {what} needs a 'link' attribute",
                   code="urdf-attribute-missing")
    return reader.body(name, link, node)


def _point(reader: "UrdfReader", spec, nested: bool, what: str):
    """The ``<origin>`` point of a wing or a thruster, and its rotation."""
    diag = reader.diag
    node = first_child(spec, "origin")
    if node is None:
        if not nested:
            diag.error(spec, f"{what} needs an <origin xyz=\"...\"/> element",
                       code="urdf-element-missing")
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
            diag.error(spec, f"{what} has no <{tag}> element", code="urdf-element-missing")
        link = attr(node, "link")
        if not link:
            diag.error(node, f"<{tag}> of {what} needs a 'link' attribute",
                       code="urdf-attribute-missing")
        ends.append((reader.body(name, link, node), diag.vector(node, "xyz", 3, (0.0, 0.0, 0.0))))
    values = []
    for key in ("rest_length", "stiffness", "damping"):
        value = _value(reader, spec, nested, key, default=0.0, what=what)
        if value < 0:
            diag.error(first_child(spec, key) if not nested else spec,
                       f"{key} of {what} is negative ({value:g}); it must be zero or more",
                       code="value-out-of-range")
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
                             "of its parent link", code="urdf-unsupported")
    if nested:
        profile, profile_el = attr(spec, "profile"), spec
        if profile is None:
            diag.error(spec, f"{what} needs attribute 'profile'", code="urdf-attribute-missing")
    else:
        profile_el = first_child(spec, "profile")
        if profile_el is None:
            diag.error(spec, f"{what} needs a <profile value=\"...\"/> element",
                       code="urdf-value-invalid")
        profile = attr(profile_el, "value")
        if profile is None:
            diag.error(profile_el, f"<profile> of {what} needs a 'value' attribute",
                       code="urdf-value-invalid")
    params: dict = {"profile": profile}
    params.update(_profile(reader, profile_el, profile, what))
    for key in ("chord", "span", "stall_angle", "nominal_speed"):
        value = _value(reader, spec, nested, key, required=True, what=what)
        if key != "stall_angle" and value <= 0:
            diag.error(first_child(spec, key) if not nested else spec,
                       f"{key} of {what} must be positive, not {value:g}",
                       code="value-out-of-range")
        params[key] = value
    if nested:
        visual = attr(spec, "visual_geometry")
        if visual is not None:
            if visual.strip().lower() not in ("true", "false", "1", "0"):
                diag.error(spec, f"visual_geometry of {what} should be true or false, not "
                                 f"'{visual}'", code="urdf-value-invalid")
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
                       "designation (such as NACA0012), an Xfoil .dat file or a .mat file",
                   code="urdf-value-invalid")
    path, problem = resolve_uri(text, reader.ws.package_map, reader.source.root_dir())
    if problem:
        diag.error(el, f"the profile file of {what}: {problem}", code="urdf-value-invalid")
    if ext == ".dat" and not _looks_like_xfoil(path):
        diag.error(el, f"the profile file '{text}' of {what} is not an Xfoil airfoil: it should "
                       "list the airfoil's points as 'x y' lines", code="urdf-value-invalid")
    return {"profile_kind": "xfoil" if ext == ".dat" else "matlab",
            "profile_file": os.path.basename(path)}


def _looks_like_xfoil(path: str) -> bool:
    """An Xfoil airfoil file: an optional name line, then lines of two numbers."""
    try:
        text = read_regular_file(path).decode("utf-8", errors="replace")
        lines = [line.split() for line in text.splitlines() if line.strip()]
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
            diag.error(axis_el, f"{what} has a zero axis", code="axis-zero")
        direction = tuple(v / n for v in direction)
        if rpy is not None:
            direction = matvec(RigidTransform.from_rpy_xyz(rpy, xyz).R, direction)
        scale_factor = _value(reader, spec, True, "scale_factor", default=1.0, what=what)
        lower = _limit(reader, spec, "lower_limit", -math.inf, what)
        upper = _limit(reader, spec, "upper_limit", math.inf, what)
        if lower > upper:
            diag.error(spec, f"{what} has lower_limit {lower:g} above upper_limit {upper:g}",
                       code="limit-inverted")
        _warn_unknown_attributes(reader, spec, ("scale_factor", "lower_limit", "upper_limit"),
                                 what)
        _warn_unknown_children(reader, spec, ("parent", "origin", "axis"), what)
    else:
        if rpy is not None:
            diag.warning(origin, f"the rpy of {what}'s <origin> is ignored: its direction is "
                                 "given in the axes of its parent link", code="urdf-unsupported")
        dir_el = first_child(spec, "direction")
        if dir_el is None:
            diag.error(spec, f"{what} needs a <direction xyz=\"...\"/> element",
                       code="urdf-element-missing")
        direction = diag.vector(dir_el, "xyz", 3)
        if direction is None:
            diag.error(dir_el, f"<direction> of {what} needs an 'xyz' attribute",
                       code="urdf-attribute-missing")
        n = norm(direction)
        if abs(n - 1.0) > UNIT_TOLERANCE:
            diag.error(dir_el, f"the direction of {what} must be a unit vector; its length is "
                               f"{n:g}", code="urdf-value-invalid")
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
        reader.diag.error(el, f"<{qname(el)}> of {what} needs a '{key}' attribute",
                          code="urdf-element-missing")
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
                              f"number{'s' if n > 1 else ''}, not '{text}'",
                          code="urdf-value-invalid")
    return out
