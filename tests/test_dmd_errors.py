"""Drake Model Directives: bad input is a located error that names the
directive and the file; YAML is loaded safely."""
from __future__ import annotations

import pytest

from conftest import line_of
from mbparse import ParseError
from test_dmd_directives import pkg  # noqa: F401  (fixture)


def error_of(pkg, text: str, name: str = "scene.dmd.yaml", **options) -> ParseError:
    with pytest.raises(ParseError) as info:
        pkg.parse(text, name, **options)
    return info.value


def test_dmd_weld_to_an_unknown_frame_names_the_directive_file_and_line(pkg):
    text = """directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_weld: {parent: world, child: arm::nowhere}
"""
    e = error_of(pkg, text)
    assert e.diagnostic.file == str(pkg.root / "scene.dmd.yaml")
    assert e.diagnostic.line == line_of(text, "- add_weld")
    assert "add_weld" in str(e) and "nowhere" in str(e)


def test_dmd_weld_to_an_unknown_model_instance_is_an_error(pkg):
    e = error_of(pkg, "directives:\n- add_weld: {parent: world, child: ghost::base}\n")
    assert "ghost" in str(e) and "no model instance" in str(e)


def test_dmd_unscoped_frame_that_does_not_exist_is_an_error(pkg):
    e = error_of(pkg, "directives:\n- add_weld: {parent: world, child: nothing}\n")
    assert "nothing" in str(e) and e.diagnostic.line == 2


def test_dmd_missing_model_file_is_an_error(pkg):
    e = error_of(pkg, 'directives:\n- add_model: {name: a, file: "package://m/gone.urdf"}\n')
    assert "does not exist" in str(e) and "add_model" in str(e)
    assert e.diagnostic.line == 2


def test_dmd_unknown_package_is_an_error(pkg):
    e = error_of(pkg, 'directives:\n- add_model: {name: a, file: "package://nope/a.urdf"}\n')
    assert "nope" in str(e)


def test_dmd_relative_file_is_an_error_as_in_drake(pkg):
    e = error_of(pkg, "directives:\n- add_model: {name: a, file: block.urdf}\n")
    assert "relative" in str(e)


def test_dmd_missing_nested_directives_file_is_an_error(pkg):
    e = error_of(pkg, 'directives:\n- add_directives: {file: "package://m/gone.dmd.yaml"}\n')
    assert "add_directives" in str(e) and "does not exist" in str(e)


def test_dmd_error_in_a_nested_file_names_that_file(pkg):
    pkg.write("sub.dmd.yaml", "directives:\n- add_weld: {parent: world, child: x::y}\n")
    e = error_of(pkg, 'directives:\n- add_directives: {file: "package://m/sub.dmd.yaml"}\n')
    assert e.diagnostic.file == str(pkg.root / "sub.dmd.yaml")
    assert e.diagnostic.line == 2


def test_dmd_add_directives_namespace_must_be_a_model_instance(pkg):
    pkg.write("sub.dmd.yaml", "directives: []\n")
    e = error_of(pkg, 'directives:\n- add_directives: {file: "package://m/sub.dmd.yaml", '
                      'model_namespace: nowhere}\n')
    assert "nowhere" in str(e) and "add_model_instance" in str(e)


def test_dmd_add_directives_cycle_is_an_error(pkg):
    e = error_of(pkg, 'directives:\n- add_directives: {file: "package://m/loop.dmd.yaml"}\n',
                 name="loop.dmd.yaml")
    assert "cycle" in str(e)


def test_dmd_bad_yaml_is_an_error_with_its_line(pkg):
    text = "directives:\n- add_model: {name: a, file: [unclosed\n"
    e = error_of(pkg, text)
    assert "not valid YAML" in str(e) and e.diagnostic.line is not None


@pytest.mark.parametrize("tag", ["!!python/object/apply:os.system ['true']",
                                 "!!python/name:os.system", "!custom {a: 1}"])
def test_dmd_unsafe_or_unknown_yaml_tags_are_refused(pkg, tag):
    e = error_of(pkg, f"directives:\n- add_model_instance:\n    name: {tag}\n")
    assert "tag" in str(e) and e.diagnostic.line == 3


def test_dmd_python_tag_on_the_document_is_refused(pkg):
    e = error_of(pkg, "!!python/object:builtins.dict\ndirectives: []\n")
    assert "tag" in str(e)


def test_dmd_random_distributions_are_refused(pkg):
    e = error_of(pkg, """directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_frame:
    name: f
    X_PF: {base_frame: arm::base, rotation: !Rpy {deg: !UniformVector {min: [0,0,0], max: [1,1,1]}}}
""")
    assert "distribution" in str(e)


