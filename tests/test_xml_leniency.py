"""XML as tinyxml2 (the XML reader of Drake, libsdformat, urdfdom and
MuJoCo) accepts it, in both modes: any version in the declaration, blank
lines before it, several declarations, '&' that starts no entity, text that
is not UTF-8, elements after the root. A leniency that may hide a mistake
gets a located warning; what tinyxml2 refuses stays an error."""
from __future__ import annotations

import pytest

from conftest import new_parser
from mbparse import ParseError

ROBOT = '<robot name="r">\n<link name="a"/>\n</robot>\n'


def load(write, text: str | bytes, like_drake: bool = False, name: str = "m.urdf"):
    path = write(name, "")
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    parser = new_parser(like_drake=like_drake)
    instances = parser.add_models(path)
    warnings = parser.diagnostic_policy().warnings_seen
    return parser.plant(), instances, warnings, path


@pytest.mark.parametrize("like_drake", [False, True])
def test_xml_any_declared_version_is_read_with_a_warning(write, like_drake):
    plant, _, warnings, path = load(write, '<?xml version="0.0" ?>\n' + ROBOT, like_drake)
    assert plant.has_body_named("a")
    (w,) = warnings
    assert (w.file, w.line) == (str(path), 1) and "'0.0'" in w.message


def test_xml_declaration_without_a_version_is_read_with_a_warning(write):
    _, _, (w,), _ = load(write, '<?xml encoding="UTF-8"?>\n' + ROBOT)
    assert w.line == 1 and "no version" in w.message


@pytest.mark.parametrize("prefix", ["\n\n", "   ", "\ufeff\n \n"])
def test_xml_whitespace_before_the_declaration_is_accepted_silently(write, prefix):
    text = prefix + '<?xml version="1.0"?>\n' + ROBOT
    plant, _, warnings, _ = load(write, text)
    assert warnings == [] and plant.has_body_named("a")
    link_line = text.replace("\ufeff", "").splitlines().index('<link name="a"/>') + 1
    assert plant.get_body_by_name("a").name == "a" and link_line > 2


def test_xml_line_numbers_survive_the_blanked_declaration(write):
    text = '\n\n<?xml version="1.0"?>\n<robot name="r">\n<link name="a"/>\n<joint name="j"/>\n</robot>\n'
    with pytest.raises(ParseError) as info:
        load(write, text)
    assert ":6:" in str(info.value)


def test_xml_several_declarations_are_read_with_a_warning(write):
    _, _, (w,), _ = load(write, '<?xml version="1.0"?>\n<?xml version="1.0"?>\n' + ROBOT)
    assert w.line == 2 and "second XML declaration" in w.message


def test_xml_declared_encoding_and_standalone_are_not_checked(write):
    _, _, warnings, _ = load(write, '<?xml version="1.0" encoding="foo" standalone="maybe"?>\n'
                             + ROBOT)
    assert warnings == []


def test_xml_ampersand_that_starts_no_entity_is_kept_with_a_warning(write):
    plant, instances, warnings, _ = load(write, '<robot name="r&nbsp;x">\n<link name="a &amp; b"/>'
                                     '\n<link name="c & d"/>\n</robot>\n')
    assert plant.get_model_instance_name(instances[0]) == "r&nbsp;x"
    assert plant.has_body_named("a & b") and plant.has_body_named("c & d")
    assert [w.line for w in warnings] == [1, 3] and "&nbsp;" in warnings[0].message


def test_xml_text_that_is_not_utf8_is_read_as_latin1_with_a_warning(write):
    text = '<robot name="r">\n<link name="caf\xe9"/>\n</robot>\n'.encode("latin-1")
    plant, _, (w,), _ = load(write, text)
    assert plant.has_body_named("caf\xe9") and w.line == 2 and "UTF-8" in w.message


def test_xml_elements_after_the_root_are_ignored_with_a_warning(write):
    plant, _, (w,), _ = load(write, ROBOT + '<robot name="second"/>\n')
    assert plant.has_body_named("a") and w.line == 4 and "after its root" in w.message


@pytest.mark.parametrize("like_drake", [False, True])
def test_xml_ids_are_not_checked(write, like_drake):
    # tinyxml2 gives xml:id no meaning (Drake 1.51 loads this file); libxml2
    # refused a repeated one ("ID x already defined") before ids went uncollected.
    text = ('<robot name="r" xml:id="x">\n<link name="a" xml:id="x"/>\n'
            '<link name="b" xml:id="1 not a name"/>\n</robot>\n')
    plant, _, warnings, _ = load(write, text, like_drake)
    assert plant.has_body_named("a") and plant.has_body_named("b") and not warnings


@pytest.mark.parametrize("text, words", [
    ('<!-- c -->\n<?xml version="1.0"?>\n' + ROBOT, "declaration"),
    ('<robot name="r" name="s"/>', "redefined"),
    ('<robot name="r"><link name="a"></robot>', "mismatch"),
])
def test_xml_what_tinyxml2_refuses_stays_a_located_error(write, text, words):
    with pytest.raises(ParseError, match=words) as info:
        load(write, text)
    assert "m.urdf:" in str(info.value)


def test_xml_leniency_applies_to_sdformat_and_mjcf_too(write):
    sdf = ('\n<?xml version="0.0"?>\n<sdf version="1.9"><model name="m"><link name="a"/>'
           '</model></sdf>\n')
    plant, _, (w,), path = load(write, sdf, name="m.sdf")
    assert plant.has_body_named("a") and (w.file, w.line) == (str(path), 2)
    mjcf = '\n<?xml version="0.0"?>\n<mujoco model="m"><worldbody><body name="a">' \
           '<geom size="0.1"/></body></worldbody></mujoco>\n'
    plant, _, (w,), path = load(write, mjcf, name="m.xml")
    assert plant.has_body_named("a") and w.line == 2
