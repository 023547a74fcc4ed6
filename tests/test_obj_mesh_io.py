"""geometry/mesh_io: reading OBJ text as tinyobjloader does for Drake, and
the mass properties of the solid a closed mesh encloses."""
from __future__ import annotations

import math

import pytest

from mbparse.geometry.mesh_io import (MeshVolumeError, ObjError, mass_properties, parse_obj,
                                      read_obj)

# A unit cube [0, 1]³ with outward-facing quads.
UNIT_CUBE = """\
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
"""


def close(a, b, tol=1e-12):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_obj_reads_vertices_and_faces():
    mesh = parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    assert mesh.vertices.tolist() == [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    assert mesh.faces.tolist() == [[0, 1, 2]]
    assert mesh.object_names == []


def test_obj_face_corners_may_carry_texture_and_normal_indices():
    mesh = parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n"
                     "f 1/1/1 2/1/1 3/1/1\nf 1//1 2//1 3//1\nf 1/1 2/1 3/1\n")
    assert mesh.faces.tolist() == [[0, 1, 2]] * 3


def test_obj_negative_indices_count_back_from_the_last_vertex():
    mesh = parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n")
    assert mesh.faces.tolist() == [[0, 1, 2]]


def test_obj_extra_vertex_values_are_ignored():
    mesh = parse_obj("v 1 2 3 0.5 0.5 0.5\nv 1 0 0 1\nv 0 1 0\nf 1 2 3\n")
    assert mesh.vertices[0].tolist() == [1.0, 2.0, 3.0]
    assert mesh.vertices[1].tolist() == [1.0, 0.0, 0.0]


def test_obj_quad_is_split_along_its_shorter_diagonal():
    # The 0-2 diagonal is shorter: triangles (0,1,2) and (0,2,3).
    short02 = parse_obj("v 0 0 0\nv 2 -1 0\nv 1 0 0\nv 2 1 0\nf 1 2 3 4\n")
    assert short02.faces.tolist() == [[0, 1, 2], [0, 2, 3]]
    # A square: both diagonals equal, so the 1-3 split is used.
    square = parse_obj("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n")
    assert square.faces.tolist() == [[0, 1, 3], [1, 2, 3]]


def test_obj_pentagon_becomes_three_triangles_covering_it():
    corners = [(math.cos(2 * math.pi * k / 5), math.sin(2 * math.pi * k / 5)) for k in range(5)]
    text = "".join(f"v {x} {y} 0\n" for x, y in corners) + "f 1 2 3 4 5\n"
    mesh = parse_obj(text)
    assert len(mesh.faces) == 3
    area = 0.0
    for a, b, c in mesh.faces:
        (ax, ay, _), (bx, by, _), (cx, cy, _) = (mesh.vertices[i] for i in (a, b, c))
        area += ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / 2
    assert area == pytest.approx(5 / 2 * math.sin(2 * math.pi / 5))


def test_obj_object_names_are_kept_and_the_last_one_names_the_mesh():
    mesh = parse_obj("o first\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no second\nf 1 3 2\n")
    assert mesh.object_names == ["first", "second"]
    assert mesh.object_name == "second"
    assert len(mesh.faces) == 2


def test_obj_face_with_two_corners_is_skipped_with_a_warning():
    mesh = parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\nf 1 2 3\n")
    assert mesh.faces.tolist() == [[0, 1, 2]]
    assert any("fewer than three" in w for w in mesh.warnings)


def test_obj_with_no_faces_is_an_error():
    with pytest.raises(ObjError, match="no faces"):
        parse_obj("# only vertices\nv 0 0 0\nv 1 0 0\nv 0 1 0\n")


def test_obj_zero_index_is_an_error_with_its_line():
    with pytest.raises(ObjError) as info:
        parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n")
    assert info.value.line == 4


def test_obj_index_past_the_last_vertex_is_an_error():
    with pytest.raises(ObjError, match="only 3 vertices"):
        parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n")


def test_obj_read_from_file(tmp_path):
    path = tmp_path / "cube.obj"
    path.write_text(UNIT_CUBE)
    mesh = read_obj(str(path))
    assert len(mesh.vertices) == 8 and len(mesh.faces) == 12


# ------------------------------------------------------------ mass properties
def test_mass_properties_of_a_unit_cube_match_the_hand_computation():
    mesh = parse_obj(UNIT_CUBE)
    mass, com, I = mass_properties(mesh.vertices, mesh.faces, 1000.0)
    # 1 m³ of water: 1000 kg, centered at (½, ½, ½), I = m (1² + 1²) / 12.
    assert mass == pytest.approx(1000.0)
    assert close(com, (0.5, 0.5, 0.5))
    assert close(I, (1000 / 6, 1000 / 6, 1000 / 6, 0.0, 0.0, 0.0), tol=1e-9)


