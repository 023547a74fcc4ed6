"""OBJ polygons of many corners are split in near-linear time: as a fan from
the first corner (what ear clipping gives a convex polygon), with a warning
when the polygon is not convex."""
from __future__ import annotations

import math

from mbparse.geometry.mesh_io import EAR_CLIPPING_MAX_CORNERS, parse_obj


def polygon(n: int, dent: bool = False) -> str:
    points = []
    for k in range(n):
        r = 0.5 if dent and k % 2 else 1.0
        points.append(f"v {r * math.cos(2 * math.pi * k / n)} {r * math.sin(2 * math.pi * k / n)} 0")
    return "\n".join(points) + "\nf " + " ".join(str(k + 1) for k in range(n)) + "\n"


def test_a_convex_polygon_of_20000_corners_is_a_fan_without_warning():
    mesh = parse_obj(polygon(20000))
    assert len(mesh.faces) == 19998
    assert tuple(mesh.faces[0]) == (0, 1, 2) and tuple(mesh.faces[-1]) == (0, 19998, 19999)
    assert mesh.warnings == []


def test_a_non_convex_polygon_of_many_corners_warns_with_its_line():
    mesh = parse_obj(polygon(2 * EAR_CLIPPING_MAX_CORNERS, dent=True))
    assert len(mesh.faces) == 2 * EAR_CLIPPING_MAX_CORNERS - 2
    (w,) = mesh.warnings
    assert w.startswith(f"line {2 * EAR_CLIPPING_MAX_CORNERS + 1}:") and "fan" in w


def test_a_small_non_convex_polygon_is_still_ear_clipped():
    mesh = parse_obj(polygon(8, dent=True))
    assert len(mesh.faces) == 6 and mesh.warnings == []
    assert [tuple(f) for f in mesh.faces] != [(0, k, k + 1) for k in range(1, 7)]
