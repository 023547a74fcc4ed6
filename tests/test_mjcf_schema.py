"""MJCF elements and attributes are checked against MuJoCo's own schema
(formats/mjcf/schema.json, generated from MuJoCo's schema table by
tools/make_mjcf_schema.py): what MuJoCo refuses as a schema violation is a
warning naming the name probably meant; the loader stays lenient and reads on."""
from __future__ import annotations

import importlib.util
import os
import sys

import pytest

from conftest import REPO, Parsed, new_parser
from mbparse.formats.mjcf.schema import schema

sys.path.insert(0, str(REPO / "tools"))
import make_mjcf_schema  # noqa: E402

BODY = '<body name="b"><joint name="j" type="hinge"/><geom type="sphere" size="0.1"/></body>'


def mjcf(world: str = BODY, head: str = "") -> str:
    return f'<mujoco model="m">\n{head}\n<worldbody>\n{world}\n</worldbody>\n</mujoco>\n'


def parse(text: str, **options) -> Parsed:
    parser = new_parser(**options)
    instances = parser.add_models_from_string(text, "xml")
    return Parsed(parser.plant(), parser, instances)


def found(text: str, **options):
    """The schema findings of parsing ``text``."""
    seen = parse(text, **options).parser.diagnostic_policy().warnings_seen
    return [d for d in seen if d.code in ("mjcf-unknown-attribute", "mjcf-unknown-element")]


# ------------------------------------------------------------ did you mean
@pytest.mark.parametrize("text, typo, meant", [
    (mjcf('<body><joint name="j" type="hinge" rnage="0 1"/><geom size="0.1"/></body>'),
     "'rnage'", "'range'"),
    (mjcf('<body><joint name="j"/><geom size="0.1" desnity="10"/></body>'),
     "'desnity'", "'density'"),
    (mjcf('<body><joint name="j"/><goem size="0.1"/><geom size="0.1"/></body>'),
     "<goem>", "<geom>"),
    (mjcf(head='<option timestpe="0.01"/>'), "'timestpe'", "'timestep'"),
    (mjcf(head='<compiler angel="radian"/>'), "'angel'", "'angle'"),
    (mjcf(head='<default><joint dampign="1"/></default>'), "'dampign'", "'damping'"),
    (mjcf(head='<default><default class="c"><goem size="1"/></default></default>'),
     "<goem>", "<geom>"),
    (mjcf(BODY, '<actuator><motr joint="j"/></actuator>'), "<motr>", "<motor>"),
    (mjcf('<frame pso="0 0 1">' + BODY + '</frame>'), "'pso'", "'pos'"),
    (mjcf('<replicate count="2" sepp="_">' + BODY + '</replicate>'), "'sepp'", "'sep'"),
    (mjcf('<bdy name="x"/>'), "<bdy>", "<body>"),
    (mjcf(head='<worldbdy/>'), "<worldbdy>", "<worldbody>"),
])
def test_a_misspelling_is_one_warning_that_names_what_was_meant(text, typo, meant):
    (d,) = found(text)
    assert typo in d.message and f"Did you mean {meant}?" in d.message
    assert d.severity == "warning" and "MuJoCo" in d.message and d.line is not None


def test_a_name_far_from_any_known_one_is_reported_without_a_suggestion():
    (d,) = found(mjcf('<body><joint name="j" whatever="1"/><geom size="0.1"/></body>'))
    assert "'whatever'" in d.message and "Did you mean" not in d.message


def test_the_warning_names_the_mujoco_version_of_the_schema():
    (d,) = found(mjcf(head='<option timestpe="0.01"/>'))
    assert f"MuJoCo {schema().mujoco_version}" in d.message


def test_the_misspelled_range_is_left_out_and_the_joint_loads_unlimited():
    p = parse(mjcf('<body><joint name="j" type="hinge" rnage="0 1"/><geom size="0.1"/></body>'))
    assert p.plant.get_joint_by_name("j").pos_lower[0] == float("-inf")


def test_an_unknown_element_is_not_read_and_not_reported_twice():
    seen = parse(mjcf('<body><joint name="j"/><geom size="0.1"/><gome size="5"/></body>')) \
        .parser.diagnostic_policy().warnings_seen
    assert [d.code for d in seen] == ["mjcf-unknown-element"]


def test_drake_mode_reports_misspellings_as_warnings_too():
    (d,) = found(mjcf('<body><joint name="j" rnage="0 1"/><geom size="0.1"/></body>'),
                 like_drake=True)
    assert d.severity == "warning"


def test_an_included_file_is_checked_and_named(write):
    write("part.xml", '<mujoco>\n<body name="inc"><joint/><geom size="1" desnity="3"/></body>'
                      '</mujoco>')
    main = write("main.xml", mjcf('<include file="part.xml"/>'))
    parser = new_parser()
    parser.add_models(str(main))
    (d,) = [d for d in parser.diagnostic_policy().warnings_seen
            if d.code == "mjcf-unknown-attribute"]
    assert d.file.endswith("part.xml") and d.line == 2 and "'density'" in d.message


def test_namespaced_attributes_and_elements_are_not_mjcf_to_judge():
    text = ('<mujoco model="m" xmlns:xacro="http://ros.org/wiki/xacro">\n'
            '<worldbody><body><joint/><geom size="1"/></body></worldbody></mujoco>')
    assert found(text) == []


