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
