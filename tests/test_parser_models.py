"""Parser: format by suffix, files / strings / URLs, model-name prefix,
auto-renaming, strict parsing and the collision filter groups it saw."""
from __future__ import annotations

import pytest

from conftest import DRAKE_NS, HEAVY, new_parser, parse_urdf, robot
from mbparse import MultibodyPlant, ParseError, Parser, SceneGraph

ARM = robot(f'<link name="base">{HEAVY}</link>', name="arm")


# ------------------------------------------------------------ format by suffix
@pytest.mark.parametrize("suffix", [".urdf", ".URDF", ".Urdf"])
def test_parser_chooses_urdf_by_suffix_case_insensitively(write, suffix):
    path = write(f"arm{suffix}", ARM)
    parser = new_parser()
    (index,) = parser.add_models(path)
    assert parser.plant().get_model_instance_name(index) == "arm"


def test_parser_unknown_suffix_is_an_error(write):
    path = write("arm.txt", ARM)
    with pytest.raises(ParseError, match="not a recognized type"):
        new_parser().add_models(path)


def test_parser_missing_file_is_an_error(tmp_path):
    with pytest.raises(ParseError, match="does not exist"):
        new_parser().add_models(tmp_path / "nowhere.urdf")


MISSING = [("nowhere{}", "no such path"), ("arm.urdf/inside{}", "a file named as a folder"),
           ("loop{}", "a loop of links"), ("x" * 300 + "{}", "a name too long"),
           ("nul\0{}", "a NUL in the name")]


@pytest.mark.parametrize("suffix", [".urdf", ".sdf", ".xml", ".obj", ".dmd.yaml", ".xacro"])
@pytest.mark.parametrize("name,what", MISSING, ids=[w for _, w in MISSING])
def test_a_path_that_names_no_file_is_said_to_be_missing_in_every_format(
        write, tmp_path, suffix, name, what):
    """Drake's words and code for a file that is not there, whichever way the
    format's reader looks for it (URDF, SDFormat and MJCF let the read say
    it, without a stat before)."""
    import os

    write("arm.urdf", ARM)
    os.symlink(f"loop{suffix}", tmp_path / f"loop{suffix}")
    path = str(tmp_path / name.format(suffix))
    with pytest.raises(ParseError) as info:
        new_parser().add_models(path)
    d = info.value.diagnostic
    assert d.code == "file-missing" and d.file == path
    assert d.message == f"The file '{path}' does not exist or is not a file."


@pytest.mark.parametrize("suffix", [".urdf", ".sdf", ".xml"])
def test_a_model_path_that_names_a_folder_or_fifo_says_what_it_names(tmp_path, suffix):
    import os

    folder, fifo = tmp_path / f"folder{suffix}", tmp_path / f"pipe{suffix}"
    folder.mkdir()
    os.mkfifo(fifo)
    for path, kind in ((folder, "a folder"), (fifo, "a FIFO")):
        with pytest.raises(ParseError) as info:
            new_parser().add_models(path)
        d = info.value.diagnostic
        assert d.code == "file-not-regular" and kind in d.message and d.file == str(path)


def test_parser_add_models_accepts_str_and_path(write):
    path = write("arm.urdf", ARM)
    parser = new_parser()
    parser.set_auto_renaming(True)
    assert len(parser.add_models(str(path))) == 1
    assert len(parser.add_models(path)) == 1


def test_parser_add_models_from_string_with_urdf_type():
    parsed = parse_urdf(ARM)
    assert parsed.plant.get_model_instance_name(parsed.instance) == "arm"
    assert parsed.plant.has_body_named("base", parsed.instance)


def test_parser_add_models_from_string_unknown_type_is_an_error():
    with pytest.raises(ParseError, match="not a recognized type"):
        new_parser().add_models_from_string(ARM, "txt")


def test_parser_returns_the_new_instance_indices(write):
    parser = new_parser()
    first = parser.add_models_from_string(ARM, "urdf")
    second = parser.add_models_from_string(robot("<link name='x'/>", name="other"), "urdf")
    assert first != second
    assert parser.plant().get_model_instance_name(second[0]) == "other"


