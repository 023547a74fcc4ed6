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


# ------------------------------------------------------------ over arrays
# A face line of many corners is read over an array, and a polygon past the
# ear-clipping limit is split over arrays: a 14.5 MB fuzz input of 300 faces
# of 20,000 negative (relative) corners each took over 10 s token by token.
import random  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mbparse.geometry import mesh_io  # noqa: E402
from mbparse.geometry.mesh_io import ObjError  # noqa: E402


def corner_tokens(rng: random.Random, n: int, count: int) -> list[str]:
    forms = ["{}", "{}/1", "{}//2", "{}/3/4"]
    form = rng.choice(forms)
    out = []
    for _ in range(n):
        i = rng.choice([rng.randint(1, count), -rng.randint(1, count)])
        out.append(form.format(i))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_a_long_face_line_reads_the_corners_the_token_reader_reads(seed):
    rng = random.Random(seed)
    count = rng.randint(1, 500)
    tokens = corner_tokens(rng, rng.randint(EAR_CLIPPING_MAX_CORNERS + 1, 400), count)
    if seed % 4 == 1:  # something the array cannot read or that names no vertex
        k = rng.randrange(len(tokens))
        tokens[k] = rng.choice(["0", f"-{count + 1}", "1x", "99999999999999999999",
                                "-99999999999999999999", "+3", "1_0", "٣"])
    try:
        expected = mesh_io._face_corners(tokens, count, 7)
    except ObjError as e:
        with pytest.raises(ObjError) as info:
            mesh_io._long_face_corners(tokens, count, 7)
        assert str(info.value) == str(e) and info.value.line == e.line
    else:
        assert mesh_io._long_face_corners(tokens, count, 7) == expected


def test_a_long_face_line_is_not_read_token_by_token(monkeypatch):
    def token_by_token(tokens, count, line):
        raise AssertionError("read token by token")

    monkeypatch.setattr(mesh_io, "_face_corners", token_by_token)
    n = 5000
    text = "".join(f"v {math.cos(k)} {math.sin(k)} 0\n" for k in range(n))
    mesh = parse_obj(text + "f " + " ".join(str(-n + k) for k in range(n)) + "\n")
    assert len(mesh.faces) == n - 2 and tuple(mesh.faces[0]) == (0, 1, 2)


@pytest.mark.parametrize("seed", range(30))
def test_a_polygon_past_the_limit_is_split_over_arrays_as_ear_clipping_splits_it(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(EAR_CLIPPING_MAX_CORNERS + 1, 300))
    angles = np.sort(rng.uniform(0, 2 * np.pi, n))
    radius = 1.0 if seed % 3 == 0 else rng.uniform(0.5, 1.0, n)  # convex, or not
    V = np.stack([radius * np.cos(angles), radius * np.sin(angles), rng.normal(0, 0.01, n)], 1)
    if seed % 5 == 4:
        V[:, [0, 2]] = V[:, [2, 0]]  # another projection plane
    corners = rng.permutation(n) if seed % 7 == 6 else np.arange(n)
    faces: list = []
    warnings_lines: list[str] = []
    mesh_io._clip_ears(V.tolist(), corners.tolist(), faces, warnings_lines, 3)
    array_warnings: list[str] = []
    rows = mesh_io._large_polygon_fan(V, corners, array_warnings, 3)
    assert rows.tolist() == [list(f) for f in faces]
    assert array_warnings == warnings_lines


def icosphere_text() -> str:
    t = (1 + 5 ** 0.5) / 2
    verts = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t),
             (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
             (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
             (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    return "".join(f"v {x} {y} {z}\n" for x, y, z in verts) + "".join(
        f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in faces)


def test_mass_properties_summed_in_parts_match_the_whole(monkeypatch):
    mesh = parse_obj(icosphere_text())
    whole = mesh_io.mass_properties(mesh.vertices, mesh.faces, 1000.0)
    monkeypatch.setattr(mesh_io, "_MASS_PART", 3)
    parts = mesh_io.mass_properties(mesh.vertices, mesh.faces, 1000.0)
    assert parts[0] == pytest.approx(whole[0], rel=1e-12)
    assert parts[1] == pytest.approx(whole[1], abs=1e-12)
    assert parts[2] == pytest.approx(whole[2], rel=1e-12, abs=1e-12)
