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


def test_suggestions_skip_names_too_long_or_too_different_in_length():
    long = "b" * 5000
    assert closest(long, [long[:-1] + "c"]) is None          # no 5000 x 5000 table
    assert closest("geometry", ["box", "sphere", "cylindre"]) is None


def test_element_suggestions_are_written_as_tags():
    assert did_you_mean("posse", ["pose"], element=True) == " Did you mean <pose>?"
    assert did_you_mean("lowr", ["lower"]) == " Did you mean 'lower'?"


def sdf_error(model: str) -> str:
    """The message about ``model`` in both modes: Drake's error, and the
    default mode's warning (the same words)."""
    text = f'<sdf version="1.9"><model name="m">{model}</model></sdf>'
    with pytest.raises(ParseError) as raised:
        new_parser(like_drake=True).add_models_from_string(text, "sdf")
    parser = new_parser()
    parser.add_models_from_string(text, "sdf")
    (warning,) = [w for w in parser.diagnostic_policy().warnings_seen
                  if w.code.startswith("sdf-unknown")]
    assert str(raised.value).split("error: ")[-1] in warning.message
    return str(raised.value)


def test_sdformat_unknown_element_suggests_the_schema_child():
    assert "Did you mean <pose>?" in sdf_error('<link name="a"><posse>0 0 0 0 0 0</posse></link>')


def test_sdformat_unknown_attribute_suggests_the_schema_attribute():
    assert "Did you mean 'name'?" in sdf_error('<link name="a" nmae="b"/>')


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


def test_a_mistake_repeated_many_times_is_measured_once(monkeypatch):
    # A fuzzed URDF with 80,000 copies of one unknown element spent a minute
    # computing the same suggestion again and again.
    from mbparse.formats.common import suggest
    calls = []
    real = suggest.edit_distance
    monkeypatch.setattr(suggest, "edit_distance", lambda a, b: calls.append(1) or real(a, b))
    suggest._FOUND.clear()
    inner = "<visaul/>" * 2000
    text = f'<robot name="r"><link name="a">{inner}</link></robot>'
    parser = new_parser()
    parser.add_models_from_string(text, "urdf")
    warned = [w for w in parser.diagnostic_policy().warnings_seen if "visaul" in w.message]
    assert len(warned) == 2000 and "Did you mean <visual>?" in warned[0].message
    assert len(calls) < 50


def test_a_suggestion_looks_among_at_most_a_thousand_names():
    from mbparse.formats.common.suggest import MAX_CANDIDATES
    names = [f"link{i}" for i in range(MAX_CANDIDATES)]
    assert closest("lnk7", names) == "link7"
    assert closest("lnk7", names + ["other"]) is None  # past the limit: no search
    assert closest("lnk7", (n for n in names[:10])) == "link7"  # any iterable


@pytest.mark.parametrize("links, suggested", [(10, True), (1200, False)])
def test_a_urdf_link_typo_is_suggested_unless_the_model_has_more_than_a_thousand_links(
        write, links, suggested):
    from mbparse.loading import load
    text = ("<robot name='r'>" + "".join(f"<link name='link{i}'/>" for i in range(links))
            + "<joint name='j' type='fixed'><parent link='link0'/><child link='lnik1'/>"
            "</joint></robot>")
    with pytest.raises(ParseError) as info:
        load(str(write("m.urdf", text)))
    assert ("Did you mean 'link1'?" in str(info.value)) is suggested


def test_a_parse_makes_a_bounded_number_of_new_searches(monkeypatch):
    # 240,000 different unknown elements took a minute of suggestions; past
    # the budget an unknown name is still reported, without a suggestion.
    from mbparse.formats.common import suggest
    from mbparse import workspace
    monkeypatch.setattr(workspace, "MAX_SUGGESTION_SEARCHES", 5)
    suggest._FOUND.clear()
    inner = "".join(f"<visaul{i}/>" for i in range(10)) + "<visaul0/>"
    parser = new_parser()
    parser.add_models_from_string(f'<robot name="r"><link name="a">{inner}</link></robot>',
                                  "urdf")
    warned = [w.message for w in parser.diagnostic_policy().warnings_seen if "visaul" in w.message]
    assert len(warned) == 11
    assert [("Did you mean" in m) for m in warned] == [True] * 5 + [False] * 5 + [True]
    # the next parse has its own budget
    parser = new_parser()
    parser.add_models_from_string('<robot name="r"><link name="a"><vsiual3/></link></robot>',
                                  "urdf")
    assert "Did you mean <visual>?" in parser.diagnostic_policy().warnings_seen[-1].message


def test_the_quick_bound_keeps_every_suggestion_the_full_measure_makes():
    from mbparse.formats.common.suggest import _closest, edit_distance
    known = ("damping", "friction", "armature", "stiffness", "springref", "origin", "inertial",
             "visual", "collision", "gyroscope", "limit")
    for name in ("dampnig", "frction", "armatrue", "stifness", "orgin", "inertail", "visaul",
                 "colision", "limt", "limits", "xyz", "visuals", "frictionx", "dmaping"):
        best = min(known, key=lambda k: (edit_distance(name, k), known.index(k)))
        limit = 1 if len(name) < 6 else 2
        expected = best if 0 < edit_distance(name, best) <= limit else None
        assert _closest(name, tuple(sorted(known))) == expected, name
