"""Huge input: an XML file of more than MAX_ELEMENTS elements, or a model of
more than MAX_BODIES bodies, is a located error (code size-limit) that names
the limit, in every XML format and both modes, found before the readers
spend a microsecond per element; files below the limits load."""
from __future__ import annotations

import pytest

from mbparse.diagnostics import ParseError
from mbparse.formats.common.xml import parse_xml_bytes
from mbparse.limits import DEFAULT_LIMITS, SizeLimits
from mbparse.loading import LoadOptions, load
from mbparse.plant import ModelError, MultibodyPlant
from mbparse.plant.plant import MAX_BODIES
from mbparse.workspace import MAX_ELEMENTS, MAX_YAML_VALUES


def refusal(path, like: str = "default", limits: SizeLimits = DEFAULT_LIMITS):
    """The diagnostic of the ParseError that loading ``path`` raises."""
    with pytest.raises(ParseError) as info:
        load(str(path), LoadOptions(like=like, size_limits=limits))
    return info.value.diagnostic


def flood(n: int, tag: str = "foo") -> str:
    """``n`` elements in all: a root and ``n - 1`` empty children, one a line."""
    return "<robot name='r'>\n" + f"<{tag}/>\n" * (n - 1) + "</robot>\n"


def test_the_element_past_the_limit_is_found_and_located():
    root, problem, line = parse_xml_bytes(flood(MAX_ELEMENTS + 1).encode())
    assert root is None
    assert f"{MAX_ELEMENTS:,}" in problem and "<foo>" in problem
    assert line == MAX_ELEMENTS + 1  # the root on line 1, element k on line k


def test_one_file_past_the_limit_is_refused_as_one_file_even_past_the_parse_budget(write):
    path = write("flood.urdf", flood(3 * MAX_ELEMENTS))
    d = refusal(path)
    assert d.line == MAX_ELEMENTS + 1 and "the file has more than" in d.message


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
    d = refusal(path, like)
    assert d.code == "size-limit" and d.line == MAX_ELEMENTS + 1
    assert f"{MAX_ELEMENTS:,}" in d.message and d.file == str(path)


def test_a_plant_refuses_a_body_past_the_limit():
    plant = MultibodyPlant(0.0)
    for i in range(MAX_BODIES):  # (the world aside)
        plant.add_rigid_body(f"b{i}")
    with pytest.raises(ModelError) as info:
        plant.add_rigid_body("one_more")
    assert info.value.code == "size-limit" and f"{MAX_BODIES:,}" in str(info.value)


def test_a_urdf_of_more_bodies_than_the_limit_is_refused_at_the_first_link_past_it(write):
    # The root on line 1, link l<k> on line k + 1.
    text = flood(MAX_BODIES + 2, "link").replace("<link/>", "<link name='l'/>")
    text = "".join(line.replace("name='l'", f"name='l{i}'") for i, line in
                   enumerate(text.splitlines(keepends=True)))
    d = refusal(write("links.urdf", text))
    assert d.code == "size-limit" and d.line == MAX_BODIES + 2
    assert f"'l{MAX_BODIES + 1}'" in d.message


def test_a_urdf_of_as_many_bodies_as_the_limit_loads(write):
    text = "<robot name='r'>\n" + "".join(f"<link name='l{i}'/>\n"
                                           for i in range(MAX_BODIES)) + "</robot>\n"
    loaded = load(str(write("links.urdf", text)))
    assert loaded.plant.num_bodies() == MAX_BODIES + 1  # and the world


def test_the_size_limit_rule_names_the_limits_in_force():
    from mbparse.lint.rules import RULES
    summary = RULES["size-limit"].summary
    assert f"{MAX_ELEMENTS:,} elements" in summary and f"{MAX_BODIES:,} bodies" in summary
    assert f"{MAX_YAML_VALUES:,} values" in summary


def directives_with_a_list_of(n: int, tail: str = "") -> str:
    """A directives file whose translation (on line 6) holds ``n`` numbers."""
    return ("directives:\n- add_frame:\n    name: a\n    X_PF:\n      base_frame: world\n"
            "      translation: [" + ", ".join(["0"] * n) + "]\n" + tail)


def test_a_directives_file_past_the_scalar_limit_is_a_located_size_limit_error(write):
    path = write("many.dmd.yaml", directives_with_a_list_of(MAX_YAML_VALUES))
    d = refusal(path)
    # add_frame, name, a, X_PF, base_frame, world and translation come first.
    assert d.code == "size-limit" and d.line == 6 and d.file == str(path)
    assert f"{MAX_YAML_VALUES:,}" in d.message


def test_a_directives_file_at_the_scalar_limit_is_read_past_it():
    from mbparse.formats.dmd.schema import DmdSyntaxError, load_document
    # Seven scalars before the list: exactly the limit reaches the schema,
    # which refuses a translation of that many numbers for what it is.
    with pytest.raises(DmdSyntaxError) as info:
        load_document(directives_with_a_list_of(MAX_YAML_VALUES - 8))
    assert info.value.code != "size-limit"


def test_a_character_yaml_refuses_is_reported_before_the_size_of_the_document(write):
    path = write("many.dmd.yaml", directives_with_a_list_of(MAX_YAML_VALUES, "# \x07\n"))
    d = refusal(path)
    assert d.code == "dmd-syntax" and d.line == 7 and "special characters" in d.message


