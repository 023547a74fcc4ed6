"""Inertias MuJoCo accepts: ``fullinertia`` when MuJoCo takes it, else the
principal moments with their axes, changed (and reported) only where MuJoCo
would refuse them -- a negative or tiny principal moment, the triangle
inequality."""
from __future__ import annotations

import pytest

from mbparse.convert.files import convert_file
from mbparse.convert.writers.mjcf import mujoco_inertia
from mbparse.spatial import inertia_matrix, quaternion_to_matrix, reexpress_inertia


def from_principal(form: dict) -> tuple:
    R = quaternion_to_matrix(form.get("quat", (1, 0, 0, 0)))
    a, b, c = form["diaginertia"]
    return reexpress_inertia((a, b, c, 0, 0, 0), R)


def test_a_valid_full_inertia_is_written_as_it_is():
    I = (0.3, 0.2, 0.25, 0.01, -0.02, 0.005)
    assert mujoco_inertia(I) == ({"fullinertia": I}, None)


def test_a_diagonal_inertia_is_written_as_it_is():
    assert mujoco_inertia((1.0, 2.0, 2.5, 0, 0, 0)) == ({"diaginertia": (1.0, 2.0, 2.5)}, None)


def test_a_full_inertia_with_a_zero_principal_moment_becomes_principal_axes_unchanged():
    # A rod along a tilted axis: one principal moment is 0, which fullinertia refuses.
    I = reexpress_inertia((0.0, 1.0, 1.0, 0, 0, 0), quaternion_to_matrix((0.9, 0.3, 0.2, 0.1)))
    form, change = mujoco_inertia(I)
    assert "fullinertia" not in form and change is None
    assert from_principal(form) == pytest.approx(I, abs=1e-12)


def test_noise_that_makes_an_inertia_indefinite_is_removed_and_reported():
    form, change = mujoco_inertia((0, 0, 0, 0, 1.35525e-20, 0))  # an iCub link
    assert form["diaginertia"] == (0.0, 0.0, 0.0)
    assert "negative principal moment" in change


def test_a_broken_triangle_inequality_is_closed_and_reported():
    form, change = mujoco_inertia((1.0, 1.0, 3.0, 0, 0, 0))
    assert form["diaginertia"] == (1.0, 1.0, 2.0) and "triangle" in change


def test_mujoco_compiles_a_model_with_an_indefinite_inertia(tmp_path):
    mujoco = pytest.importorskip("mujoco")
    urdf = tmp_path / "m.urdf"
    urdf.write_text("""<robot name="m">
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="b"><inertial><mass value="0.3"/>
    <inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="1.35525e-20" iyz="0"/></inertial></link>
  <link name="c"><inertial><mass value="0.6"/>
    <inertia ixx="0.002" iyy="0.003" izz="0.004" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>
  <joint name="w" type="fixed"><parent link="b"/><child link="c"/></joint>
</robot>""")
    out = tmp_path / "m.xml"
    result = convert_file(str(urdf), "mjcf", str(out))
    out.write_text(result.text)
    m = mujoco.MjModel.from_xml_path(str(out))
    assert m.body_mass[m.body("b").id] == 0.3
    [loss] = result.report.losses
    assert loss.element == "body 'b'" and loss.action == "approximated" and loss.line == 4
