"""Reading Wavefront OBJ meshes and the mass properties of a closed mesh.

The reader follows what Drake sees through tinyobjloader: every ``v`` line
is a vertex (a fourth or more number is a weight or a color and is
ignored), every ``f`` line a polygon whose corners are ``i``, ``i/j``,
``i//k`` or ``i/j/k`` with 1-based or negative (relative) vertex indices.
Polygons are split into triangles the way tinyobjloader does for Drake:
a quadrilateral along its shorter diagonal, larger polygons as a fan from
their first corner (the same split for the planar, convex faces that mesh
files carry). ``o NAME`` lines give object names; all objects' faces form
one mesh.

Mass properties use the divergence theorem over the triangles (each
triangle and the origin span a signed tetrahedron), as Drake's
``CalcSpatialInertia`` of a surface mesh does.
"""
from __future__ import annotations

import math
import re
import sys
from itertools import chain
from typing import Any

from ..files import read_regular_file
from ..limits import MAX_MESH_TRIANGLES, current_limits, raise_hint  # noqa: F401 (its home was here)
from ..numbers import all_finite, partial_number_problem, quote, why_not_finite
from ..records import ValueRecord

Vec3 = tuple[float, float, float]
Inertia6 = tuple[float, float, float, float, float, float]

# A mesh whose enclosed volume is at most this is refused (Drake's bound).
MIN_VOLUME = 1e-14

_NUMBER_PREFIX = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_INT_PREFIX = re.compile(r"\s*[+-]?\d+")


class ObjError(ValueError):
    """An OBJ file that cannot be read as a mesh; ``line`` is 1-based or None;
    ``code`` is ``size-limit`` for a mesh past a size limit, else None."""

    def __init__(self, message: str, line: int | None = None, code: str | None = None):
        super().__init__(message)
        self.line = line
        self.code = code


class ObjMesh(ValueRecord):
    """Vertices (an n×3 float array), triangles (an m×3 integer array of
    indices into ``vertices``) and object names; ``warnings``: problems that
    did not stop the reading (degenerate faces, ...)."""

    _fields = ("vertices", "faces", "object_names", "warnings")

    def __init__(self, vertices: Any = None, faces: Any = None,
                 object_names: list[str] | None = None,
                 warnings: list[str] | None = None) -> None:
        self.vertices = vertices
        self.faces = faces
        self.object_names: list[str] = [] if object_names is None else object_names
        self.warnings: list[str] = [] if warnings is None else warnings

    @property
    def object_name(self) -> str:
        """The last object name in the file ('' when there is none), which
        is the name Drake gives a model made from the file."""
        return self.object_names[-1] if self.object_names else ""


def _real(token: str) -> float | None:
    """A number as C's strtod reads a token (a numeric prefix counts);
    None when the token does not start with a finite number."""
    try:
        value = float(token)
    except ValueError:
        m = _NUMBER_PREFIX.match(token)
        if m is None:
            return None
        value = float(m.group())
    return value if math.isfinite(value) else None


def _vertex(parts: list[str], line: int, warnings: list[str]) -> Vec3:
    """A vertex whose coordinates are not three plain numbers: read as
    tinyobjloader reads it (a numeric prefix counts, a missing or non-number
    coordinate is 0) with a warning; a coordinate that is not finite (NaN,
    ``inf``, ``1e400``) is an error."""
    xyz = []
    for k in range(3):
        token = parts[k] if k < len(parts) else None
        if token is not None:
            try:
                value = float(token)
            except ValueError:
                value = None
            if value is not None and not math.isfinite(value):
                raise ObjError(f"vertex coordinate '{quote(token)}' is not a finite number: "
                               f"{why_not_finite(token, value)}", line)
        value = _real(token) if token is not None else None
        if value is None and token is not None:
            m = _NUMBER_PREFIX.match(token)
            if m is not None:  # a prefix that overflows
                raise ObjError(f"vertex coordinate '{quote(token)}' is not a finite number: "
                               "it is too large for a double", line)
        if value is None:
            warnings.append(f"line {line}: vertex coordinate {'xyz'[k]} "
                            f"{'is missing' if token is None else repr(quote(token)) + ' is not a number'}"
                            "; it is read as 0 (as Drake reads it)")
            value = 0.0
        elif partial_number_problem(token):
            warnings.append(f"line {line}: vertex coordinate {'xyz'[k]}: "
                            f"{partial_number_problem(token)} (as Drake reads it)")
        xyz.append(value)
    return (xyz[0], xyz[1], xyz[2])


def _index(text: str) -> int:
    """An index as C's atoi reads it (0 when there are no digits)."""
    try:
        return int(text)
    except ValueError:
        m = _INT_PREFIX.match(text)
        return int(m.group()) if m else 0


def _face_corners(tokens: list[str], count: int, line: int) -> list[int]:
    """The 0-based vertex index of each face corner, read as tinyobjloader
    reads it (negative indices count back from the ``count`` vertices read
    so far); raises ObjError for a corner that names no vertex."""
    corners = []
    for token in tokens:
        i = _index(token.split("/", 1)[0])
        if i > 0:
            i -= 1
        elif i < 0 and count + i >= 0:
            i += count
        else:
            raise ObjError(f"face corner '{token}' does not name a vertex "
                           f"(indices start at 1; negative ones count back "
                           f"from the last vertex read)", line)
        corners.append(i)
    return corners


