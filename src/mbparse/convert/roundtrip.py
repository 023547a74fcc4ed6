"""Checking a conversion: the written file read back gives the same bodies
(mass, centre of mass, inertia, world pose at the default configuration) and
joints as the model it was written from, up to what the loss report lists.

Used by the tests and by ``tools/convert_sweep.py``; MuJoCo's compiler (the
``mujoco`` package, optional) is the second reader for MJCF output, and its
joints are compared too: ranges, damping, and the joint facts the source said
beyond the plant (frictionloss, armature, effort limits and their motors).
"""
from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass

from ..loading import LoadOptions, load
from ..plant import MultibodyPlant
from .loss import DROPPED, LossReport
from .writers.walk import used_instances

TOLERANCE = 1e-6
_QUOTED = re.compile(r"'([^']*)'")


@dataclass
class BodyRecord:
    mass: float
    com: tuple
    inertia: tuple  # ixx iyy izz ixy ixz iyz about the centre of mass, in the body frame
    p: tuple        # world position at the default configuration
    R: tuple        # world rotation, row by row


def _names_in(report: LossReport, kind: str) -> set[str]:
    out = set()
    for loss in report.losses:
        if loss.element.startswith(kind):
            m = _QUOTED.search(loss.element)
            if m:
                out.add(m.group(1).rsplit("::", 1)[-1])
    return out


def body_records(plant: MultibodyPlant, zero_joints: set[str] = frozenset(),
                 prefixed: bool = False) -> dict[str, BodyRecord]:
    """Every body but the world, by name (``INSTANCE__name`` when
    ``prefixed``), posed at the default positions except for the joints in
    ``zero_joints``, which are at zero."""
    positions = {}
    for j in plant.joints():
        if j.name in zero_joints:
            positions[plant.scoped_name(j)] = j.zero_positions()
    X = plant.calc_body_poses_in_world(positions)
    out = {}
    for body in plant.bodies()[1:]:
        M = body.default_spatial_inertia
        key = body.name
        if prefixed:
            prefix = plant.get_model_instance_name(body.model_instance).replace("::", "__")
            key = f"{prefix}__{body.name}"
        Xb = X[body.index]
        out[key] = BodyRecord(M.mass, M.com, M.I_cm, tuple(Xb.p),
                              tuple(v for row in Xb.R for v in row))
    return out


def _differs(a, b, tol: float) -> float:
    a = a if isinstance(a, tuple) else (a,)
    b = b if isinstance(b, tuple) else (b,)
    scale = max([1.0] + [abs(v) for v in a])
    err = max(abs(x - y) for x, y in zip(a, b))
    return err if err > tol * scale else 0.0


def compare_bodies(want: dict[str, BodyRecord], got: dict[str, BodyRecord],
                   excused: set[str] = frozenset(), tol: float = TOLERANCE,
                   pose_excused: set[str] = frozenset()) -> list[str]:
    """Differences between two body tables, as readable lines; bodies in
    ``excused`` are skipped, and so are the poses of ``pose_excused``."""
    out = []
    for name, w in want.items():
        short = name.rsplit("__", 1)[-1]
        if name in excused or short in excused:
            continue
        g = got.get(name)
        if g is None:
            out.append(f"body {name}: missing")
            continue
        for field in ("mass", "com", "inertia", "p", "R"):
            if field == "com" and w.mass == 0:
                continue
            if field in ("p", "R") and short in pose_excused:
                continue
            err = _differs(getattr(w, field), getattr(g, field), tol)
            if err:
                out.append(f"body {name}: {field} off by {err:.3g}")
    return out


def joint_records(plant: MultibodyPlant) -> dict[str, tuple]:
    """Moving joints by name: (type, lower, upper, damping)."""
    out = {}
    for j in plant.joints():
        if j.is_ephemeral or j.type_name == "weld":
            continue
        out[j.name] = (j.type_name, tuple(j.pos_lower), tuple(j.pos_upper), tuple(j.damping))
    return out


def compare_joints(want: dict, got: dict, excused: set[str] = frozenset()) -> list[str]:
    out = []
    for name, w in want.items():
        if name in excused:
            continue
        g = got.get(name) or next((v for k, v in got.items()
                                   if k.rsplit("__", 1)[-1] == name), None)
        if g is None:
            out.append(f"joint {name}: missing")
            continue
        if w[0] != g[0]:
            out.append(f"joint {name}: type {w[0]} became {g[0]}")
            continue
        for label, a, b in (("limits", w[1] + w[2], g[1] + g[2]), ("damping", w[3], g[3])):
            if any(not (x == y or (math.isfinite(x) and abs(x - y) <= TOLERANCE * max(1, abs(x))))
                   for x, y in zip(a, b)):
                out.append(f"joint {name}: {label} {a} became {b}")
    return out


