"""What two readers of one USD file agree on: mbparse's model against Newton's
``ModelBuilder.add_usd`` and against OpenUSD's own UsdPhysics parse.

Each side is reduced to plain tables keyed by prim name: bodies (mass,
centre of mass and inertia about it in the body frame, world position) and
joints (type, world axis, limits), so that the tests and the benchmark can
list the differences in words.
"""
from __future__ import annotations

import math

import numpy as np

UNLIMITED = 1e9  # Newton writes an open limit as ±1e10

# Newton's joint types by the plant's type names (a D6 joint that Newton
# keeps as D6 is one of these to the plant).
NEWTON_TYPES = {"revolute": ("REVOLUTE", "D6"), "prismatic": ("PRISMATIC", "D6"),
                "weld": ("FIXED", "D6"), "ball_rpy": ("BALL", "D6"), "universal": ("D6",),
                "planar": ("D6",), "quaternion_floating": ("FREE", "D6")}


_DISPLAY: dict[str, str] = {}


def _short(label: str) -> str:
    """A prim's name as mbparse names it: its displayName, else its name."""
    return _DISPLAY.get(label) or label.rsplit("/", 1)[-1]


def _display_names(path: str) -> None:
    from pxr import Usd
    _DISPLAY.clear()
    stage = Usd.Stage.Open(path)
    for prim in stage.Traverse():
        if prim.GetDisplayName():
            _DISPLAY[prim.GetPath().pathString] = prim.GetDisplayName()


def mbparse_tables(plant) -> tuple[dict, dict]:
    """(bodies, joints) of a finalized or unfinalized plant, by name (as the
    writers name them: ``INSTANCE__name`` when several model instances)."""
    from mbparse.convert.writers.walk import used_instances
    X = plant.calc_body_poses_in_world({})
    several = len(used_instances(plant)) > 1

    def name_of(element) -> str:
        if not several or element.model_instance == 0:
            return element.name
        prefix = plant.get_model_instance_name(element.model_instance).replace("::", "__")
        return f"{prefix}__{element.name}"

    bodies = {}
    for b in plant.bodies()[1:]:
        M = b.default_spatial_inertia
        ixx, iyy, izz, ixy, ixz, iyz = M.I_cm
        bodies[name_of(b)] = {"mass": M.mass, "com": np.array(M.com),
                          "inertia": np.array([[ixx, ixy, ixz], [ixy, iyy, iyz],
                                               [ixz, iyz, izz]]),
                          "p": np.array(X[b.index].p)}
    joints = {}
    for j in plant.joints():
        if j.is_ephemeral:
            continue
        R_W = np.array(X[j.parent_body.index].R) @ np.array(j.frame_on_parent.X_BF.R)
        axis = getattr(j, "axis", None)
        entry = {"type": j.type_name, "parent": name_of(j.parent_body) if j.parent_body.index
                 else "world", "child": name_of(j.child_body)}
        if axis is not None:
            entry["axis"] = R_W @ np.array(axis)
            entry["limits"] = (j.pos_lower[0], j.pos_upper[0])
        joints[name_of(j)] = entry
    return bodies, joints


def newton_tables(path: str) -> tuple[dict, dict]:
    """(bodies, joints) as Newton's ModelBuilder.add_usd builds them."""
    import warnings

    import newton
    import warp as wp
    wp.config.quiet = True
    _display_names(path)
    builder = newton.ModelBuilder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        builder.add_usd(path)
    labels = list(builder.body_label)
    bodies = {}
    for i, label in enumerate(labels):
        q = builder.body_q[i]
        bodies[_short(label)] = {
            "mass": float(builder.body_mass[i]),
            "com": np.array(builder.body_com[i], dtype=float),
            "inertia": np.array(builder.body_inertia[i], dtype=float).reshape(3, 3),
            "p": np.array(q[:3], dtype=float)}
    joints = {}
    starts = list(builder.joint_qd_start) + [len(builder.joint_axis)]
    for k, label in enumerate(builder.joint_label):
        kind = newton.JointType(int(builder.joint_type[k])).name
        parent = builder.joint_parent[k]
        entry = {"type": kind,
                 "parent": _short(labels[parent]) if parent >= 0 else "world",
                 "child": _short(labels[builder.joint_child[k]])}
        dofs = range(starts[k], starts[k + 1])
        if kind in ("REVOLUTE", "PRISMATIC") and len(dofs) == 1:
            d = dofs[0]
            Xp = builder.joint_X_p[k]
            R_p = _quat_xyzw(Xp[3:7])
            R_W = (_quat_xyzw(builder.body_q[parent][3:7]) if parent >= 0 else np.eye(3)) @ R_p
            entry["axis"] = R_W @ np.array(builder.joint_axis[d], dtype=float)
            lo, hi = float(builder.joint_limit_lower[d]), float(builder.joint_limit_upper[d])
            entry["limits"] = (-math.inf if lo <= -UNLIMITED else lo,
                               math.inf if hi >= UNLIMITED else hi)
        joints[_short(label)] = entry
    return bodies, joints


