"""Every named body's mass, center of mass, rotational inertia and world pose
(at the default configuration) agree with what MuJoCo's own compiler makes
of the same file, within 1e-6. Skipped when the ``mujoco`` package is not
installed (it is in the ``test`` extra)."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from mbparse.geometry import SceneGraph
from mbparse.parser import Parser
from mbparse.plant import MultibodyPlant

mujoco = pytest.importorskip("mujoco")

DATA = Path(__file__).parent / "data" / "mjcf"
MODELS = sorted(p.name for p in DATA.glob("*.xml"))
TOL = 1e-6


def mujoco_bodies(path: Path) -> dict[str, dict]:
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    mujoco.mj_kinematics(m, d)
    out = {}
    for i in range(1, m.nbody):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, i)
        if not name:
            continue
        R = np.zeros(9)
        mujoco.mju_quat2Mat(R, m.body_iquat[i])
        R = R.reshape(3, 3)
        out[name] = {"mass": m.body_mass[i], "com": m.body_ipos[i].copy(),
                     "inertia": R @ np.diag(m.body_inertia[i]) @ R.T,
                     "p": d.xpos[i].copy(), "R": d.xmat[i].reshape(3, 3).copy()}
    return out


def mbparse_bodies(path: Path) -> dict[str, dict]:
    plant = MultibodyPlant(0.0)
    parser = Parser(plant, SceneGraph())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser.add_models(path)
    plant.finalize()
    X = plant.calc_body_poses_in_world()
    out = {}
    for body in plant.bodies()[1:]:
        M = body.default_spatial_inertia
        ixx, iyy, izz, ixy, ixz, iyz = M.I_cm
        out[body.name] = {"mass": M.mass, "com": np.array(M.com),
                          "inertia": np.array([[ixx, ixy, ixz], [ixy, iyy, iyz],
                                               [ixz, iyz, izz]]),
                          "p": np.array(X[body.index].p), "R": np.array(X[body.index].R)}
    return out


def differences(path: Path) -> list[str]:
    expected, got = mujoco_bodies(path), mbparse_bodies(path)
    out = []
    for name, want in expected.items():
        have = got.get(name)
        if have is None:
            out.append(f"{name}: missing")
            continue
        for key, value in want.items():
            if key == "com" and want["mass"] == 0:
                continue
            err = float(np.max(np.abs(np.asarray(value) - have[key])))
            if not err <= TOL * max(1.0, float(np.max(np.abs(value)))):
                out.append(f"{name}.{key}: off by {err:.3g}")
    return out


@pytest.mark.parametrize("model", MODELS)
def test_mjcf_bodies_agree_with_mujoco(model):
    assert differences(DATA / model) == []


def test_mjcf_agreement_covers_many_bodies():
    # The comparison is only worth something if MuJoCo names many bodies.
    assert sum(len(mujoco_bodies(DATA / m)) for m in MODELS) >= 80


@pytest.mark.parametrize("model", ["own_frames_defaults.xml", "own_compiler_options.xml",
                                   "dmc_humanoid.xml"])
def test_mjcf_joint_frames_move_bodies_as_mujoco_does(model):
    """Away from the default configuration too: every hinge and slide joint
    moved by 0.3 (several joints in one body, joint positions, references)."""
    path = DATA / model
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    d.qpos[:] = m.qpos0
    moved = {}
    for j in range(m.njnt):
        if int(m.jnt_type[j]) in (int(mujoco.mjtJoint.mjJNT_HINGE),
                                  int(mujoco.mjtJoint.mjJNT_SLIDE)):
            adr = m.jnt_qposadr[j]
            d.qpos[adr] += 0.3
            moved[mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, j)] = [float(d.qpos[adr])]
    assert moved
    mujoco.mj_kinematics(m, d)
    plant = MultibodyPlant(0.0)
    parser = Parser(plant, SceneGraph())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (instance,) = parser.add_models(path)
    plant.finalize()
    name = plant.get_model_instance_name(instance)
    X = plant.calc_body_poses_in_world({f"{name}::{j}": q for j, q in moved.items()})
    for i in range(1, m.nbody):
        body_name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, i)
        if not body_name:
            continue
        b = plant.get_body_by_name(body_name, instance)
        assert np.allclose(X[b.index].p, d.xpos[i], atol=1e-9), body_name
        assert np.allclose(X[b.index].R, d.xmat[i].reshape(3, 3), atol=1e-9), body_name
