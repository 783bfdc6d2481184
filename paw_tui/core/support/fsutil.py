"""Writing files so that no reader ever sees half of one.

Every machine-owned write goes through here: a temporary file in the same directory,
flushed and synced, then moved into place with ``os.replace`` (or linked, when an existing
file must never be overwritten).
"""

from __future__ import annotations

import os

# tempfile would do, but importing it (and shutil, random behind it) costs the gate ~8 ms.
_TEMP_FLAGS = (
    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
)


def _write_temp(directory: str, name: str, data: bytes) -> str:
    for _attempt in range(100):
        temp = os.path.join(directory, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(temp, _TEMP_FLAGS, 0o644)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - 100 collisions of 32 random bits
        raise FileExistsError(f"cannot create a temporary file in {directory}")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        _unlink_quietly(temp)
        raise
    return temp


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def atomic_write(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one step; readers see the old or the new file."""
    directory, name = os.path.split(os.path.abspath(path))
    temp = _write_temp(directory, name, data)
    try:
        os.replace(temp, path)
    except BaseException:
        _unlink_quietly(temp)
        raise


class PreparedFile:
    """New content for ``path``, already written and synced to a temporary file beside it.

    :meth:`commit` moves it into place (one ``os.replace``: readers see the old file or the
    new one); :meth:`discard` removes it and leaves ``path`` as it was. What a person's act
    changes is prepared this way first, so that the act's ledger record can be written
    before anything takes effect, and nothing takes effect when it cannot be.
    """

    __slots__ = ("path", "_temp")

    def __init__(self, path: str, data: bytes) -> None:
        self.path = os.path.abspath(path)
        directory, name = os.path.split(self.path)
        self._temp: str | None = _write_temp(directory, name, data)

    def commit(self) -> None:
        """Put the new content in place (once; a second call does nothing)."""
        temp, self._temp = self._temp, None
        if temp is None:
            return
        try:
            os.replace(temp, self.path)
        except BaseException:
            _unlink_quietly(temp)
            raise

    def discard(self) -> None:
        """Drop the new content; ``path`` stays as it was."""
        temp, self._temp = self._temp, None
        if temp is not None:
            _unlink_quietly(temp)


def replace_unsynced(path: str, data: bytes, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` atomically but without a sync (state that is rebuilt or
    re-signed if lost: the ledger head, a drift snapshot, a confinement spec). The temporary
    name is fixed per process, so callers hold a lock or own the file; a symlink planted at
    that name is not followed."""
    directory, name = os.path.split(os.path.abspath(path))
    temp = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | _TEMP_FLAGS
    fd = os.open(temp, flags & ~os.O_EXCL, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
    try:
        os.replace(temp, path)
    except BaseException:
        _unlink_quietly(temp)
        raise


def create_new_file(path: str, data: bytes) -> bool:
    """Write ``path`` only when nothing is there; True when this call created it.

    The content appears whole (a hard link of a finished temporary file), and an existing
    file, even one created a moment ago by someone else, is never overwritten.
    """
    if os.path.lexists(path):
        return False
    directory, name = os.path.split(os.path.abspath(path))
    temp = _write_temp(directory, name, data)
    try:
        os.link(temp, path)
        return True
    except FileExistsError:
        return False
    except OSError:
        # No hard links here (some network and FAT file systems): exclusive create instead.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        return True
    finally:
        _unlink_quietly(temp)
