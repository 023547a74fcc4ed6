"""An OBJ file the whole-file array reading declines is read in blocks:
blocks of common lines over arrays, a block with an unusual line line by
line. The result -- vertices, triangles, object names, warnings, or the
error with its message and line -- is the line-by-line reading's."""
from __future__ import annotations

import random

import numpy as np
import pytest

from mbparse.geometry.mesh_io import (_BLOCK_LINES, EAR_CLIPPING_MAX_CORNERS, ObjError,
                                      _parse_common_obj, _parse_obj_lines, parse_obj)

ODD_LINES = [
    "v 1 2",                      # a missing coordinate: warned, read as 0
    "v 1 2 3 0.5",                # a weight
    "v 0 0 1e400",                # not finite: an error at its line
    "v 1_0 2 3",                  # what float() alone would take
    "v 1.5abc 2 3",               # a numeric prefix (warned)
    "  v 0.25 0.5 0.75",          # indented
    "f 1 2",                      # too few corners: warned, skipped
    "f -1 -2 -3",                 # relative indices
    "f 1/1 2//2 3/3/3",           # mixed corner forms
    "f 1 2 999999",               # past the last vertex: an error at the end
    "f 1 2 99999999999999999999", # past int64: the same error, not an overflow
    "f 0 1 2",                    # index 0: an error at its line
    "f 1 2 " + " ".join(str(k) for k in range(3, EAR_CLIPPING_MAX_CORNERS + 9)),  # fan
    "f 3 4 5 6 7 8 9",            # ear clipping
    "f 1 0 2",                    # index 0 (the array reading ends face rows with a 0)
    "f -0 1 2",
    "f 1 2 3 0",
    "v 1 2 nan",                  # NaN (the array reading ends vertex rows with a NaN)
    "v nan 1 2",
    "v 1 2 3 nan",                # a NaN weight
    "v 1 2 inf",
    "o a name",
    "vn 0 0 1",
    "# v 1 2 3",
    "",
]


def _big_obj(rng: random.Random, vertices: int, faces: int) -> list[str]:
    lines = ["# made up", "o first"]
    lines += ["v " + " ".join(f"{rng.uniform(-2, 2):.6f}" for _ in range(3))
              for _ in range(vertices)]
    for _ in range(faces):
        corners = rng.sample(range(1, vertices + 1), rng.choice((3, 3, 4)))
        lines.append("f " + " ".join(str(i) for i in corners))
    return lines


def _outcome(read, text):
    try:
        mesh = read(text)
    except ObjError as e:
        return ("error", str(e), e.line)
    return (mesh.vertices.tolist(), mesh.faces.tolist(), mesh.object_names, mesh.warnings)


@pytest.mark.parametrize("seed", range(24))
def test_obj_block_reading_equals_the_line_by_line_reading(seed):
    rng = random.Random(seed)
    lines = _big_obj(rng, rng.choice((300, 1500)), rng.choice((600, 2600)))
    for _ in range(rng.randint(1, 4)):
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(ODD_LINES))
    if seed % 4 == 0:  # an old-Mac line break somewhere: the whole-file reading declines
        k = rng.randrange(len(lines) - 1)
        lines[k:k + 2] = [lines[k] + "\r" + lines[k + 1]]
    text = "\n".join(lines) + "\n"
    blocks = _outcome(lambda t: _parse_obj_lines(t, False, blocks=True), text)
    assert blocks == _outcome(lambda t: _parse_obj_lines(t, False), text)
    assert _outcome(parse_obj, text) == blocks


def test_obj_file_with_one_odd_line_is_read_mostly_over_arrays():
    """One short vertex line in a file of thousands: the block holding it is
    read line by line and warns with its line number; the rest is the same."""
    rng = random.Random(7)
    lines = _big_obj(rng, 3000, 3000)
    lines[2500] = "v 1 2"
    text = "\n".join(lines) + "\n"
    assert _parse_common_obj(text) is None
    mesh = parse_obj(text)
    assert mesh.warnings == ["line 2501: vertex coordinate z is missing; it is read as 0 "
                             "(as Drake reads it)"]
    assert mesh.vertices[2498].tolist() == [1.0, 2.0, 0.0]
    assert len(lines) > _BLOCK_LINES[0]


