"""An inter-process lock on a file, with a timeout, that waits without polling.

On POSIX the lock is ``fcntl.flock`` on the lock file. Taking it is tried once without
blocking; when another holder has it, the wait is a *blocking* ``flock`` made in a helper
thread while the caller waits on a thread lock with the remaining time: the kernel wakes the
waiter the moment the holder lets go, no sleep or retry is involved, and a timeout still
ends the wait. A waiter that gave up leaves its descriptor to the helper thread, which
unlocks and closes it as soon as its ``flock`` returns.

Threads of one process first queue on a thread lock per path (with the same deadline), so
only one of them at a time reaches ``flock`` and no helper thread is started for contention
inside the process.

The lock belongs to the open file, so a second :class:`FileLock` on the same path waits like
another process would, in the same process too. The lock file is never deleted: removing or
replacing it while another process waits on the old inode would let two holders in at once.
As a second line of defence, a lock taken on an inode that is no longer the one at ``path``
(the file was replaced while we waited) is given up and taken again on the current file.

On Windows ``msvcrt.locking`` on the first byte has no blocking form with a timeout, so the
attempt is repeated with a short, growing sleep (0.5 ms to 5 ms) until the deadline.
"""

from __future__ import annotations

import _thread
import os
import sys
import time

from paw_tui.core.errors import PawError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType

_FIRST_SLEEP = 0.0005  # Windows only
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

    def _wait_lock(fd: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        pause = _FIRST_SLEEP
        while not _try_lock(fd):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            time.sleep(min(pause, remaining))
            pause = min(pause * 1.5, _MAX_SLEEP)
        return True

    def _abandon(fd: int) -> None:
        os.close(fd)  # no helper thread here: the caller still owns it

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

    _PENDING, _GOT, _ABANDONED = object(), object(), object()

    def _wait_lock(fd: int, timeout: float) -> bool:
        """Block in ``flock`` (in a helper thread) for at most ``timeout`` seconds.

        True: ``fd`` is locked. False: the time ran out; ``fd`` then belongs to the helper
        thread, which closes it (unlocking first if it got the lock) once ``flock`` returns.
        """
        woken = _thread.allocate_lock()
        woken.acquire()
        guard = _thread.allocate_lock()
        state: list[object] = [_PENDING]

        def wait() -> None:
            outcome: object = _GOT
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # blocks; PEP 475 retries it after a signal
            except OSError as error:
                outcome = error
            with guard:
                if state[0] is _ABANDONED:
                    os.close(fd)  # closing also unlocks
                    return
                state[0] = outcome
            woken.release()

        _thread.start_new_thread(wait, ())
        try:
            woken.acquire(timeout=min(timeout, _thread.TIMEOUT_MAX))
        finally:
            with guard:
                outcome = state[0]
                if outcome is _PENDING:
                    state[0] = _ABANDONED
        if outcome is _PENDING:
            return False
        if isinstance(outcome, OSError):
            raise outcome
        return True

    def _abandon(fd: int) -> None:
        pass  # the helper thread closes it


_LOCAL_GUARD = _thread.allocate_lock()
_LOCAL: dict[str, _thread.LockType] = {}
"""One thread lock per lock path: threads of this process queue here, not in ``flock``."""


def _local_lock(path: str) -> _thread.LockType:
    with _LOCAL_GUARD:
        lock = _LOCAL.get(path)
        if lock is None:
            lock = _LOCAL[path] = _thread.allocate_lock()
        return lock


def _forget_local_locks() -> None:
    """In a forked child, locks other threads held at the fork would stay held forever."""
    global _LOCAL_GUARD
    _LOCAL_GUARD = _thread.allocate_lock()
    _LOCAL.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_local_locks)


class LockError(PawError):
    """The lock file could not be opened or locked (not a timeout)."""


class LockTimeout(LockError):
    """Another process held the lock for longer than the timeout."""


class FileLock:
    """An exclusive lock on ``path`` (created with its directory when missing).

    ``with FileLock(path, timeout=5.0): ...`` or ``acquire()`` / ``release()``. A timeout of
    0 makes exactly one attempt.
    """

    __slots__ = ("path", "timeout", "_fd", "_local")

    def __init__(self, path: str, *, timeout: float = 5.0) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None
        self._local: _thread.LockType | None = None

    @property
    def locked(self) -> bool:
        """Whether this object holds the lock now."""
        return self._fd is not None

    def fileno(self) -> int:
        """The held lock's descriptor (a forked child closes it, so that the lock goes with
        this process); ValueError when not held."""
        if self._fd is None:
            raise ValueError(f"The lock {self.path} is not held.")
        return self._fd

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

    def _timeout(self) -> LockTimeout:
        return LockTimeout(
            f"Could not take the lock {self.path} within {self.timeout:g} s: "
            "another process holds it."
        )

    def _is_current(self, fd: int) -> bool:
        """Whether ``fd`` is still the file at ``path`` (not replaced or removed meanwhile)."""
        held = os.fstat(fd)
        try:
            current = os.stat(self.path)
        except FileNotFoundError:
            return False
        return (held.st_ino, held.st_dev) == (current.st_ino, current.st_dev)

    def acquire(self) -> None:
        """Take the lock, or raise :class:`LockTimeout` naming the lock file."""
        if self._fd is not None:
            raise LockError(f"The lock {self.path} is already held by this object.")
        timeout = max(self.timeout, 0.0)
        deadline = time.monotonic() + timeout
        local = _local_lock(self.path)
        if timeout > 0:
            taken = local.acquire(True, min(timeout, _thread.TIMEOUT_MAX))
        else:
            taken = local.acquire(False)
        if not taken:
            raise self._timeout()
        try:
            self._fd = self._acquire_file(deadline, timeout > 0)
        except BaseException:
            local.release()
            raise
        self._local = local

    def _acquire_file(self, deadline: float, wait: bool) -> int:
        while True:
            try:
                fd = self._open()
            except OSError as error:
                reason = error.strerror or str(error)
                raise LockError(f"Cannot open the lock file {self.path}: {reason}.") from error
            owned = True
            try:
                if not _try_lock(fd):
                    remaining = deadline - time.monotonic()
                    if not wait or remaining <= 0:
                        raise self._timeout()
                    if not _wait_lock(fd, remaining):
                        owned = False
                        _abandon(fd)
                        raise self._timeout()
                if self._is_current(fd):
                    return fd
            except BaseException:
                if owned:
                    os.close(fd)
                raise
            os.close(fd)  # locked a replaced file: closing unlocks it; take the current one

    def release(self) -> None:
        """Give the lock up; a no-op when it is not held."""
        fd, local = self._fd, self._local
        if fd is None:
            return
        self._fd = self._local = None
        try:
            _unlock(fd)
        except OSError:
            pass  # closing the descriptor releases it anyway
        finally:
            os.close(fd)
            if local is not None:
                local.release()

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
