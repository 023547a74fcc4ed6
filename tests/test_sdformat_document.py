"""SDFormat documents: versions and their upgrade, the element/attribute
checks libsdformat makes under Drake's strict settings, <include> (package://,
model:// with model.config, relative paths, merge, overrides, cycles) and the
root-level rules."""
from __future__ import annotations

import os

import pytest

from conftest import line_of, new_parser, parse_file, parse_sdf, sdf
from mbparse import ParseError

NS = 'xmlns:drake="http://drake.mit.edu"'








LINK = '<link name="L"/>'


def test_sdf_model_root_makes_one_instance():
    parsed = parse_sdf(sdf(f'<model name="m">{LINK}</model>'))
    parser, instances = parsed.parser, parsed.instances
    assert [parser.plant().get_model_instance_name(i) for i in instances] == ["m"]


def test_sdf_world_models_become_separate_instances():
    parsed = parse_sdf(sdf(f'<world name="w"><model name="a">{LINK}</model>'
                                  f'<model name="b">{LINK}</model></world>'))
    parser, instances = parsed.parser, parsed.instances
    assert [parser.plant().get_model_instance_name(i) for i in instances] == ["a", "b"]


def test_sdf_several_root_models_are_rejected_as_drake_does():
    # Drake 1.51 (libsdformat 15) refuses a second root <model>.
    with pytest.raises(ParseError):
        parse_sdf(sdf(f'<model name="a">{LINK}</model><model name="b">{LINK}</model>'))


def test_sdf_missing_version_is_an_error():
    with pytest.raises(ParseError, match="version"):
        parse_sdf('<sdf><model name="m"><link name="L"/></model></sdf>')


def test_sdf_unknown_version_is_an_error():
    with pytest.raises(ParseError, match="100"):
        parse_sdf(sdf(f'<model name="m">{LINK}</model>', version="100"))


def test_sdf_unknown_element_is_drakes_located_error_and_a_default_mode_warning():
    text = sdf(f'<model name="m">{LINK}\n<bogus/></model>')
    with pytest.raises(ParseError) as e:
        parse_sdf(text, like_drake=True)
    assert e.value.diagnostic.line == line_of(text, "<bogus")
    parsed = parse_sdf(text)   # libsdformat's own default: warn and ignore
    (w,) = [w for w in parsed.parser.diagnostic_policy().warnings_seen
            if w.code == "sdf-unknown-element"]
    assert w.line == line_of(text, "<bogus") and "ignored (Drake refuses it)" in w.message
    assert parsed.plant.has_body_named("L")


def test_sdf_unknown_attribute_is_drakes_error_and_a_default_mode_warning():
    text = sdf(f'<model name="m" extra="1">{LINK}</model>')
    with pytest.raises(ParseError, match="extra"):
        parse_sdf(text, like_drake=True)
    parser = parse_sdf(text).parser
    assert any(w.code == "sdf-unknown-attribute" and "extra" in w.message
               for w in parser.diagnostic_policy().warnings_seen)


def test_sdf_namespaced_elements_pass_the_schema_check_but_drake_warns():
    parser = parse_sdf(sdf(f'<model name="m" drake:x="1">{LINK}<foo:note xmlns:foo="urn:x"/>'
                          '</model>')).parser
    assert parser.plant().has_body_named("L")
    assert any("foo:note" in d.message for d in parser.diagnostic_policy().warnings_seen)


def test_sdf_unknown_drake_element_in_a_model_is_an_error():
    with pytest.raises(ParseError, match="drake:note"):
        parse_sdf(sdf(f'<model name="m">{LINK}<drake:note/></model>'))


def test_sdf_bad_number_is_an_error():
    with pytest.raises(ParseError, match="pose"):
        parse_sdf(sdf('<model name="m"><pose>bad 0 0 0 0 0</pose><link name="L"/></model>'))


def test_sdf_color_out_of_range_is_an_error():
    with pytest.raises(ParseError):
        parse_sdf(sdf('<model name="m"><link name="L"><visual name="v"><geometry><box/></geometry>'
                  '<material><ambient>1.5 0 0 1</ambient></material></visual></link></model>'))


