"""The hook's side of the resident gate: ask the server, and say when the hook must decide
itself (no server, not let in in time) or deny (the server took the call and failed).

Nothing but built-in modules and ``_socket`` (``posix`` rather than ``os``, which a hook
started with ``-I -S`` has not loaded), and no ``from __future__`` import: this runs before
the gate is imported, on every call.
"""

import posix
import sys

from paw_tui.gate.resident import wire

TYPE_CHECKING = False
if TYPE_CHECKING:
    import _socket

SPAWN_QUIET = 5.0
"""Seconds after a hook started a server during which no other hook starts one."""
_CHUNK = 1 << 20
"""Bytes read from stdin at a time."""


class Outcome:
    """What the hook does next: exit with ``code`` (answered: the output is written), deny
    with ``deny`` (the server failed after taking the call), or decide itself with
    ``payload`` as its stdin (None: stdin was not read)."""

    def __init__(
        self, code: "int | None" = None, deny: "str | None" = None, payload: "bytes | None" = None
    ) -> None:
        self.code = code
        self.deny = deny
        self.payload = payload


def read_stdin() -> bytes:
    """The hook's stdin, up to one byte more than the gate accepts (so it can refuse it)."""
    chunks: list[bytes] = []
    size = 0
    while size <= wire.MAX_PAYLOAD:
        chunk = posix.read(0, min(_CHUNK, wire.MAX_PAYLOAD + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def ask(code_cache: str, directory: str, args: list[str]) -> Outcome:
    """Have the resident server in ``directory`` answer the hook call with arguments
    ``args``; start one (running the gate's code from ``code_cache``) when there is none."""
    try:
        payload = read_stdin()
    except OSError:
        return Outcome()  # the gate reads it again and says why it cannot
    import _socket

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    dir_fd = -1
    try:
        sock.settimeout(wire.READY_TIMEOUT)
        address = wire.path_in(directory, wire.SOCKET)
        if len(wire.fsencode(address)) > wire.SUN_PATH_MAX:
            dir_fd = posix.open(directory, posix.O_RDONLY | posix.O_DIRECTORY | posix.O_CLOEXEC)
            address = wire.socket_address(directory, dir_fd)
        try:
            sock.connect(address)
        except OSError:  # none, or a dead one's socket file
            spawn(code_cache, directory)
            return Outcome(payload=payload)
        return _exchange(sock, directory, args, payload)
    except Exception:  # before GO (after it, _exchange answers): nothing was done there
        return Outcome(payload=payload)
    finally:
        sock.close()
        if dir_fd >= 0:
            posix.close(dir_fd)


def _exchange(sock: "_socket.socket", directory: str, args: list[str], payload: bytes) -> Outcome:
    import _socket

    creds = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    if int.from_bytes(creds[4:8], sys.byteorder) != posix.geteuid():
        return Outcome(payload=payload)  # not our server: never trust its answer
    flags = posix.O_WRONLY | posix.O_NOFOLLOW | posix.O_NONBLOCK | posix.O_CLOEXEC | posix.O_NOCTTY
    proof = posix.open(wire.path_in(directory, wire.PROOF), flags)
    try:
        cwd = posix.open(".", posix.O_PATH | posix.O_DIRECTORY | posix.O_CLOEXEC)
    except OSError:
        posix.close(proof)
        return Outcome(payload=payload)
    try:
        umask = posix.umask(0o077)
        posix.umask(umask)
        data = memoryview(wire.encode_request(args, dict(posix.environ), umask, payload))
        fds = proof.to_bytes(4, sys.byteorder) + cwd.to_bytes(4, sys.byteorder)
        sent = sock.sendmsg([data[:65536]], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)])
    finally:
        posix.close(proof)
        posix.close(cwd)
    sock.sendall(data[sent:])
    if sock.recv(256)[:1] != wire.READY:
        return Outcome(payload=payload)  # refused, or gone: nothing was done there
    # From here on the server may be deciding: the hook no longer decides itself.
    try:
        sock.sendall(wire.GO)
        sock.settimeout(wire.ANSWER_TIMEOUT)
        code, out, err = _receive_answer(sock)
    except Exception as error:  # the server may have acted: deciding again could act twice
        return Outcome(
            deny=f"the resident gate failed while deciding ({type(error).__name__}: {error})"
        )
    return Outcome(code=_write_all(1, out, _write_all(2, err, code)))


def _receive_answer(sock: "_socket.socket") -> tuple[int, bytes, bytes]:
    header, body = wire.read_message(sock.recv, b"", lambda line: sum(wire.answer_sizes(line)[1:]))
    code, out_size, _ = wire.answer_sizes(header)
    return code, body[:out_size], body[out_size:]


def _write_all(fd: int, data: bytes, code: int) -> int:
    """Write ``data`` to ``fd``; ``code``, or 2 when the answer could not be written (a deny,
    as in the hook's own process)."""
    view = memoryview(data)
    try:
        while view:
            view = view[posix.write(fd, view) :]
    except OSError:
        return 2
    return code


def spawn(code_cache: str, directory: str) -> None:
    """Start a server in its own session, detached from the client's pipes (a client waits
    for the hook's output to close), unless a hook did in the last few seconds."""
    marker = wire.path_in(directory, wire.SPAWNED)
    try:
        import time

        try:
            if time.time() - posix.stat(marker).st_mtime < SPAWN_QUIET:
                return
        except FileNotFoundError:
            try:
                posix.mkdir(directory, 0o700)
            except FileExistsError:
                pass
        flags = posix.O_WRONLY | posix.O_CREAT | posix.O_NOFOLLOW | posix.O_NONBLOCK
        fd = posix.open(marker, flags | posix.O_CLOEXEC, 0o600)
        try:
            posix.utime(fd)
        finally:
            posix.close(fd)
        from paw_tui.core.clients.commands import RESIDENT_OPTION
        from paw_tui.core.support.code_cache import OPTION

        launcher = __file__.rpartition("/")[0].rpartition("/")[0] + "/launch.py"
        python = sys.executable
        command = [OPTION, code_cache, RESIDENT_OPTION, directory, wire.SERVE_OPTION]
        posix.posix_spawn(
            python,
            [python, "-I", "-S", launcher, *command],
            posix.environ,
            file_actions=[
                (posix.POSIX_SPAWN_OPEN, 0, "/dev/null", posix.O_RDWR, 0),
                (posix.POSIX_SPAWN_DUP2, 0, 1),
                (posix.POSIX_SPAWN_DUP2, 0, 2),
            ],
            setsid=True,
        )
    except OSError:
        pass  # only speed is lost
