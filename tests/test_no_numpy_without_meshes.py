"""A model without meshes is read without importing NumPy: its import is
tens of milliseconds of a CLI run, and its objects stay in the process for
every later collection of the user's program to walk. The one numeric step
such a model may need, the principal moments of a rotated inertia, is worked
out in plain Python (:func:`mbparse.spatial.principal_moments`) and agrees
with LAPACK's to a few units in the last place."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from mbparse.spatial import inertia_matrix, inertia_problem, principal_moments


def _rotated(eigenvalues, rng) -> tuple:
    Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    M = Q @ np.diag(eigenvalues) @ Q.T
    return (M[0, 0], M[1, 1], M[2, 2], M[0, 1], M[0, 2], M[1, 2])


@pytest.mark.parametrize("kind", ["spread", "repeated", "rod", "sphere", "any sign, any scale"])
def test_principal_moments_agree_with_lapack(kind):
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(2000):
        if kind == "spread":
            e = rng.uniform(0.0, 10.0, 3)
        elif kind == "repeated":  # a square plate: a double eigenvalue
            e = np.array([1.0, 1.0, 2.0]) * 10 ** rng.uniform(-8, 8)
        elif kind == "rod":  # a double eigenvalue and a zero one
            x = rng.uniform(0.1, 5.0)
            e = np.array([0.0, x, x])
        elif kind == "sphere":  # a triple one: any rotation keeps it diagonal up to rounding
            e = np.full(3, rng.uniform(0.1, 3.0))
        else:
            e = rng.normal(size=3) * 10 ** rng.uniform(-300, 300)
        I = _rotated(e, rng)
        mine = principal_moments(I)
        theirs = np.linalg.eigvalsh(np.array(inertia_matrix(I)))
        assert list(mine) == sorted(mine)
        scale = max(float(np.abs(theirs).max()), 1e-300)
        worst = max(worst, max(abs(a - b) for a, b in zip(mine, theirs)) / scale)
    assert worst < 1e-14


def test_principal_moments_of_a_diagonal_inertia_are_its_entries_sorted():
    assert principal_moments((3.0, 1.0, 2.0, 0.0, 0.0, 0.0)) == (1.0, 2.0, 3.0)


def test_rotated_inertias_are_judged_as_before(monkeypatch):
    from mbparse import spatial
    calls = []
    monkeypatch.setattr(spatial, "principal_moments",
                        lambda I: calls.append(I) or principal_moments(I))
    assert inertia_problem((0.570211, 0.721829, 1.05796, -0.43953, 0.047053, -0.055863)) is None
    assert len(calls) == 1  # (the URDF below needs the moments)
    rng = np.random.default_rng(3)
    # physical, a triangle violation and a negative moment, each rotated so
    # that the quick (Gershgorin) acceptance does not decide
    assert inertia_problem(_rotated([1.0, 1.2, 2.19], rng)) is None
    assert inertia_problem(_rotated([1.0, 1.0, 2.5], rng))[0] == "inertia-triangle"
    assert inertia_problem(_rotated([-0.5, 1.0, 1.2], rng))[0] == "inertia-not-positive"


# (link a: moments 0.2 1 1.15, rotated so far from its axes that only the
# principal moments can tell that it is physical)
URDF_ROTATED_INERTIA = """<robot name="r">
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="0.570211" iyy="0.721829" izz="1.05796" ixy="-0.43953" ixz="0.047053"
             iyz="-0.055863"/></inertial>
    <visual><geometry><box size="1 1 1"/></geometry></visual></link>
  <link name="b"><inertial><mass value="1"/>
    <inertia ixx="0.5" iyy="0.5" izz="0.6" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""

MJCF_WITHOUT_MESHES = """<mujoco model="m"><default><geom rgba="0.5 0.5 0.5 1"/></default>
  <worldbody><body name="b" pos="0 0 1"><joint type="hinge"/>
    <geom type="capsule" size="0.02" fromto="0 0 0 0 0 0.1"/>
    <body name="c" euler="10 20 30"><inertial pos="0 0 0" mass="1"
      fullinertia="1.1 1.2 1.3 0.3 0.2 0.25"/><joint type="slide"/></body>
  </body></worldbody></mujoco>"""


@pytest.mark.parametrize("suffix, text", [(".urdf", URDF_ROTATED_INERTIA),
                                          (".xml", MJCF_WITHOUT_MESHES)])
def test_a_model_without_meshes_is_read_without_numpy(tmp_path, suffix, text):
    path = tmp_path / f"model{suffix}"
    path.write_text(text)
    script = textwrap.dedent(f"""
        import sys
        from mbparse import MultibodyPlant, Parser, SceneGraph
        plant = MultibodyPlant(0.0)
        Parser(plant, SceneGraph()).add_models({str(path)!r})
        plant.finalize()
        print(plant.num_bodies(), "numpy" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["3", "False"]


@pytest.mark.parametrize("I", [
    (1e308,) * 6,  # a largest moment past the largest double: inf, not an error
    (5e-324, 0.0, 0.0, 5e-324, 0.0, 0.0),  # subnormal entries
    (1e-300, 2e-300, 3e-300, 1e-300, 0.0, 0.0),
    (float("nan"), 1.0, 1.0, 0.5, 0.0, 0.0),
    (float("inf"), 1.0, 1.0, 0.5, 0.0, 0.0),
])
def test_principal_moments_of_extreme_entries_are_numbers_not_errors(I):
    moments = principal_moments(I)
    assert len(moments) == 3
    if I[0] == 1e308:
        assert moments[2] == float("inf")  # (the others are rounding noise of it, as LAPACK's)
    elif all(v == v and abs(v) < float("inf") for v in I):
        theirs = np.linalg.eigvalsh(np.array(inertia_matrix(I)))
        scale = max(abs(b) for b in theirs)
        assert all(abs(a - b) <= 1e-14 * scale + 1e-323 for a, b in zip(moments, theirs))
