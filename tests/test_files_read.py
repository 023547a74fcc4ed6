"""read_regular_file reads a file whole, in one read(2) when the file is
what fstat said (a short read of a regular file is its end), and on to the
end when it has grown since."""
from __future__ import annotations

import os

import pytest

from mbparse import files


@pytest.fixture
def reads(monkeypatch):
    calls = []
    real = os.read

    def counted(fd, n):
        calls.append(n)
        return real(fd, n)
    monkeypatch.setattr(files.os, "read", counted)
    return calls


@pytest.mark.parametrize("size", [0, 1, 1000, (1 << 16) - 1, 1 << 16, (1 << 16) + 1, 300_000])
def test_a_file_is_read_whole(tmp_path, reads, size):
    data = os.urandom(size)
    (tmp_path / "f").write_bytes(data)
    assert files.read_regular_file(str(tmp_path / "f")) == data
    # One call tells the whole file (the empty one's read of nothing is its end).
    assert len(reads) == 1


def test_a_file_that_grew_since_fstat_is_read_to_its_end(tmp_path, reads, monkeypatch):
    data = os.urandom(200_000)
    (tmp_path / "f").write_bytes(data)
    real_fstat = os.fstat

    class Smaller:
        def __init__(self, st):
            self._st = st
            self.st_size = 10  # (as fstat said before the file grew)

        def __getattr__(self, name):
            return getattr(self._st, name)
    monkeypatch.setattr(files.os, "fstat", lambda fd: Smaller(real_fstat(fd)))
    assert files.read_regular_file(str(tmp_path / "f")) == data
    assert len(reads) > 1


def test_a_file_past_the_limit_is_refused_before_it_is_read(tmp_path, reads):
    (tmp_path / "f").write_bytes(b"x" * 100)
    with pytest.raises(files.FileTooLargeError):
        files.read_regular_file(str(tmp_path / "f"), most=99)
    assert reads == []
