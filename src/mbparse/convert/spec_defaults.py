"""Required SDFormat elements that a reader adds with their default values.

libsdformat's ``readFile`` does not hand back the converter's raw output: it
reads it against the SDFormat 1.9 specification, which adds every required
child element that is missing (``<axis>`` gets ``<xyz>0 0 1</xyz>`` and a
``<limit>``, a ``<limit>`` gets ±1e16 bounds, and so on). The converter's
output is completed the same way so that it reads identically. The table lists,
per element path below ``<model>``, the required children and their defaults,
as the specification states them.
"""
from __future__ import annotations

from .sdf_tree import Node

_CAMERA = {
    "camera": [("horizontal_fov", "1.047"), ("image", None), ("clip", None)],
    "camera/clip": [("near", ".1"), ("far", "100")],
    "camera/depth_camera": [("output", "depths")],
    "camera/image": [("width", "320"), ("height", "240")],
    "camera/lens": [("type", "stereographic"), ("scale_to_hfov", "true")],
    "camera/lens/custom_function": [("fun", "tan")],
    "camera/lens/intrinsics": [("fx", "277"), ("fy", "277"), ("cx", "160"), ("cy", "120"),
                               ("s", "0.0")],
    "camera/noise": [("type", "gaussian")],
    "camera/save": [("path", "__default__")],
    "contact": [("collision", "__default__"), ("topic", "__default_topic__")],
    "imu/orientation_reference_frame": [("localization", "CUSTOM")],
    "logical_camera": [("near", "0"), ("far", "1"), ("aspect_ratio", "1"),
                       ("horizontal_fov", "1")],
    "sonar": [("min", "0"), ("max", "1.0")],
    "transceiver": [("gain", "2.5"), ("power", "14.50")],
}
for _scanner in ("ray", "lidar"):
    _CAMERA.update({
        _scanner: [("scan", None), ("range", None)],
        f"{_scanner}/noise": [("type", "gaussian")],
        f"{_scanner}/range": [("min", "0"), ("max", "0")],
        f"{_scanner}/scan": [("horizontal", None)],
        f"{_scanner}/scan/horizontal": [("samples", "640"), ("resolution", "1"),
                                        ("min_angle", "0"), ("max_angle", "0")],
        f"{_scanner}/scan/vertical": [("samples", "1"), ("min_angle", "0"), ("max_angle", "0")],
    })

_GEOMETRY = {
    "geometry/box": [("size", "1 1 1")],
    "geometry/capsule": [("radius", "0.5"), ("length", "1")],
    "geometry/cylinder": [("radius", "1"), ("length", "1")],
    "geometry/ellipsoid": [("radii", "1 1 1")],
    "geometry/heightmap": [("uri", "__default__")],
    "geometry/mesh": [("uri", "__default__")],
    "geometry/mesh/submesh": [("name", "__default__")],
    "geometry/plane": [("normal", "0 0 1"), ("size", "1 1")],
    "geometry/polyline": [("point", "0 0"), ("height", "1.0")],
    "geometry/sphere": [("radius", "1")],
}

REQUIRED: dict[str, list[tuple[str, str | None]]] = {
    "gripper": [("gripper_link", "__default__"), ("palm_link", "__default__")],
    "joint/axis": [("xyz", "0 0 1"), ("limit", None)],
    "joint/axis/dynamics": [("spring_reference", "0"), ("spring_stiffness", "0")],
    "joint/axis/limit": [("lower", "-1e16"), ("upper", "1e16")],
    "joint/axis2": [("xyz", "0 0 1"), ("limit", None)],
    "joint/axis2/dynamics": [("spring_reference", "0"), ("spring_stiffness", "0")],
    "joint/axis2/limit": [("lower", "-1e16"), ("upper", "1e16")],
    "joint/physics/ode/limit": [("cfm", "0.0"), ("erp", "0.2")],
    "joint/physics/ode/suspension": [("cfm", "0.0"), ("erp", "0.2")],
    "link/collision": [("geometry", None)],
    "link/collision/surface/contact/bullet": [("split_impulse", "true"),
                                              ("split_impulse_penetration_threshold", "-0.01")],
    "link/inertial/inertia": [("ixx", "1.0"), ("ixy", "0.0"), ("ixz", "0.0"), ("iyy", "1.0"),
                              ("iyz", "0.0"), ("izz", "1.0")],
    "link/light": [("direction", "0 0 -1")],
    "link/light/attenuation": [("range", "10")],
    "link/light/spot": [("inner_angle", "0"), ("outer_angle", "0"), ("falloff", "0")],
    "link/projector": [("texture", "__default__")],
    "link/visual": [("geometry", None)],
    "link/visual/material/script": [("uri", "__default__"), ("name", "__default__")],
}
for _key, _value in _CAMERA.items():
    REQUIRED[f"link/sensor/{_key}"] = _value
    REQUIRED[f"joint/sensor/{_key}"] = _value
for _key, _value in _GEOMETRY.items():
    REQUIRED[f"link/collision/{_key}"] = _value
    REQUIRED[f"link/visual/{_key}"] = _value

# Elements of the specification whose value defaults when written empty.
EMPTY_VALUE_DEFAULTS = {"link/pose": "0 0 0 0 0 0", "joint/pose": "0 0 0 0 0 0"}


def add_required_defaults(model: Node) -> None:
    """Adds the missing required children below ``<model>``, recursively."""
    for child in model.children:
        _complete(child, child.name)


def _complete(node: Node, path: str) -> None:
    if node.text in (None, "") and not node.children and path in EMPTY_VALUE_DEFAULTS:
        node.text = EMPTY_VALUE_DEFAULTS[path]
    for child in node.children:
        _complete(child, f"{path}/{child.name}")
    for name, default in REQUIRED.get(path, ()):
        if node.first(name) is None:
            added = node.sub(name, default)
            _complete(added, f"{path}/{name}")
