"""The inter-process file lock: exclusion, timeouts, release on exit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from paw_tui.core.errors import PawError
from paw_tui.core.support.locking import FileLock, LockError, LockTimeout

if sys.platform != "win32":
    import fcntl


def test_acquire_release_and_reacquire(tmp_path: Path) -> None:
    path = str(tmp_path / "a.lock")
    lock = FileLock(path, timeout=0)
    assert not lock.locked
    lock.acquire()
    assert lock.locked and os.path.exists(path)
    lock.release()
    assert not lock.locked
    lock.release()  # a second release is a no-op
    with FileLock(path, timeout=0) as again:
        assert again.locked
    assert not again.locked
    assert os.path.exists(path), "the lock file is never deleted"


def test_creates_missing_parent_directories(tmp_path: Path) -> None:
    path = str(tmp_path / "deep" / "er" / "x.lock")
    with FileLock(path):
        assert os.path.isfile(path)


def test_second_holder_times_out_naming_the_lock_file(tmp_path: Path) -> None:
    path = str(tmp_path / "busy.lock")
    with FileLock(path):
        contender = FileLock(path, timeout=0.05)
        with pytest.raises(LockTimeout) as caught:
            contender.acquire()
        assert path in str(caught.value)
        assert "0.05 s" in str(caught.value)
        assert not contender.locked
        assert isinstance(caught.value, PawError)
        with pytest.raises(LockTimeout):
            FileLock(path, timeout=0).acquire()
    with FileLock(path, timeout=0):  # free again once released
        pass


def test_acquire_twice_on_one_object_is_an_error(tmp_path: Path) -> None:
    lock = FileLock(str(tmp_path / "x.lock"))
    with lock, pytest.raises(LockError):
        lock.acquire()


def test_unopenable_lock_file_is_a_lock_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    path = str(blocker / "x.lock")
    with pytest.raises(LockError) as caught:
        FileLock(path).acquire()
    assert not isinstance(caught.value, LockTimeout)
    assert path in str(caught.value)


def test_exception_inside_the_block_releases(tmp_path: Path) -> None:
    path = str(tmp_path / "x.lock")
    with pytest.raises(RuntimeError), FileLock(path):
        raise RuntimeError("boom")
    with FileLock(path, timeout=0):
        pass


REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOLDER = textwrap.dedent(
    """
    import sys, time
    from paw_tui.core.support.locking import FileLock
    lock = FileLock(sys.argv[1])
    lock.acquire()
    print("held", flush=True)
    sys.stdin.readline()
    """
)


def test_excludes_another_process_and_is_freed_when_it_dies(tmp_path: Path) -> None:
    path = str(tmp_path / "x.lock")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, path],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,  # the source tree under test, whatever copy is installed
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(LockTimeout):
            FileLock(path, timeout=0.1).acquire()
    finally:
        holder.kill()  # no release: the OS frees the lock with the process
        holder.wait()
    with FileLock(path, timeout=2.0):
        pass


HOLD_UNTIL_LINE = textwrap.dedent(
    """
    import sys
    from paw_tui.core.support.locking import FileLock
    lock = FileLock(sys.argv[1])
    lock.acquire()
    print("held", flush=True)
    sys.stdin.readline()
    lock.release()
    print("released", flush=True)
    sys.stdin.readline()
    """
)
TRY_ONCE = textwrap.dedent(
    """
    import sys
    from paw_tui.core.support.locking import FileLock, LockTimeout
    try:
        FileLock(sys.argv[1], timeout=0).acquire()
    except LockTimeout:
        print("busy")
    else:
        print("free")
    """
)


def _holder(path: str) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_UNTIL_LINE, path],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    return holder


def _say(holder: subprocess.Popen[str], expect: str) -> None:
    assert holder.stdin is not None and holder.stdout is not None
    holder.stdin.write("\n")
    holder.stdin.flush()
    assert holder.stdout.readline().strip() == expect


def _other_process_finds(path: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", TRY_ONCE, path],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        check=True,
    )
    return done.stdout.strip()


def _blocked_waiters(path: str) -> int:
    """Waiters the kernel has queued on ``path``'s inode (Linux ``/proc/locks``: ``->``)."""
    inode = os.stat(path).st_ino
    with open("/proc/locks", encoding="ascii") as handle:
        return sum(
            1
            for line in handle
            if "->" in line and line.split()[6].rsplit(":", 1)[-1] == str(inode)
        )