# ---------------------------------------------------------------- one parse
# Files read through includes count towards one budget per parse: a file that
# includes a large file many times would otherwise multiply. The limit is
# made small here so that small files reach it.
@pytest.fixture
def small_parse_budget():
    """Limits by which two files' worth is 60 XML elements or 40 YAML values."""
    return SizeLimits(max_elements=30, max_yaml_values=20)


def model_sdf(links: int) -> str:
    return ('<sdf version="1.9"><model name="m">'
            + "".join(f'<link name="l{i}"/>' for i in range(links)) + "</model></sdf>")


def test_an_sdf_file_read_again_and_again_through_includes_passes_the_parse_budget(
        write, small_parse_budget):
    model = write("m.sdf", model_sdf(20))  # 22 elements
    world = write("w.sdf", '<sdf version="1.9"><world name="w">' + "".join(
        f"<include><uri>file://{model}</uri><name>m{i}</name></include>" for i in range(3))
        + "</world></sdf>")
    d = refusal(world, limits=small_parse_budget)
    assert d.code == "size-limit" and "2 files at mbparse's size limit (30 XML elements" in d.message
    assert d.file.endswith("m.sdf")


def test_an_sdf_file_included_within_the_parse_budget_loads_and_the_next_parse_starts_afresh(
        write, small_parse_budget):
    model = write("m.sdf", model_sdf(20))
    world = write("w.sdf", '<sdf version="1.9"><world name="w">' + "".join(
        f"<include><uri>file://{model}</uri><name>m{i}</name></include>" for i in range(2))
        + "</world></sdf>")
    for _ in range(3):
        loaded = load(str(world), LoadOptions(size_limits=small_parse_budget))
        assert loaded.plant.num_bodies() == 41


def test_an_mjcf_file_spliced_in_again_and_again_passes_the_parse_budget(
        write, small_parse_budget):
    write("parts.xml", "<mujoco>" + '<geom size="0.1"/>' * 20 + "</mujoco>")
    main = write("main.xml", '<mujoco model="m"><worldbody>\n<body name="a">'
                 '<include file="parts.xml"/></body>\n<body name="b"><include file="parts.xml"/>'
                 '</body>\n<body name="c">\n<include file="parts.xml"/></body></worldbody></mujoco>')
    d = refusal(main, limits=small_parse_budget)
    assert d.code == "size-limit" and d.line == 5 and d.file == str(main)
    assert "2 files at mbparse's size limit (30 XML elements" in d.message


def test_directives_adding_one_file_many_times_pass_the_parse_budget(write, small_parse_budget):
    write("m.sdf", model_sdf(20))
    directives = write("d.dmd.yaml", "directives:\n" + "".join(
        f"- add_model:\n    name: m{i}\n    file: file://{{here}}/m.sdf\n" for i in range(3)))
    directives.write_text(directives.read_text().replace("{here}", str(directives.parent)))
    assert refusal(directives, limits=small_parse_budget).code == "size-limit"


def test_directives_reading_one_directives_file_many_times_pass_the_parse_budget(
        write, small_parse_budget):
    leaf = write("leaf.dmd.yaml", "directives:\n" + "".join(
        f"- add_frame:\n    name: f{i}\n    X_PF:\n      base_frame: world\n" for i in range(4)))
    main = write("main.dmd.yaml", "directives:\n" + "".join(
        f"- add_model_instance:\n    name: n{i}\n- add_directives:\n    file: file://{leaf}\n"
        f"    model_namespace: n{i}\n" for i in range(4)))
    # (each file within the limit of one file: 33 and 25 values)
    d = refusal(main, limits=SizeLimits(max_elements=30, max_yaml_values=35))
    assert d.code == "size-limit" and "2 files at mbparse's size limit (35 YAML values" in d.message
    assert d.file.endswith("leaf.dmd.yaml")


@pytest.mark.parametrize("name, text, own", [
    ("r.urdf", "<robot name='r'><link name='l'><visual><origin {}/></visual></link></robot>", 0),
    ("m.sdf", "<sdf version='1.9'><model name='m'><link name='l' {}/></model></sdf>", 1),
    ("m.xml", "<mujoco model='m'><worldbody><body><geom size='1' {}/></body></worldbody>"
              "</mujoco>", 1)])
def test_an_element_of_more_attributes_than_the_limit_is_a_located_size_limit_error(
        write, name, text, own):
    from mbparse.workspace import MAX_ATTRIBUTES
    many = " ".join(f"a{i}='1'" for i in range(MAX_ATTRIBUTES + 1))
    d = refusal(write(name, "\n" + text.format(many)))
    assert (d.code, d.line) == ("size-limit", 2)
    assert f"more than {MAX_ATTRIBUTES:,} attributes on one element" in d.message
    assert f"which has {MAX_ATTRIBUTES + 1 + own:,}" in d.message


def test_an_element_of_as_many_attributes_as_the_limit_loads_with_each_reported(write):
    from mbparse.workspace import MAX_ATTRIBUTES
    many = " ".join(f"a{i}='1'" for i in range(MAX_ATTRIBUTES - 1))
    loaded = load(str(write("r.urdf", f"<robot name='r'><link name='l'><visual><origin "
                                      f"{many} xyz='1 2 3'/><geometry><box size='1 1 1'/>"
                                      "</geometry></visual></link></robot>")))
    assert len(loaded.warnings) == MAX_ATTRIBUTES - 1
