"""``mbparse check`` on large models: the model checks stay linear in the
number of bodies (a chain of N bodies is N welded groups, and a check that
walked every group's outboard bodies took minutes on a 5 MB URDF)."""
from __future__ import annotations

import pytest

from mbparse.lint import lint_file, model_rules

INERTIA = '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/>'


def chain(n: int, massless_from: int, fork: bool = False) -> str:
    """A chain of n links (l0 the base); links from ``massless_from`` on have
    no mass. With ``fork``, every link hangs from l0's child instead (a tree)."""
    links = "".join(
        f'<link name="l{i}">'
        + (f'<inertial><mass value="1"/>{INERTIA}</inertial>' if i < massless_from else "")
        + "</link>" for i in range(n))
    joints = "".join(
        f'<joint name="j{i}" type="revolute"><parent link="l{1 if fork and i > 1 else i - 1}"/>'
        f'<child link="l{i}"/><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>' for i in range(1, n))
    return f'<robot name="r">{links}{joints}</robot>'


@pytest.fixture
def no_outboard_walk(monkeypatch):
    """Fails a test that walks a welded group's outboard bodies one group
    at a time (the quadratic path) where the subtree masses answer."""
    def walk(*args):
        raise AssertionError("outboard bodies walked per group")
    monkeypatch.setattr(model_rules, "_outboard", walk)


@pytest.mark.parametrize("fork", [False, True], ids=["chain", "tree"])
def test_massless_tail_of_a_long_chain_is_found_without_walking_each_group(
        tmp_path, no_outboard_walk, fork):
    path = tmp_path / "big.urdf"
    path.write_text(chain(400, massless_from=398, fork=fork))
    found = [f for f in lint_file(str(path)) if f.rule == "mass-zero-moving"]
    assert sorted(f.message.split("'")[1] for f in found) == ["r::l398", "r::l399"]


def test_massless_link_carrying_mass_is_not_reported(tmp_path, no_outboard_walk):
    text = chain(300, massless_from=300).replace(
        f'<link name="l150"><inertial><mass value="1"/>{INERTIA}</inertial></link>',
        '<link name="l150"/>')
    path = tmp_path / "big.urdf"
    path.write_text(text)
    assert not [f for f in lint_file(str(path)) if f.rule == "mass-zero-moving"]
