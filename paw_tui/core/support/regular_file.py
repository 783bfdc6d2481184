"""Reading a file an agent may have replaced: only a regular file is ever read, and opening
one never blocks.

``open(path)`` on a FIFO waits for a writer, for ever: a FIFO planted where the gate reads
its policy cache, a session record or a client's settings made the hook outlast the client's
timeout, and every client then runs the tool. Opened ``O_NONBLOCK`` and checked with
``fstat``, anything but a regular file is refused at once. Standard library only (the gate
reads through this).
"""

from __future__ import annotations

import errno
import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
"""How every reader here opens a file."""


def open_regular_fd(path: str) -> int:
    """A descriptor on the regular file at ``path`` (errors as :func:`read_regular`)."""
    return _open_regular(path)[0]


def _open_regular(path: str) -> tuple[int, os.stat_result]:
    fd = os.open(path, READ_FLAGS)
    try:
        info = os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        raise OSError(errno.EINVAL, "not a regular file", path)
    return fd, info


def read_regular(path: str) -> bytes:
    """The bytes of the regular file at ``path``. OSError when it is missing
    (FileNotFoundError), not a regular file (a FIFO, a device, a directory) or unreadable."""
    fd, info = _open_regular(path)
    try:
        # one read past the size it has: a short read is the end (no second call to see it)
        first = os.read(fd, info.st_size + 1)
        if len(first) <= info.st_size:
            return first
        chunks = [first]
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)


def open_regular(path: str) -> BinaryIO:
    """The regular file at ``path`` open for reading, unbuffered (errors as
    :func:`read_regular`)."""
    handle: BinaryIO = open(open_regular_fd(path), "rb", buffering=0)
    return handle


def read_regular_text(path: str) -> str:
    """:func:`read_regular` decoded as UTF-8 with universal newlines, as ``open(path,
    encoding="utf-8").read()`` gives it (UnicodeDecodeError when it is not UTF-8)."""
    return read_regular(path).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
