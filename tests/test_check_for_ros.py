"""check --for ros: what urdfdom (check_urdf, and every ROS tool) refuses,
and what it reads only in part, each at its element's line. Where Debian's
check_urdf (liburdfdom-tools) is installed, every case is compared with it."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from mbparse.lint import lint_file

I = ('<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>'
     '</inertial>')


def robot(joint: str, links: str = f'<link name="a">{I}</link>\n<link name="b">{I}</link>',
          head: str = '<robot name="r">') -> str:
    return f'{head}\n{links}\n{joint}\n</robot>\n'


def revolute(limit: str = '<limit lower="-1" upper="1" effort="1" velocity="1"/>',
             kind: str = "revolute", extra: str = "") -> str:
    return (f'<joint name="j" type="{kind}"><parent link="a"/><child link="b"/>'
            f'<axis xyz="0 0 1"/>{limit}{extra}</joint>')


# name -> (URDF text, what --for ros says: None for nothing, else (rule, words))
CASES = {
    "valid": (robot(revolute()), None),
    "limit-without-effort": (robot(revolute('<limit lower="0" upper="1" velocity="1"/>')),
                             ("for-ros-refuses", "no 'effort'")),
    "misspelled-velocity": (robot(revolute('<limit lower="0" upper="1" effort="1" '
                                           'velocty="1"/>')),
                            ("for-ros-refuses", "'velocty' is written: a misspelling of "
                                                "'velocity'")),
    "prismatic-without-limit": (robot(revolute("", kind="prismatic")),
                                ("for-ros-refuses", "prismatic but has no <limit>")),
    "continuous-empty-limit": (robot(revolute("<limit/>", kind="continuous")),
                               ("for-ros-refuses", "no 'effort'")),
    "continuous-without-limit": (robot(revolute("", kind="continuous")), None),
    "spherical": (robot(revolute("", kind="spherical")), ("for-ros-refuses", "'spherical'")),
    "comma-number": (robot(revolute('<limit lower="0" upper="1,5" effort="1" velocity="1"/>')),
                     ("for-ros-refuses", "'1,5'")),
    "four-number-origin": (robot(revolute(extra='<origin xyz="0 0 0 0"/>')),
                           ("for-ros-refuses", "exactly 3 numbers")),
    "dynamics-misspelled": (robot(revolute(extra='<dynamics dampng="0.1"/>')),
                            ("for-ros-refuses", "'dampng' is written")),
    "two-roots": (robot("", links='<link name="a"/><link name="b"/>'),
                  ("for-ros-refuses", "2 root links")),
    "box-without-size": (robot(revolute(), links=f'<link name="a">{I}<visual><geometry><box/>'
                                                 f'</geometry></visual></link><link name="b"/>'),
                         ("for-ros-element-dropped", "no 'size'")),
    "inertia-misspelled": (robot(revolute(), links='<link name="a"><inertial><mass value="1"/>'
                                                   '<inertia ixx="1" iyy="1" izz="1" ixy="0" '
                                                   'ixz="0" iyx="0"/></inertial></link>'
                                                   '<link name="b"/>'),
                           ("for-ros-element-dropped", "'iyx' is written: a misspelling of "
                                                      "'iyz'")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_for_ros_reports_what_urdfdom_says(tmp_path, name):
    text, expected = CASES[name]
    path = tmp_path / f"{name}.urdf"
    path.write_text(text)
    found = [f for f in lint_file(str(path), consumers=("ros",)) if f.rule.startswith("for-ros")]
    if expected is None:
        assert found == []
        return
    rule, words = expected
    assert [f.rule for f in found] == [rule], [f.message for f in found]
    assert words in found[0].message
    assert found[0].severity == ("error" if rule == "for-ros-refuses" else "warning")
    line = text.splitlines()[found[0].line - 1]
    assert line.startswith(("<link", "<joint", "<robot"))


def test_nothing_for_ros_without_the_flag(tmp_path):
    path = tmp_path / "r.urdf"
    path.write_text(CASES["misspelled-velocity"][0])
    assert not [f for f in lint_file(str(path)) if f.rule.startswith("for-ros")]


@pytest.mark.skipif(shutil.which("check_urdf") is None,
                    reason="check_urdf (Debian's liburdfdom-tools) is not installed")
@pytest.mark.parametrize("name", sorted(CASES))
def test_urdfdom_itself_agrees(tmp_path, name):
    text, expected = CASES[name]
    path = tmp_path / f"{name}.urdf"
    path.write_text(text)
    run = subprocess.run(["check_urdf", str(path)], capture_output=True, text=True, timeout=60)
    refuses = expected is not None and expected[0] == "for-ros-refuses"
    assert (run.returncode != 0) == refuses, run.stdout + run.stderr
    if expected is not None and expected[0] == "for-ros-element-dropped":
        assert "Could not parse" in run.stdout + run.stderr