def test_sdf_version_1_4_axis_is_expressed_in_the_model_frame():
    text = sdf('<model name="m"><pose>0 0 0 0 0 1.5707963267948966</pose>'
               '<link name="A"/><link name="B"/>'
               '<joint name="j" type="revolute"><parent>A</parent><child>B</child>'
               '<axis><xyz>1 0 0</xyz></axis></joint></model>', version="1.4")
    parser = parse_sdf(text).parser
    joint = parser.plant().get_joint_by_name("j")
    assert joint.axis == pytest.approx((1.0, 0.0, 0.0))
    # The same axis in 1.9 is in the joint frame, which is also the model
    # frame's orientation here: only the conversion flag differs.
    text = text.replace('version="1.4"', 'version="1.9"').replace(
        "<xyz>", '<xyz expressed_in="__model__">')
    parser = parse_sdf(text).parser
    assert parser.plant().get_joint_by_name("j").axis == pytest.approx((1.0, 0.0, 0.0))


def test_sdf_version_1_6_pose_frame_becomes_relative_to():
    text = sdf('<model name="m"><link name="A"><pose>1 0 0 0 0 0</pose></link>'
               '<link name="B"><pose frame="A">0 2 0 0 0 0</pose></link></model>',
               version="1.6")
    parser = parse_sdf(text).parser
    plant = parser.plant()
    assert plant.get_body_by_name("B").default_free_body_pose.p == (1.0, 2.0, 0.0)


# ------------------------------------------------------------ includes
def write_model(folder, name: str, body: str = LINK) -> str:
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(sdf(f'<model name="{name.split(".")[0]}">{body}</model>'))
    return path


def test_sdf_include_by_package_uri_nests_a_model_instance(tmp_path):
    pkg = tmp_path / "pkg"
    write_model(pkg, "part.sdf")
    top = tmp_path / "top.sdf"
    top.write_text(sdf('<model name="top"><link name="base"/>'
                       '<include><uri>package://pkg/part.sdf</uri><name>p1</name>'
                       '<pose>1 0 0 0 0 0</pose></include></model>'))
    parser = new_parser()
    parser.package_map().add("pkg", str(pkg))
    instances = parser.add_models(str(top))
    plant = parser.plant()
    assert [plant.get_model_instance_name(i) for i in instances] == ["top", "top::p1"]
    body = plant.get_body_by_name("L", plant.get_model_instance_by_name("top::p1"))
    assert body.default_free_body_pose.p == (1.0, 0.0, 0.0)


def test_sdf_include_by_model_uri_reads_model_config(tmp_path):
    folder = tmp_path / "models" / "thing"
    write_model(folder, "thing.sdf")
    (folder / "model.config").write_text(
        '<?xml version="1.0"?><model><name>thing</name><sdf version="1.9">thing.sdf</sdf>'
        '</model>')
    top = tmp_path / "top.sdf"
    top.write_text(sdf('<world name="w"><include><uri>model://thing/</uri></include></world>'))
    parser = new_parser()
    parser.package_map().add("thing", str(folder))
    instances = parser.add_models(str(top))
    assert [parser.plant().get_model_instance_name(i) for i in instances] == ["thing"]


def test_sdf_include_relative_path_is_found_from_the_current_folder(tmp_path, monkeypatch):
    write_model(tmp_path, "part.sdf")
    top = tmp_path / "top.sdf"
    top.write_text(sdf('<world name="w"><include><uri>part.sdf</uri></include></world>'))
    monkeypatch.chdir(tmp_path)
    parsed = parse_file(top)
    parser, instances = parsed.parser, parsed.instances
    assert [parser.plant().get_model_instance_name(i) for i in instances] == ["part"]


def test_sdf_missing_included_file_is_a_located_error(tmp_path):
    text = sdf('<world name="w">\n<include><uri>package://nowhere/x.sdf</uri></include></world>')
    top = tmp_path / "top.sdf"
    top.write_text(text)
    with pytest.raises(ParseError) as e:
        parse_file(top)
    assert e.value.diagnostic.line == line_of(text, "<uri>")


def test_sdf_include_cycle_is_an_error_not_a_hang(tmp_path):
    a = tmp_path / "a.sdf"
    b = tmp_path / "b.sdf"
    a.write_text(sdf('<model name="a"><link name="L"/><include>'
                     f'<uri>file://{b}</uri></include></model>'))
    b.write_text(sdf('<model name="b"><link name="L"/><include>'
                     f'<uri>file://{a}</uri></include></model>'))
    with pytest.raises(ParseError, match="cycle"):
        parse_file(a)


