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


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a device" if stat.S_ISCHR(mode) or
            stat.S_ISBLK(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a socket"
            if stat.S_ISSOCK(mode) else "not a regular file")


def _not_regular(path: str, mode: int) -> str:
    return f"'{path}' is {_kind(mode)}, not a regular file; only regular files are read"


def _too_large(path: str, size: str, most: int) -> str:
    return f"'{path}' is {size} bytes, more than the {most:,} bytes mbparse reads of a model file"


def regular_file_problem(path: str) -> str | None:
    """Why ``path`` cannot be read as a model file, or None when it can."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        return f"'{path}' cannot be read: {e.strerror}"
    return None if stat.S_ISREG(mode) else _not_regular(path, mode)


def path_exists(path: str) -> bool:
    """``os.path.exists(path)`` at a fifth of its cost: ``access(2)`` answers
    with a bool where ``os.stat`` builds a twenty-field result (or, for a
    missing file, an exception). (It asks with the real user and group ids,
    which differ from the effective ones only in a set-user-ID program.)"""
    try:
        return os.access(path, os.F_OK)
    except (OSError, ValueError):  # (as os.path.exists)
        return False


def missing_file_message(path: str) -> str:
    """What Drake says of a model file that is not there."""
    return f"The file '{path}' does not exist or is not a file."


_NO_FILE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.ENAMETOOLONG})


def names_no_file(e: Exception) -> bool:
    """Whether opening a path failed because it names no file (the errors on
    which ``os.path.isfile`` says False): none there, a file named as a
    folder, a loop of links, a name too long, a NUL in it."""
    return isinstance(e, ValueError) or (isinstance(e, OSError) and e.errno in _NO_FILE)


class FileTooLargeError(OSError):
    """The file holds more bytes than the caller reads."""


def read_regular_file(path: str, most: int | None = None) -> bytes:
    """The bytes of ``path``; raises OSError (NotRegularFileError for a
    device, FIFO or folder) instead of reading what is not a regular file,
    and FileTooLargeError for a file of more than ``most`` bytes (None: no
    limit), found before it is read.

    The file is opened without blocking (opening a FIFO would otherwise
    wait for a writer) and what was opened is checked before anything is
    read: one system call less than a check by name, and no gap between
    the check and the open."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # (not inherited by children, PEP 446)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFileError(errno.EINVAL, _not_regular(path, st.st_mode), path)
        if most is not None and st.st_size > most:
            raise FileTooLargeError(errno.EFBIG, _too_large(path, f"{st.st_size:,}", most), path)
        # Read to the end (the file may have grown since fstat). A read of a
        # regular file that gives less than was asked has reached its end:
        # no second call is made to be told so.
        parts, size = [], 0
        want = max(st.st_size + 1, 1 << 16)
        while True:
            part = os.read(fd, want)
            parts.append(part)
            size += len(part)
            if most is not None and size > most:
                # (it grew since fstat: reading stops here, so its size is a floor)
                raise FileTooLargeError(errno.EFBIG, _too_large(path, f"at least {size:,}", most),
                                        path)
            if len(part) < want:  # (an empty read too)
                return parts[0] if len(parts) == 1 else b"".join(parts)
    finally:
        os.close(fd)
