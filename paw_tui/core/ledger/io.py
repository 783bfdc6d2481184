"""Low-level pieces of the ledger: its error, hashing, and reading a file from its end.

Kept apart from :mod:`paw_tui.core.ledger.store` so the head store, the verifier and the index
can share them without importing each other.
"""

from __future__ import annotations

import os
import time

from paw_tui.core.errors import PawError
from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)
from paw_tui.core.support.hashing import PREFIX as HASH_PREFIX
from paw_tui.core.support.hashing import content_hash
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

EMPTY_HASH = HASH_PREFIX + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
# O_NONBLOCK: opening a FIFO planted as the ledger or its head must not hang the gate (a
# hook that outlasts the client's timeout lets the tool run); regular files ignore it.
OPEN_FLAGS = getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
DEFAULT_TAIL_BYTES = 4 * 1024 * 1024  # tail(): read at most this much from the end
DEFAULT_INTENT_BYTES = 1024 * 1024  # recent_for_intent(): the intent context block's budget


class LedgerError(PawError):
    """The ledger could not be appended to or read; the message names the file and why."""


def line_hash(line: bytes) -> str:
    """``"sha256:" + hex`` of one ledger line's bytes, without its newline."""
    return content_hash(line)


def format_ts(seconds: float) -> str:
    """RFC 3339 UTC with milliseconds: ``2026-11-21T23:54:04.123Z``."""
    whole, millis = divmod(int(seconds * 1000), 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + f".{millis:03d}Z"


def loads_record(line: bytes) -> dict[str, object] | None:
    """One line parsed, or None when it is not a JSON object."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if type(value) is dict else None


def os_reason(error: OSError) -> str:
    """An OSError as the end of a sentence: ``it is a directory``, ``No space left on device``."""
    if isinstance(error, IsADirectoryError):
        return "it is a directory"
    return (error.strerror or str(error)).rstrip(".")


def read_at(fd: int, size: int, offset: int) -> bytes:
    """``size`` bytes at ``offset`` (fewer at the end of the file). Every read of the ledger's
    end goes through here, so tests can count the bytes a reader touches."""
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover - Windows
    return os.read(fd, size)  # pragma: no cover


def write_at(fd: int, data: bytes, offset: int) -> int:
    if hasattr(os, "pwrite"):
        return os.pwrite(fd, data, offset)
    os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover - Windows
    return os.write(fd, data)  # pragma: no cover


def write_state_file(path: str, data: bytes) -> None:
    """Replace ``path`` atomically, without a sync (callers hold the ledger lock)."""
    from paw_tui.core.support.fsutil import replace_unsynced

    replace_unsynced(path, data)


class Backwards:
    """The pieces between newlines, newest first, read in blocks from ``end`` backwards.

    The first piece is what follows the last newline before ``end`` (``b""`` when the file
    ends with one, a torn fragment otherwise). ``exhausted`` is set when the byte budget ran
    out, or the file shrank, before the start of the file was reached.
    """

    __slots__ = ("fd", "end", "block", "budget", "bytes_read", "exhausted")

    def __init__(self, fd: int, end: int, block: int, budget: int | None = None) -> None:
        self.fd = fd
        self.end = end
        self.block = block
        self.budget = budget
        self.bytes_read = 0
        self.exhausted = False

    def pieces(self) -> Iterator[tuple[int, bytes]]:
        pos = self.end
        carry = b""
        while pos > 0:
            want = min(self.block, pos)
            if self.budget is not None:
                want = min(want, self.budget - self.bytes_read)
                if want <= 0:
                    self.exhausted = True
                    return
            chunk = read_at(self.fd, want, pos - want)
            if len(chunk) != want:
                self.exhausted = True
                return
            pos -= want
            self.bytes_read += want
            buf = chunk + carry
            if b"\n" not in chunk:
                carry = buf
                continue
            parts = buf.split(b"\n")
            carry = parts[0]
            offset = pos + len(buf)
            for index in range(len(parts) - 1, 0, -1):
                piece = parts[index]
                offset -= len(piece)
                yield offset, piece
                offset -= 1
        yield 0, carry


class LedgerFiles:
    """The paths of the ledger at ``path`` for the workspace at ``workspace_root``."""

    __slots__ = ("path", "workspace_root", "cache_dir", "lock_path", "lock_timeout")

    def __init__(self, path: str, *, workspace_root: str, lock_timeout: float = 5.0) -> None:
        self.path = os.path.abspath(path)
        self.workspace_root = os.path.abspath(workspace_root)
        self.cache_dir = os.path.join(os.path.dirname(self.path), ".cache")
        self.lock_path = os.path.join(self.cache_dir, os.path.basename(self.path) + ".lock")
        self.lock_timeout = lock_timeout

    @classmethod
    def of_workspace(cls, workspace_root: str) -> LedgerFiles:
        return cls(layout.at(workspace_root, layout.LEDGER), workspace_root=workspace_root)
