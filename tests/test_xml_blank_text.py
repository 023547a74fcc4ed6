"""Whitespace between elements (indentation) makes no node in the readers'
trees: no reader reads it. Text that is an element's only content, or that
is not all whitespace, or is beside such text, stays; xacro, which is handed the text, gets it whole;
and a model reads the same indented or on one line."""
from __future__ import annotations

import re

import pytest
from lxml import etree

from conftest import new_parser
from mbparse.formats.common.xml import parse_xml_bytes
from mbparse.summary import summarize

TEXT = b"<a>\n  <b> </b>\n  <c>x<d/>\n  </c>\n  <e>\n  </e>\n</a>\n"


def test_blank_text_between_elements_makes_no_node():
    root, problem, _ = parse_xml_bytes(TEXT)
    assert problem == ""
    b, c, e = root
    assert root.text is None and b.tail is None and c.tail is None
    assert b.text == " " and e.text == "\n  "  # (an element's only content stays)
    assert c.text == "x" and c[0].tail == "\n  "  # (in mixed content, all text stays)
    assert [el.sourceline for el in root.iter()] == [1, 2, 3, 3, 5]


def test_blank_text_is_kept_when_asked():
    root, _, _ = parse_xml_bytes(TEXT, blank_text=True)
    assert etree.tostring(root) == TEXT.rstrip(b"\n")


URDF = """<robot name="r">
  <material name="m">
    <color rgba="1 0 0 1"/>
  </material>
  <link name="a">
    <inertial>
      <origin xyz="0 0 0.1"/>
      <mass value="2"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
    </inertial>
    <visual>
      <geometry>
        <box size="1 2 3"/>
      </geometry>
      <material name="m"/>
    </visual>
    <collision>
      <origin rpy="0 0 1"/>
      <geometry>
        <sphere radius="0.5"/>
      </geometry>
    </collision>
  </link>
  <link name="b"/>
  <joint name="j" type="revolute">
    <parent link="a"/>
    <child link="b"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="3" velocity="4"/>
  </joint>
  <transmission name="t">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j">
      <hardwareInterface>EffortJointInterface</hardwareInterface>
    </joint>
    <actuator name="motor">
      <mechanicalReduction>
        2
      </mechanicalReduction>
    </actuator>
  </transmission>
</robot>
"""

SDF = """<sdf version="1.9">
  <model name="m">
    <pose>0 0 1 0 0 0</pose>
    <link name="a">
      <inertial>
        <mass>
          2
        </mass>
      </inertial>
      <collision name="c">
        <geometry>
          <cylinder>
            <radius>0.1</radius>
            <length>0.2</length>
          </cylinder>
        </geometry>
      </collision>
    </link>
    <link name="b">
      <pose relative_to="a">1 0 0 0 0 0</pose>
    </link>
    <joint name="j" type="prismatic">
      <parent>a</parent>
      <child>b</child>
      <axis>
        <xyz>1 0 0</xyz>
        <limit>
          <lower>-1</lower>
          <upper>1</upper>
        </limit>
      </axis>
    </joint>
    <frame name="f" attached_to="b">
      <pose>0 1 0 0 0 0</pose>
    </frame>
  </model>
</sdf>
"""

MJCF = """<mujoco model="m">
  <default>
    <geom rgba="0 1 0 1"/>
  </default>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="j" type="hinge" axis="0 0 1"/>
      <geom type="capsule" size="0.1 0.2"/>
      <body name="b" pos="0 0 0.5">
        <freejoint name="f"/>
        <geom type="box" size="0.1 0.1 0.1"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="j" gear="2"/>
  </actuator>
</mujoco>
"""


def _on_one_line(text: str) -> str:
    return re.sub(r">\s+<", "><", text.strip())


def _summary(path) -> dict:
    parser = new_parser()
    instances = parser.add_models(path)
    parser.plant().finalize()
    return summarize(parser.plant(), parser, instances)


@pytest.mark.parametrize("name,text", [("m.urdf", URDF), ("m.sdf", SDF), ("m.xml", MJCF)])
def test_a_model_reads_the_same_indented_and_on_one_line(write, name, text):
    indented = _summary(write(name, text))
    assert len(indented["bodies"]) >= 2 and indented["joints"]
    assert _summary(write("one_line_" + name, _on_one_line(text))) == indented
