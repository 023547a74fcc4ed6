"""``mbparse inspect``'s outline is made from a summary whose large sections
are read once as it prints (a large model's summary is never held whole); it
prints exactly what the whole summary prints."""
from __future__ import annotations

import io

import pytest

from conftest import CORPUS, parse_file
from mbparse.commands.inspect import print_outline
from mbparse.summary import Section, lazy_summary, summarize

FILES = ["drake_models/franka_description/urdf/panda_arm_hand.urdf",  # actuators, meshes
         "drake/multibody/parsing/test/sdf_parser_test/frames_as_joint_parent_or_child.sdf",  # frames
         "drake/examples/kuka_iiwa_arm/models/objects/open_top_box.urdf"]


def outline(summary: dict) -> str:
    out = io.StringIO()
    print_outline({**summary, "file": "f"}, out)
    return out.getvalue()


@pytest.mark.parametrize("name", FILES)
def test_streamed_outline_prints_what_the_whole_summary_prints(name):
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"{name} is not in the corpus")
    parsed = parse_file(path)
    parsed.plant.finalize()
    whole = summarize(parsed.plant, parsed.parser, parsed.instances)
    lazy = lazy_summary(parsed.plant, parsed.parser, parsed.instances)
    for key in ("bodies", "frames", "joints", "actuators", "geometries"):
        assert isinstance(lazy[key], Section) and len(lazy[key]) == len(whole[key])
    assert outline(lazy) == outline(whole)
    assert "bodies (" in outline(whole)
