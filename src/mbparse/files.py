"""Reading the files a model names, safely: only regular files are read.

A model can name any path (``file:///dev/zero``, a FIFO, a folder); reading
such a thing would never end or would exhaust memory. Every reader opens
files through :func:`read_regular_file`.
"""
from __future__ import annotations

import errno
import os
import stat


class NotRegularFileError(OSError):
    """The path names a device, FIFO, socket or folder, not a regular file."""


def regular_file_problem(path: str) -> str | None:
    """Why ``path`` cannot be read as a model file, or None when it can."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        return f"'{path}' cannot be read: {e.strerror}"
    if stat.S_ISREG(mode):
        return None
    kind = ("a folder" if stat.S_ISDIR(mode) else "a device" if stat.S_ISCHR(mode) or
            stat.S_ISBLK(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a socket"
            if stat.S_ISSOCK(mode) else "not a regular file")
    return f"'{path}' is {kind}, not a regular file; only regular files are read"


def read_regular_file(path: str) -> bytes:
    """The bytes of ``path``; raises OSError (NotRegularFileError for a
    device, FIFO or folder) instead of reading what is not a regular file."""
    problem = regular_file_problem(path)
    if problem is not None:
        if os.path.exists(path):
            raise NotRegularFileError(errno.EINVAL, problem, path)
    with open(path, "rb") as f:
        # The path may have been replaced between the check and the open.
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise NotRegularFileError(errno.EINVAL, f"'{path}' is not a regular file; only "
                                      "regular files are read", path)
        return f.read()
