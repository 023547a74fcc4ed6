"""What a newcomer tries first (issue 29, item 13): ``mbparse.ModelError`` as
documented; ``tree --format png|svg|dot`` beside the -o suffix; a misspelled
body, frame or joint name gets a did-you-mean, in the plant's lookups and
in model directives."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import mbparse
from mbparse import ModelError, MultibodyPlant, ParseError, Parser
from mbparse.cli import main

ARM = Path(__file__).parents[1] / "examples" / "two_link_arm.urdf"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None,
                               reason="Graphviz's dot is not installed (apt-get install graphviz)")


def test_model_error_is_importable_from_the_package():
    assert "ModelError" in mbparse.__all__
    from mbparse.plant import ModelError as inner
    assert ModelError is inner


@pytest.fixture
def arm():
    plant = MultibodyPlant(0.0)
    Parser(plant).add_models(ARM)
    plant.finalize()
    return plant


@pytest.mark.parametrize("lookup, meant", [
    (lambda p: p.get_body_by_name("uper_arm"), "upper_arm"),
    (lambda p: p.get_body_by_name("forarm", p.get_model_instance_by_name("two_link_arm")),
     "forearm"),
    (lambda p: p.get_frame_by_name("uper_arm"), "upper_arm"),
    (lambda p: p.get_joint_by_name("elbw"), "elbow"),
])
def test_a_misspelled_name_gets_a_did_you_mean(arm, lookup, meant):
    with pytest.raises(ModelError, match=f"did you mean '{meant}'\\?"):
        lookup(arm)


def test_a_name_far_from_every_name_gets_none(arm):
    with pytest.raises(ModelError) as e:
        arm.get_body_by_name("gripper")
    assert "did you mean" not in str(e.value)


def test_a_misspelled_frame_in_directives_gets_a_did_you_mean(tmp_path):
    path = tmp_path / "d.dmd.yaml"
    path.write_text(f"directives:\n- add_model:\n    name: arm\n    file: file://{ARM}\n"
                    "- add_weld:\n    parent: world\n    child: arm::bse\n")
    with pytest.raises(ParseError, match="no frame named 'bse'. Did you mean 'base'\\?"):
        Parser(MultibodyPlant(0.0)).add_models(path)


def run(capsysbinary, *argv):
    status = main(["tree", str(ARM), *map(str, argv)])
    out, err = capsysbinary.readouterr()
    return status, out, err.decode()


def test_tree_format_dot_without_output(capsysbinary):
    status, out, _ = run(capsysbinary, "--format", "dot")
    assert status == 0 and out.startswith(b"digraph kinematic_tree {")


@needs_dot
@pytest.mark.parametrize("fmt, magic", [("png", b"\x89PNG"), ("svg", b"<?xml")])
def test_tree_format_draws_to_standard_output(capsysbinary, fmt, magic):
    status, out, _ = run(capsysbinary, "--format", fmt)
    assert status == 0 and out.startswith(magic)


@needs_dot
def test_tree_format_names_the_format_of_an_output_without_suffix(capsysbinary, tmp_path):
    target = tmp_path / "tree.out"
    status, _, _ = run(capsysbinary, "--format", "png", "-o", target)
    assert status == 0 and target.read_bytes().startswith(b"\x89PNG")


def test_tree_format_and_a_suffix_that_disagree_is_an_error(capsysbinary, tmp_path):
    status, _, err = run(capsysbinary, "--format", "png", "-o", tmp_path / "tree.svg")
    assert status == 2 and "--format png" in err and ".svg" in err
    assert not (tmp_path / "tree.svg").exists()
