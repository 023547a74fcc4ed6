"""``<sensor>`` directly under ``<robot>``: iDynTree's sensor extension
(reference 004). Each becomes a :class:`Sensor` posed in its parent link's
frame, the pose iDynTree gives it. Drake ignores ``<sensor>``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...plant import Sensor
from ...spatial import RigidTransform
from ..common.xml import attr, children, first_child, qname
from .unknown import warn_unknown_children as _warn_unknown_children

if TYPE_CHECKING:  # pragma: no cover
    from . import UrdfReader

SENSOR_TYPES = ("force_torque", "gyroscope", "accelerometer")
FT_FRAMES = ("child", "parent", "sensor")
FT_DIRECTIONS = ("parent_to_child", "child_to_parent")


def read_sensors(reader: "UrdfReader", robot) -> None:
    """Adds every ``<sensor>`` directly under ``robot`` to the plant."""
    diag = reader.diag
    joints = {attr(j, "name"): j for j in children(robot)
              if qname(j) in ("joint", "drake:joint") and attr(j, "name")}
    first_line: dict[str, int | None] = {}
    for el in children(robot, "sensor"):
        name = attr(el, "name")
        if not name:
            diag.error(el, "a <sensor> needs a 'name' attribute", code="urdf-attribute-missing")
        if name in first_line:
            diag.error(el, f"sensor name '{name}' is used again (first at line "
                           f"{first_line[name]}); sensor names must be unique",
                       code="name-duplicate")
        first_line[name] = getattr(el, "sourceline", None)
        stype = attr(el, "type")
        if stype is None:
            diag.error(el, f"sensor '{name}' needs a 'type' attribute (one of "
                           f"{', '.join(SENSOR_TYPES)})", code="urdf-attribute-missing")
        if stype == "force_torque":
            sensor = _force_torque_sensor(reader, el, name, joints)
        elif stype in SENSOR_TYPES:
            sensor = _link_sensor(reader, el, name, stype)
        else:
            diag.warning(el, f"sensor '{name}' has type '{stype}', which is not one of "
                             f"{', '.join(SENSOR_TYPES)}; it is ignored", code="urdf-unsupported")
            continue
        with diag.located(el):
            reader.plant.add_sensor(sensor)


def _sensor_parent(reader: "UrdfReader", el, name: str, key: str) -> tuple[str, object]:
    diag = reader.diag
    node = first_child(el, "parent")
    if node is None:
        diag.error(el, f"sensor '{name}' needs a <parent {key}=\"...\"/> element",
                   code="urdf-element-missing")
    value = attr(node, key)
    if not value:
        other = "link" if key == "joint" else "joint"
        hint = (f"; a {attr(el, 'type')} sensor is mounted on a {key}, not on a {other}"
                if attr(node, other) else "")
        diag.error(node, f"<parent> of sensor '{name}' needs a '{key}' attribute{hint}",
                   code="urdf-element-missing")
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
                         "not have", code="urdf-unknown-joint")
    ft = first_child(el, "force_torque")
    if ft is None:
        diag.error(el, f"force-torque sensor '{name}' needs a <force_torque> element with "
                       "<frame> and <measure_direction>", code="urdf-element-missing")
    frame = _text_choice(reader, ft, "frame", FT_FRAMES, name)
    direction = _text_choice(reader, ft, "measure_direction", FT_DIRECTIONS, name)
    _warn_unknown_children(reader, ft, ("frame", "measure_direction"), f"sensor '{name}'")
    _warn_unknown_children(reader, el, ("parent", "origin", "force_torque"), f"sensor '{name}'")
    links = []
    for side in ("parent", "child"):
        side_el = first_child(joint_el, side)
        link = attr(side_el, "link") if side_el is not None else None
        if not link:
            diag.error(joint_el, f"joint '{joint}' of sensor '{name}' has no {side} link",
                       code="urdf-value-invalid")
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
                             f"'{frame}', and only a 'sensor' frame takes an origin",
                     code="urdf-unsupported")
    params = {"frame": frame, "measure_direction": direction, "child_link": links[1].name}
    return Sensor(name, "force_torque", joint, links[0], X_PS, reader.instance, params)


def _text_choice(reader: "UrdfReader", el, tag: str, allowed: tuple[str, ...],
                 name: str) -> str:
    node = first_child(el, tag)
    if node is None:
        reader.diag.error(el, f"force-torque sensor '{name}' needs a <{tag}> (one of "
                              f"{', '.join(allowed)})", code="urdf-element-missing")
    text = (node.text or "").strip()
    if text not in allowed:
        reader.diag.error(node, f"<{tag}> of sensor '{name}' is '{text}'; it should be one of "
                                f"{', '.join(allowed)}", code="urdf-value-invalid")
    return text