def test_obj_error_in_a_late_block_keeps_its_line():
    rng = random.Random(3)
    lines = _big_obj(rng, 2000, 2500)
    lines.insert(4000, "v 0 0 nan")
    with pytest.raises(ObjError) as e:
        parse_obj("\n".join(lines))
    assert e.value.line == 4001 and "'nan'" in str(e.value)


def test_obj_face_naming_a_vertex_of_a_later_block_is_read():
    """Faces may name vertices that come later in the file."""
    rng = random.Random(5)
    lines = _big_obj(rng, 50, 10) + ["v 1 2"] + [f"v {k} {k % 3} {k % 5}" for k in range(4000)]
    lines.insert(60, "f 1 2 4000")
    text = "\n".join(lines)
    assert np.array_equal(parse_obj(text).faces, _parse_obj_lines(text, False).faces)


def test_obj_corners_with_more_slashes_than_their_neighbours_name_the_vertex_before_the_first():
    """'1//2//3//4 5 6' has as many slashes and '//' as three 'i//k' corners,
    but its corners name vertices 1, 5 and 6 (the word before each first
    '/'), read over arrays as line by line -- not 1, 3 and 5."""
    import numpy as np

    from mbparse.geometry.mesh_io import _ARRAYS_FROM
    vertices = "".join(f"v {i} {i * i % 7} {i % 3}\n" for i in range(8))
    for face in ("f 1//2//3//4 5 6\n", "f 1/2/3 5 6\n", "f 1/2/3/4/5 5 6\n",
                 "f 1/2/3 5 6/7\n",          # the slashes of three i/j corners
                 "f 1/2/3/4/5 5 6/7/8\n"):   # the slashes of three i/j/k corners
        text = vertices + face * 3 + "# padding\n" * (_ARRAYS_FROM // 10)
        assert np.array_equal(parse_obj(text).faces, [[0, 4, 5]] * 3)
        assert np.array_equal(_parse_obj_lines(text, False).faces, [[0, 4, 5]] * 3)


@pytest.mark.parametrize("layout", ["runs", "tab after a keyword", "many short runs", "indented"])
def test_obj_lines_of_a_keyword_found_in_runs_are_the_lines_found_one_by_one(layout):
    """The vertex and face lines of a large file are found run by run (the
    keyword cut out of a whole run at once); the rows are those a search
    line by line finds, whatever the layout, and so is the mesh."""
    import re

    import numpy as np

    from mbparse.geometry.mesh_io import _MAX_RUNS, _keyword_rows
    lines = []
    runs = 2 * _MAX_RUNS if layout == "many short runs" else 3
    for r in range(runs):
        lines += [f"v {r} {k} {r * k % 5}" for k in range(4)] + ["vn 0 0 1", "usemtl m"]
        lines += [f"f {4 * r + 1} {4 * r + 2} {4 * r + 3} {4 * r + 4}", "s off"]
    if layout == "tab after a keyword":
        lines[1], lines[6] = lines[1].replace("v ", "v\t"), lines[6].replace("f ", "f\t")
    if layout == "indented":
        lines[2] = "  " + lines[2]
    text = "\n" + "\n".join(lines) + "\n"
    indented = layout == "indented"
    for keyword in "vf":
        found = re.findall(rf"\n[ \t]*{keyword}[ \t]([^\n]*)", text)
        assert _keyword_rows(text, keyword, indented) == ("\n".join(found), len(found))
    padded = text + "# padding\n" * 150
    assert np.array_equal(parse_obj(padded).faces, _parse_obj_lines(padded, False).faces)
    assert parse_obj(padded).vertices.tobytes() == _parse_obj_lines(padded, False).vertices.tobytes()
