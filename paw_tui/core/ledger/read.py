"""Reading the ledger without the lock and without loading it whole.

:func:`tail` and :func:`recent_for_intent` read backwards from the end in 64 KiB blocks and
stop at ``n`` records or at a byte budget, so their cost does not grow with the file
(DESIGN §10: ≤ 50 ms on a million records). A torn last line is reported in the result, not
raised: a writer may be in the middle of its one ``write`` call, or have died there (the
next writer repairs it). :func:`iter_lines` streams forwards for export and the index.
"""

from __future__ import annotations

import os
import stat

from paw_tui.core.ledger.io import (
    DEFAULT_INTENT_BYTES,
    DEFAULT_TAIL_BYTES,
    OPEN_FLAGS,
    Backwards,
    LedgerError,
    loads_record,
    os_reason,
)
from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    Record = dict[str, object]

TAIL_BLOCK = 64 * 1024
READ_CHUNK = 1024 * 1024


class TornTail:
    """Bytes after the last newline: a line whose writer stopped part-way (or is still
    writing, since readers do not take the lock)."""

    __slots__ = ("offset", "length")

    def __init__(self, offset: int, length: int) -> None:
        self.offset = offset
        self.length = length

    def __repr__(self) -> str:
        return f"TornTail(offset={self.offset}, length={self.length})"


class TailResult:
    """What a bounded read from the end found. ``records`` are oldest first; ``complete`` is
    true when ``n`` matching records were found or the start of the file was reached."""

    __slots__ = ("records", "torn_tail", "bytes_read", "complete", "skipped", "end")

    def __init__(
        self,
        records: list[Record],
        torn_tail: TornTail | None,
        bytes_read: int,
        complete: bool,
        skipped: int,
        end: int,
    ) -> None:
        self.records = records
        self.torn_tail = torn_tail
        self.bytes_read = bytes_read
        self.complete = complete
        self.skipped = skipped  # complete lines that were not a JSON object
        self.end = end  # offset just after the last complete line: where a follower resumes

    def __repr__(self) -> str:
        return (
            f"TailResult({len(self.records)} records, torn_tail={self.torn_tail!r}, "
            f"bytes_read={self.bytes_read}, complete={self.complete})"
        )


def open_for_read(path: str) -> int | None:
    """A descriptor on the ledger, None when it does not exist, else LedgerError."""
    try:
        fd = os.open(path, os.O_RDONLY | OPEN_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise LedgerError(f"Cannot read the audit ledger {path}: {os_reason(error)}.") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LedgerError(f"Cannot read the audit ledger {path}: it is not a regular file.")
    return fd


def tail(
    path: str,
    n: int = 20,
    *,
    predicate: Callable[[Record], bool] | None = None,
    max_bytes: int = DEFAULT_TAIL_BYTES,
    needle: bytes | None = None,
) -> TailResult:
    """The last ``n`` records matching ``predicate`` (and holding the bytes ``needle``, a
    cheap pre-filter), oldest first, from at most ``max_bytes`` read at the end."""
    fd = open_for_read(path)
    if fd is None:
        return TailResult([], None, 0, True, 0, 0)
    found: list[Record] = []
    torn, skipped = None, 0
    try:
        size = os.fstat(fd).st_size
        end = size
        reader = Backwards(fd, size, min(TAIL_BLOCK, max(max_bytes, 1)), max_bytes)
        pieces = reader.pieces()
        first = next(pieces, None)  # what follows the last newline: b"" unless torn
        if first is not None and first[1]:
            torn, end = TornTail(first[0], len(first[1])), first[0]
        if n > 0:
            for _offset, piece in pieces:
                if needle is not None and needle not in piece:
                    continue
                record = loads_record(piece)
                if record is None:
                    skipped += 1
                    continue
                if predicate is not None and not predicate(record):
                    continue
                found.append(record)
                if len(found) >= n:
                    break
    finally:
        os.close(fd)
    found.reverse()
    complete = len(found) >= n or not reader.exhausted
    return TailResult(found, torn, reader.bytes_read, complete, skipped, end)


def recent_for_intent(
    path: str, intent_id: str, limit: int = 20, *, max_bytes: int = DEFAULT_INTENT_BYTES
) -> TailResult:
    """The latest ``limit`` records of ``intent_id`` found in the last ``max_bytes``."""
    needle = None
    if intent_id.isascii():  # the writer's exact bytes: spares parsing other intents' lines
        needle = b'"intent_id":' + json.dumps(intent_id).encode("ascii")
    return tail(
        path,
        limit,
        predicate=lambda record: record.get("intent_id") == intent_id,
        max_bytes=max_bytes,
        needle=needle,
    )


def iter_lines(path: str, start: int = 0) -> Iterator[tuple[int, bytes]]:
    """Every complete line from byte ``start`` on, as ``(offset, bytes without "\\n")``,
    read forwards in 1 MiB blocks; a torn last line is not yielded."""
    fd = open_for_read(path)
    if fd is None:
        return
    try:
        os.lseek(fd, start, os.SEEK_SET)
        offset, carry = start, b""
        while True:
            chunk = os.read(fd, READ_CHUNK)
            if not chunk:
                return
            buf = carry + chunk if carry else chunk
            cut = buf.rfind(b"\n")
            if cut < 0:
                carry = buf
                continue
            carry = buf[cut + 1 :]
            for line in buf[:cut].split(b"\n"):
                yield offset, line
                offset += len(line) + 1
    finally:
        os.close(fd)


def iter_records(path: str, start: int = 0) -> Iterator[tuple[int, bytes, Record | None]]:
    """:func:`iter_lines` with each line parsed (None when it is not a JSON object)."""
    for offset, line in iter_lines(path, start):
        yield offset, line, loads_record(line)
