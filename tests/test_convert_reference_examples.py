"""Every URDF→SDFormat example of the <gazebo> extension reference converts to
exactly the SDFormat shown there (XML trees, numbers within 1e-9)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from mbparse.convert import urdf_to_sdf_tree
from mbparse.convert.sdf_tree import parse_xml_text
from mbparse.convert.xml_compare import differences
from mbparse.workspace import DataSource

REFERENCE = Path(__file__).parents[1].parent / "shared" / "reference"


def _examples() -> list[tuple[str, str, str]]:
    files = sorted(REFERENCE.glob("003_*.txt"))
    if not files:
        return []
    text = files[0].read_text(encoding="utf-8", errors="replace")
    out = []
    for i, part in enumerate(text.split("<?xml version='1.0' encoding='UTF-8'?>")[1:]):
        urdf = re.search(r"<robot\b.*?</robot>", part, re.S).group(0)
        sdf = re.search(r"<sdf version.*?</sdf>", part, re.S).group(0)
        name = re.search(r"<robot name='([^']*)'", urdf).group(1)
        out.append((f"{i}-{name}", urdf, sdf))
    return out


EXAMPLES = _examples()


@pytest.mark.skipif(not REFERENCE.is_dir(),
                    reason="the shared reference is not beside the project")
def test_reference_has_the_nine_examples():
    assert len(EXAMPLES) == 9


@pytest.mark.parametrize("name,urdf,expected", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_reference_example_converts_to_the_shown_sdformat(name, urdf, expected):
    ours = urdf_to_sdf_tree(DataSource(contents=urdf, display_name=f"{name}.urdf"))
    assert differences(ours, parse_xml_text(expected)) == []