def test_sdf_include_merge_puts_links_in_the_parent_with_a_proxy_frame(tmp_path):
    write_model(tmp_path, "part.sdf", '<link name="P"/>')
    top = tmp_path / "top.sdf"
    top.write_text(sdf('<model name="top"><link name="base"/>'
                       f'<include merge="true"><uri>file://{tmp_path}/part.sdf</uri>'
                       '<pose>0 0 2 0 0 0</pose></include></model>'))
    parsed = parse_file(top)
    parser, instances = parsed.parser, parsed.instances
    plant = parser.plant()
    assert len(instances) == 1
    body = plant.get_body_by_name("P", instances[0])
    assert body.default_free_body_pose.p == (0.0, 0.0, 2.0)
    assert plant.has_frame_named("_merged__part__model__", instances[0])


def test_sdf_include_of_urdf_uses_the_urdf_reader(tmp_path):
    (tmp_path / "arm.urdf").write_text(
        '<robot name="arm"><link name="a"/><link name="b"/><joint name="j" type="fixed">'
        '<parent link="a"/><child link="b"/></joint></robot>')
    top = tmp_path / "top.sdf"
    top.write_text(sdf('<model name="top"><link name="base"/>'
                       f'<include><uri>file://{tmp_path}/arm.urdf</uri>'
                       '<pose>0 1 0 0 0 0</pose></include>'
                       '<joint name="w" type="fixed"><parent>base</parent>'
                       '<child>arm::a</child></joint></model>'))
    parsed = parse_file(top)
    parser = parsed.parser
    plant = parser.plant()
    arm = plant.get_model_instance_by_name("top::arm")
    assert plant.get_body_by_name("a", arm).default_free_body_pose.p == (0.0, 1.0, 0.0)
    assert plant.has_frame_named("__model__", arm)


def test_sdf_include_static_override_welds_the_model(tmp_path):
    write_model(tmp_path, "part.sdf")
    top = tmp_path / "top.sdf"
    top.write_text(sdf(f'<world name="w"><include><uri>file://{tmp_path}/part.sdf</uri>'
                       '<static>true</static></include></world>'))
    parser = parse_file(top).parser
    plant = parser.plant()
    plant.finalize()
    assert not plant.get_body_by_name("L").is_floating_base_body


# ------------------------------------------------------------ names
def test_sdf_duplicate_sibling_names_are_an_error():
    with pytest.raises(ParseError, match="'x'"):
        parse_sdf(sdf('<model name="m"><link name="x"/><frame name="x"/></model>'))


def test_sdf_link_named_world_is_reserved():
    with pytest.raises(ParseError, match="reserved"):
        parse_sdf(sdf('<model name="m"><link name="world"/></model>'))


def test_sdf_scope_delimiter_in_names_is_an_error_from_1_8():
    with pytest.raises(ParseError, match="::"):
        parse_sdf(sdf('<model name="m"><link name="a::b"/></model>', version="1.8"))


def test_sdf_scope_delimiter_written_as_character_references_is_an_error():
    # (the loader skips the look for '::' in a text holding neither '::' nor '&')
    with pytest.raises(ParseError, match="::"):
        parse_sdf(sdf('<model name="m"><link name="a&#58;&#x3a;b"/></model>', version="1.8"))


def test_sdf_scope_delimiter_in_a_utf16_file_is_an_error(tmp_path):
    # (in UTF-16 the bytes hold no b'::')
    path = tmp_path / "m.sdf"
    path.write_bytes(sdf('<model name="m"><link name="a::b"/></model>', version="1.8")
                     .replace('version="1.0"', 'version="1.0" encoding="UTF-16"')
                     .encode("utf-16"))
    with pytest.raises(ParseError, match="scope delimiter"):
        parse_file(path)


def test_sdf_scope_delimiter_in_an_included_file_is_an_error(tmp_path):
    # (the including file holds no '::': the included one's text is what tells)
    (tmp_path / "inner.sdf").write_text(sdf('<model name="i"><link name="a::b"/></model>'))
    top = tmp_path / "top.sdf"
    top.write_text(sdf('<model name="m"><link name="L"/>'
                       f'<include><uri>{tmp_path / "inner.sdf"}</uri></include></model>'))
    with pytest.raises(ParseError, match="scope delimiter"):
        parse_file(top)


def test_sdf_model_without_link_is_an_error():
    with pytest.raises(ParseError, match="at least one link"):
        parse_sdf(sdf('<model name="m"><frame name="F"/></model>'))
