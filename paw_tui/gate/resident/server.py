"""The resident server: import the whole gate once, take it through a rehearsal, then answer
hook calls in workers forked from that image (:mod:`paw_tui.gate.resident.handler`).

A hook starts it (``launch.py --code-cache PATH --resident DIR --resident-serve``) when it finds none. It
holds the directory's lock for its whole life (one server per installation), keeps workers
waiting on the socket, their memory already their own (no fork on a call's path), and leaves
when nobody called for its idle time, when the installation's code changed, or on SIGTERM.
"""

from __future__ import annotations

import gc
import os
import select
import signal
import socket
import stat
import sys
import time

from paw_tui.gate.resident import freshness, handler, wire
from paw_tui.gate.resident.deadlines import Deadlines
from paw_tui.gate.resident.rehearsal import rehearse

WORKERS = 2
"""Workers waiting for calls: a second call arriving while one is decided finds the other."""
TICK = 1.0
"""Seconds between looks at the code's files (a call or a child's exit wakes the server at once)."""
IDLE_ENV = "PAW_RESIDENT_GATE_IDLE"
IDLE_SECONDS = 900.0
PR_SET_PDEATHSIG = 1
LOCK_WAIT = 2.0
"""Seconds a new server waits for a leaving one's lock (blocked in ``flock``, not polling)."""


def serve(directory: str, dependencies: tuple[str, ...] = ()) -> int:
    """Serve in ``directory`` until idle, stale or told to stop (the code of paw-tui or of
    one of the ``dependencies`` changed); 0, or 1 when the directory cannot be used."""
    from paw_tui.core.support.locking import FileLock, LockError, LockTimeout

    os.chdir("/")  # a server outlives the call that started it: it holds no one's directory
    lock = FileLock(wire.path_in(directory, wire.LOCK), timeout=LOCK_WAIT)
    try:
        dir_fd = _open_directory(directory)
        lock.acquire()
        os.ftruncate(lock.fileno(), 0)
        os.pwrite(lock.fileno(), b"%d\n" % os.getpid(), 0)
        proof_fd, proof = _proof(dir_fd)
    except LockTimeout:
        return 0  # another server has it
    except (OSError, LockError) as error:
        sys.stderr.write(f"paw-tui resident gate: cannot use {directory}: {error}\n")
        return 1
    preload()
    stamps = freshness.code_stamps(dependencies)
    rehearse(directory)
    listener, inode = _listen(directory, dir_fd)
    pool = _Pool(listener, proof, proof_fd, _idle_seconds(), inherited=(dir_fd, lock.fileno()))
    gc.collect()
    gc.freeze()  # the children share the imported gate's pages instead of copying them

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    try:
        next_look = time.monotonic() + TICK
        while pool.step():
            if time.monotonic() >= next_look:
                if freshness.changed(stamps) is not None:
                    break
                next_look = time.monotonic() + TICK
    finally:
        _unlink_if_ours(dir_fd, inode)
        pool.close()
    return 0


class _Pool:
    """The workers, each answering calls one at a time (:func:`handler.serve`). A worker
    tells the server when it takes a call through the ``taken`` pipe (so the server knows
    when it was last used) and posts when that call must be over (:mod:`.deadlines`); one
    still at it past then is killed, and one that leaves (idle, retired, killed) is
    replaced."""

    def __init__(
        self,
        listener: socket.socket,
        proof: os.stat_result,
        proof_fd: int,
        idle: float,
        inherited: tuple[int, ...],
    ) -> None:
        self.inherited = inherited
        """The server's descriptors a worker closes (the lock above all: a worker left behind
        by a killed server must not keep the next one from starting)."""
        self.listener = listener
        self.proof = proof
        self.proof_fd = proof_fd
        self.idle = idle
        self.workers: dict[int, int] = {}
        """Each worker's pid and slot (0 to WORKERS - 1): its place in the proof file and in
        the deadlines."""
        self.deadlines = Deadlines(WORKERS)
        self.killed: set[int] = set()
        """Workers stopped for overrunning a call (replaced, not a reason to leave)."""
        self.taken_r, self.taken_w = os.pipe()
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda signum, frame: None)
        self.last_call = time.monotonic()

    def step(self) -> bool:
        """Fill, wait for something to happen (at most a tick), collect it; False when the
        server must leave."""
        while len(self.workers) < WORKERS:
            # SIGTERM held until the worker is counted, or the server could leave without it
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
            try:
                slot = min(set(range(WORKERS)) - set(self.workers.values()))
                self.workers[self._fork(slot)] = slot
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
        wait = TICK
        due = self.deadlines.earliest()
        if due is not None:
            wait = min(wait, max(0.0, due - time.monotonic()) + 0.01)
        ready, _, _ = select.select([self.taken_r, self.wake_r], [], [], wait)
        if self.wake_r in ready:
            os.read(self.wake_r, 512)
        if self.taken_r in ready:
            os.read(self.taken_r, 4 * 64)
            self.last_call = time.monotonic()
        self._stop_overdue()
        return self._reap()

    def _stop_overdue(self) -> None:
        """Kill each worker still at a call past its deadline: stuck where its own timer
        cannot reach (a system call, C code, a stopped process). The hook, its connection
        closed, denies the call; the slot is free for the worker that replaces it."""
        overdue = self.deadlines.overdue(time.monotonic())
        for pid, slot in list(self.workers.items()):
            if slot in overdue and pid not in self.killed:
                if not 0.0 < self.deadlines.read(slot) <= time.monotonic():
                    continue  # it has just finished (and may be at the next call)
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    continue
                self.killed.add(pid)

    def _reap(self) -> bool:
        while self.workers:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            slot = self.workers.pop(pid, None)
            if slot is not None:
                self.deadlines.clear(slot)
            code = os.waitstatus_to_exitcode(status)
            if code == handler.SERVED:
                continue  # retired
            if pid in self.killed:
                self.killed.discard(pid)
                continue  # stopped for overrunning a call: replaced
            if code == handler.IDLE and time.monotonic() - self.last_call < self.idle:
                continue  # a worker that waited since before the last call
            return False  # idle, or a handler that broke: leave rather than loop
        return True

    def _fork(self, slot: int) -> int:
        server = os.getpid()
        pid = os.fork()
        if pid:
            return pid
        code = handler.FAILED
        try:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            _die_with_parent()
            if os.getppid() == server:  # else the server left before we could follow it
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
                for fd in (self.taken_r, self.wake_r, self.wake_w, *self.inherited):
                    os.close(fd)
                proof = handler.Proof(self.proof, self.proof_fd, slot)
                seat = handler.Seat(slot, self.deadlines)
                code = handler.serve(self.listener, proof, self.idle, self.taken_w, seat)
        finally:
            os._exit(code)

    def close(self) -> None:
        """Stop the workers; one answering a call finishes it first (it holds SIGTERM)."""
        for pid in self.workers:
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass


