"""Bad URDF input is a ParseError that names the file and the line of the
offending element — never another kind of exception."""
from __future__ import annotations


import pytest

from conftest import HEAVY, line_of, parse_file, robot
from mbparse import ParseError


def assert_error_at(write, text: str, needle: str, words: str = "") -> ParseError:
    """Parsing ``text`` from a file fails at the line where ``needle`` is."""
    path = write("bad.urdf", text)
    with pytest.raises(ParseError) as info:
        parse_file(path)
    message = str(info.value)
    assert f"{path}:{line_of(text, needle)}:" in message, message
    assert words in message
    return info.value


# ------------------------------------------------------------ malformed XML
def test_urdf_malformed_xml_mismatched_tag(write):
    text = '<?xml version="1.0"?>\n<robot name="r">\n  <link name="a">\n</robot>\n'
    assert_error_at(write, text, "</robot>", "well-formed")


def test_urdf_malformed_xml_broken_attribute(write):
    text = '<?xml version="1.0"?>\n<robot name="r">\n  <link name="a"/>\n  <link name=b/>\n' \
           "</robot>\n"
    assert_error_at(write, text, "name=b", "well-formed")


def test_urdf_malformed_xml_from_a_string_is_a_parse_error():
    from conftest import parse_urdf
    with pytest.raises(ParseError, match="<string>:2:"):
        parse_urdf('<robot name="r">\n<link name="a"></robot>')


def test_urdf_empty_file_is_a_parse_error(write):
    path = write("bad.urdf", "")
    with pytest.raises(ParseError, match=str(path)):
        parse_file(path)


def test_urdf_root_that_is_not_robot_is_an_error(write):
    assert_error_at(write, '<?xml version="1.0"?>\n<sdf version="1.9"/>\n', "<sdf", "robot")


# ------------------------------------------------------------ missing attributes
# (a <robot> without a name: tests/test_modes_urdf.py, an error in Drake's mode)
@pytest.mark.parametrize("body, needle, words", [
    ('<robot name="r">\n<link/>\n</robot>', "<link/>", "name"),
    ('<robot name="r">\n<link name="a"/><link name="b"/>\n<joint name="j">\n'
     '<parent link="a"/><child link="b"/></joint>\n</robot>', "<joint", "type"),
    ('<robot name="r">\n<link name="a"/><link name="b"/>\n<joint type="fixed">\n'
     '<parent link="a"/><child link="b"/></joint>\n</robot>', "<joint", "name"),
    ('<robot name="r">\n<link name="a"/><link name="b"/>\n<joint name="j" type="fixed">\n'
     '<child link="b"/></joint>\n</robot>', "<joint", "parent"),
    ('<robot name="r">\n<link name="a"/><link name="b"/>\n<joint name="j" type="fixed">\n'
     '<parent/>\n<child link="b"/></joint>\n</robot>', "<parent/>", "link"),
    ('<robot name="r">\n<link name="a"><visual><geometry>\n<box/>\n</geometry></visual></link>'
     "\n</robot>", "<box/>", "size"),
    ('<robot name="r">\n<link name="a"><visual><geometry>\n<mesh/>\n</geometry></visual></link>'
     "\n</robot>", "<mesh/>", "filename"),
    ('<robot name="r">\n<link name="a"><visual>\n</visual></link>\n</robot>', "<visual>",
     "geometry"),
], ids=["link-name", "joint-type", "joint-name", "joint-parent",
        "parent-link", "box-size", "mesh-filename", "visual-geometry"])
def test_urdf_missing_required_part_is_a_located_error(write, body, needle, words):
    assert_error_at(write, '<?xml version="1.0"?>\n' + body + "\n", needle, words)


# ------------------------------------------------------------ not numbers
@pytest.mark.parametrize("element, needle", [
    ('<link name="a"><inertial><mass value="abc"/></inertial></link>', "<mass"),
    ('<link name="a"><inertial><mass value="1"/>\n<inertia ixx="abc" iyy="1" izz="1"/>'
     "</inertial></link>", "<inertia "),
    ('<link name="a"><inertial>\n<origin xyz="abc 0 0"/><mass value="1"/></inertial></link>',
     "<origin"),
    ('<link name="a"><visual>\n<origin rpy="0 0"/><geometry><box size="1 1 1"/></geometry>'
     "</visual></link>", "<origin"),
    ('<link name="a"><visual><geometry>\n<box size="1 abc 1"/></geometry></visual></link>',
     "<box"),
    ('<link name="a"><visual><geometry>\n<sphere radius="abc"/></geometry></visual></link>',
     "<sphere"),
    ('<link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/>'
     '<child link="b"/>\n<limit lower="abc" upper="1"/></joint>', "<limit"),
    ('<link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/>'
     '<child link="b"/>\n<axis xyz="1 0"/></joint>', "<axis"),
    ('<link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/>'
     '<child link="b"/>\n<dynamics damping="lots"/></joint>', "<dynamics"),
    ('<link name="a"><visual><geometry><box size="1 1 1"/></geometry><material>\n'
     '<color rgba="1 0 0 x"/></material></visual></link>', "<color"),
], ids=["mass", "inertia", "inertial-origin", "visual-rpy", "box-size", "sphere-radius",
        "limit", "axis", "damping", "rgba"])
