"""Huge input: an XML file of more than MAX_ELEMENTS elements, or a model of
more than MAX_BODIES bodies, is a located error (code size-limit) that names
the limit, in every XML format and both modes, found before the readers
spend a microsecond per element; files below the limits load."""
from __future__ import annotations

import pytest

from mbparse.diagnostics import ParseError
from mbparse.formats.common.xml import MAX_ELEMENTS, parse_xml_bytes
from mbparse.loading import LoadOptions, load
from mbparse.plant import ModelError, MultibodyPlant
from mbparse.plant.plant import MAX_BODIES


def flood(n: int, tag: str = "foo") -> str:
    """``n`` elements in all: a root and ``n - 1`` empty children, one a line."""
    return "<robot name='r'>\n" + f"<{tag}/>\n" * (n - 1) + "</robot>\n"


def test_the_element_past_the_limit_is_found_and_located():
    root, problem, line = parse_xml_bytes(flood(MAX_ELEMENTS + 1).encode())
    assert root is None
    assert f"{MAX_ELEMENTS:,}" in problem and "<foo>" in problem
    assert line == MAX_ELEMENTS + 1  # the root on line 1, element k on line k


def test_a_file_of_exactly_the_limit_parses():
    root, problem, _ = parse_xml_bytes(flood(MAX_ELEMENTS).encode())
    assert problem == "" and len(root) == MAX_ELEMENTS - 1


def test_comments_and_cdata_full_of_tags_do_not_count_as_elements():
    many = "<!-- <a/> -->\n" * (MAX_ELEMENTS + 5) + "<![CDATA[<b/><b/>]]>"
    root, problem, _ = parse_xml_bytes(f"<robot name='r'>{many}<link name='l'/></robot>".encode())
    assert problem == "" and len(root) == 1


def test_a_file_only_the_lenient_reader_reads_is_counted_after_its_repairs():
    # An unknown entity stops a strict parser: the count is made on the tree.
    text = flood(MAX_ELEMENTS + 2).replace("</robot>", "<x a='&nbsp;'/></robot>")
    root, problem, line = parse_xml_bytes(text.encode())
    assert root is None and f"{MAX_ELEMENTS:,}" in problem and line is not None


@pytest.mark.parametrize("like", ["default", "drake"])
@pytest.mark.parametrize("name,text", [
    ("flood.urdf", flood(MAX_ELEMENTS + 1)),
    ("flood.sdf", flood(MAX_ELEMENTS + 1).replace("robot name='r'", "sdf version='1.9'")
     .replace("</robot>", "</sdf>")),
    ("flood.xml", flood(MAX_ELEMENTS + 1).replace("robot name='r'", "mujoco")
     .replace("</robot>", "</mujoco>")),
], ids=["urdf", "sdf", "mjcf"])
def test_a_file_past_the_element_limit_is_a_located_size_limit_error(write, name, text, like):
    path = write(name, text)
    with pytest.raises(ParseError) as info:
        load(str(path), LoadOptions(like=like))
    d = info.value.diagnostic
    assert d.code == "size-limit" and d.line == MAX_ELEMENTS + 1
    assert f"{MAX_ELEMENTS:,}" in d.message and d.file == str(path)


def test_a_plant_refuses_a_body_past_the_limit():
    plant = MultibodyPlant(0.0)
    for i in range(MAX_BODIES - 1):  # (the world is the first)
        plant.add_rigid_body(f"b{i}")
    with pytest.raises(ModelError) as info:
        plant.add_rigid_body("one_more")
    assert info.value.code == "size-limit" and f"{MAX_BODIES:,}" in str(info.value)


def test_a_urdf_of_more_bodies_than_the_limit_is_refused_at_the_first_link_past_it(write):
    text = flood(MAX_BODIES + 1, "link").replace("<link/>", "<link name='l'/>")
    text = "".join(line.replace("name='l'", f"name='l{i}'") for i, line in
                   enumerate(text.splitlines(keepends=True)))
    path = write("links.urdf", text)
    with pytest.raises(ParseError) as info:
        load(str(path))
    d = info.value.diagnostic
    # The world is body 0, so link MAX_BODIES - 1 (file line MAX_BODIES + 1) is one too many.
    assert d.code == "size-limit" and d.line == MAX_BODIES + 1
    assert f"l{MAX_BODIES}'" in d.message or f"'l{MAX_BODIES}" in d.message


def test_a_urdf_of_as_many_bodies_as_the_limit_loads(write):
    text = "<robot name='r'>\n" + "".join(f"<link name='l{i}'/>\n"
                                           for i in range(MAX_BODIES - 1)) + "</robot>\n"
    loaded = load(str(write("links.urdf", text)))
    assert loaded.plant.num_bodies() == MAX_BODIES


def test_the_size_limit_rule_names_the_limits_in_force():
    from mbparse.lint.rules import RULES
    from mbparse.formats.dmd.schema import MAX_YAML_SCALARS
    summary = RULES["size-limit"].summary
    assert f"{MAX_ELEMENTS:,} elements" in summary and f"{MAX_BODIES:,} bodies" in summary
    assert f"{MAX_YAML_SCALARS:,} values" in summary


def directives_with_a_list_of(n: int, tail: str = "") -> str:
    """A directives file whose translation (on line 6) holds ``n`` numbers."""
    return ("directives:\n- add_frame:\n    name: a\n    X_PF:\n      base_frame: world\n"
            "      translation: [" + ", ".join(["0"] * n) + "]\n" + tail)


def test_a_directives_file_past_the_scalar_limit_is_a_located_size_limit_error(write):
    from mbparse.formats.dmd.schema import MAX_YAML_SCALARS
    path = write("many.dmd.yaml", directives_with_a_list_of(MAX_YAML_SCALARS))
    with pytest.raises(ParseError) as info:
        load(str(path))
    d = info.value.diagnostic
    # add_frame, name, a, X_PF, base_frame, world and translation come first.
    assert d.code == "size-limit" and d.line == 6 and d.file == str(path)
    assert f"{MAX_YAML_SCALARS:,}" in d.message


def test_a_directives_file_at_the_scalar_limit_is_read_past_it():
    from mbparse.formats.dmd.schema import MAX_YAML_SCALARS, DmdSyntaxError, load_document
    # Seven scalars before the list: exactly the limit reaches the schema,
    # which refuses a translation of that many numbers for what it is.
    with pytest.raises(DmdSyntaxError) as info:
        load_document(directives_with_a_list_of(MAX_YAML_SCALARS - 8))
    assert info.value.code != "size-limit"


def test_a_character_yaml_refuses_is_reported_before_the_size_of_the_document(write):
    from mbparse.formats.dmd.schema import MAX_YAML_SCALARS
    path = write("many.dmd.yaml", directives_with_a_list_of(MAX_YAML_SCALARS, "# \x07\n"))
    with pytest.raises(ParseError) as info:
        load(str(path))
    d = info.value.diagnostic
    assert d.code == "dmd-syntax" and d.line == 7 and "special characters" in d.message