def test_mass_properties_of_a_box_off_the_origin():
    # A 2 x 1 x 1 box from (1, 0, 0): volume 2, com (2, 0.5, 0.5).
    mesh = parse_obj(UNIT_CUBE)
    vertices = [(1 + 2 * x, y, z) for x, y, z in mesh.vertices]
    mass, com, I = mass_properties(vertices, mesh.faces, 10.0)
    assert mass == pytest.approx(20.0)
    assert close(com, (2.0, 0.5, 0.5))
    m = 20.0
    assert close(I, (m * 2 / 12, m * 5 / 12, m * 5 / 12, 0, 0, 0), tol=1e-9)


def test_mass_properties_of_a_tetrahedron():
    vertices = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    mass, com, I = mass_properties(vertices, faces, 6.0)
    assert mass == pytest.approx(1.0)          # volume 1/6
    assert close(com, (0.25, 0.25, 0.25))
    # About the origin: Ixx = ρ∫(y² + z²) = 6 · 2/60 = 0.2; Ixy = -ρ∫xy = -6/120.
    Ixx_o, Ixy_o = 0.2, -0.05
    Ixx = Ixx_o - mass * (0.25 ** 2 + 0.25 ** 2)
    Ixy = Ixy_o + mass * 0.25 * 0.25
    assert close(I, (Ixx, Ixx, Ixx, Ixy, Ixy, Ixy), tol=1e-12)


def test_mass_properties_of_an_inward_wound_mesh_is_an_error():
    mesh = parse_obj(UNIT_CUBE)
    flipped = [(a, c, b) for a, b, c in mesh.faces]
    with pytest.raises(MeshVolumeError) as info:
        mass_properties(mesh.vertices, flipped, 1000.0)
    assert info.value.volume == pytest.approx(-1.0)


def test_mass_properties_of_a_flat_mesh_is_an_error():
    vertices = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    with pytest.raises(MeshVolumeError):
        mass_properties(vertices, [(0, 1, 2), (0, 2, 1)], 1000.0)


def test_mass_properties_of_a_mesh_whose_volume_overflows_says_so_not_nan():
    big = 1e300
    vertices = [(big, 0, 0), (0, big, 0), (0, 0, big), (0, 0, 0)]
    faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (and no NumPy RuntimeWarning on the way)
        with pytest.raises(MeshVolumeError, match="overflows a double") as info:
            mass_properties(vertices, faces, 1000.0)
    assert "nan" not in str(info.value)


def _random_obj(rng, corner_form: str, indent: str = "", newline: str = "\n",
                sizes: tuple[int, ...] = (3, 4)) -> str:
    lines = ["# made up", "o first"]
    n = rng.randint(max(sizes) + 1, 30)
    for _ in range(n):
        lines.append(indent + "v " + " ".join(repr(rng.uniform(-2, 2)) for _ in range(3)))
    lines.append("vn 0 0 1")
    for _ in range(rng.randint(1, 40)):
        corners = rng.sample(range(1, n + 1), rng.choice(sizes))
        lines.append(indent + "f " + " ".join(corner_form.format(i=i) for i in corners))
    lines.append("o last one")
    return newline.join(lines) + newline


@pytest.mark.parametrize("form", ["{i}", "{i}/{i}", "{i}//{i}", "{i}/{i}/{i}"])
def test_obj_array_reading_equals_the_line_by_line_reading(form):
    import random

    import numpy as np

    from mbparse.geometry.mesh_io import _parse_common_obj, _parse_obj_lines
    rng = random.Random(form)
    for k in range(40):
        text = _random_obj(rng, form, indent=" " if k % 3 == 0 else "",
                           newline="\r\n" if k % 4 == 0 else "\n")
        fast = _parse_common_obj(text)
        assert fast is not None, text
        slow = _parse_obj_lines(text, False)
        assert np.array_equal(fast.vertices, slow.vertices)
        assert np.array_equal(fast.faces, slow.faces)  # tinyobj's split, in file order
        assert fast.object_names == slow.object_names


@pytest.mark.parametrize("form", ["{i}", "{i}/{i}/{i}"])
def test_obj_array_reading_of_polygons_up_to_the_ear_clipping_limit_equals_the_line_reading(form):
    """Polygons of 5 to 64 corners (a few in a mesh of triangles and quads)
    are ear-clipped one by one, in file order, as the line reader does;
    random corners make non-planar polygons, where ear clipping can give up."""
    import random

    import numpy as np

    from mbparse.geometry.mesh_io import _parse_common_obj, _parse_obj_lines
    rng = random.Random("polygons" + form)
    for k in range(40):
        sizes = (3, 4, 5, 6, 9) if k % 2 else (3, 5, 12, 28)
        text = _random_obj(rng, form, sizes=sizes)
        fast = _parse_common_obj(text)
        assert fast is not None, text
        slow = _parse_obj_lines(text, False)
        assert np.array_equal(fast.vertices, slow.vertices)
        assert np.array_equal(fast.faces, slow.faces)


