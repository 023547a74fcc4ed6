"""The linter's locator finds bodies and joints by name in URDF, SDFormat,
MJCF and model-directive files (line and column of the start tag)."""
from __future__ import annotations

import textwrap

from mbparse.lint.locator import Locator


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip())
    return str(path)


def test_locator_picks_the_sdf_link_of_the_named_nested_model(tmp_path):
    sdf = write(tmp_path, "m.sdf", """
        <sdf version="1.9">
          <model name="outer">
            <model name="left">
              <link name="arm"/>
            </model>
            <model name="right">
              <link name="arm">
                <inertial><mass>1</mass></inertial>
              </link>
            </model>
          </model>
        </sdf>""")
    loc = Locator([sdf])
    assert loc.find("body", "arm", "outer::left").line == 4
    right = loc.find("body", "arm", "outer::right")
    assert (right.line, right.column) == (7, 7)
    assert loc.find("body", "arm", "outer::right", (("inertial", "mass"),)).line == 8


def test_locator_finds_sdf_joint_limits_under_the_axis(tmp_path):
    sdf = write(tmp_path, "j.sdf", """
        <sdf version="1.9"><model name="m">
          <joint name="j" type="revolute">
            <axis><xyz>0 0 1</xyz>
              <limit><lower>1</lower><upper>0</upper></limit>
            </axis>
          </joint>
        </model></sdf>""")
    loc = Locator([sdf]).find("joint", "j", "m", (("limit",), ("axis", "limit")))
    assert (loc.line, loc.column) == (4, 7)


def test_locator_finds_mjcf_bodies_and_joints(tmp_path):
    xml = write(tmp_path, "m.xml", """
        <mujoco model="m">
          <worldbody>
            <body name="torso"> <joint name="hip" range="1 -1"/>
            </body>
          </worldbody>
        </mujoco>""")
    loc = Locator([xml])
    assert loc.find("body", "torso").line == 3
    assert (loc.find("joint", "hip").line, loc.find("joint", "hip").column) == (3, 25)


def test_locator_searches_model_directives_as_text(tmp_path):
    yaml = write(tmp_path, "s.dmd.yaml", """
        directives:
        - add_model:
            name: table
            file: package://x/table.sdf
        """)
    loc = Locator([yaml]).find("model", "table")
    assert (loc.line, loc.column) == (3, 11)


def test_locator_returns_none_for_unknown_names(tmp_path):
    urdf = write(tmp_path, "r.urdf", '<robot name="r"><link name="a"/></robot>')
    assert Locator([urdf]).find("body", "b") is None