def read_back(path: str, packages: list[tuple[str, str]] | None = None):
    """Loads a written file the way the checks do (a continuous plant)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load(path, LoadOptions(time_step=0.0, packages=packages or []))


def excused_by(report: LossReport) -> tuple[set[str], set[str], set[str]]:
    """(bodies, joints, joints written at zero) the report accounts for."""
    bodies = _names_in(report, "body")
    zero_report = LossReport(report.source, report.target, [
        x for x in report.losses if x.action == DROPPED and "default positions" in x.what])
    other_report = LossReport(report.source, report.target, [
        x for x in report.losses if x not in zero_report.losses])
    return bodies, _names_in(other_report, "joint"), _names_in(zero_report, "joint")


def compare_read_back(original: MultibodyPlant, written: MultibodyPlant,
                      report: LossReport) -> list[str]:
    """Differences between a finalized model and the finalized model read
    from what was written, leaving out what ``report`` lists."""
    bodies, joints, zero = excused_by(report)
    prefixed = len(used_instances(original)) > 1 and report.target in ("urdf", "mjcf", "usd")
    want = body_records(original, zero, prefixed)
    got = body_records(written)
    return compare_bodies(want, got, set(), pose_excused=below(original, bodies)) + \
        compare_joints(joint_records(original), joint_records(written), joints) + \
        compare_geometries(original, written, report, prefixed) + \
        compare_efforts(original, written, report)


def geometry_records(plant: MultibodyPlant, prefixed: bool = False
                     ) -> dict[tuple[str, str], list[str]]:
    """The names of every body's visual and collision geometries, by (body
    name, "visual" or "collision"); the world's are left out (a target may
    put them on a static body of its own)."""
    from ..geometry.properties import ILLUSTRATION, PERCEPTION, PROXIMITY
    out: dict[tuple[str, str], list[str]] = {}
    sg = plant.scene_graph
    if sg is None:
        return out
    for body in plant.bodies()[1:]:
        key = body.name
        if prefixed:
            prefix = plant.get_model_instance_name(body.model_instance).replace("::", "__")
            key = f"{prefix}__{body.name}"
        for g in sg.geometries_on_body(body.index):
            short = g.name.rsplit("::", 1)[-1]
            if g.has_role(PROXIMITY):
                out.setdefault((key, "collision"), []).append(short)
            if g.has_role(ILLUSTRATION) or g.has_role(PERCEPTION):
                out.setdefault((key, "visual"), []).append(short)
    return out


def compare_geometries(original: MultibodyPlant, written: MultibodyPlant,
                       report: LossReport, prefixed: bool = False) -> list[str]:
    """Bodies whose count of visual or collision geometries changed, where
    the report names neither the body nor any of its geometries."""
    said = " ".join(f"{x.element} {x.what}" for x in report.losses)
    want = geometry_records(original, prefixed)
    got = geometry_records(written)
    bodies_written = {body.name for body in written.bodies()[1:]}
    out = []
    for key in sorted(set(want) | set(got)):
        body, role = key
        if body not in bodies_written:
            continue  # (a missing body is compare_bodies' finding)
        a, b = want.get(key, []), got.get(key, [])
        if len(a) == len(b):
            continue
        names = [body.rsplit("__", 1)[-1]] + a
        if any(f"'{n}'" in said or f"::{n}'" in said for n in names):
            continue
        out.append(f"body {body}: {len(a)} {role} geometries became {len(b)}, unreported")
    return out


def effort_limits(plant: MultibodyPlant) -> dict[str, tuple]:
    """Each joint's effort limit: its actuator's, else the one its file gave
    (mbparse.description); an effort of zero (a joint that cannot be driven,
    as no actuator at all) is left out."""
    from ..description import facts
    out = {}
    for j in plant.joints():
        actuators = [a for a in plant.actuators() if a.joint is j]
        if actuators and math.isfinite(actuators[0].effort_limit):
            effort = (actuators[0].effort_limit,)
        else:
            effort = tuple(facts(j).get("effort") or ())
        if any(effort):
            out[j.name] = effort
    return out


def compare_efforts(original: MultibodyPlant, written: MultibodyPlant,
                    report: LossReport) -> list[str]:
    """Joints whose effort limit the output lost or changed, unreported."""
    said = " ".join(f"{x.element} {x.what}" for x in report.losses)
    got = effort_limits(written)
    # (a target of one model names a joint INSTANCE__name; a name may hold "__" itself)
    unprefixed = {k.rsplit("__", 1)[-1]: v for k, v in got.items()}
    out = []
    for name, want in effort_limits(original).items():
        have = got.get(name, unprefixed.get(name))
        if have is not None and all(abs(x - y) <= TOLERANCE * max(1.0, abs(x))
                                    for x, y in zip(want, have)):
            continue
        if f"'{name}'" in said or f"::{name}'" in said:
            continue
        out.append(f"joint {name}: effort limit {want} became {have}, unreported")
    return out


def below(plant: MultibodyPlant, names: set[str]) -> set[str]:
    """The bodies named in ``names`` and every body outboard of them: every
    body joined to them other than through the world (a joint declared from
    the child's side, as a writer turns round, still hangs below)."""
    out = set(names)
    changed = True
    while changed:
        changed = False
        for j in plant.joints():
            if j.parent_body.index == 0 or j.child_body.index == 0:
                continue
            ends = {j.parent_body.name, j.child_body.name}
            if ends & out and not ends <= out:
                out |= ends
                changed = True
    return out


def mujoco_bodies(path: str) -> dict[str, BodyRecord] | None:
    """What MuJoCo compiles from an MJCF file; None without ``mujoco``."""
    try:
        import mujoco  # noqa: F401
        import numpy as np
    except ImportError:
        return None
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    mujoco.mj_kinematics(m, d)
    out = {}
    for i in range(1, m.nbody):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, i)
        R = np.zeros(9)
        mujoco.mju_quat2Mat(R, m.body_iquat[i])
        R = R.reshape(3, 3)
        inertia = R @ np.diag(m.body_inertia[i]) @ R.T
        out[name] = BodyRecord(float(m.body_mass[i]), tuple(m.body_ipos[i]),
                               (inertia[0, 0], inertia[1, 1], inertia[2, 2], inertia[0, 1],
                                inertia[0, 2], inertia[1, 2]),
                               tuple(d.xpos[i]), tuple(d.xmat[i]))
    return out