def test_parser_without_scene_graph_ignores_geometry():
    text = robot('<link name="a"><visual><geometry><box size="1 1 1"/></geometry></visual>'
                 '</link>')
    parsed = parse_urdf(text, scene_graph=False)
    assert parsed.plant.scene_graph is None
    assert parsed.plant.has_body_named("a", parsed.instance)


# ------------------------------------------------------------ URLs
def test_parser_add_models_from_file_url(write):
    path = write("arm.urdf", ARM)
    parser = new_parser()
    (index,) = parser.add_models_from_url(f"file://{path}")
    assert parser.plant().get_model_instance_name(index) == "arm"


@pytest.mark.parametrize("scheme", ["package", "model"])
def test_parser_add_models_from_package_url(write, tmp_path, scheme):
    write("pkg/package.xml", "<package><name>my_pkg</name></package>")
    write("pkg/urdf/arm.urdf", ARM)
    parser = new_parser()
    parser.package_map().add("my_pkg", str(tmp_path / "pkg"))
    (index,) = parser.add_models_from_url(f"{scheme}://my_pkg/urdf/arm.urdf")
    assert parser.plant().get_model_instance_name(index) == "arm"


def test_parser_url_with_unknown_package_is_an_error():
    with pytest.raises(ParseError, match="no_such_pkg"):
        new_parser().add_models_from_url("package://no_such_pkg/arm.urdf")


@pytest.mark.parametrize("url", ["http://example.com/arm.urdf", "https://example.com/a.urdf",
                                 "ftp://example.com/arm.urdf"])
def test_parser_url_with_unsupported_scheme_is_an_error(url):
    with pytest.raises(ParseError, match="scheme"):
        new_parser().add_models_from_url(url)


def test_parser_url_to_missing_file_is_an_error(tmp_path):
    with pytest.raises(ParseError, match="does not exist"):
        new_parser().add_models_from_url(f"file://{tmp_path}/absent.urdf")


# ------------------------------------------------------------ prefix and renaming
def test_parser_model_name_prefix_scopes_the_model(write):
    path = write("arm.urdf", ARM)
    plant = MultibodyPlant(0.0)
    left, right = Parser(plant, "left"), Parser(plant, "right")
    (a,) = left.add_models(path)
    (b,) = right.add_models(path)
    assert plant.get_model_instance_name(a) == "left::arm"
    assert plant.get_model_instance_name(b) == "right::arm"


def test_parser_prefix_with_scene_graph_and_prefix_arguments():
    plant = MultibodyPlant(0.0)
    parser = Parser(plant, SceneGraph(), "left")
    (a,) = parser.add_models_from_string(ARM, "urdf")
    assert plant.get_model_instance_name(a) == "left::arm"
    assert parser.scene_graph() is not None


def test_parser_prefix_scopes_geometry_names():
    text = robot('<link name="a"><visual name="v"><geometry><box size="1 1 1"/></geometry>'
                 '</visual></link>', name="arm")
    parsed = parse_urdf(text, prefix="left")
    assert [g.name for g in parsed.geometries()] == ["left::arm::v"]


def test_parser_empty_prefix_adds_no_scope():
    plant = MultibodyPlant(0.0)
    (a,) = Parser(plant, "").add_models_from_string(ARM, "urdf")
    assert plant.get_model_instance_name(a) == "arm"


def test_parser_auto_renaming_is_off_by_default():
    assert new_parser().get_auto_renaming() is False


def test_parser_duplicate_model_name_is_an_error_without_auto_renaming():
    parser = new_parser()
    parser.add_models_from_string(ARM, "urdf")
    with pytest.raises(ParseError, match="arm"):
        parser.add_models_from_string(ARM, "urdf")


