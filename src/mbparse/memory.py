"""Giving memory that a parse freed back to the operating system.

lxml builds its trees with the C library's ``malloc``; Python's own small
objects live in separate arenas. When a large XML tree is freed, glibc keeps
the pages for later ``malloc`` calls, which Python objects made afterwards
never use, so the process keeps the tree's size for good: a 50 MB URDF's tree
(about 15 times the text) would stay next to the model built from it.
:func:`release_freed_memory` asks glibc to return such free pages
(``malloc_trim``). Elsewhere (other C libraries, other systems) it does
nothing. It walks the heap, so readers call it only after freeing a large
tree or a large part of one (:data:`LARGE_INPUT_BYTES`).
"""
from __future__ import annotations

import gc
import os
import sys

# Inputs at least this large are worth a call after their tree is freed.
LARGE_INPUT_BYTES = 4 << 20
# A parse quicker than this was not of a large input (a 4 MB file takes
# seconds), so callers need not look at its size.
QUICK_PARSE_SECONDS = 0.05

_trim = None  # glibc's malloc_trim, once looked up; False where there is none


def release_freed_memory() -> bool:
    """Returns the C heap's free pages to the system (glibc only); whether
    anything could be asked."""
    global _trim
    if _trim is None:
        _trim = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes
                libc = ctypes.CDLL(None)
                _trim = libc.malloc_trim
                _trim.argtypes = [ctypes.c_size_t]
                _trim.restype = ctypes.c_int
            except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
                _trim = False
    if _trim is False:
        return False
    _trim(0)
    return True


def source_is_large(filename: str | None, contents: str | None) -> bool:
    """Whether a model's text (a file, or contents given as a string) is at
    least :data:`LARGE_INPUT_BYTES` long."""
    if filename is not None:
        try:
            return os.path.getsize(filename) >= LARGE_INPUT_BYTES
        except OSError:
            return False
    return contents is not None and len(contents) >= LARGE_INPUT_BYTES


class collector_paused:
    """Python's cyclic garbage collector paused for a ``with`` block (and
    restored as it was). A parse or a finalize makes many objects and frees
    none of them until it ends, so the collector's passes during it find
    nothing to free (they cost about a quarter of a parse). A class rather
    than a generator: entered once a parse and once a finalize, a
    generator's context manager cost a small file's load some 2%."""

    __slots__ = ("_was_enabled",)

    def __enter__(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was_enabled:
            gc.enable()
