"""``obj_problem`` (MuJoCo refuses an OBJ file whose faces give normals for
some corners and none for others) reads the file in blocks by regular
expressions; its verdict is that of looking at every corner of every face
line, on the corpus's OBJ files and on made-up ones."""
from __future__ import annotations

from pathlib import Path

import pytest

from mbparse.convert.writers import mjcf

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def corner_by_corner(data: bytes) -> bool:
    """Whether some face corner gives a normal and some gives none."""
    corners = [c.split(b"/") for line in data.decode("utf-8", "replace").encode().splitlines()
               if line.startswith(b"f ") for c in line.split()[1:]]
    given = [len(p) == 3 and p[2] != b"" for p in corners]
    return any(given) and not all(given)


CASES = [b"v 0 0 0\nf 1 2 3\n", b"f 1//1 2//2 3//3\n", b"f 1/1/1 2/2/2 3/3/3\r\nf 1 2 3\r\n",
         b"f 1/1 2/2 3/3\nf 1//4 2//4 3//4\n", b"f 1/2/3/4 1//2 3//4\n", b"f 1//1 2//2 3//\n",
         b"  f 1 2 3\nf 1//1 2//1 3//1\n", b"mtllib a/b/c.mtl\nf 1 2 3\n",
         b"f\t1//1 2//1 3//1\nf 1 2 3\n", b"f 1//1\t2//1  3//1 \nf 1//1 2//1 3//1", b""]


@pytest.mark.parametrize("data", CASES)
def test_made_up_files_get_the_corner_by_corner_verdict(tmp_path, data):
    path = tmp_path / "m.obj"
    path.write_bytes(data)
    assert (mjcf.obj_problem(str(path)) is not None) == corner_by_corner(data), data


def test_a_verdict_across_a_block_boundary(tmp_path, monkeypatch):
    path = tmp_path / "m.obj"
    path.write_bytes(b"f 1//1 2//2 3//3\n" * 300_000 + b"f 1 2 3\n")  # past one 4 MB block
    assert mjcf.obj_problem(str(path)) is not None


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not beside the project")
def test_the_corpus_files_get_the_corner_by_corner_verdict():
    files = sorted(CORPUS.rglob("*.obj"))
    assert files
    for path in files:
        expected = corner_by_corner(path.read_bytes())
        assert (mjcf.obj_problem(str(path)) is not None) == expected, path