def _die_with_parent() -> None:
    """A child left behind by a server that was killed would answer a call with code nobody
    checks any more: have the kernel stop it with its server (Linux's PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def _open_directory(directory: str) -> int:
    os.makedirs(directory, mode=0o700, exist_ok=True)
    dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    info = os.fstat(dir_fd)
    if info.st_uid != os.geteuid():
        os.close(dir_fd)
        raise PermissionError(f"{directory} belongs to another user")
    os.chmod(dir_fd, 0o700)
    return dir_fd


def _proof(dir_fd: int) -> tuple[int, os.stat_result]:
    """The proof file, open for reading and writing (kept for the server's life: workers
    read back through it what a caller wrote), and its identity. A proof that has another
    name is replaced: whoever made the link could hand it to a process that may not write."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    fd = os.open(wire.PROOF, flags, 0o600, dir_fd=dir_fd)
    try:
        proof = os.fstat(fd)
        if stat.S_ISREG(proof.st_mode) and proof.st_nlink != 1:
            os.close(fd)
            fd = -1
            os.unlink(wire.PROOF, dir_fd=dir_fd)
            fd = os.open(wire.PROOF, flags | os.O_EXCL, 0o600, dir_fd=dir_fd)
            proof = os.fstat(fd)
    except OSError:
        if fd >= 0:
            os.close(fd)
        raise
    if not stat.S_ISREG(proof.st_mode):
        os.close(fd)
        raise OSError(f"{wire.PROOF} is not a regular file")
    return fd, proof


def preload() -> None:
    """Import every module of the gate's import graph, the policy compiler's dependencies
    and what a child uses to take a call: a call then loads nothing."""
    import importlib

    from paw_tui.core.support import code_cache

    names = [name for name, _, _ in code_cache.covered_modules()]
    for name in [*names, "yaml", "pathspec", "ctypes", "fcntl", "array"]:
        try:
            importlib.import_module(name)
        except Exception:  # a module that cannot load here is loaded (or fails) per call
            pass


def _listen(directory: str, dir_fd: int) -> tuple[socket.socket, int]:
    """Bind under a temporary name and rename over the socket file, so a dead server's file
    is replaced at once and a caller never finds none while this one starts."""
    temp = f"{wire.SOCKET}.{os.getpid()}"
    try:
        os.unlink(temp, dir_fd=dir_fd)
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(wire.socket_address(directory, dir_fd, temp))
    listener.listen(64)
    os.rename(temp, wire.SOCKET, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    return listener, os.stat(wire.SOCKET, dir_fd=dir_fd, follow_symlinks=False).st_ino


def _unlink_if_ours(dir_fd: int, inode: int) -> None:
    try:
        if os.stat(wire.SOCKET, dir_fd=dir_fd, follow_symlinks=False).st_ino == inode:
            os.unlink(wire.SOCKET, dir_fd=dir_fd)
    except OSError:
        pass


def _idle_seconds() -> float:
    try:
        return max(0.1, float(os.environ.get(IDLE_ENV, IDLE_SECONDS)))
    except ValueError:
        return IDLE_SECONDS