def mujoco_joint_problems(original: MultibodyPlant, path: str, report: LossReport,
                          actuators_from_effort: bool = True) -> list[str] | None:
    """Differences between the model's hinge and slide joints and what
    MuJoCo compiles from the MJCF file at ``path``: type, range, damping,
    and what the source said beyond the plant (mbparse.description):
    frictionloss, armature, the effort limit as ``actuatorfrcrange`` and, for
    a joint no actuator drives, a motor limited to it. What a loss of the
    report on that joint speaks of (its range, damping, friction, armature,
    effort) is left out. None without ``mujoco``."""
    try:
        import mujoco
    except ImportError:
        return None
    from ..description import facts
    m = mujoco.MjModel.from_xml_path(path)
    said: dict[str, str] = {}  # joint name → what the report says of it
    for loss in report.losses:
        found = _QUOTED.search(loss.element)
        if loss.element.startswith("joint") and found:
            name = found.group(1).rsplit("::", 1)[-1]
            said[name] = said.get(name, "") + " " + loss.what
    prefixed = len(used_instances(original)) > 1
    motors: dict[int, list[tuple]] = {}
    for i in range(m.nu):
        if m.actuator_trntype[i] == mujoco.mjtTrn.mjTRN_JOINT:
            motors.setdefault(int(m.actuator_trnid[i][0]), []).append(
                (bool(m.actuator_forcelimited[i]), tuple(m.actuator_forcerange[i])))
    driven = {id(a.joint): a for a in original.actuators()}
    out = []

    def off(a: float, b: float) -> bool:
        return abs(a - b) > TOLERANCE * max(1.0, abs(a))

    for j in original.joints():
        if j.is_ephemeral or j.type_name not in ("revolute", "prismatic"):
            continue
        told_here = said.get(j.name, "")

        def excused(*words: str) -> bool:
            return any(w in told_here for w in words)

        name = j.name
        if prefixed:
            name = (original.get_model_instance_name(j.model_instance).replace("::", "__")
                    + "__" + j.name)
        k = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, name)
        if k < 0:
            out.append(f"mujoco joint {name}: missing")
            continue
        want_type = mujoco.mjtJoint.mjJNT_HINGE if j.type_name == "revolute" \
            else mujoco.mjtJoint.mjJNT_SLIDE
        if m.jnt_type[k] != want_type:
            out.append(f"mujoco joint {name}: type {m.jnt_type[k]} for a {j.type_name} joint")
            continue
        dof = int(m.jnt_dofadr[k])
        lo, hi = j.pos_lower[0], j.pos_upper[0]
        if math.isfinite(lo) and math.isfinite(hi) and lo < hi and not excused("range") and (
                not m.jnt_limited[k] or off(lo, m.jnt_range[k][0]) or off(hi, m.jnt_range[k][1])):
            out.append(f"mujoco joint {name}: range [{lo}, {hi}] became "
                       f"{tuple(m.jnt_range[k]) if m.jnt_limited[k] else 'unlimited'}")
        told = facts(j)
        actuator = driven.get(id(j))
        armature = told.get("armature", [0.0])[0]
        if actuator is not None and actuator.rotor_inertia:
            armature = actuator.rotor_inertia * actuator.gear_ratio ** 2
        for label, want, got in (("damping", j.damping[0], m.dof_damping[dof]),
                                 ("frictionloss", told.get("friction", [0.0])[0],
                                  m.dof_frictionloss[dof]),
                                 ("armature", armature, m.dof_armature[dof])):
            if label == "damping" and "spring_damper" in told:
                continue  # MuJoCo makes it from the springdamper and the mass moved
            if off(want, float(got)) and not excused(label.replace("loss", "")):
                out.append(f"mujoco joint {name}: {label} {want} became {float(got)}")
        span = told.get("effort_range", [None])[0]
        effort = told.get("effort", [None])[0]
        if effort:
            span = (-effort, effort)
        if span is None or excused("effort"):
            continue
        got = tuple(m.jnt_actfrcrange[k]) if m.jnt_actfrclimited[k] else None
        if got is None or off(span[0], got[0]) or off(span[1], got[1]):
            out.append(f"mujoco joint {name}: effort limit {tuple(span)} became "
                       f"actuatorfrcrange {got}")
        if actuator is None and actuators_from_effort and not any(
                limited and not off(span[0], r[0]) and not off(span[1], r[1])
                for limited, r in motors.get(k, ())):
            out.append(f"mujoco joint {name}: no motor limited to its effort {tuple(span)}")
    return out