def test_parser_auto_renaming_adds_compact_subscripts():
    parser = new_parser()
    parser.set_auto_renaming(True)
    assert parser.get_auto_renaming() is True
    rock, stone = robot("<link name='b'/>", "rock"), robot("<link name='b'/>", "stone")
    names = []
    for text in (rock, rock, rock, stone, stone, stone):
        (index,) = parser.add_models_from_string(text, "urdf")
        names.append(parser.plant().get_model_instance_name(index))
    assert names == ["rock", "rock_1", "rock_2", "stone", "stone_1", "stone_2"]


def test_parser_auto_renaming_applies_after_the_prefix():
    plant = MultibodyPlant(0.0)
    parser = Parser(plant, "left")
    parser.set_auto_renaming(True)
    names = [plant.get_model_instance_name(parser.add_models_from_string(ARM, "urdf")[0])
             for _ in range(2)]
    assert names == ["left::arm", "left::arm_1"]


def test_parser_auto_renaming_can_be_switched_off_again():
    parser = new_parser()
    parser.set_auto_renaming(True)
    parser.add_models_from_string(ARM, "urdf")
    parser.add_models_from_string(ARM, "urdf")
    parser.set_auto_renaming(False)
    with pytest.raises(ParseError):
        parser.add_models_from_string(ARM, "urdf")


# ------------------------------------------------------------ strict parsing
WARNS = robot('<link name="a" type="odd"/>')


def test_parser_warning_is_only_a_warning_by_default():
    parsed = parse_urdf(WARNS)
    assert any("type" in w for w in parsed.warnings)


def test_parser_warning_is_emitted_as_a_python_warning():
    parser = Parser(MultibodyPlant(0.0))
    from mbparse import ParseWarning
    with pytest.warns(ParseWarning, match="type"):
        parser.add_models_from_string(WARNS, "urdf")


def test_parser_strict_parsing_turns_a_warning_into_a_parse_error():
    with pytest.raises(ParseError, match="type"):
        parse_urdf(WARNS, strict=True)


def test_parser_strict_parsing_applies_to_later_parses_only():
    parser = new_parser()
    parser.add_models_from_string(robot('<link name="a" type="odd"/>', "one"), "urdf")
    parser.set_strict_parsing()
    with pytest.raises(ParseError):
        parser.add_models_from_string(robot('<link name="a" type="odd"/>', "two"), "urdf")


# ------------------------------------------------------------ collision filter groups
GROUPS = f"""<?xml version="1.0"?>
<robot name="arm" {DRAKE_NS}>
  <link name="a"/><link name="b"/><link name="c"/>
  <drake:collision_filter_group name="g1">
    <drake:member link="a"/><drake:member link="b"/>
    <drake:ignored_collision_filter_group name="g2"/>
  </drake:collision_filter_group>
  <drake:collision_filter_group name="g2">
    <drake:member link="c"/>
    <drake:ignored_collision_filter_group name="g2"/>
  </drake:collision_filter_group>
</robot>
"""


def test_parser_collision_filter_groups_have_scoped_names():
    parsed = parse_urdf(GROUPS)
    groups = parsed.parser.get_collision_filter_groups()
    assert groups.groups() == {"arm::g1": {"arm::a", "arm::b"}, "arm::g2": {"arm::c"}}
    assert groups.exclusion_pairs() == {("arm::g1", "arm::g2"), ("arm::g2", "arm::g2")}


def test_parser_collision_filter_groups_accumulate_over_parses():
    parser = new_parser()
    parser.set_auto_renaming(True)
    parser.add_models_from_string(GROUPS, "urdf")
    parser.add_models_from_string(GROUPS, "urdf")
    names = set(parser.get_collision_filter_groups().groups())
    assert names == {"arm::g1", "arm::g2", "arm_1::g1", "arm_1::g2"}


def test_parser_collision_filter_groups_use_current_instance_names():
    parser = new_parser()
    (index,) = parser.add_models_from_string(GROUPS, "urdf")
    parser.plant().rename_model_instance(index, "renamed")
    groups = parser.get_collision_filter_groups()
    assert groups.groups() == {"renamed::g1": {"renamed::a", "renamed::b"},
                               "renamed::g2": {"renamed::c"}}
    assert ("renamed::g1", "renamed::g2") in groups.exclusion_pairs()
