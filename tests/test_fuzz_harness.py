"""The fuzz harness itself: a runaway input is a hang (counted in CPU time),
inputs are a pure function of (format, seed, index), a campaign leaves no
scratch folder behind, and a campaign without seed files stops at once."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.fuzz import run  # noqa: E402
from tests.fuzz.run import CORPUS, Outcome, campaign, make_input, run_with_limit  # noqa: E402

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(),
                                  reason="the shared corpus is not beside the project")


def test_an_input_that_computes_past_the_limit_is_a_hang():
    def spin():
        while True:
            pass
    assert run_with_limit(spin, 0.2).category == "hang"


def test_an_input_within_the_limit_keeps_its_outcome():
    assert run_with_limit(lambda: Outcome("ok"), 5.0).category == "ok"


@needs_corpus
@pytest.mark.parametrize("fmt", run.FORMATS)
def test_an_input_is_the_same_bytes_every_time_it_is_made(fmt):
    seeds = run.seed_files(fmt)
    first = [make_input(fmt, 7, i, seeds) for i in range(20)]
    run._SEED_BYTES.clear()
    again = [make_input(fmt, 7, i, seeds) for i in range(20)]
    assert first == again


@needs_corpus
def test_a_campaign_removes_its_scratch_folder(monkeypatch, tmp_path):
    monkeypatch.setattr(run, "SCRATCH", str(tmp_path))
    report = campaign("urdf", seed=3, inputs=5, jobs=0)
    assert report.inputs == 5
    assert list(tmp_path.iterdir()) == []


def test_a_campaign_without_seed_files_stops_instead_of_waiting(monkeypatch, tmp_path):
    monkeypatch.setattr(run, "CORPUS", tmp_path)
    monkeypatch.setattr(run.seed_files, "__defaults__", (tmp_path,))
    with pytest.raises(SystemExit):
        campaign("urdf", seed=1, inputs=5, jobs=1)


@pytest.mark.parametrize("xml", ['<r><model name="m" a="1">t<link/></model></r>',
                                 '<r xmlns:d="u"><d:g d:k="v" name="n"/>tail</r>',
                                 '<r><body pos="0 0 0"/></r>'])
def test_nesting_in_place_makes_what_nesting_by_copies_makes(xml):
    import random
    from lxml import etree
    from tests.fuzz import mutate
    fast, slow = etree.fromstring(xml), etree.fromstring(xml)
    mutate._nest(random.Random(1), fast[0])
    depth = len(list(fast.iter())) - len(list(slow.iter()))
    mutate._nest_by_copies(slow[0], depth)
    assert etree.tostring(fast) == etree.tostring(slow)


@needs_corpus
def test_an_input_the_fuzzer_cannot_make_is_skipped_and_the_campaign_goes_on(monkeypatch):
    real = run.make_input

    def flaky(fmt, seed, index, seeds):
        if index == 2:
            raise MemoryError()
        return real(fmt, seed, index, seeds)
    monkeypatch.setattr(run, "make_input", flaky)
    report = campaign("urdf", seed=3, inputs=4, jobs=0)
    assert report.inputs == 4 and report.counts["skipped"] == 1 and report.bad() == 0
    assert "skipped 1" in report.text()


def test_a_grown_tree_is_not_grown_further():
    import random
    from lxml import etree
    from tests.fuzz import mutate
    text = "<r>" + "<a><b/></a>" * (mutate.MAX_GROWTH_ELEMENTS // 2 + 1) + "</r>"
    for seed in range(100):
        root = etree.fromstring(text)
        before = len(list(root.iter()))
        mutate._xml_mutation(random.Random(seed), root)
        assert len(list(root.iter())) <= before


def _loaded_limit_model(tmp_path, lower: str, upper: str):
    from mbparse.loading import load
    path = tmp_path / "m.sdf"
    path.write_text('<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/>'
                    '<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis>'
                    f'<xyz>0 0 1</xyz><limit><lower>{lower}</lower><upper>{upper}</upper>'
                    '</limit></axis></joint></model></sdf>')
    return load(str(path))


def test_a_limit_infinite_on_the_wrong_side_is_nonsense_unless_a_warning_named_it(tmp_path):
    loaded = _loaded_limit_model(tmp_path, "inf", "inf")
    assert [d.code for d in loaded.warnings] == ["limit-infinite"]
    assert run.non_finite_in_plant(loaded.plant, frozenset(["limit-infinite"])) == []
    assert run.non_finite_in_plant(loaded.plant) == ["/joints/j/pos_limits inverted infinity"]
    ordinary = _loaded_limit_model(tmp_path, "-inf", "inf")
    assert ordinary.warnings == []
    assert run.non_finite_in_plant(ordinary.plant) == []


def test_a_body_placed_at_infinity_by_finite_offsets_is_nonsense(tmp_path, monkeypatch):
    """Each joint origin is finite, their sum is not: the harness looks at
    the bodies' poses in the world too (finalize refuses such a model; with
    that check turned off the harness still sees it)."""
    from mbparse.loading import load
    from mbparse.plant import topology
    path = tmp_path / "r.urdf"
    path.write_text('<robot name="r"><link name="a"/><link name="b"/><link name="c"/>'
                    '<joint name="j1" type="fixed"><origin xyz="1e308 0 0"/><parent link="a"/>'
                    '<child link="b"/></joint><joint name="j2" type="fixed">'
                    '<origin xyz="1e308 0 0"/><parent link="b"/><child link="c"/></joint></robot>')
    monkeypatch.setattr(topology, "_check_default_poses_finite", lambda plant: None)
    assert run.non_finite_in_plant(load(str(path)).plant) == ["/bodies/c/X_WB=inf"]
