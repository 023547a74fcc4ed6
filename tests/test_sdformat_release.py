"""The SDFormat reader leaves nothing to Python's cyclic collector: its
scopes, frame-graph vertices and builders refer to one another while it
reads, and it breaks those cycles when it is done, so that all it made is
freed as the parse ends (left to the collector, it was walked by every
collection after the parse, and made more of them)."""
from __future__ import annotations

import gc

import pytest

from conftest import parse_sdf, sdf
from mbparse import ParseError
from mbparse.formats.sdformat.frames import Scope, Vertex
from mbparse.formats.sdformat.model import ModelBuilder

MODEL = ('<model name="m"><model name="inner"><link name="a"/></model>'
         '<link name="b"><pose>0 0 1 0 0 0</pose></link>'
         '<joint name="j" type="revolute"><parent>b</parent><child>inner::a</child>'
         '<axis><xyz>0 0 1</xyz></axis></joint>'
         '<frame name="f" attached_to="b"><pose>1 0 0 0 0 0</pose></frame></model>')


def _left_by(parse) -> list:
    """The reader's objects still alive after ``parse()``, with the
    collector paused (only reference counting frees anything)."""
    gc.collect()
    gc.disable()
    try:
        parse()
        return [o for o in gc.get_objects() if isinstance(o, (Scope, Vertex, ModelBuilder))]
    finally:
        gc.enable()


def test_a_read_model_leaves_no_scope_vertex_or_builder_behind():
    parsed = []
    assert _left_by(lambda: parsed.append(parse_sdf(sdf(MODEL)))) == []
    assert parsed[0].plant.num_bodies() == 3  # (the world, a, b)


def test_a_refused_model_leaves_none_behind_either():
    bad = MODEL.replace("<child>inner::a</child>", "<child>nowhere</child>")

    def parse():
        with pytest.raises(ParseError, match="nowhere"):
            parse_sdf(sdf(bad))
    assert _left_by(parse) == []