def _quat_xyzw(q) -> np.ndarray:
    x, y, z, w = (float(v) for v in q)
    n = math.sqrt(x * x + y * y + z * z + w * w)
    x, y, z, w = x / n, y / n, z / n, w / n
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def differences(ours: tuple[dict, dict], theirs: tuple[dict, dict], rtol: float = 1e-5,
                atol: float = 1e-6, excused: set[str] = frozenset()) -> list[str]:
    """Where two (bodies, joints) tables disagree, in words. Free joints,
    which Newton adds for floating bodies, are not compared; nor are the
    mass properties of the bodies in ``excused`` (those a loss report names)."""
    out = []
    b1, j1 = ours
    b2, j2 = theirs
    # The massless bodies mbparse puts between several joints of one body
    # pair (Newton merges those joints into one D6): left out, with the
    # joints that touch them (Newton keeps one of their names).
    chained = {k for k, v in b1.items() if k not in b2 and v["mass"] == 0}
    if chained:
        b1 = {k: v for k, v in b1.items() if k not in chained}
        j1 = {k: v for k, v in j1.items() if k in j2 or not (
            {v["parent"], v["child"]} & chained)}
        j1 = {k: ({**v, "type": "D6-chain"} if {v["parent"], v["child"]} & chained else v)
              for k, v in j1.items()}
    if set(b1) != set(b2):
        out.append(f"bodies differ: only ours {sorted(set(b1) - set(b2))}, only theirs "
                   f"{sorted(set(b2) - set(b1))}")
    for name in sorted(set(b1) & set(b2)):
        a, b = b1[name], b2[name]
        if name in excused:
            continue
        scale = max(1.0, abs(a["mass"]))
        if abs(a["mass"] - b["mass"]) > rtol * scale + atol:
            out.append(f"body {name}: mass {a['mass']} vs {b['mass']}")
        for key in ("com", "p", "inertia"):
            err = float(np.max(np.abs(a[key] - b[key])))
            size = max(1.0, float(np.max(np.abs(a[key]))))
            if err > rtol * size + atol:
                out.append(f"body {name}: {key} off by {err:.3g}")
    moving1 = {k: v for k, v in j1.items() if v["type"] not in ("quaternion_floating",)}
    moving2 = {k: v for k, v in j2.items() if v["type"] != "FREE"}
    if set(moving1) != set(moving2):
        out.append(f"joints differ: only ours {sorted(set(moving1) - set(moving2))}, only "
                   f"theirs {sorted(set(moving2) - set(moving1))}")
    for name in sorted(set(moving1) & set(moving2)):
        a, b = moving1[name], moving2[name]
        if a["type"] == "D6-chain":
            if b["type"] != "D6":
                out.append(f"joint {name}: a chain of joints vs {b['type']}")
            continue
        if b["type"] != a["type"] and b["type"] not in NEWTON_TYPES.get(a["type"], ()):
            out.append(f"joint {name}: type {a['type']} vs {b['type']}")
            continue
        if {a["parent"], a["child"]} != {b["parent"], b["child"]}:
            out.append(f"joint {name}: joins {a['parent']}-{a['child']} vs "
                       f"{b['parent']}-{b['child']}")
        if "axis" in a and "axis" in b:
            sign = 1.0 if (a["parent"], a["child"]) == (b["parent"], b["child"]) else -1.0
            if np.max(np.abs(a["axis"] - sign * b["axis"])) > 1e-5:
                out.append(f"joint {name}: axis {a['axis']} vs {b['axis']}")
            for x, y in zip(a["limits"], b["limits"]):
                if not (x == y or abs(x - y) <= rtol * max(1.0, abs(x)) + atol):
                    out.append(f"joint {name}: limits {a['limits']} vs {b['limits']}")
                    break
    return out


def openusd_errors(path: str) -> list[str]:
    """What OpenUSD's own validators (UsdValidation: stage metadata,
    composition, UsdGeom, UsdShade and UsdPhysics rigid bodies, colliders,
    joints and articulations) find wrong in a USD file, as text."""
    from pxr import Usd, UsdValidation
    registry = UsdValidation.ValidationRegistry()
    context = UsdValidation.ValidationContext(registry.GetOrLoadAllValidators())
    found = context.Validate(Usd.Stage.Open(path))
    return [f"{e.GetName()}: {e.GetMessage()}" for e in found
            if e.GetType() == UsdValidation.ValidationErrorType.Error]
