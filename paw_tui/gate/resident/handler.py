"""A worker of the resident server: for each call, let the caller in only if it proves it may
write in the state directory, then decide as the hook's own process would have.

For each call the worker takes the caller's whole environment, working directory (the
descriptor it passed), umask, arguments and stdin, runs :func:`paw_tui.gate.main.answer` with
its output captured, and sends the exit code and the output back. Calls are answered one at
a time. What a call may leave in the process is what the gate keeps between the decisions of
one process anyway (the library decides many calls in one process): caches keyed by path and
checked against the files (the ledger's last line, its head), never an answer. A worker
retires after CALLS calls.
"""

from __future__ import annotations

import array
import io
import os
import signal
import socket
import stat
import sys
import time

from paw_tui.gate.budget import ANALYSIS_SECONDS, AnalysisBudget
from paw_tui.gate.resident import wire
from paw_tui.gate.resident.deadlines import GRACE, Deadlines
from paw_tui.gate.resident.memory import populate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

SERVED = 0
"""A worker that answered its CALLS calls and retires (the server forks another)."""
IDLE = 3
"""Nobody called for the server's idle time."""
FAILED = 5
"""The handler itself broke (not the gate: its failures are answers)."""
CALLS = 1000
"""Calls a worker answers before it retires: whatever a call leaves behind in the process
(caches keyed by path, which the gate checks against the files anyway) stays bounded."""
REQUEST_TIMEOUT = 5.0
"""Seconds a caller has to send its request and its GO: a connection that stalls cannot hold
a child for longer."""
_FDS = 2  # the proof, the working directory


class Refused(Exception):
    """The caller may not use the resident gate; the message says why."""


NONCE = 16
"""Bytes a worker writes through the caller's proof descriptor (at its own offset)."""


class Proof:
    """The server's proof file as a worker checks callers against it: the file's identity,
    the server's own descriptor of it (to read back what was written through the caller's)
    and this worker's offset in it (two workers never write the same bytes)."""

    __slots__ = ("device", "inode", "fd", "offset")

    def __init__(self, info: os.stat_result, fd: int, slot: int) -> None:
        self.device = info.st_dev
        self.inode = info.st_ino
        self.fd = fd
        self.offset = slot * NONCE


class Seat:
    """A worker's place in its server: its slot (in the proof file and in the deadlines the
    server watches) and the deadlines page."""

    __slots__ = ("slot", "deadlines")

    def __init__(self, slot: int, deadlines: Deadlines) -> None:
        self.slot = slot
        self.deadlines = deadlines

    def until(self, when: float) -> None:
        """The current call must be over by ``when`` (a ``time.monotonic()`` time)."""
        self.deadlines.post(self.slot, when)

    def free(self) -> None:
        self.deadlines.clear(self.slot)


def serve(listener: socket.socket, proof: Proof, idle: float, taken: int, seat: Seat) -> int:
    """Answer calls one at a time, up to CALLS, telling the server through the pipe ``taken``
    as each is accepted and posting when each must be over; the worker's exit code for the
    server (IDLE when none came for ``idle`` seconds, SERVED when it retires)."""
    populate()
    streams = sys.stdin, sys.stdout, sys.stderr
    environ = dict(os.environb)
    for _ in range(CALLS):
        listener.settimeout(idle)
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            return IDLE
        # A call taken is finished: a server that leaves now stops the worker after it.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        os.write(taken, os.getpid().to_bytes(4, sys.byteorder))
        seat.until(time.monotonic() + REQUEST_TIMEOUT + GRACE)
        with conn:
            _answer(conn, proof, seat)
        seat.free()
        # nothing of the caller's stays between calls: not its streams, its environment (it
        # may hold secrets) or its directory (it may be removed)
        sys.stdin, sys.stdout, sys.stderr = streams
        become(environ)
        os.chdir("/")
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    return SERVED


def _answer(conn: socket.socket, proof: Proof, seat: Seat) -> None:
    conn.settimeout(REQUEST_TIMEOUT)
    fds: list[int] = []
    try:
        request = _receive(conn, proof, fds)
        conn.sendall(wire.READY)
        if conn.recv(1) != wire.GO:
            return  # the caller decided itself: nothing was done here
        conn.settimeout(None)
        # the analysis has its budget, and then the call must end before the hook gives up
        went = time.monotonic()
        seat.until(went + ANALYSIS_SECONDS + GRACE)
        budget = AnalysisBudget(on_end=lambda: seat.until(went + wire.ANSWER_TIMEOUT))
        code, out, err = decide(request, fds[1], budget)
        conn.sendall(wire.encode_answer(code, out, err))
    except Refused as refusal:
        _try_send(conn, wire.REFUSED + b" " + str(refusal).encode() + b"\n")
    except (OSError, ValueError):
        pass  # a caller that went away or sent nonsense: nothing was done
    finally:
        for fd in fds:
            os.close(fd)


