"""``mbparse inspect``'s outline is made from a summary whose large sections
are read once as it prints (a large model's summary is never held whole); it
prints exactly what the whole summary prints."""
from __future__ import annotations

import io

import pytest

from conftest import CORPUS, parse_file
from mbparse.commands.inspect import print_outline
from mbparse.summary import Section, lazy_summary, summarize
from mbparse.summary import outline as outline_of

FILES = ["drake_models/franka_description/urdf/panda_arm_hand.urdf",  # actuators, meshes
         "drake/multibody/parsing/test/sdf_parser_test/frames_as_joint_parent_or_child.sdf",  # frames
         "drake/examples/kuka_iiwa_arm/models/objects/open_top_box.urdf"]


def outline(summary: dict) -> str:
    out = io.StringIO()
    print_outline({**summary, "file": "f"}, out)
    return out.getvalue()


def finalized_with_summary(name: str):
    """The corpus file parsed and finalized, and its whole summary."""
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"{name} is not in the corpus")
    parsed = parse_file(path)
    parsed.plant.finalize()
    return parsed, summarize(parsed.plant, parsed.parser, parsed.instances)


@pytest.mark.parametrize("name", FILES)
def test_streamed_outline_prints_what_the_whole_summary_prints(name):
    parsed, whole = finalized_with_summary(name)
    lazy = lazy_summary(parsed.plant, parsed.parser, parsed.instances)
    for key in ("bodies", "frames", "joints", "actuators", "geometries"):
        assert isinstance(lazy[key], Section) and len(lazy[key]) == len(whole[key])
    assert outline(lazy) == outline(whole)
    assert "bodies (" in outline(whole)


OUTLINED = FILES + ["drake/multibody/parsing/test/urdf_parser_test/joint_parsing_test.urdf",
                    "drake/multibody/parsing/test/sdf_parser_test/joint_parsing_test.sdf"]


@pytest.mark.parametrize("name", OUTLINED)
def test_outline_made_from_the_plant_prints_what_the_summary_prints(name):
    """``inspect`` makes its outline straight from the plant, without the
    summary's other fields; the text is the summary's, to the byte (joint
    limits that are infinite on one side, floating bodies, world geometry)."""
    parsed, whole = finalized_with_summary(name)
    direct = io.StringIO()
    print_outline(outline_of(parsed.plant, parsed.parser, parsed.instances, "f"), direct)
    assert direct.getvalue() == outline(whole)


def test_outline_prints_infinite_and_nan_numbers_as_the_summary_names_them():
    """A summary names a non-finite number "inf", "-inf" or "nan"; the
    outline prints those words, from a summary or from floats."""
    body = {"mass": "nan", "X_WB": {"p": [1.0, "inf", "-inf"]}, "floating": True}
    joint = {"type": "prismatic", "parent": "a::x", "child": "a::y", "axis": [1.0, 0.0, 0.0],
             "pos_lower": ["-inf"], "pos_upper": [2.0]}
    summary = {"file": "f", "model_instances": ["a"], "bodies": {"a::y": body},
               "joints": {"a::j": joint}, "actuators": {}, "geometries": [],
               "collision_candidates": 0, "frames": {}}
    text = outline(summary)
    assert "    a::y: mass nan kg at (1, inf, -inf) (floating)\n" in text
    assert "    a::j: prismatic a::x -> a::y axis (1, 0, 0) limits [-inf, 2]\n" in text
    joint["pos_upper"] = ["inf"]  # no limit on either side: none printed
    assert "    a::j: prismatic a::x -> a::y axis (1, 0, 0)\n" in outline(summary)
