"""An inter-process lock on a file, with a timeout.

``fcntl.flock`` on POSIX, ``msvcrt.locking`` on the first byte of the file on Windows. Both
are tried without blocking, and a failed try sleeps a short, growing interval (0.5 ms to
5 ms) until the deadline: a blocking call could not be given a timeout without signals.

The lock belongs to the open file, so a second :class:`FileLock` on the same path in the
same process waits like another process would. The lock file is never deleted: removing it
while another process waits on the old inode would let two holders in at once.
"""

from __future__ import annotations

import os
import sys
import time

from paw_tui.core.errors import PawError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType

_FIRST_SLEEP = 0.0005
_MAX_SLEEP = 0.005

if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except (BlockingIOError, PermissionError):
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class LockError(PawError):
    """The lock file could not be opened or locked (not a timeout)."""


class LockTimeout(LockError):
    """Another process held the lock for longer than the timeout."""


class FileLock:
    """An exclusive lock on ``path`` (created with its directory when missing).

    ``with FileLock(path, timeout=5.0): ...`` or ``acquire()`` / ``release()``. A timeout of
    0 makes exactly one attempt.
    """

    __slots__ = ("path", "timeout", "_fd")

    def __init__(self, path: str, *, timeout: float = 5.0) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None

    @property
    def locked(self) -> bool:
        """Whether this object holds the lock now."""
        return self._fd is not None

    def _open(self) -> int:
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            return os.open(self.path, flags, 0o644)
        except FileNotFoundError:
            directory = os.path.dirname(self.path)
            if not directory:
                raise
            os.makedirs(directory, exist_ok=True)
            return os.open(self.path, flags, 0o644)

    def acquire(self) -> None:
        """Take the lock, or raise :class:`LockTimeout` naming the lock file."""
        if self._fd is not None:
            raise LockError(f"The lock {self.path} is already held by this object.")
        try:
            fd = self._open()
        except OSError as error:
            reason = error.strerror or str(error)
            raise LockError(f"Cannot open the lock file {self.path}: {reason}.") from error
        try:
            deadline = time.monotonic() + max(self.timeout, 0.0)
            pause = _FIRST_SLEEP
            while not _try_lock(fd):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise LockTimeout(
                        f"Could not take the lock {self.path} within {self.timeout:g} s: "
                        "another process holds it."
                    )
                time.sleep(min(pause, remaining))
                pause = min(pause * 1.5, _MAX_SLEEP)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def release(self) -> None:
        """Give the lock up; a no-op when it is not held."""
        fd = self._fd
        if fd is None:
            return
        self._fd = None
        try:
            _unlock(fd)
        except OSError:
            pass  # closing the descriptor releases it anyway
        finally:
            os.close(fd)

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()

    def __repr__(self) -> str:
        state = "locked" if self._fd is not None else "unlocked"
        return f"FileLock({self.path!r}, timeout={self.timeout!r}, {state})"