class _FlockCalls:
    """Counts the non-blocking tries and the blocking waits ``flock`` is asked for."""

    def __init__(self, real: Callable[[int, int], None]) -> None:
        self.real = real
        self.tries = 0
        self.waits = 0

    def __call__(self, fd: int, operation: int) -> None:
        if operation & fcntl.LOCK_EX:
            if operation & fcntl.LOCK_NB:
                self.tries += 1
            else:
                self.waits += 1
        self.real(fd, operation)


posix_only = pytest.mark.skipif(sys.platform == "win32", reason="flock")


@posix_only
def test_a_waiter_blocks_in_the_kernel_without_sleeping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(tmp_path / "x.lock")
    holder = _holder(path)
    calls = _FlockCalls(fcntl.flock)
    monkeypatch.setattr(fcntl, "flock", calls)

    def no_sleep(seconds: float) -> None:
        raise AssertionError(f"the lock slept {seconds} s")

    monkeypatch.setattr(time, "sleep", no_sleep)
    got: list[bool] = []
    waiter = threading.Thread(target=lambda: got.append(_take(path, 60.0)))
    try:
        waiter.start()
        _until(lambda: calls.waits == 1)
        assert not got, "still waiting while the other process holds the lock"
        _say(holder, "released")
        waiter.join(60)
        assert got == [True]
        assert (calls.tries, calls.waits) == (1, 1), "one try, then one blocking wait"
    finally:
        holder.kill()
        holder.wait()


def _take(path: str, timeout: float) -> bool:
    lock = FileLock(path, timeout=timeout)
    lock.acquire()
    held = lock.locked
    lock.release()
    return held


def _until(condition: Callable[[], bool]) -> None:
    """Wait for a condition another thread or process brings about (bounded, not a timing)."""
    pause = threading.Event()  # not time.sleep, which a test forbids
    for _ in range(10_000):
        if condition():
            return
        pause.wait(0.001)
    raise AssertionError("the condition never came true")


@posix_only
def test_a_timed_out_waiter_leaves_nothing_locked_behind(tmp_path: Path) -> None:
    path = str(tmp_path / "x.lock")
    holder = _holder(path)
    try:
        with pytest.raises(LockTimeout) as caught:
            FileLock(path, timeout=0.05).acquire()
        assert path in str(caught.value)
        _say(holder, "released")
        # The abandoned wait gets the lock once it is free, and gives it straight back.
        _until(lambda: _other_process_finds(path) == "free")
        with FileLock(path, timeout=0):
            pass
    finally:
        holder.kill()
        holder.wait()


@posix_only
@pytest.mark.skipif(not os.path.exists("/proc/locks"), reason="Linux /proc/locks")
def test_a_lock_file_replaced_during_the_wait_is_locked_afresh(tmp_path: Path) -> None:
    path = str(tmp_path / "x.lock")
    holder = _holder(path)
    lock = FileLock(path, timeout=60.0)
    waiter = threading.Thread(target=lock.acquire)
    try:
        waiter.start()
        _until(lambda: _blocked_waiters(path) == 1)  # queued on the old inode
        replacement = tmp_path / "new.lock"
        replacement.write_bytes(b"")
        os.replace(replacement, path)
        _say(holder, "released")
        waiter.join(60)
        assert lock.locked
        # Holding the old inode would let another process take the file now at the path.
        assert _other_process_finds(path) == "busy"
        lock.release()
        assert _other_process_finds(path) == "free"
    finally:
        holder.kill()
        holder.wait()


def test_threads_of_one_process_exclude_each_other(tmp_path: Path) -> None:
    path = str(tmp_path / "x.lock")
    counter = tmp_path / "counter"
    counter.write_text("0")
    threads, rounds = 16, 40

    def work() -> None:
        for _ in range(rounds):
            with FileLock(path, timeout=60.0):
                value = int(counter.read_text())
                time.sleep(0)  # let another thread run inside the critical section if it can
                counter.write_text(str(value + 1))

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert int(counter.read_text()) == threads * rounds


def test_a_second_lock_in_the_same_thread_times_out(tmp_path: Path) -> None:
    path = str(tmp_path / "x.lock")
    with FileLock(path, timeout=0):
        with pytest.raises(LockTimeout):
            FileLock(path, timeout=0.05).acquire()
        with pytest.raises(LockTimeout):
            FileLock(path, timeout=0).acquire()


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_fileno_is_the_held_lock_s_descriptor(tmp_path: Path) -> None:
    lock = FileLock(str(tmp_path / "l.lock"), timeout=1)
    with pytest.raises(ValueError, match="not held"):
        lock.fileno()
    lock.acquire()
    try:
        other = os.open(tmp_path / "l.lock", os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(other)
        assert os.fstat(lock.fileno()).st_ino == (tmp_path / "l.lock").stat().st_ino
    finally:
        lock.release()
