"""Did-you-mean: a misspelled name is told the known name it is one or two edits away from."""
from __future__ import annotations

import pytest

from conftest import new_parser
from mbparse import ParseError
from mbparse.formats.common.suggest import closest, did_you_mean


@pytest.mark.parametrize("typo, known, expected", [
    ("lowr", ["lower", "upper", "effort", "velocity"], "lower"),
    ("origni", ["origin", "mass", "inertia"], "origin"),
    ("xzy", ["xyz", "rpy"], "xyz"),
    ("rnage", ["range", "ref"], "range"),
    ("desnity", ["density", "mass"], "density"),
    ("bsae", ["base", "arm"], "base"),
])
def test_closest_finds_the_name_a_typo_stands_for(typo, known, expected):
    assert closest(typo, known) == expected


def test_unrelated_or_exact_names_get_no_suggestion():
    assert closest("bogus", ["pose", "link"]) is None
    assert closest("pose", ["pose"]) is None
    assert did_you_mean("bogus", ["pose"]) == ""


def test_element_suggestions_are_written_as_tags():
    assert did_you_mean("posse", ["pose"], element=True) == " Did you mean <pose>?"
    assert did_you_mean("lowr", ["lower"]) == " Did you mean 'lower'?"


def sdf_error(model: str) -> str:
    text = f'<sdf version="1.9"><model name="m">{model}</model></sdf>'
    with pytest.raises(ParseError) as raised:
        new_parser().add_models_from_string(text, "sdf")
    return str(raised.value)


def test_sdformat_unknown_element_suggests_the_schema_child():
    assert "Did you mean <pose>?" in sdf_error('<link name="a"><posse>0 0 0 0 0 0</posse></link>')


def test_sdformat_unknown_attribute_suggests_the_schema_attribute():
    assert "Did you mean 'name'?" in sdf_error('<link nmae="a"/>')


def test_urdf_joint_to_a_misspelled_link_suggests_the_link():
    text = ('<robot name="r"><link name="base"/><link name="arm"/>'
            '<joint name="j" type="fixed"><parent link="bsae"/><child link="arm"/></joint></robot>')
    with pytest.raises(ParseError) as raised:
        new_parser().add_models_from_string(text, "urdf")
    assert "Did you mean 'base'?" in str(raised.value)


def test_names_longer_or_shorter_by_the_edit_limit_are_still_suggested():
    assert closest("dampingxx", ["damping", "armature"]) == "damping"  # two insertions
    assert closest("dampi", ["damping"]) is None  # two deletions, over a short name's limit
    assert closest("dampin", ["damping"]) == "damping"
    assert closest("dampingxyz", ["damping"]) is None  # three: too far even for a long name