def test_urdf_non_number_is_a_located_error(write, element, needle):
    assert_error_at(write, robot("\n" + element), needle)


# ------------------------------------------------------------ references
def test_urdf_joint_naming_an_unknown_child_link_is_an_error(write):
    text = robot(f'<link name="a">{HEAVY}</link>\n<joint name="j" type="fixed">'
                 '<parent link="a"/>\n<child link="ghost"/></joint>')
    assert_error_at(write, text, '<child link="ghost"', "ghost")


def test_urdf_joint_naming_an_unknown_parent_link_is_an_error(write):
    text = robot(f'<link name="a">{HEAVY}</link>\n<joint name="j" type="fixed">\n'
                 '<parent link="ghost"/><child link="a"/></joint>')
    assert_error_at(write, text, '<parent link="ghost"', "ghost")


def test_urdf_joint_with_the_same_parent_and_child_is_an_error(write):
    text = robot(f'<link name="a">{HEAVY}</link>\n<joint name="j" type="fixed">'
                 '<parent link="a"/><child link="a"/></joint>')
    assert_error_at(write, text, "<joint", "'a'")


def test_urdf_duplicate_link_name_is_an_error(write):
    text = robot('<link name="a"/>\n<link name="a"/>')
    path = write("bad.urdf", text)
    with pytest.raises(ParseError) as info:
        parse_file(path)
    assert f"{path}:{text.count(chr(10), 0, text.rindex('<link')) + 1}:" in str(info.value)


# ------------------------------------------------------------ a cycle of joints
CYCLE = """<?xml version="1.0"?>
<robot name="r">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="ab" type="continuous"><parent link="a"/><child link="b"/></joint>
  <joint name="bc" type="continuous"><parent link="b"/><child link="c"/></joint>
  <joint name="ca" type="continuous"><parent link="c"/><child link="a"/></joint>
</robot>
"""


def test_urdf_cycle_of_joints_is_a_located_parse_error_when_loaded(write):
    from mbparse.loading import LoadOptions, load
    path = write("cycle.urdf", CYCLE)
    with pytest.raises(ParseError) as info:
        load(str(path), LoadOptions(time_step=0.0))
    line = line_of(CYCLE, '<joint name="ca"')
    assert f"{path}:{line}:" in str(info.value)
    assert "loop" in str(info.value)


def test_urdf_cycle_of_joints_parses_and_fails_at_finalize_as_in_drake(write):
    from mbparse.plant import ModelError
    parsed = parse_file(write("cycle.urdf", CYCLE))
    with pytest.raises(ModelError, match="'ca'") as info:
        parsed.plant.finalize()
    assert info.value.element.name == "ca"
    assert not isinstance(info.value, ParseError)


# ------------------------------------------------------------ never another exception
GARBAGE = [
    "", "<robot/>", "<robot name='r'><link/></robot>", "<robot name='r'><joint/></robot>",
    "<robot name='r'><link name='a'><inertial/></link></robot>",
    "<robot name='r'><link name='a'><visual><geometry><mesh filename=''/></geometry></visual>"
    "</link></robot>",
    "<robot name='r'><transmission/></robot>",
    "<robot name='r'><link name='a'/><transmission><type>SimpleTransmission</type></transmission>"
    "</robot>",
    "<robot name='r'><drake:linear_bushing_rpy/></robot>",
    "<robot name='r'><drake:ball_constraint/></robot>",
    "<robot name='r'><frame/></robot>",
    "<robot name='r'><drake:collision_filter_group/></robot>",
    "<robot name='r'><link name='a'/><joint name='j' type='revolute'><parent link='a'/>"
    "<child link='a'/><mimic/></joint></robot>",
    "<robot name='r'><link name='a'><collision><geometry><box size='1 1 1'/></geometry>"
    "<drake:proximity_properties><drake:mu_static value='x'/></drake:proximity_properties>"
    "</collision></link></robot>",
    "<robot name='r'><link name='a'><inertial><mass value='nan'/></inertial></link></robot>",
    "<robot name='r'><link name='a'><inertial><mass value='-1'/></inertial></link></robot>",
    "<<<", "<robot name='r'>&undefined;</robot>",
]


@pytest.mark.parametrize("text", GARBAGE)
def test_urdf_garbage_gives_only_parse_errors_or_warnings(write, text):
    path = write("garbage.urdf", text)
    try:
        parse_file(path)
    except ParseError as e:
        assert str(path) in str(e)
