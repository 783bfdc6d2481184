"""The resident gate's files and messages, shared by the hook and the server.

Nothing but built-in modules (not even ``os``, which a hook started with ``-I -S`` has not
loaded: importing it costs a tenth of the call), and no ``from __future__`` import: the hook
reads this before anything else.

One call, over one connection::

    hook   -> server   REQUEST header, metadata, payload; descriptors: proof, working directory
    server -> hook     READY (or REFUSED and a reason: the hook decides itself)
    hook   -> server   GO (after which the hook waits for the answer, and only for it)
    server -> hook     DONE header, stdout, stderr

The GO step is what makes falling back safe: until the hook sends it, the server has done
nothing, so a hook that gives up waiting for READY can decide in its own process without the
decision being made twice.
"""

import sys

from paw_tui.gate import MAX_PAYLOAD as MAX_PAYLOAD  # what a request may carry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

ENV = b"PAW_RESIDENT_GATE"
"""``off`` (or ``0``): every hook call decides in its own process and starts no server."""
SOCKET = "gate.sock"
PROOF = "proof"
"""An empty file the hook opens for writing and passes to the server: only a process that may
write in the state directory can."""
LOCK = "lock"
"""Held by the serving process for its whole life: one server per installation."""
SPAWNED = "spawned"
"""Touched when a hook starts a server: hooks arriving in the next seconds do not start more."""
SERVE_OPTION = "--resident-serve"
"""The launcher's option that runs the server instead of deciding a call."""

SUN_PATH_MAX = 107
"""The longest socket path ``bind`` and ``connect`` take (Linux: 108 bytes with the NUL)."""

REQUEST = b"PAWG1"
READY = b"R"
REFUSED = b"X"
GO = b"G"
DONE = b"D"

READY_TIMEOUT = 2.0
"""Seconds the hook waits to be let in before deciding itself (nothing was done yet)."""
ANSWER_TIMEOUT = 8.0
"""Seconds the hook waits for the answer after GO: under every client's 10 s hook timeout,
after which the client would run the tool. Past it the call is denied (fail closed)."""


def enabled(environ: dict[bytes, bytes]) -> bool:
    """Whether this platform and ``environ`` (the process's, as bytes) let hooks use it."""
    return sys.platform == "linux" and environ.get(ENV, b"").strip().lower() not in (b"off", b"0")


def fsencode(name: str) -> bytes:
    return name.encode(sys.getfilesystemencoding(), "surrogateescape")


def path_in(directory: str, name: str) -> str:
    return directory + "/" + name


def socket_address(directory: str, dir_fd: int, name: str = SOCKET) -> str:
    """The address of socket ``name`` in ``directory``: its path, or, when that is too long
    for a socket address, the same file reached through ``dir_fd`` (an open descriptor of the
    directory) under ``/proc/self/fd``."""
    path = path_in(directory, name)
    if len(fsencode(path)) <= SUN_PATH_MAX:
        return path
    return f"/proc/self/fd/{dir_fd}/{name}"


def encode_request(
    args: list[str], environ: dict[bytes, bytes], umask: int, payload: bytes
) -> bytes:
    fields = [b"%d" % umask, b"%d" % len(args), *map(fsencode, args)]
    fields += [key + b"=" + value for key, value in environ.items()]
    meta = b"\0".join(fields)
    return b"%s %d %d\n" % (REQUEST, len(meta), len(payload)) + meta + payload


class Request:
    """A decoded request: what the hook's process would have decided with."""

    def __init__(self, args: list[str], environ: dict[bytes, bytes], umask: int, payload: bytes):
        self.args = args
        self.environ = environ
        self.umask = umask
        self.payload = payload


def request_sizes(header: bytes) -> tuple[int, int]:
    """The metadata's and the payload's lengths from a request's first line; ValueError when
    it is not one, or announces more than a hook may send."""
    magic, meta, payload = header.split(b" ")
    sizes = int(meta), int(payload)
    if magic != REQUEST or min(sizes) < 0 or sizes[0] > MAX_PAYLOAD or sizes[1] > MAX_PAYLOAD + 1:
        raise ValueError(f"not a resident gate request: {header[:40]!r}")
    return sizes


def decode_request(meta: bytes, payload: bytes) -> Request:
    fields = meta.split(b"\0")
    umask, count = int(fields[0]), int(fields[1])
    if not 0 <= count <= len(fields) - 2 or not 0 <= umask <= 0o777:
        raise ValueError("malformed resident gate request")
    decoding = sys.getfilesystemencoding()
    args = [field.decode(decoding, "surrogateescape") for field in fields[2 : 2 + count]]
    environ: dict[bytes, bytes] = {}
    for item in fields[2 + count :]:
        key, sep, value = item.partition(b"=")
        if not sep or not key:
            raise ValueError(
                f"malformed environment entry in a resident gate request: {item[:40]!r}"
            )
        environ[key] = value
    return Request(args, environ, umask, payload)


def encode_answer(code: int, out: bytes, err: bytes) -> bytes:
    return b"%s %d %d %d\n" % (DONE, code, len(out), len(err)) + out + err


def answer_sizes(header: bytes) -> tuple[int, int, int]:
    """The exit code and the lengths of stdout and stderr from an answer's first line."""
    tag, code, out, err = header.split(b" ")
    values = int(code), int(out), int(err)
    if tag != DONE or not 0 <= values[0] <= 255 or min(values) < 0:
        raise ValueError(f"not a resident gate answer: {header[:40]!r}")
    return values


def read_message(
    recv: "Callable[[int], bytes]", buffer: bytes, body_length: "Callable[[bytes], int]"
) -> tuple[bytes, bytes]:
    """One message: its first line (``buffer`` holds what was already received), whose
    ``body_length`` says how many bytes follow, and those bytes; ValueError when the line
    runs on, or the message ends early or runs longer."""
    while b"\n" not in buffer:
        if len(buffer) > 256:
            raise ValueError("malformed first line")
        chunk = recv(65536)
        if not chunk:
            raise ValueError("the message ended early")
        buffer += chunk
    header, _, rest = buffer.partition(b"\n")
    length = body_length(header)
    chunks = [rest]
    have = len(rest)
    while have < length:
        chunk = recv(min(1 << 20, length - have))
        if not chunk:
            raise ValueError("the message ended early")
        chunks.append(chunk)
        have += len(chunk)
    if have != length:
        raise ValueError("the message is longer than announced")
    return header, b"".join(chunks)
