"""mbparse check: each model rule fires on the mistake it names, at the
line where the mistake was written."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from mbparse.loading import LoadOptions
from mbparse.lint import lint_file

INERTIA = '<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>'


def options() -> LoadOptions:
    return LoadOptions()


def lint(tmp_path: Path, body: str, name: str = "robot.urdf"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body).lstrip())
    return lint_file(str(path), options())


def only(findings, rule):
    hits = [f for f in findings if f.rule == rule]
    assert hits, f"no {rule} among {[(f.rule, f.message) for f in findings]}"
    return hits


def line_of(tmp_path: Path, text: str, name: str = "robot.urdf") -> int:
    lines = (tmp_path / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


def test_check_massless_moving_body_is_an_error_at_its_link(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="base"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="tip"/>
          <joint name="j" type="revolute">
            <parent link="base"/><child link="tip"/><axis xyz="0 0 1"/>
            <limit lower="-1" upper="1" effort="1" velocity="1"/>
          </joint>
        </robot>""")
    (f,) = only(findings, "mass-zero-moving")
    assert f.severity == "error"
    assert "tip" in f.message
    assert f.line == line_of(tmp_path, '<link name="tip"/>')


def test_check_massless_body_carrying_a_mass_is_fine(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="base"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="middle"/>
          <link name="tip"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <joint name="a" type="revolute"><parent link="base"/><child link="middle"/>
            <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
          <joint name="b" type="revolute"><parent link="middle"/><child link="tip"/>
            <axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
        </robot>""")
    assert not [f for f in findings if f.rule == "mass-zero-moving"]


def test_check_inverted_limits_are_reported_at_the_limit(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="base"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="tip"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <joint name="j" type="revolute">
            <parent link="base"/><child link="tip"/><axis xyz="0 0 1"/>
            <limit lower="1" upper="-1" effort="1" velocity="1"/>
          </joint>
        </robot>""")
    (f,) = only(findings, "limit-inverted")
    assert f.severity == "error"
    assert f.line in (line_of(tmp_path, "<limit"), line_of(tmp_path, '<joint name="j"'))


def test_check_zero_axis_is_an_error(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="base"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="tip"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <joint name="j" type="revolute">
            <parent link="base"/><child link="tip"/><axis xyz="0 0 0"/>
            <limit lower="-1" upper="1" effort="1" velocity="1"/>
          </joint>
        </robot>""")
    (f,) = only(findings, "axis-zero")
    assert f.severity == "error" and f.line is not None


def test_check_inertia_breaking_the_triangle_inequality_is_reported(tmp_path):
    findings = lint(tmp_path, """
        <robot name="r">
          <link name="base">
            <inertial><mass value="1"/>
              <inertia ixx="1" iyy="1" izz="5" ixy="0" ixz="0" iyz="0"/></inertial>
          </link>
        </robot>""")
    (f,) = only(findings, "inertia-triangle")
    assert "triangle" in f.message and f.severity == "error"  # Drake only warns
    assert f.line in range(line_of(tmp_path, '<link name="base">'),
                           line_of(tmp_path, "<inertia ") + 1)


def test_check_link_not_connected_to_the_tree_is_a_warning(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="base"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="tip"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="stray"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <joint name="j" type="fixed"><parent link="base"/><child link="tip"/></joint>
        </robot>""")
    (f,) = only(findings, "body-disconnected")
    assert f.severity == "warning" and "stray" in f.message
    assert f.line == line_of(tmp_path, '<link name="stray">')


def test_check_duplicate_joint_name_is_an_error(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="a"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="b"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="c"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
          <joint name="j" type="fixed"><parent link="b"/><child link="c"/></joint>
        </robot>""")
    (f,) = only(findings, "name-duplicate")
    assert f.severity == "error"


def test_check_missing_mesh_is_an_error_at_the_geometry(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="a"><inertial><mass value="1"/>{INERTIA}</inertial>
            <visual><geometry><mesh filename="nowhere.obj"/></geometry></visual>
          </link>
        </robot>""")
    (f,) = only(findings, "mesh-missing")
    assert f.severity == "error" and "nowhere.obj" in f.message
    assert f.line == line_of(tmp_path, "nowhere.obj")


def test_check_unknown_package_is_an_error_with_a_hint(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="a"><inertial><mass value="1"/>{INERTIA}</inertial>
            <visual><geometry><mesh filename="package://nopkg/m.obj"/></geometry></visual>
          </link>
        </robot>""")
    (f,) = only(findings, "package-unknown")
    assert "--package" in f.hint


def test_check_mass_in_grams_and_limits_in_degrees_suggest_wrong_units(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="a"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="b"><inertial><mass value="35000"/>{INERTIA.replace('0.01', '100')}
            </inertial></link>
          <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
            <axis xyz="0 0 1"/><limit lower="-90" upper="90" effort="1" velocity="1"/></joint>
        </robot>""")
    units = only(findings, "units-suspicious")
    assert any("grams" in f.message for f in units)
    assert any("degrees" in f.message and f.line == line_of(tmp_path, '<joint name="j"')
               for f in units)


def test_check_equal_limits_say_the_joint_cannot_move(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="a"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="b"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <joint name="j" type="prismatic"><parent link="a"/><child link="b"/>
            <axis xyz="1 0 0"/><limit lower="0.2" upper="0.2" effort="1" velocity="1"/></joint>
        </robot>""")
    (f,) = only(findings, "limit-empty")
    assert f.severity == "warning"


def test_check_free_point_mass_has_no_rotational_inertia(tmp_path):
    findings = lint(tmp_path, """
        <robot name="r">
          <link name="ball"><inertial><mass value="1"/></inertial></link>
        </robot>""")
    (f,) = only(findings, "inertia-zero")
    assert "ball" in f.message


def test_check_clean_model_has_no_findings(tmp_path):
    findings = lint(tmp_path, f"""
        <robot name="r">
          <link name="a"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <link name="b"><inertial><mass value="1"/>{INERTIA}</inertial></link>
          <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
            <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
        </robot>""")
    assert findings == []


@pytest.mark.parametrize("suffix", [".txt", ".stl"])
def test_check_unknown_suffix_is_an_unknown_format_error(tmp_path, suffix):
    path = tmp_path / f"model{suffix}"
    path.write_text("x")
    (f,) = lint_file(str(path), options())
    assert f.rule == "file-type-unknown" and f.severity == "error"