def _try_send(conn: socket.socket, data: bytes) -> None:
    try:
        conn.sendall(data)
    except OSError:
        pass


def _receive(conn: socket.socket, proof: Proof, fds: list[int]) -> wire.Request:
    """Read the request, keeping the descriptors it carried in ``fds`` (closed by the caller
    whatever happens); Refused unless the peer is this user and passed a writable proof."""
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
    if int.from_bytes(creds[4:8], sys.byteorder) != os.geteuid():
        raise Refused("another user")
    data, ancillary, flags, _ = conn.recvmsg(65536, socket.CMSG_SPACE(4 * (_FDS + 2)))
    for level, kind, body in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            received = array.array("i")
            received.frombytes(body[: len(body) - len(body) % received.itemsize])
            fds.extend(received)
    if flags & socket.MSG_CTRUNC or len(fds) != _FDS:
        raise Refused("the request must carry the proof and the working directory")
    _check_proof(fds[0], proof)
    if not stat.S_ISDIR(os.fstat(fds[1]).st_mode):
        raise Refused("the working directory is not a directory")
    header, body = wire.read_message(conn.recv, data, lambda line: sum(wire.request_sizes(line)))
    meta_size, _ = wire.request_sizes(header)
    return wire.decode_request(body[:meta_size], body[meta_size:])


def _check_proof(fd: int, proof: Proof) -> None:
    """Refused unless ``fd`` is the proof file open for writing, proved by the kernel: a
    fresh nonce written through ``fd`` must read back through the server's own descriptor.

    Checking the access mode alone is not enough to trust: ``open(proof, O_WRONLY |
    O_RDWR)`` (mode 3) is neither a read nor a write to Landlock, so the confined shell gets
    that descriptor, and it cannot write. ``pwrite`` asks the kernel whether the descriptor
    was opened for writing, a right Landlock granted or refused when the caller opened it.
    A second name of the file (a hard link placed in a writable tree, where Landlock would
    let the confined shell open it for writing) is refused too.
    """
    import fcntl

    info = os.fstat(fd)
    if (info.st_dev, info.st_ino) != (proof.device, proof.inode):
        raise Refused("the proof is not this server's proof file")
    if info.st_nlink != 1:
        raise Refused("the proof file has another name")
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    if flags & os.O_ACCMODE not in (os.O_WRONLY, os.O_RDWR) or flags & os.O_APPEND:
        raise Refused("the proof must be open for writing")
    nonce = os.urandom(NONCE)
    try:
        written = os.pwrite(fd, nonce, proof.offset)
    except OSError as error:
        raise Refused(
            f"the proof cannot be written through the descriptor ({error.strerror})"
        ) from None
    if written != NONCE or os.pread(proof.fd, NONCE, proof.offset) != nonce:
        raise Refused("what was written through the proof did not reach the proof file")


def become(environ: Mapping[bytes, bytes]) -> None:
    """Make this process's environment exactly ``environ``, changing only the variables that
    differ (clearing and refilling it set every variable twice a call)."""
    current = os.environb
    for name in [name for name in current if name not in environ]:
        del current[name]
    for name, value in environ.items():
        if current.get(name) != value:
            current[name] = value


def decide(
    request: wire.Request, cwd: int, budget: AnalysisBudget | None = None
) -> tuple[int, bytes, bytes]:
    """Run the gate as the caller's process would have: its environment, directory, umask,
    arguments and stdin, the analysis under ``budget``; the exit code and what it wrote."""
    from paw_tui.gate.main import answer

    become(request.environ)
    os.fchdir(cwd)
    os.umask(request.umask)
    sys.argv = [sys.argv[0], *request.args]
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(request.payload), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(
        err, encoding="utf-8", errors="backslashreplace", write_through=True
    )
    try:
        code = answer(request.args, budget)
    except SystemExit as leaving:
        code = leaving.code if isinstance(leaving.code, int) else 2
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = 2
    return (code if 0 <= code <= 255 else 2), out.getvalue(), err.getvalue()
