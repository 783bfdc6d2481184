"""The inter-process file lock: exclusion, timeouts, release on exit."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from paw_tui.core.errors import PawError
from paw_tui.core.support.locking import FileLock, LockError, LockTimeout


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