def test_dmd_untagged_rotation_with_values_is_an_error(pkg):
    e = error_of(pkg, """directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_frame:
    name: f
    X_PF: {base_frame: arm::base, rotation: {deg: [1, 2, 3]}}
""")
    assert "!Rpy" in str(e)


def test_dmd_unknown_key_is_an_error(pkg):
    e = error_of(pkg, "directives:\n- add_model_instance: {name: a, colour: red}\n")
    assert "colour" in str(e)


def test_dmd_unknown_directive_is_an_error(pkg):
    e = error_of(pkg, "directives:\n- add_robot: {name: a}\n")
    assert "add_robot" in str(e)


def test_dmd_directive_with_two_kinds_is_an_error(pkg):
    e = error_of(pkg, "directives:\n- add_model_instance: {name: a}\n"
                      "  add_frame: {name: f, X_PF: {base_frame: world}}\n")
    assert "exactly one" in str(e)


def test_dmd_document_without_directives_key_is_an_error(pkg):
    e = error_of(pkg, "models: []\n")
    assert "models" in str(e)


def test_dmd_empty_document_is_an_error(pkg):
    e = error_of(pkg, "")
    assert "empty" in str(e)


@pytest.mark.parametrize("directive, key", [
    ("add_model: {file: 'package://m/arm.urdf'}", "name"),
    ("add_model: {name: a}", "file"),
    ("add_model_instance: {}", "name"),
    ("add_weld: {parent: world}", "child"),
    ("add_directives: {}", "file"),
])
def test_dmd_required_fields_must_be_given(pkg, directive, key):
    e = error_of(pkg, f"directives:\n- {directive}\n")
    assert f"'{key}'" in str(e)


def test_dmd_checks_the_whole_file_before_running_it(pkg):
    # The first directive is fine, the second is invalid: nothing is added.
    parser = pkg.parser()
    with pytest.raises(ParseError):
        parser.add_models(pkg.write("s.dmd.yaml", "directives:\n- add_model_instance: "
                                                  "{name: a}\n- add_model_instance: {}\n"))
    assert not parser.plant().has_model_instance_named("a")


def test_dmd_add_frame_needs_a_base_frame(pkg):
    e = error_of(pkg, "directives:\n- add_frame: {name: f, X_PF: {translation: [0, 0, 1]}}\n")
    assert "base_frame" in str(e)


def test_dmd_weld_offset_cannot_name_a_base_frame(pkg):
    e = error_of(pkg, "directives:\n- add_weld: {parent: world, child: a::b, "
                      "X_PC: {base_frame: world}}\n")
    assert "base_frame" in str(e)


def test_dmd_collision_filter_group_needs_members(pkg):
    e = error_of(pkg, "directives:\n- add_collision_filter_group: {name: g}\n")
    assert "members" in str(e)


def test_dmd_collision_filter_group_with_an_unknown_body_is_an_error(pkg):
    text = """directives:
- add_model: {name: a, file: "package://m/block.urdf"}
- add_collision_filter_group: {name: g, members: [a::nobody]}
"""
    e = error_of(pkg, text)
    assert "a::nobody" in str(e) and e.diagnostic.line == 3


def test_dmd_collision_filter_group_ignoring_an_unknown_group_is_an_error(pkg):
    e = error_of(pkg, """directives:
- add_model: {name: a, file: "package://m/block.urdf"}
- add_collision_filter_group: {name: g, members: [a::body], ignored_collision_filter_groups: [h]}
""")
    assert "'h'" in str(e)


def test_dmd_default_position_of_an_unknown_joint_is_an_error(pkg):
    e = error_of(pkg, """directives:
- add_model:
    name: arm
    file: package://m/arm.urdf
    default_joint_positions:
      wrist: [0.1]
""")
    assert "wrist" in str(e) and e.diagnostic.line == 6


def test_dmd_default_positions_of_the_wrong_size_are_an_error(pkg):
    e = error_of(pkg, """directives:
- add_model:
    name: arm
    file: package://m/arm.urdf
    default_joint_positions:
      elbow: [0.1, 0.2]
""")
    assert "elbow" in str(e)


def test_dmd_translation_needs_three_numbers(pkg):
    e = error_of(pkg, "directives:\n- add_frame: {name: f, X_PF: {base_frame: world, "
                      "translation: [1, 2]}}\n")
    assert "3 numbers" in str(e)


def test_dmd_taken_model_name_is_an_error_without_auto_renaming(pkg):
    e = error_of(pkg, "directives:\n- add_model_instance: {name: a}\n"
                      "- add_model_instance: {name: a}\n")
    assert e.diagnostic.line == 3


