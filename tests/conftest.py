"""Shared helpers for the tests: a parse of inline URDF text into a fresh
plant and scene graph, with the warnings it produced."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from mbparse import MultibodyPlant, Parser, SceneGraph

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
# Tests that read corpus files skip where the corpus is not beside the project.
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(),
                                  reason="the shared corpus is not beside the project")
DRAKE_NS = 'xmlns:drake="http://drake.mit.edu"'

# A link with a valid, non-zero mass so that it is a proper body.
HEAVY = ('<inertial><mass value="1"/>'
         '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>')


def robot(body: str, name: str = "r") -> str:
    """A URDF document: ``body`` inside ``<robot name=...>`` with the drake: prefix."""
    return f'<?xml version="1.0"?>\n<robot name="{name}" {DRAKE_NS}>\n{body}\n</robot>\n'


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the first occurrence of ``needle`` in ``text``."""
    index = text.index(needle)
    return text.count("\n", 0, index) + 1


@dataclass
class Parsed:
    plant: MultibodyPlant
    parser: Parser
    instances: list[int]

    @property
    def instance(self) -> int:
        return self.instances[0]

    @property
    def warnings(self) -> list[str]:
        return [d.message for d in self.parser.diagnostic_policy().warnings_seen]

    def geometries(self):
        return self.plant.scene_graph.geometries()

    def geometry(self, name: str):
        (g,) = [g for g in self.geometries() if g.name == name]
        return g


def new_parser(time_step: float = 0.0, approximation: str = "tamsi", scene_graph: bool = True,
               strict: bool = False, prefix: str = "", like_drake: bool = False) -> Parser:
    """A parser on a fresh plant (and scene graph) that keeps warnings quiet."""
    plant = MultibodyPlant(time_step, approximation)
    parser = Parser(plant, SceneGraph() if scene_graph else None, prefix)
    parser.diagnostic_policy().emit = False
    if strict:
        parser.set_strict_parsing()
    if like_drake:
        parser.set_like_drake()
    return parser


def parse_urdf(text: str, **options) -> Parsed:
    """Parses URDF ``text`` (see :func:`new_parser` for the options)."""
    parser = new_parser(**options)
    instances = parser.add_models_from_string(text, "urdf")
    return Parsed(parser.plant(), parser, instances)


def parse_file(path, **options) -> Parsed:
    """Parses the model file at ``path`` (see :func:`new_parser` for the options)."""
    parser = new_parser(**options)
    instances = parser.add_models(str(path))
    return Parsed(parser.plant(), parser, instances)



def load_scene_graph(path, like_drake: bool = False) -> SceneGraph:
    """The scene graph of the model file at ``path``, its warnings emitted
    as Python warnings (for ``pytest.warns`` and ``catch_warnings``)."""
    plant, scene_graph = MultibodyPlant(0.0), SceneGraph()
    parser = Parser(plant, scene_graph)
    if like_drake:
        parser.set_like_drake()
    parser.add_models(str(path))
    return scene_graph

def sdf(body: str, version: str = "1.9") -> str:
    """An SDFormat document: ``body`` inside ``<sdf version=...>`` with the drake: prefix."""
    return f'<?xml version="1.0"?>\n<sdf version="{version}" {DRAKE_NS}>\n{body}\n</sdf>\n'


def parse_sdf(text: str, **options) -> Parsed:
    """Parses SDFormat ``text`` (see :func:`new_parser` for the options)."""
    parser = new_parser(**options)
    instances = parser.add_models_from_string(text, "sdf")
    return Parsed(parser.plant(), parser, instances)


def drake_refusal_at(parsed: "Parsed", text: str, needle: str, *words: str) -> bool:
    """Whether the parse warned, at the line of ``needle`` in ``text``, that
    Drake refuses what is there, in a message holding every one of ``words``."""
    line = line_of(text, needle)
    return any(d.line == line and "Drake refuses this" in d.message
               and all(w in d.message for w in words)
               for d in parsed.parser.diagnostic_policy().warnings_seen)


def error_at(write, text: str, needle: str, words: str) -> None:
    """Parsing ``text`` from a file fails at the line of ``needle`` with ``words``."""
    from mbparse.diagnostics import ParseError
    path = write("model.urdf", text)
    with pytest.raises(ParseError) as info:
        parse_file(path)
    assert f"{path}:{line_of(text, needle)}:" in str(info.value)
    assert words in str(info.value)


@pytest.fixture
def write(tmp_path):
    """``write("name.urdf", text)`` writes a file under tmp_path and returns its path."""
    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path
    return _write