def test_obj_polygon_past_the_ear_clipping_limit_goes_to_the_line_reading():
    from mbparse.geometry.mesh_io import EAR_CLIPPING_MAX_CORNERS, _parse_common_obj
    n = EAR_CLIPPING_MAX_CORNERS + 1
    text = "".join(f"v {i} {i * i % 7} 0\n" for i in range(n)) + "v 0 0 1\n"
    text += "f " + " ".join(str(i + 1) for i in range(n)) + "\n" + f"f 1 2 {n + 1}\n" * 40
    assert _parse_common_obj(text) is None
    assert len(parse_obj(text).faces) == n - 2 + 40


@pytest.mark.parametrize("text", [
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n",          # relative indices
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 2 0\nf 1 2 4 5 3\n",  # a pentagon
    "v 0 0 0 1\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",          # a vertex weight
    "v 0 0 1e400\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",        # not finite
    "v 0 0 1_0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",          # what float() alone would take
    "v 0 0 0\rv 1 0 0\rv 0 1 0\rf 1 2 3\r",            # old Mac line breaks
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\nf 1 2 3\n",     # a face of two corners
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2//2 3/3/3\n",   # mixed corner forms
    "v 0 0\nv 1 0 0 1\nv 0 1 0\nf 1 2 3\n",            # 2 + 4 numbers on two lines
])
def test_obj_unusual_text_goes_to_the_line_by_line_reading_or_reads_the_same(text):
    import numpy as np

    from mbparse.geometry.mesh_io import ObjError, _parse_common_obj, _parse_obj_lines
    fast = _parse_common_obj(text)
    if "1e400" in text:  # not finite: the array reading declines, the line reading refuses
        assert fast is None
        with pytest.raises(ObjError):
            parse_obj(text)
        return
    slow = _parse_obj_lines(text, False)
    if fast is not None:
        assert np.array_equal(fast.vertices, slow.vertices)
        assert np.array_equal(fast.faces, slow.faces)
    assert np.array_equal(parse_obj(text).faces, slow.faces)


def test_obj_long_file_with_a_short_vertex_line_warns_as_the_line_reading_does():
    """Six numbers over two vertex lines (two, then four) are not two
    vertices of three: the first line lacks z (warned, read as 0) and the
    second line's fourth number is its weight, whatever the file's size."""
    from mbparse.geometry.mesh_io import _ARRAYS_FROM
    text = "v 0 0\nv 1 0 0 1\nv 0 1 0\nv 0 0 1\n" + "# padding\n" * (_ARRAYS_FROM // 10)
    text += "f 1 2 3\nf 2 3 4\n"
    assert len(text) >= _ARRAYS_FROM
    mesh = parse_obj(text)
    assert mesh.vertices.tolist() == [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert mesh.warnings == ["line 1: vertex coordinate z is missing; it is read as 0 "
                             "(as Drake reads it)"]


def test_obj_face_split_by_a_no_break_space_is_refused_at_its_line_by_either_reading():
    """str.split() (the line reader's) splits '2/\\xa0/2' into '2/' and '/2',
    a corner without an index: the array reading must not read it as one."""
    from mbparse.geometry.mesh_io import _ARRAYS_FROM, _parse_common_obj
    text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2/\xa0/2 3//3\n" + "# padding\n" * (_ARRAYS_FROM // 10)
    assert _parse_common_obj(text) is None
    with pytest.raises(ObjError) as e:
        parse_obj(text)
    assert e.value.line == 4 and "'/2'" in str(e.value)


@pytest.mark.parametrize("form", ["{i}", "{i}/{i}", "{i}//{i}", "{i}/{i}/{i}"])
def test_obj_small_file_read_over_the_whole_text_equals_the_line_by_line_reading(form):
    """Files below the array reading's size are read with Python's numbers
    over the whole text; the mesh (triangles, quads split along the shorter
    diagonal, ear-clipped polygons) is the line reader's, digit for digit."""
    import random

    import numpy as np

    from mbparse.geometry.mesh_io import _parse_common_obj_small, _parse_obj_lines
    rng = random.Random("small" + form)
    for k in range(60):
        text = _random_obj(rng, form, indent=" " if k % 3 == 0 else "",
                           newline="\r\n" if k % 4 == 0 else "\n",
                           sizes=(3, 4, 5, 7) if k % 2 else (3, 4))
        fast = _parse_common_obj_small(text)
        assert fast is not None, text
        slow = _parse_obj_lines(text, False)
        assert fast.vertices.tobytes() == slow.vertices.tobytes()
        assert np.array_equal(fast.faces, slow.faces)
        assert fast.object_names == slow.object_names and fast.warnings == slow.warnings == []


@pytest.mark.parametrize("text", [
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n",          # relative indices
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 +3\n",            # a sign int() takes
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n",             # past the last vertex
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 /3\n",            # a corner without a vertex
    "v 0 0 0 1\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",          # a vertex weight
    "v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",          # not finite
    "v 0 0 | 1\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
    "v 0 0\nv 1 0 0 1\nv 0 1 0\nf 1 2 3\n",            # 2 + 4 numbers on two lines
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\nf 1 2 3\n",     # a face of two corners
])
def test_obj_small_unusual_file_goes_to_the_line_by_line_reading(text):
    from mbparse.geometry.mesh_io import _parse_common_obj_small
    assert _parse_common_obj_small(text) is None
