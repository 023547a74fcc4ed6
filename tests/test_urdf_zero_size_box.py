"""A URDF <box> with a side of size 0 (pyflyt's pole and race gate, which
pybullet and yourdfpy load): the default mode leaves that geometry out with a
located warning and loads the rest; Drake's mode refuses it as Drake does."""
from __future__ import annotations

import pytest

from conftest import parse_urdf
from mbparse import ParseError

INERTIAL = ('<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" '
            'iyz="0"/></inertial>')
POLE = ('<robot name="pole">\n<link name="base">\n' + INERTIAL + '\n'
        '<visual><geometry><box size="{size}"/></geometry></visual>\n'
        '<visual><geometry><box size="0.1 0.1 1"/></geometry></visual>\n'
        '<collision><geometry><box size="0.1 0.1 1"/></geometry></collision>\n'
        '</link>\n</robot>\n')


@pytest.mark.parametrize("size", ["0 0 0", "0.1 0 1"])
def test_a_zero_size_box_is_left_out_with_a_located_warning(size):
    p = parse_urdf(POLE.format(size=size))
    assert [g.shape.size() for g in p.geometries()] == [(0.1, 0.1, 1.0)] * 2
    (w,) = [d for d in p.parser.diagnostic_policy().warnings_seen if d.code == "shape-zero-size"]
    assert w.line == 4 and f"size '{size}'" in w.message and "Drake refuses this" in w.message


def test_a_zero_size_box_is_refused_like_drake():
    with pytest.raises(ParseError, match="Box .* should be a positive finite value") as e:
        parse_urdf(POLE.format(size="0 0 0"), like_drake=True)
    assert e.value.diagnostic.line == 4


def test_a_negative_box_side_stays_an_error():
    with pytest.raises(ParseError, match="positive finite value"):
        parse_urdf(POLE.format(size="0 -1 1"))
