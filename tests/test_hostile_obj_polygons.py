"""OBJ files of very many faces: past EAR_CLIPPING_MAX_POLYGONS polygons of
five or more corners, the rest are split as fans from their first corner
(with one warning), so that millions of pentagons take seconds; a mesh of
more than MAX_MESH_TRIANGLES triangles is a located error; an MJCF mesh file
larger than a model file may be is refused."""
from __future__ import annotations

import numpy as np
import pytest

from mbparse.diagnostics import ParseError
from mbparse.geometry import mesh_io
from mbparse.limits import SizeLimits
from mbparse.loading import LoadOptions, load

PENTAGON_PRISM = ("v 0 0 0\nv 2 0 0\nv 3 1 0\nv 1 2 0\nv -1 1 0\n"
                  "v 0 0 1\nv 2 0 1\nv 3 1 1\nv 1 2 1\nv -1 1 1\n")
SIDES = "".join(f"f {a} {b} {b + 5} {a + 5}\n" for a, b in
                ((1, 2), (2, 3), (3, 4), (4, 5), (5, 1)))


def prism(caps: int) -> str:
    """A closed pentagonal prism whose two caps are written ``caps`` times
    each (as extra faces), padded with enough vertices for the array reader."""
    bottom, top = "f 5 4 3 2 1\n", "f 6 7 8 9 10\n"
    return PENTAGON_PRISM + SIDES + (bottom + top) * caps


def refusal(path, **limits):
    """The diagnostic of the ParseError that loading ``path`` raises (with
    these limits of SizeLimits changed)."""
    with pytest.raises(ParseError) as info:
        load(str(path), LoadOptions(size_limits=SizeLimits(**limits)))
    return info.value.diagnostic


@pytest.fixture
def few_clipped(monkeypatch):
    monkeypatch.setattr(mesh_io, "EAR_CLIPPING_MAX_POLYGONS", 3)


@pytest.mark.parametrize("caps", [40, 1500])  # read line by line, and over arrays
def test_past_the_limit_polygons_are_fans_with_one_warning(few_clipped, caps):
    mesh = mesh_io.parse_obj(prism(caps))
    assert len(mesh.faces) == 5 * 2 + 2 * caps * 3
    [warning] = [w for w in mesh.warnings if "split as fans" in w]
    assert f"{2 * caps - 3:,} faces of 5 to 64 corners past the first 3" in warning
    fanned = np.asarray(mesh.faces)[-3:]  # the last cap: 6 7 8 9 10 as a fan from 6
    assert fanned.tolist() == [[5, 6, 7], [5, 7, 8], [5, 8, 9]]


def test_below_the_limit_every_polygon_is_ear_clipped_without_a_warning():
    mesh = mesh_io.parse_obj(prism(40))
    assert not any("split as fans" in w for w in mesh.warnings)
    assert len(mesh.faces) == 5 * 2 + 80 * 3


def test_fans_and_ear_clipping_enclose_the_same_solid_of_a_convex_prism(monkeypatch):
    clipped = mesh_io.parse_obj(prism(1500))
    monkeypatch.setattr(mesh_io, "EAR_CLIPPING_MAX_POLYGONS", 3)
    fanned = mesh_io.parse_obj(prism(1500))
    a = mesh_io.mass_properties(clipped.vertices, clipped.faces, 1.0)
    b = mesh_io.mass_properties(fanned.vertices, fanned.faces, 1.0)
    assert a[0] == pytest.approx(b[0]) and a[1] == pytest.approx(b[1])


def test_a_mesh_of_more_triangles_than_the_limit_is_a_located_error(write):
    d = refusal(write("m.obj", prism(1)), max_mesh_triangles=10)
    assert d.line == 1 and "the mesh has 16 triangles, more than the 10" in d.message


def test_an_mjcf_mesh_file_larger_than_a_model_file_is_refused(write):
    write("m.obj", prism(20))
    path = write("m.xml", '<mujoco model="m"><asset><mesh name="a" file="m.obj"/></asset>'
                          '<worldbody><body><geom type="mesh" mesh="a"/></body></worldbody>'
                          '</mujoco>')
    d = refusal(path, max_file_bytes=300)
    assert d.code == "mesh-unreadable" and "more than the 300 bytes" in d.message


def test_long_polygons_past_the_triangle_limit_are_refused_at_their_line(write):
    """Polygons of thousands of corners are counted as they are met: the
    file is refused at the line where their triangles pass the limit,
    before the rest of its indices are read (a 29 MB fuzz mutant of such
    lines took 4.8 s to be refused at its end)."""
    row = "f " + " ".join(str(1 + k % 3) for k in range(300)) + "\n"
    path = write("long.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n" + row * 10)
    d = refusal(path, max_mesh_triangles=1000)
    assert d.line == 7  # the fourth row: 4 x 298 triangles > 1000
    assert "1,192 triangles" in d.message