def test_dmd_weld_child_must_belong_to_a_model_added_by_add_model(pkg):
    # As in Drake, a weld's child must be in an instance some add_model of
    # this parse made; an add_model_instance instance does not qualify.
    text = """directives:
- add_model: {name: arm, file: "package://m/arm.urdf"}
- add_model_instance: {name: holder}
- add_frame:
    name: holder::grip
    X_PF: {base_frame: arm::tip}
- add_model: {name: block, file: "package://m/block.urdf"}
- add_weld: {parent: block::body, child: holder::grip}
"""
    e = error_of(pkg, text)
    assert "holder" in str(e) and e.diagnostic.line == line_of(text, "- add_weld")


def test_dmd_weld_child_from_a_nested_file_counts_as_added(pkg):
    pkg.write("sub.dmd.yaml",
              'directives:\n- add_model: {name: a, file: "package://m/block.urdf"}\n')
    parser, _ = pkg.parse('directives:\n- add_directives: {file: "package://m/sub.dmd.yaml"}\n'
                          '- add_weld: {parent: world, child: a::body}\n')
    assert parser.plant().has_joint_named("world_welds_to_body")


def test_scalars_counted_on_composed_nodes_are_the_scanners_count():
    # A directives file is counted against max_yaml_values on its composed
    # nodes (scanning it for tokens cost a third of reading it): aliases
    # count once, an empty value not at all, as the scanner counts them.
    import yaml

    from mbparse.formats.dmd import schema
    text = ("a: &x [1, '', \"\", b]\nb: *x\nc:\nd: |\n  text\ne: {f: , g: ~}\n"
            "? k\n: [[], {}]\nh: !Rpy {deg: [1, 2, 3]}\n")
    tokens = sum(isinstance(t, yaml.ScalarToken) for t in yaml.scan(text, Loader=yaml.SafeLoader))
    assert schema._scalars(yaml.compose(text, Loader=yaml.SafeLoader)) == tokens == 19
    if schema._C_LOADER is not None:
        root = yaml.compose(text, Loader=schema._QuickLoader)
        assert schema._scalars(root) == tokens
        assert root.value[-1][1].tag == "!Rpy"  # (explicit tags are kept)
    # Without an alias ('*'), the count that does not remember nodes seen.
    plain = text.replace("*x", "[1, '', \"\", b]")
    tokens = sum(isinstance(t, yaml.ScalarToken) for t in yaml.scan(plain, Loader=yaml.SafeLoader))
    assert schema._scalars(yaml.compose(plain, Loader=yaml.SafeLoader), aliased=False) == tokens
    assert tokens == 23
    assert schema._scalars(yaml.compose("a", Loader=yaml.SafeLoader), aliased=False) == 1


def test_a_directives_text_read_again_is_the_document_read_before_charged_as_reading_it():
    # A text read cleanly is kept (scenes add the same files load after
    # load); each later read charges its scalars to the parse as reading it
    # does, so the parse's budget refuses the same read, at the same line.
    from mbparse.formats.dmd import schema
    from mbparse.limits import SizeLimits, applied_limits
    from mbparse.workspace import element_budget
    text = "directives:\n- add_model_instance: {name: a}\n- add_model_instance: {name: b}\n"

    def three_reads(forget: bool) -> tuple[list, schema.DmdSyntaxError]:
        documents = []
        with applied_limits(SizeLimits(max_yaml_values=10)), element_budget(), \
                pytest.raises(schema.DmdSyntaxError) as info:
            for _ in range(3):  # 7 values each; the parse reads at most 2 x 10
                if forget:
                    schema._DOCUMENTS.clear()
                documents.append(schema.load_document(text))
        return documents, info.value

    read, refused = three_reads(forget=True)
    kept, refused_kept = three_reads(forget=False)
    assert len(read) == len(kept) == 2 and kept[0] is kept[1]  # (the second from the cache)
    assert [(d.kind, d.fields, d.line) for d in kept[0].directives] == \
        [(d.kind, d.fields, d.line) for d in read[0].directives]
    assert (str(refused_kept), refused_kept.line, refused_kept.code) == \
        (str(refused), refused.line, refused.code) and refused.code == "size-limit"


def test_a_directives_file_changed_since_it_was_read_is_read_again(write):
    from mbparse.loading import load
    path = write("scene.dmd.yaml", "directives:\n- add_model_instance: {name: first}\n")
    assert load(str(path)).plant.has_model_instance_named("first")
    path.write_text("directives:\n- add_model_instance: {name: other}\n")  # (the same size)
    plant = load(str(path)).plant
    assert plant.has_model_instance_named("other") and not plant.has_model_instance_named("first")
