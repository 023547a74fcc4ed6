"""One problem never hides another in ``mbparse check`` (issue 29, item 8):
every problem of a file is reported in one run, each at its own line with
its own code; the library still stops at the first."""
from __future__ import annotations

import pytest

from mbparse import MultibodyPlant, ParseError, Parser, SceneGraph
from mbparse.lint import lint_file

DUPLICATE_LINK_SDF = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <link name="a">
      <inertial><mass>-1</mass></inertial>
    </link>
    <link name="a">
      <inertial><mass>1</mass></inertial>
    </link>
    <link name="b">
      <visual name="v"><geometry><mesh><uri>missing.stl</uri></mesh></geometry></visual>
    </link>
    <joint name="j" type="revolute">
      <parent>a</parent><child>b</child>
      <axis><xyz>0 0 0</xyz></axis>
    </joint>
    <joint name="k" type="bogus">
      <parent>a</parent><child>b</child>
    </joint>
    <link name="c"/>
    <joint name="j" type="fixed"><parent>b</parent><child>c</child></joint>
  </model>
</sdf>
"""


def _found(findings) -> set[tuple[str, int]]:
    return {(f.rule, f.line) for f in findings if f.severity == "error"}


def test_a_duplicate_sdformat_link_name_hides_no_other_problem(tmp_path):
    path = tmp_path / "dup.sdf"
    path.write_text(DUPLICATE_LINK_SDF)
    findings = lint_file(str(path))
    assert {("mass-negative", 4), ("name-duplicate", 7), ("mesh-missing", 11),
            ("axis-zero", 15), ("sdf-value-invalid", 17), ("name-duplicate", 21)} <= \
        _found(findings)
    # Each duplicate at its own line with its own code and hint, not at <model>.
    dup = [f for f in findings if f.rule == "name-duplicate" and f.line == 7]
    assert "first by the <link> at line 4" in dup[0].message
    assert "rename" in dup[0].hint
    assert not any(f.line == 3 for f in findings if f.severity == "error")


def test_the_library_still_stops_at_a_duplicate_name_at_its_line(tmp_path):
    path = tmp_path / "dup.sdf"
    path.write_text(DUPLICATE_LINK_SDF)
    parser = Parser(MultibodyPlant(0.001), SceneGraph())
    parser.diagnostic_policy().emit = False
    with pytest.raises(ParseError, match="used 2 times") as e:
        parser.add_models(str(path))
    assert e.value.diagnostic.line == 7 and e.value.diagnostic.code == "name-duplicate"


MJCF_BAD_BODY_POSE = """<mujoco model="m">
  <worldbody>
    <body name="a" pos="1 2">
      <joint name="j" type="hinge"/>
      <inertial pos="0 0 0" mass="-1" diaginertia="1 1 1"/>
      <body name="inner">
        <joint name="j1" type="bogus"/>
      </body>
    </body>
    <body name="b">
      <joint name="j3" type="hinge"/>
      <inertial pos="0 0 0" mass="-2" diaginertia="1 1 1"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_an_mjcf_body_error_hides_neither_its_contents_nor_the_next_body(tmp_path):
    path = tmp_path / "pose.xml"
    path.write_text(MJCF_BAD_BODY_POSE)
    assert {("mjcf-value-invalid", 3), ("mass-negative", 5), ("mjcf-value-invalid", 7),
            ("mass-negative", 12)} <= _found(lint_file(str(path)))


def test_a_missing_mjcf_include_hides_nothing_else(tmp_path):
    path = tmp_path / "inc.xml"
    path.write_text('<mujoco model="m">\n  <include file="nothere.xml"/>\n  <worldbody>\n'
                    '    <body name="a"><joint type="hinge"/>\n'
                    '      <inertial pos="0 0 0" mass="-1" diaginertia="1 1 1"/>\n'
                    '    </body>\n  </worldbody>\n</mujoco>\n')
    findings = lint_file(str(path))
    assert {("file-missing", 2), ("mass-negative", 5)} <= _found(findings)
    assert sum(f.rule == "file-missing" for f in findings) == 1
    parser = Parser(MultibodyPlant(0.001), SceneGraph())
    parser.diagnostic_policy().emit = False
    with pytest.raises(ParseError, match="nothere.xml"):
        parser.add_models(str(path))