def test_a_model_using_many_valid_elements_has_no_schema_findings():
    head = ('<compiler angle="radian" autolimits="true"/>'
            '<option timestep="0.002" integrator="implicitfast"><flag contact="enable"/></option>'
            '<size memory="1M"/><visual><global offwidth="640"/></visual>'
            '<default><joint damping="1"/><default class="c"><geom rgba="1 0 0 1"/>'
            '<motor ctrlrange="-1 1"/></default></default>'
            '<asset><texture name="t" type="2d" builtin="checker" width="8" height="8"/>'
            '<material name="m" texture="t"/></asset>')
    world = ('<light pos="0 0 3"/><geom type="plane" size="1 1 0.1" material="m"/>'
             '<frame pos="0 0 1"><body name="b" childclass="c"><freejoint/>'
             '<geom size="0.1"/><site name="s"/><camera name="cam"/></body></frame>'
             '<replicate count="2" offset="1 0 0"><body name="r"><joint type="hinge"/>'
             '<geom size="0.1"/></body></replicate>')
    tail = ('<contact><exclude body1="b" body2="world"/></contact>'
            '<sensor><framepos objtype="site" objname="s"/></sensor>'
            '<keyframe><key time="0"/></keyframe>')
    text = mjcf(world, head).replace("</mujoco>", tail + "</mujoco>")
    assert found(text) == []


# ------------------------------------------------------------ MuJoCo agrees
AGREEMENT = [
    (mjcf('<body><joint name="j" rnage="0 1"/><geom size="0.1"/></body>'), False),
    (mjcf(head='<option collision="all"/>'), False),
    (mjcf(head='<default group="1"/>'), False),
    (mjcf('<body><goem size="0.1"/></body>'), False),
    (mjcf('<body><joint name="j" range="0 1" limited="true"/><geom size="0.1"/></body>'), True),
    (mjcf(head='<default class="main"><joint damping="1"/></default>'), True),
]


@pytest.mark.skipif(importlib.util.find_spec("mujoco") is None, reason="mujoco not installed")
@pytest.mark.parametrize("text, valid", AGREEMENT)
def test_mujoco_refuses_exactly_what_the_schema_check_reports(text, valid):
    import mujoco
    try:
        mujoco.MjModel.from_xml_string(text)
        loaded = True
    except ValueError as e:
        assert "Schema violation" in str(e)
        loaded = False
    assert loaded == valid and (found(text) == []) == valid


# ------------------------------------------------------------ the generator
NEW_TABLE = '''
// the table, as in mjcf_table.inc
std::vector<const char*> MJCF[] = {
{"mujoco", "!", "model"},
{"<"},
    {"option", "*", "timestep", "gravity"},
    {"<"},
        {"flag", "?", "contact"},
    {">"},
    {"body", "R", "name", "pos"},  /* recursive */
    {"<"},
        {"geom", "*", "name", "size"},
    {">"},
{">"},
};
const int nMJCF = sizeof(MJCF) / sizeof(MJCF[0]);
'''
OLD_TABLE = '''
static const char* MJCF[nMJCF][mjXATTRNUM] = {
{"mujoco", "!", "1", "model"},
{"<"},
    {"option", "*", "2", "timestep", "gravity"},
    {"<"},
        {"flag", "?", "1", "contact"},
    {">"},
    {"body", "R", "2", "name", "pos"},
    {"<"},
        {"geom", "*", "2", "name", "size"},
    {">"},
{">"},
};
'''


def test_the_generator_reads_both_layouts_of_the_table_alike():
    new = make_mjcf_schema.build(make_mjcf_schema.table_rows(NEW_TABLE))
    old = make_mjcf_schema.build(make_mjcf_schema.table_rows(OLD_TABLE))
    assert new == old
    assert [(e["path"], e["multiplicity"], e["attributes"], e["children"]) for e in new] == [
        ("mujoco", "one", ["model"], [1, 3]),
        ("mujoco/option", "any", ["timestep", "gravity"], [2]),
        ("mujoco/option/flag", "optional", ["contact"], []),
        ("mujoco/body", "recursive", ["name", "pos"], [4]),
        ("mujoco/body/geom", "any", ["name", "size"], []),
    ]


def test_the_generator_refuses_a_file_without_the_table():
    with pytest.raises(ValueError):
        make_mjcf_schema.table_rows("int x = 1;")


def test_the_committed_schema_reads_into_records():
    s = schema()
    assert s.root.name == "mujoco" and s.body.recursive
    assert "range" in s.body.children["joint"].attributes
    assert "density" in s.body.children["geom"].attributes
    assert "class" in s.root.children["default"].attributes


def _mujoco_source() -> str | None:
    """MuJoCo's schema table in the checkout MUJOCO_SOURCE names, if any."""
    root = os.environ.get("MUJOCO_SOURCE")
    if not root:
        return None
    for rel in ("src/xml/generated/mjcf_table.inc", "src/xml/xml_native_reader.cc"):
        path = os.path.join(root, rel)
        if os.path.isfile(path):
            return path
    return None


@pytest.mark.skipif(_mujoco_source() is None,
                    reason="set MUJOCO_SOURCE to a MuJoCo checkout to regenerate the schema")
def test_the_committed_schema_is_what_the_generator_makes_of_mujocos_table():
    text = make_mjcf_schema.generate(_mujoco_source())
    committed = REPO / "src" / "mbparse" / "formats" / "mjcf" / "schema.json"
    if f'"mujoco_version": "{schema().mujoco_version}"' not in text:
        pytest.skip("MUJOCO_SOURCE is another MuJoCo version than the committed schema's")
    assert text == committed.read_text(encoding="utf-8")
