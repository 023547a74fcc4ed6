"""Every corpus file of a format gives the summary Drake 1.51 gives (or is
rejected when Drake rejects it), compared with the oracle's own comparison."""
from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"
REFS = SHARED / "corpus_reference"

pytestmark = pytest.mark.skipif(not REFS.is_dir(), reason="../shared/corpus_reference absent")

# Files where we knowingly differ from the reference, with the reason. Each is
# a strict xfail: if the difference disappears, the test says so.
KNOWN_DIFFERENCES: dict[str, str] = {
    "sdformat/test/sdf/world_complete.sdf":
        "Drake bug: Drake 1.51 fails with an internal assertion (\"Drake must never use "
        "ParserConfig::GlobalConfig()\"), not a modelling rule; the file is valid",
}
SUFFIXES = (".urdf", ".sdf", ".xml", ".dmd.yaml", ".obj")


def _corpus_files(suffix: str) -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob(f"*{suffix}")
                  if (REFS / (str(p.relative_to(CORPUS)).replace("/", "__") + ".json")).exists())


def _summary(path: Path) -> dict:
    from mbparse.diagnostics import ParseError
    from mbparse.loading import LoadOptions, load
    from mbparse.summary import summarize
    options = LoadOptions(like="drake", packages=[("drake", str(CORPUS / "drake")),
                                    ("drake_models", str(CORPUS / "drake_models"))])
    try:
        loaded = load(str(path), options)
    except ParseError as e:
        return {"error": str(e)}
    return summarize(loaded.plant, loaded.parser, loaded.instances)


def _diffs(rel: str, summary: dict) -> list[str]:
    sys.path.insert(0, str(SHARED / "oracle"))
    try:
        from compare_summaries import diffs
    finally:
        sys.path.pop(0)
    ref = json.loads((REFS / (rel.replace("/", "__") + ".json")).read_text())
    return diffs(ref, summary)


def _cases():
    for suffix in SUFFIXES:
        for path in _corpus_files(suffix):
            rel = str(path.relative_to(CORPUS))
            marks = ([pytest.mark.xfail(reason=KNOWN_DIFFERENCES[rel], strict=True)]
                     if rel in KNOWN_DIFFERENCES else [])
            yield pytest.param(path, id=rel, marks=marks)


@pytest.mark.parametrize("path", list(_cases()))
def test_corpus_file_matches_drake(path: Path):
    rel = str(path.relative_to(CORPUS))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = _diffs(rel, _summary(path))
    assert d == [], "\n".join(d[:20])


def test_element_names_with_double_colons_are_read_as_libsdformat_writes_them(tmp_path):
    """libsdformat writes <ignition::corrected_offsets>; strict namespace
    parsing would refuse the name, tinyxml2 (Drake's XML reader) does not."""
    from mbparse import MultibodyPlant, Parser, ParseError
    path = tmp_path / "m.sdf"
    path.write_text('<?xml version="1.0"?>\n<sdf version="1.9"><model name="m">\n'
                    '<link name="l"/>\n'
                    '<ignition::corrected_offsets>1</ignition::corrected_offsets>\n'
                    '</model></sdf>\n')
    plant = MultibodyPlant()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Parser(plant).add_models(str(path))
    assert plant.has_body_named("l")
    bad = tmp_path / "bad.urdf"
    bad.write_text('<robot name="r">\n<link name="a">\n</robot>\n')
    with pytest.raises(ParseError, match=r"bad.urdf:3:"):
        Parser(MultibodyPlant()).add_models(str(bad))