def _long_face_corners(tokens: list[str], count: int, line: int) -> list[int]:
    """``_face_corners`` of a face of many corners, read over an array:
    the same indices; anything unusual (a corner naming no vertex, a token
    that is not a plain integer, a number past int64, which NumPy clamps)
    goes to the token-by-token reading, with its error."""
    import numpy as np
    values = _corner_indices(" ".join(tokens), len(tokens))
    if values is None or not ((values > -_INT64_END // 2) & (values < _INT64_END // 2)).all():
        return _face_corners(tokens, count, line)
    corners = np.where(values > 0, values - 1, values + count)
    if (values == 0).any() or (corners < 0).any():
        return _face_corners(tokens, count, line)
    return corners.tolist()


def read_obj(path: str, allow_no_faces: bool = False, most: int | None = None) -> ObjMesh:
    """Reads an OBJ file; raises ObjError (with a line) when it cannot.

    A file without any face is an error: it holds no object to make a
    mesh of (unless ``allow_no_faces``: MuJoCo meshes the convex hull of
    such a file's vertices). A file of more than ``most`` bytes raises
    files.FileTooLargeError unread.
    """
    data = read_regular_file(path, most)
    return parse_obj(data.decode("utf-8", errors="replace"), allow_no_faces)


def parse_obj(text: str, allow_no_faces: bool = False) -> ObjMesh:
    """Parses OBJ text; see ``read_obj``.

    The common file (``v`` lines of three numbers, faces of three to
    EAR_CLIPPING_MAX_CORNERS corners with positive indices) is read over
    whole arrays. Anything else is read in blocks of lines: a block of
    common lines still over arrays, and only a block holding an unusual
    line line by line, which decides every unusual case -- so that one odd
    line in a large file does not cost the whole file a slow reading.
    """
    if len(text) < _ARRAYS_FROM:
        mesh = _parse_common_obj_small(text)
        return mesh if mesh is not None else _parse_obj_lines(text, allow_no_faces)
    mesh = _parse_common_obj(text)
    if mesh is None:
        mesh = _parse_obj_lines(text, allow_no_faces, blocks=True)
    return mesh


# Below this many characters (some 25 vertices) the line reader is quicker
# (NumPy's fixed cost per call outweighs a few dozen lines).
_ARRAYS_FROM = 1400
# The blocks of lines a file the array reading declines is read in: each
# block over arrays when it can be, else in the next, smaller blocks, and
# the smallest line by line. Fewer lines than the last figure are always
# read line by line.
_BLOCK_LINES = (2048, 128)
_ARRAY_BLOCK_MIN_LINES = 48
_INT64_END = 2 ** 63

# Lines of an OBJ file that the array reader takes, by their keyword: the
# quick patterns (a literal to search for) when no line starts with a blank.
_V_LINE = re.compile(r"\nv[ \t]([^\n]*)")
_F_LINE = re.compile(r"\nf[ \t]([^\n]*)")
_O_LINE = re.compile(r"\no[ \t]([^\n]*)")
_V_LINE_INDENTED = re.compile(r"\n[ \t]*v[ \t]([^\n]*)")
_F_LINE_INDENTED = re.compile(r"\n[ \t]*f[ \t]([^\n]*)")
_O_LINE_INDENTED = re.compile(r"\n[ \t]*o[ \t]([^\n]*)")
_INDENTED = re.compile(r"\n[ \t]")  # quicker than two substring searches
_AFTER_SLASH = re.compile(r"/[^ \t]*")
_TWO_SLASHES = re.compile(r"/[^ \t/]*/")            # within one corner
_THREE_SLASHES = re.compile(r"/[^ \t/]*/[^ \t/]*/")
# Line breaks other than \n (and \r\n) that str.splitlines() also honours.
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def _parse_common_obj(text: str) -> ObjMesh | None:
    """The array reading of the common OBJ file, or None when the file has
    anything the line-by-line reader must decide: other line breaks,
    vertices without exactly three finite plain numbers, faces with fewer
    than three or more than EAR_CLIPPING_MAX_CORNERS corners, negative or
    zero indices, an index past the last vertex, no faces, more than
    EAR_CLIPPING_MAX_POLYGONS faces to clip (which need a warning)."""
    common = _common_lines(text)
    if common is None:
        return None
    rows = _array_rows(common[0], need_faces=True, indented=common[1])
    if rows is None:
        return None
    V, flat, counts, names = rows
    if flat.max() >= len(V) or (counts > 4).sum() > EAR_CLIPPING_MAX_POLYGONS:
        return None
    return ObjMesh(V, _triangulate(V, flat, counts), names)


def _common_lines(text: str) -> tuple[str, bool] | None:
    """``text`` starting with and breaking lines at ``\\n`` only, and
    whether a line starts with a blank; None when it has line breaks other
    than ``\\n`` and ``\\r\\n`` (the line reader decides those)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    if any(c in text for c in _OTHER_BREAKS):
        return None
    text = "\n" + text
    return text, _INDENTED.search(text) is not None


def _parse_common_obj_small(text: str) -> ObjMesh | None:
    """The common OBJ file (as ``_parse_common_obj``) read with Python's
    own numbers over the whole text instead of line by line: the same
    ``float()`` and ``int()`` of the same words as the line reader, so the
    same mesh; None when a line is one the line reader must decide."""
    import numpy as np

    common = _common_lines(text)
    if common is None:
        return None
    text, indented = common
    f_rows = (_F_LINE_INDENTED if indented else _F_LINE).findall(text)
    if not f_rows:
        return None
    v_rows = (_V_LINE_INDENTED if indented else _V_LINE).findall(text)
    # Every vertex row three words: a '|' word between the rows, and none
    # elsewhere (a '|' inside a word makes float() fail).
    words = " | ".join(v_rows).split()
    count = len(v_rows)
    if len(words) != 4 * count - 1 or words[3::4].count("|") != count - 1:
        return None
    del words[3::4]
    try:
        values = list(map(float, words))
    except ValueError:
        return None
    total = sum(values)
    if total - total != 0.0:  # a NaN or an infinity (or a sum past the doubles)
        return None
    # The corners of each face row, then the vertex of every corner: the
    # word before its first '/' (as the line reader takes it), looked up
    # among the vertex numbers as str() writes them (quicker than int();
    # any other word, or a vertex past the last, is the line reader's).
    counts = list(map(len, map(str.split, f_rows)))
    if min(counts) < 3 or max(counts) > EAR_CLIPPING_MAX_CORNERS:
        return None
    faces = " ".join(f_rows)
    words = faces.split()
    if "/" in faces:
        words = [word.partition("/")[0] for word in words]
    vertex = dict(zip(map(str, range(1, count + 1)), range(count)))
    try:
        corners = list(map(vertex.__getitem__, words))
    except KeyError:
        return None
    reading = _ObjReading()
    reading.vertices = list(zip(values[0::3], values[1::3], values[2::3]))
    reading.corners = corners
    reading.counts = counts
    reading.mesh.object_names = (_O_LINE_INDENTED if indented else _O_LINE).findall(text)
    return reading._finish_lists(np.array(values, dtype=np.float64).reshape(-1, 3))


def _array_rows(text: str, need_faces: bool, indented: bool | None = None):
    """(vertices, 0-based face corners one after the other, corners per
    face, object names) of OBJ text that starts with and breaks lines at
    ``\\n`` only, read over whole arrays; None when a line is one the line
    reader must decide (see ``_parse_common_obj``; an index past the last
    vertex is left to the caller), or when ``need_faces`` and there is none.
    ``indented``: whether a line starts with a blank, if known."""
    import numpy as np

    if indented is None:
        indented = _INDENTED.search(text) is not None
    f_rows = _keyword_rows(text, "f", indented)
    if need_faces and not f_rows[1]:
        return None
    # Faces first: their integers read quicker than the vertices' numbers,
    # so a file the line reader must decide is found out sooner.
    if f_rows[1]:
        faces, count = f_rows
        if "\x1f" in faces or not faces.isascii():  # blanks str.split() splits at, bytes do not
            return None
        rows = _face_rows(faces, count)
        if rows is None:
            return None
        flat, counts = rows
    else:
        flat = counts = np.empty(0, dtype=np.int64)
    vertices, count = _keyword_rows(text, "v", indented)
    if count:
        V = _vertex_array(vertices, count)
        if V is None:
            return None
    else:
        V = np.empty((0, 3), dtype=np.float64)
    return V, flat, counts, (_O_LINE_INDENTED if indented else _O_LINE).findall(text)


# The lines of one keyword: where a run of them starts, and where it ends
# (the first line break not followed by that keyword and a blank).
_RUNS = {k: (re.compile(rf"\n{k}[ \t]"), re.compile(rf"\n(?!{k}[ \t])")) for k in "vf"}
_ROWS = {"v": (_V_LINE, _V_LINE_INDENTED), "f": (_F_LINE, _F_LINE_INDENTED)}
# Past this many runs of lines, the lines are found one by one instead.
_MAX_RUNS = 64


def _keyword_rows(text: str, keyword: str, indented: bool) -> tuple[str, int]:
    """The text after ``keyword`` and a blank of each line that starts
    with them, one per line, and how many there are. Such lines mostly
    come in runs (all the vertices, then all the faces): a run is found
    with two searches and its keywords cut out at once, instead of a
    search per line; text with lines that start with blanks, a tab after a
    keyword, or many short runs is searched line by line."""
    if not indented:
        start, end = _RUNS[keyword]
        runs = []
        m = start.search(text)
        while m is not None and len(runs) < _MAX_RUNS:
            e = end.search(text, m.start() + 1)
            stop = len(text) if e is None else e.start()
            runs.append(text[m.start():stop])
            m = start.search(text, stop)
        if m is None:
            joined = "".join(runs)
            if f"\n{keyword}\t" not in joined:
                # (each line of a run starts with the keyword and a space: one
                # replacement pass takes them out, and makes no new ones)
                rows = joined.replace(f"\n{keyword} ", "\n")
                return rows[1:], rows.count("\n")
    found = _ROWS[keyword][indented].findall(text)
    return "\n".join(found), len(found)


def _triangulate(V, flat, counts, large_lines: dict[int, int] | None = None,
                 warnings: list[str] | None = None):
    """The triangles of polygons of 3 or more corners (``counts``, their
    corner indices one after the other in ``flat``), polygon by polygon in
    file order, split as tinyobjloader splits them: quadrilaterals over
    whole arrays, the few larger polygons one by one (see ``_clip_ears``;
    ``large_lines`` gives the line of a polygon past the ear-clipping
    limit, for the warning when it is not convex)."""
    import numpy as np

    if len(flat) == 3 * len(counts):  # every face a triangle (none has fewer corners)
        _check_triangle_count(len(counts))
        return flat.reshape(-1, 3)
    starts = np.cumsum(counts) - counts
    triangles = counts - 2
    _check_triangle_count(int(triangles.sum()))
    large = np.flatnonzero(counts > 4)
    fanned = None
    if len(large) > EAR_CLIPPING_MAX_POLYGONS:
        # Ear clipping costs tens of microseconds a polygon in Python: past
        # the limit, polygons are split as fans from their first corner.
        fanned = large[EAR_CLIPPING_MAX_POLYGONS:]
        fanned = fanned[counts[fanned] <= EAR_CLIPPING_MAX_CORNERS]
        large = np.setdiff1d(large, fanned, assume_unique=True)
        if warnings is not None:
            warnings.append(_fans_warning(len(fanned)))
    clipped: list[list[tuple[int, int, int]]] = []
    for k in large.tolist():
        if counts[k] > EAR_CLIPPING_MAX_CORNERS:
            clipped.append(_large_polygon_fan(V, flat[starts[k]:starts[k] + counts[k]],
                                              warnings, (large_lines or {}).get(k)))
            continue
        corners = flat[starts[k]:starts[k] + counts[k]].tolist()
        points = dict(zip(corners, V[corners].tolist()))
        clipped.append([])
        _clip_ears(points, corners, clipped[-1], warnings,  # type: ignore[arg-type]
                   (large_lines or {}).get(k))
        triangles[k] = len(clipped[-1])  # fewer when ear clipping gives up
    first = np.cumsum(triangles) - triangles  # each polygon's first output row
    F = np.empty((int(triangles.sum()), 3), dtype=np.int64)
    tri = counts == 3
    s = starts[tri]
    F[first[tri]] = np.stack([flat[s], flat[s + 1], flat[s + 2]], axis=1)
    quad = counts == 4
    if quad.any():
        s = starts[quad]
        c0, c1, c2, c3 = flat[s], flat[s + 1], flat[s + 2], flat[s + 3]
        # tinyobjloader's cut along the shorter diagonal (1-3 on a tie),
        # the squared lengths summed x, y, z in that order as it does.
        d = V[c2] - V[c0]
        d02 = (d[:, 0] ** 2 + d[:, 1] ** 2) + d[:, 2] ** 2
        d = V[c3] - V[c1]
        d13 = (d[:, 0] ** 2 + d[:, 1] ** 2) + d[:, 2] ** 2
        short02 = (d02 < d13)[:, None]
        F[first[quad]] = np.where(short02, np.stack([c0, c1, c2], 1), np.stack([c0, c1, c3], 1))
        F[first[quad] + 1] = np.where(short02, np.stack([c0, c2, c3], 1),
                                      np.stack([c1, c2, c3], 1))
    for k, rows in zip(large.tolist(), clipped):
        if len(rows):
            F[first[k]:first[k] + len(rows)] = rows
    if fanned is not None and len(fanned):
        n = triangles[fanned]
        polygon = np.repeat(fanned, n)
        j = np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)  # 0.. within a polygon
        s = starts[polygon]
        F[first[polygon] + j] = np.stack([flat[s], flat[s + j + 1], flat[s + j + 2]], axis=1)
    return F


def _fans_warning(count: int) -> str:
    return (f"{count:,} faces of 5 to {EAR_CLIPPING_MAX_CORNERS} corners past the first "
            f"{EAR_CLIPPING_MAX_POLYGONS:,} were split as fans from their first corner, not by "
            "ear clipping (Drake's ear clipping may split those that are not convex "
            "differently)")


def _check_triangle_count(count: int, line: int | None = None) -> None:
    """Refuses a mesh of more triangles than the limit ``max_mesh_triangles``;
    with ``line``, ``count`` is those read up to that line (the mesh has at
    least as many)."""
    most = current_limits().max_mesh_triangles
    if most and count > most:
        raise ObjError(f"the mesh has {'at least ' if line else ''}{count:,} triangles, more "
                       f"than the {most:,} mbparse reads of one mesh; "
                       f"{raise_hint('max_mesh_triangles')}", line, code="size-limit")


def _large_polygon_fan(V, corners, warnings: list[str] | None, line: int | None):
    """What ``_clip_ears`` makes of a polygon past EAR_CLIPPING_MAX_CORNERS
    (a fan from its first corner, with a warning when the polygon is not
    convex), over arrays: the same triangles and warning."""
    import numpy as np
    n = len(corners)
    if warnings is not None:
        P = V[corners]
        ax, ay = _projection_axes(P, range(n))  # type: ignore[arg-type]
        a, b, c = P, np.roll(P, -1, axis=0), np.roll(P, -2, axis=0)
        with np.errstate(all="ignore"):
            cross = (b[:, ax] - a[:, ax]) * (c[:, ay] - b[:, ay]) \
                - (b[:, ay] - a[:, ay]) * (c[:, ax] - b[:, ax])
        if np.isfinite(cross).all():
            turns = cross[cross != 0]  # each turn against the one before, as the loop does
            convex = not bool((turns[1:] * turns[:-1] < 0).any())
        else:  # an overflow: the loop's own reading of infinities and NaN
            convex = _is_convex(P.tolist(), list(range(n)), ax, ay)
        if not convex:
            warnings.append(f"line {line}: a non-convex face of {n} corners was split as a "
                            "fan from its first corner (Drake's ear clipping may split it "
                            "differently)")
    return np.stack([np.full(n - 2, corners[0]), corners[1:-1], corners[2:]], axis=1)


def _vertex_array(rows: str, count: int):
    """The ``count`` vertices of ``rows`` (the text after ``v`` of each
    vertex line, one per line) as an array of shape (count, 3), or None
    when a line does not hold exactly three finite numbers. The count is
    one of each line: a line of two numbers and one of four hold six
    numbers together, but the line reader warns about the first and takes
    the fourth number of the second for a weight."""
    import numpy as np

    # float() would read 1_0 as ten; str.split() (the line reader's) splits
    # at blanks other than spaces and tabs too.
    if "_" in rows or "\x1f" in rows or not rows.isascii():
        return None
    if len(rows) >= _FIXED_POINT_FROM:
        V = _fixed_point_vertices(rows, count)
        if V is not None:
            return V
    # A NaN after each row: every row holds three numbers exactly when the
    # NaNs are every fourth number and no other number is NaN (or infinite).
    V = _numbers(rows.replace("\n", " nan ") + " nan", np.float64)
    if V is None or len(V) != 4 * count:
        return None
    V = V.reshape(-1, 4)
    if not np.isnan(V[:, 3]).all():
        return None
    V = V[:, :3]
    if not np.isfinite(V).all():
        return None
    return np.ascontiguousarray(V)


# Vertex text shorter than this (some 400 vertices) is read quicker as floats.
_FIXED_POINT_FROM = 12000
# Powers of ten that are exact doubles (10**22 is the last).
_EXACT_POWERS_OF_TEN = tuple(float(f"1e{k}") for k in range(23))
_EXACT_INTEGER_BOUND = 2 ** 53


def _fixed_point_vertices(rows: str, count: int):
    """The vertices of ``rows`` (as ``_vertex_array``) when every number is
    written with one decimal point and the same count of digits after it
    (what mesh exporters write), else None. NumPy reads integers some ten
    times faster than decimals, so the numbers are read without their
    points and divided by that power of ten: an integer below 2**53 divided
    by an exact power of ten is one correctly rounded operation, the very
    double float() reads from the decimal."""
    import numpy as np

    first = rows.split("\n", 1)[0].split()  # the first row tells most files apart cheaply
    places = {len(t) - t.find(".") for t in first if t.count(".") == 1}
    if len(first) != 3 or len(places) != 1:
        return None
    b = np.frombuffer(rows.encode("ascii"), dtype=np.uint8)
    solid = b > 32
    last = solid.copy()  # the last character of each number
    last[:-1] &= ~solid[1:]
    ends = np.flatnonzero(last)
    dots = np.flatnonzero(b == 46)
    if len(ends) != 3 * count or len(dots) != len(ends):
        return None
    places = ends - dots
    digits = int(places[0])
    # One point in each number (the k-th point after the end of number k-1,
    # before the end of number k), followed by the same count of characters.
    if not 1 <= digits < len(_EXACT_POWERS_OF_TEN) or (places != digits).any() \
            or (dots[1:] <= ends[:-1]).any():
        return None
    # Three numbers on each line: lines end between the third number of a
    # row and the first of the next.
    newlines = np.flatnonzero(b == 10)
    row_ends = ends.reshape(-1, 3)
    if len(newlines) != count - 1 or (row_ends[:-1, 2] > newlines).any() \
            or (row_ends[1:, 0] < newlines).any():
        return None
    # NumPy's integer reading reads a lone sign as 0, but a number here has
    # a character after its point, and a point and a sign without a digit
    # between them make the reading stop (None).
    M = _numbers(rows.replace(".", ""), np.int64)
    if M is None or len(M) != len(ends) or M.max() >= _EXACT_INTEGER_BOUND \
            or M.min() <= -_EXACT_INTEGER_BOUND:
        return None
    V = M / _EXACT_POWERS_OF_TEN[digits]
    zero = M == 0
    if zero.any():  # '-0.000' is -0.0, as float() reads it
        first = solid.copy()
        first[1:] &= ~solid[:-1]
        V[zero & (b[np.flatnonzero(first)] == 45)] = -0.0
    return V.reshape(-1, 3)


def _numbers(text: str, dtype):
    """The whitespace-separated numbers of ``text`` as one array, or None
    when one of them is not a number of that type."""
    import warnings

    import numpy as np
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NumPy warns when it stops early
        try:
            return np.fromstring(text, dtype=dtype, sep=" ")
        except (ValueError, DeprecationWarning):
            return None


def _face_rows(faces: str, rows: int):
    """(0-based corner indices one after the other, corners per face) of
    ``rows`` face rows (the text after ``f``, one per line), or None when a
    face has fewer than 3 or more than EAR_CLIPPING_MAX_CORNERS corners, or
    a corner that is not a positive index."""
    import numpy as np

    if "/" not in faces:
        # A 0 after each row (0 is no index): the zeros end the rows.
        values = _numbers(faces.replace("\n", " 0 ") + " 0", np.int64)
        if values is None:
            return None
        zero = values == 0
        ends = np.flatnonzero(zero)
        if len(ends) != rows or ends[-1] != len(values) - 1:
            return None
        counts = ends.copy()  # (np.diff and np.delete cost more than these)
        counts[1:] -= ends[:-1] + 1
        flat = values[~zero]
    else:
        counts, starts = _tokens_per_row(faces, rows)
        flat = None
    if counts.min() < 3 or counts.max() > EAR_CLIPPING_MAX_CORNERS:
        return None
    if flat is None:
        flat = _corner_indices(faces.replace("\n", " "), int(counts.sum()), starts)
    if flat is None or flat.min() < 1:
        return None
    flat -= 1
    return flat, counts


def _tokens_per_row(text: str, rows: int):
    """How many blank-separated tokens each line of ``text`` holds, and
    the byte offset of each token (``text`` is ASCII)."""
    import numpy as np
    b = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    solid = b > 32  # not a blank, a tab or a line break
    start = solid.copy()
    start[1:] &= ~solid[:-1]
    starts = np.flatnonzero(start)
    row = np.searchsorted(np.flatnonzero(b == 10), starts)
    return np.bincount(row, minlength=rows)[:rows], starts


def _corner_indices(corners: str, count: int, starts=None):
    """The vertex index of each of ``count`` face corners (``i``, ``i/j``,
    ``i//k``, ``i/j/k``), or None when they do not all read as integers.
    ``starts``: the byte offset of each corner, when the caller has them."""
    import numpy as np
    slashes = corners.count("/")
    doubles = corners.count("//")
    if "_" in corners:  # int() would read 1_0 as ten
        return None
    # The totals fit one form only when no corner has more slashes than
    # the form (then each has exactly its form's): '1//2//3//4 5 6' has the
    # slashes and '//' of three 'i//k' corners, but its corners are 1, 5, 6.
    # (The slashes of 'i//k' are turned to blanks one by one: a same-length
    # replacement, a tenth of the cost of replacing '//'.)
    if slashes == 0:
        fields, text = 1, corners
    elif (slashes == count and doubles == 0 and _slashes_each(corners, count, 1, starts)) or (
            slashes == 2 * count and doubles == count and _slashes_each(corners, count, 2, starts)):
        fields, text = 2, corners.replace("/", " ")  # (i/j or i//k)
    elif slashes == 2 * count and doubles == 0 and _slashes_each(corners, count, 2, starts):
        fields, text = 3, corners.replace("/", " ")
    else:  # the corners mix their forms
        fields, text = 1, _AFTER_SLASH.sub("", corners)
    values = _numbers(text, np.int64)
    if values is None or len(values) != fields * count:
        return None
    return values[::fields].copy() if fields > 1 else values


def _slashes_each(corners: str, count: int, per: int, starts=None) -> bool:
    """Whether each of the ``count`` corners of ``corners`` (separated by
    blanks and tabs; the text holds ``per * count`` slashes) holds exactly
    ``per`` slashes. Over arrays when ``starts`` (each corner's offset)
    is given and the text has no other control character: the k-th run of
    ``per`` slashes must lie between corner k's start and corner k+1's
    (a regular expression over the text took a fifth of a large file's
    reading); else by searching for a corner of more."""
    if starts is not None and len(starts) == count and corners.isascii():
        import numpy as np
        b = np.frombuffer(corners.encode("ascii"), dtype=np.uint8)
        if not ((b < 32) & (b != 9)).any():
            at = np.flatnonzero(b == 47)
            return bool((at[::per] >= starts).all() and (at[per - 1::per][:-1] < starts[1:]).all())
    return (_TWO_SLASHES if per == 1 else _THREE_SLASHES).search(corners) is None


def _parse_obj_lines(text: str, allow_no_faces: bool, blocks: bool = False) -> ObjMesh:
    """The line-by-line reading, for any OBJ text; with ``blocks``, blocks
    of common lines are read over arrays (the same mesh, warnings and
    errors, sooner)."""
    lines = text.splitlines()
    reading = _ObjReading()
    if blocks:
        reading.read_blocks(lines, 0, len(lines))
    else:
        reading.read_lines(lines, 0)
    return reading.finish(allow_no_faces, max(1, len(lines)))


class _ObjReading:
    """What has been read of an OBJ file so far, in file order: vertices
    and polygons read line by line (Python lists) or block by block
    (arrays)."""

    def __init__(self) -> None:
        self.mesh = ObjMesh()
        self.vertex_parts: list[Any] = []   # arrays of vertices, in file order
        self.corner_parts: list[Any] = []   # arrays of 0-based polygon corners
        self.count_parts: list[Any] = []    # arrays of corners per polygon
        self.read_arrays = False            # whether a block was read over arrays
        self.stored_vertices = 0            # vertices in vertex_parts
        self.stored_polygons = 0            # polygons in count_parts
        self.vertices: list[Vec3] = []      # read line by line since the last store
        self.corners: list[int] = []
        self.counts: list[int] = []
        self.large_lines: dict[int, int] = {}  # polygon past the ear-clipping limit -> its line
        self.large_triangles = 0            # the triangles those polygons make
        self.greatest = -1                  # the greatest corner index read line by line
        self.greatest_line = 1

    def _store(self) -> None:
        """Moves what was read line by line into the arrays."""
        import numpy as np
        if self.vertices:
            self.vertex_parts.append(np.array(self.vertices, dtype=np.float64).reshape(-1, 3))
            self.stored_vertices += len(self.vertices)
            self.vertices = []
        if self.counts:
            # A corner past int64 names a vertex no file has: finish() refuses
            # the file with that corner's line, so its polygons need no array.
            corners = self.corners if self.greatest < _INT64_END else [0] * len(self.corners)
            self.corner_parts.append(np.array(corners, dtype=np.int64))
            self.count_parts.append(np.array(self.counts, dtype=np.int64))
            self.stored_polygons += len(self.counts)
            self.corners, self.counts = [], []

    def read_blocks(self, lines: list[str], lo: int, hi: int, level: int = 0) -> None:
        """Reads ``lines[lo:hi]``: each block of _BLOCK_LINES[level] lines
        over arrays when it can be, else in smaller blocks, else line by line."""
        size = _BLOCK_LINES[level]
        for a in range(lo, hi, size):
            b = min(a + size, hi)
            if b - a >= _ARRAY_BLOCK_MIN_LINES and self._read_block_arrays(lines[a:b]):
                continue
            if level + 1 < len(_BLOCK_LINES) and b - a > _BLOCK_LINES[level + 1]:
                self.read_blocks(lines, a, b, level + 1)
            else:
                self.read_lines(lines[a:b], a)

    def _read_block_arrays(self, lines: list[str]) -> bool:
        """Reads a block of lines over arrays; False (nothing read) when one
        of its lines is for the line reader to decide, or a face names a
        vertex not read by the end of the block (the line reader decides
        whether that is an error)."""
        rows = _array_rows("\n" + "\n".join(lines), need_faces=False)
        if rows is None:
            return False
        V, flat, counts, names = rows
        if len(flat) and flat.max() >= self.stored_vertices + len(self.vertices) + len(V):
            return False
        self._store()
        self.read_arrays = True
        self.vertex_parts.append(V)
        self.stored_vertices += len(V)
        self.corner_parts.append(flat)
        self.count_parts.append(counts)
        self.stored_polygons += len(counts)
        self.mesh.object_names.extend(names)
        return True

    def read_lines(self, lines: list[str], offset: int) -> None:
        """Reads lines one by one; ``offset`` is the number of lines before them."""
        mesh = self.mesh
        vertices, corners_read, counts = self.vertices, self.corners, self.counts
        for line_number, raw in enumerate(lines, start=offset + 1):
            line = raw.lstrip(" \t")
            if not line or line[0] == "#":
                continue
            head = line[:2]
            if head == "v " or head == "v\t":
                parts = line[2:].split(None, 3)
                try:
                    vertices.append((float(parts[0]), float(parts[1]), float(parts[2])))
                except (ValueError, IndexError):
                    vertices.append(_vertex(parts, line_number, mesh.warnings))
                else:
                    if not all_finite(vertices[-1]):
                        vertices.pop()
                        _vertex(parts, line_number, mesh.warnings)
            elif head == "f " or head == "f\t":
                tokens = line[2:].split()
                if len(tokens) > EAR_CLIPPING_MAX_CORNERS:  # a long line: over an array
                    self.large_triangles += len(tokens) - 2  # (counted before all are read)
                    _check_triangle_count(self.large_triangles, line_number)
                    corners = _long_face_corners(tokens, self.stored_vertices + len(vertices),
                                                 line_number)
                else:
                    try:  # the common face: positive indices that int() reads
                        corners = [int(token.split("/", 1)[0]) - 1 for token in tokens]
                    except ValueError:
                        corners = []
                    if len(corners) != len(tokens) or (corners and min(corners) < 0):
                        corners = _face_corners(tokens, self.stored_vertices + len(vertices),
                                                line_number)
                if len(corners) < 3:
                    mesh.warnings.append(f"line {line_number}: a face with fewer than three "
                                         f"corners was skipped")
                    continue
                if max(corners) > self.greatest:
                    self.greatest, self.greatest_line = max(corners), line_number
                if len(corners) > EAR_CLIPPING_MAX_CORNERS:
                    self.large_lines[self.stored_polygons + len(counts)] = line_number
                corners_read.extend(corners)
                counts.append(len(corners))
            elif head == "o " or head == "o\t":
                mesh.object_names.append(line[2:])

    def finish(self, allow_no_faces: bool, last_line: int) -> ObjMesh:
        """The mesh read; raises ObjError for a face naming a vertex the
        file lacks, or a file without faces (unless ``allow_no_faces``)."""
        import numpy as np

        if self.read_arrays:
            self._store()
        if self.greatest >= self.stored_vertices + len(self.vertices):
            raise ObjError(f"a face names vertex {self.greatest + 1} but the file has only "
                           f"{self.stored_vertices + len(self.vertices)} vertices",
                           self.greatest_line)
        if not self.stored_polygons and not self.counts and not allow_no_faces:
            raise ObjError("the OBJ data has no faces, so it holds no object to make a mesh "
                           "of (the data may be empty, corrupt or not OBJ)", last_line)
        mesh = self.mesh
        if self.large_lines and not self.read_arrays:
            # A polygon past the ear-clipping limit is split over arrays.
            self._store()
            self.read_arrays = True
        if not self.read_arrays:  # a small file: Python is quicker than NumPy's calls
            return self._finish_lists()
        V = (np.concatenate(self.vertex_parts) if self.vertex_parts
             else np.empty((0, 3), dtype=np.float64))
        if self.stored_polygons:
            F = _triangulate(V, np.concatenate(self.corner_parts),
                             np.concatenate(self.count_parts), self.large_lines, mesh.warnings)
        else:
            F = np.empty((0, 3), dtype=np.int64)
        mesh.vertices, mesh.faces = V, F
        return mesh

    def _finish_lists(self, V: Any = None) -> ObjMesh:
        """The mesh of a file read line by line only, triangulated polygon
        by polygon (see ``_triangulate`` for the same split over arrays);
        ``V``: the vertices as an array already, if they are."""
        import numpy as np
        vertices, corners, counts = self.vertices, self.corners, self.counts
        _check_triangle_count(len(corners) - 2 * len(counts))
        if len(corners) == 3 * len(counts):  # triangles only (none has fewer corners)
            faces = corners
        else:
            faces = []  # flat, three corners a triangle (NumPy reads flat lists quickest)
            start, fanned, clip = 0, 0, EAR_CLIPPING_MAX_POLYGONS
            for k, n in enumerate(counts):
                if n == 3:
                    faces += corners[start:start + 3]
                elif n == 4:
                    _split_quad(vertices, corners[start:start + 4], faces)
                elif clip <= 0 and n <= EAR_CLIPPING_MAX_CORNERS:  # (as _triangulate does)
                    first = corners[start]
                    for j in range(start + 1, start + n - 1):
                        faces += (first, corners[j], corners[j + 1])
                    fanned += 1
                else:
                    clip -= 1
                    clipped: list[tuple[int, int, int]] = []
                    _clip_ears(vertices, corners[start:start + n], clipped, self.mesh.warnings,
                               self.large_lines.get(k))
                    for triangle in clipped:
                        faces += triangle
                start += n
            if fanned:
                self.mesh.warnings.append(_fans_warning(fanned))
        mesh = self.mesh
        if V is None:
            V = np.fromiter(chain.from_iterable(vertices), np.float64, 3 * len(vertices))
        mesh.vertices = V.reshape(-1, 3)
        mesh.faces = np.array(faces, dtype=np.int64).reshape(-1, 3)
        return mesh


def _split_quad(vertices: list[Vec3], c: list[int], faces: list[int]) -> None:
    """Two triangles from a quadrilateral, cut along its shorter diagonal
    (the 1-3 diagonal when both are equally long), as tinyobjloader does;
    their corners are appended to the flat list ``faces``."""
    c0, c1, c2, c3 = c
    x0, y0, z0 = vertices[c0]
    x1, y1, z1 = vertices[c1]
    x2, y2, z2 = vertices[c2]
    x3, y3, z3 = vertices[c3]
    # Summed x, y, z in that order, as tinyobjloader (and _triangulate) does.
    d02 = ((x2 - x0) * (x2 - x0) + (y2 - y0) * (y2 - y0)) + (z2 - z0) * (z2 - z0)
    d13 = ((x3 - x1) * (x3 - x1) + (y3 - y1) * (y3 - y1)) + (z3 - z1) * (z3 - z1)
    if d02 < d13:
        faces += (c0, c1, c2, c0, c2, c3)
    else:
        faces += (c0, c1, c3, c1, c2, c3)


def _projection_axes(vertices: list[Vec3], c: list[int]) -> tuple[int, int]:
    """The two coordinate axes a polygon is flattened onto for ear clipping:
    the plane most nearly facing the first corner that is not straight."""
    n = len(c)
    eps = sys.float_info.epsilon
    for k in range(n):
        a, b, d = vertices[c[k]], vertices[c[(k + 1) % n]], vertices[c[(k + 2) % n]]
        e0 = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
        e1 = (d[0] - b[0], d[1] - b[1], d[2] - b[2])
        cx = abs(e0[1] * e1[2] - e0[2] * e1[1])
        cy = abs(e0[2] * e1[0] - e0[0] * e1[2])
        cz = abs(e0[0] * e1[1] - e0[1] * e1[0])
        if cx > eps or cy > eps or cz > eps:
            if cx > cy and cx > cz:
                return (1, 2)
            return (0, 1) if (cz > cx and cz > cy) else (0, 2)
    return (1, 2)


def _inside(xs: list[float], ys: list[float], tx: float, ty: float) -> bool:
    """Whether (tx, ty) is inside a polygon, by counting edge crossings."""
    inside = False
    j = len(xs) - 1
    for i in range(len(xs)):
        if (ys[i] > ty) != (ys[j] > ty) and \
                tx < (xs[j] - xs[i]) * (ty - ys[i]) / (ys[j] - ys[i]) + xs[i]:
            inside = not inside
        j = i
    return inside


# Polygons with more corners than this are split as a fan: ear clipping
# costs a time quadratic (cubic, for degenerate polygons) in the corners.
EAR_CLIPPING_MAX_CORNERS = 64
# Polygons of five or more corners ear-clipped in one mesh; the rest are split
# as fans (with a warning), so that a file of millions of pentagons does not
# take minutes.
EAR_CLIPPING_MAX_POLYGONS = 20_000


def _is_convex(vertices: list[Vec3], corners: list[int], ax: int, ay: int) -> bool:
    """Whether the polygon, flattened onto axes ``ax``/``ay``, turns one way only."""
    n = len(corners)
    sign = 0.0
    for k in range(n):
        a, b, c = (vertices[corners[(k + j) % n]] for j in range(3))
        cross = (b[ax] - a[ax]) * (c[ay] - b[ay]) - (b[ay] - a[ay]) * (c[ax] - b[ax])
        if cross * sign < 0:
            return False
        if cross != 0:
            sign = cross
    return True


def _clip_ears(vertices: list[Vec3], corners: list[int],
               faces: list[tuple[int, int, int]], warnings: list[str] | None = None,
               line: int | None = None) -> None:
    """Triangles from a polygon of five or more corners by the ear clipping
    tinyobjloader (as built for Drake) does, so that non-planar polygons
    are split the same way.

    Time stays near-linear: a polygon of more than EAR_CLIPPING_MAX_CORNERS
    corners is split as a fan from its first corner (which is what ear
    clipping gives a convex polygon), with a warning when it is not convex;
    a smaller one gets a budget of steps, past which the rest is a fan too.
    """
    ax, ay = _projection_axes(vertices, corners)
    n = len(corners)
    if n > EAR_CLIPPING_MAX_CORNERS:
        if warnings is not None and not _is_convex(vertices, corners, ax, ay):
            warnings.append(f"line {line}: a non-convex face of {n} corners was split as a "
                            "fan from its first corner (Drake's ear clipping may split it "
                            "differently)")
        faces.extend((corners[0], corners[k], corners[k + 1]) for k in range(1, n - 1))
        return
    budget = 4 * n * n
    remaining = list(corners)
    guess = 0
    tries = len(corners)
    previous = len(remaining)
    while len(remaining) > 3 and tries > 0:
        budget -= len(remaining)
        if budget < 0:
            faces.extend((remaining[0], remaining[k], remaining[k + 1])
                         for k in range(1, len(remaining) - 1))
            return
        n = len(remaining)
        if guess >= n:
            guess -= n
        if previous != n:
            previous = n
            tries = n
        else:
            tries -= 1
        tri = [remaining[(guess + k) % n] for k in range(3)]
        xs = [vertices[i][ax] for i in tri]
        ys = [vertices[i][ay] for i in tri]
        cross = (xs[1] - xs[0]) * (ys[2] - ys[1]) - (ys[1] - ys[0]) * (xs[2] - xs[1])
        # tinyobjloader compares the turn with this quantity, not the area.
        area = (xs[0] * ys[1] - ys[0] * xs[1]) * 0.5
        if cross * area < 0.0:
            guess += 1
            continue
        overlap = False
        for other in range(3, n):
            v = vertices[remaining[(guess + other) % n]]
            if _inside(xs, ys, v[ax], v[ay]):
                overlap = True
                break
        if overlap:
            guess += 1
            continue
        faces.append((tri[0], tri[1], tri[2]))
        del remaining[(guess + 1) % n]
    if len(remaining) == 3:
        faces.append((remaining[0], remaining[1], remaining[2]))


class MeshVolumeError(ValueError):
    """The mesh does not enclose a positive volume (open, or wound inward)."""

    def __init__(self, volume: float):
        if not math.isfinite(volume):
            super().__init__(
                "the mesh's volume overflows a double (its coordinates are too large for "
                "the sums that give its mass properties); write its vertices in metres, "
                "or scale it down")
        else:
            super().__init__(
                f"the mesh encloses a volume of {volume:g} m³, but a positive volume of at "
                f"least {MIN_VOLUME:g} is needed to compute its mass properties; the mesh "
                f"may be open, or some faces may be wound so that their normals point "
                f"inward")
        self.volume = volume


# Triangles summed at once by mass_properties (more are summed in parts).
_MASS_PART = 1 << 20


def _six_volumes(P):
    """6 × the signed volume of each tet (origin, p, q, r) of the triangles
    ``P`` (triangle, corner, axis): (p × q) · r. Whole-array arithmetic with
    few NumPy calls: each call has a fixed cost that dominates on the small
    meshes models mostly carry."""
    px, py, pz, qx, qy, qz, rx, ry, rz = P.reshape(-1, 9).T
    return (py * qz - pz * qy) * rx + (pz * qx - px * qz) * ry + (px * qy - py * qx) * rz


def mass_properties(vertices: list[Vec3], faces: list[tuple[int, int, int]],
                    density: float) -> tuple[float, Vec3, Inertia6]:
    """Mass, center of mass and inertia about the center of mass (Ixx, Iyy,
    Izz, Ixy, Ixz, Iyz) of the solid a closed triangle mesh encloses, at a
    uniform ``density``. Raises MeshVolumeError when the enclosed volume is
    not positive.
    """
    import numpy as np

    # (coordinates near the top of a double overflow the sums: the result
    # then says so, as an infinite volume, mass or moment, not a NumPy warning)
    with np.errstate(over="ignore", invalid="ignore"):
        return _mass_properties(np, vertices, faces, density)


def _mass_properties(np, vertices: list[Vec3], faces: list[tuple[int, int, int]],
                     density: float) -> tuple[float, Vec3, Inertia6]:
    V = np.asarray(vertices, dtype=float).reshape(-1, 3)
    F = np.asarray(faces, dtype=np.int64).reshape(-1, 3)
    # A mesh of millions of triangles is summed in parts, so that the arrays
    # below (about 200 bytes a triangle) stay within a few hundred MB.
    parts = [F] if len(F) <= _MASS_PART else [F[k:k + _MASS_PART]
                                               for k in range(0, len(F), _MASS_PART)]
    if len(parts) == 1:  # the tets' corners and volumes, kept for the moments below
        P = V.take(F, axis=0)     # triangle, corner, axis (take: a quarter of V[F]'s time)
        tets = [(P, _six_volumes(P))]
        total = 0.0 + float(tets[0][1].sum())  # (0.0 + -0.0 is 0.0, as sum() of parts gives)
    else:
        tets = None
        total = sum(float(_six_volumes(V.take(part, axis=0)).sum()) for part in parts)
    volume = total / 6.0
    if not volume > MIN_VOLUME:
        raise MeshVolumeError(volume)
    if tets is None:  # computed again, so that one part's arrays at a time are held
        tets = ((P, _six_volumes(P)) for P in (V.take(part, axis=0) for part in parts))
    moments = weighted_sum = None  # (the sums start at the first part: 0.0 + -0.0 is 0.0)
    for P, six_vol in tets:
        # Each tet's corners p, q, r and their sum s, weighted by 6V, as rows
        # (built in place: a concatenation with a sum over the middle axis cost
        # NumPy twice as much; the arithmetic, and so every digit, is the same).
        Q = np.empty((len(P), 4, 3))
        Q[:, :3] = P
        np.add(P[:, 0], P[:, 1], out=Q[:, 3])
        Q[:, 3] += P[:, 2]
        W = (Q * six_vol[:, None, None]).reshape(-1, 3)
        # Second moments ∫ x_i x_j dV of each tet with a vertex at the origin:
        # (6V/120) (Σ_v a_i a_j + s_i s_j) over its three other vertices;
        # summed over the tets as one matrix product.
        m, w = W.T @ Q.reshape(-1, 3), W[3::4].sum(axis=0)
        moments = m if moments is None else moments + m
        weighted_sum = w if weighted_sum is None else weighted_sum + w
    C = moments / (120.0 * volume)                         # per unit mass
    com = weighted_sum / (4.0 * total)                     # Σ 6V s / 4 Σ 6V
    (c00, _, _), (c10, c11, _), (c20, c21, c22) = C.tolist()
    cx, cy, cz = com.tolist()
    trace = c00 + c11 + c22
    # Unit inertia about the origin, then scaled by the mass.
    mass = density * volume
    I_o = (trace - c00, trace - c11, trace - c22, -c10, -c20, -c21)
    shift = (cy * cy + cz * cz, cx * cx + cz * cz, cx * cx + cy * cy,
             -cx * cy, -cx * cz, -cy * cz)
    I_cm = (mass * (I_o[0] - shift[0]), mass * (I_o[1] - shift[1]), mass * (I_o[2] - shift[2]),
            mass * (I_o[3] - shift[3]), mass * (I_o[4] - shift[4]), mass * (I_o[5] - shift[5]))
    return mass, (cx, cy, cz), I_cm