def _merged_bodies(plant: MultibodyPlant) -> set[str]:
    from .writers.joint_chains import merged_bodies
    from .writers.walk import ModelWalk
    return merged_bodies(ModelWalk(plant, plant.scene_graph, LossReport(None, "mjcf")))


def check_conversion(path: str, target: str, folder: str,
                     packages: list[tuple[str, str]] | None = None,
                     out: str | None = None) -> tuple[str, list[str]]:
    """Converts ``path`` to ``target`` in ``folder`` (or to the file ``out``)
    and checks the result; ``packages`` are (name, folder) pairs the input needs.

    Returns ("faithful" (no loss, same model), "lossy-ok" (same model up to
    the loss report), "differs" or "error", details). MJCF output is also
    compiled by MuJoCo when it is installed.
    """
    import os
    from .files import ConvertFileOptions, convert_file
    from .loss import ConvertError
    from .writers import SUFFIXES
    from ..diagnostics import ParseError
    original = read_back(path, packages)
    out = out or os.path.join(folder, os.path.basename(path) + "." + target + SUFFIXES[target])
    options = ConvertFileOptions(via_model=True,
                                 load=LoadOptions(time_step=0.0, packages=packages or []))
    try:
        result = convert_file(path, target, out, options)
    except (ConvertError, ParseError) as e:
        return "error", [f"convert: {e}"]
    with open(out, "w", encoding="utf-8") as f:
        f.write(result.text)
    try:
        written = read_back(out)
    except ParseError as e:
        return "error", [f"read back: {str(e).splitlines()[0]}"]
    problems = compare_read_back(original.plant, written.plant, result.report)
    if target == "mjcf":
        try:
            got = mujoco_bodies(out)
        except Exception as e:  # MuJoCo's compiler refused the file
            return "error", [f"mujoco: {str(e).splitlines()[0]}"]
        if got is not None:
            bodies, _, zero = excused_by(result.report)
            want = body_records(original.plant, zero,
                                prefixed=len(used_instances(original.plant)) > 1)
            # the massless bodies between the joints of one MJCF body are
            # mbparse's (and Drake's), not MuJoCo's
            merged = _merged_bodies(original.plant)
            want = {k: v for k, v in want.items() if k.rsplit("__", 1)[-1] not in merged}
            problems += ["mujoco " + p for p in compare_bodies(
                want, got, set(), pose_excused=below(original.plant, bodies))]
            problems += mujoco_joint_problems(original.plant, out, result.report) or []
    if problems:
        return "differs", problems
    return ("faithful" if not result.report else "lossy-ok"), []
