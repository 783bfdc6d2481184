"""An index of the ledger's lines for viewers that scroll through millions of records.

It keeps the byte offset of every complete line in an ``array('q')`` (8 bytes a record: a
1,000,000-record ledger costs 8 MB), never the lines; records are parsed only when shown,
through a small LRU. The newest lines are found first by reading backwards from the end
(:func:`scan_tail`), so a viewer can paint them before the rest is indexed
(:func:`scan_head`, meant for a worker thread). :meth:`TraceIndex.poll` looks for appended
lines and for a file that was truncated or replaced (another inode) without changing the
index; :meth:`TraceIndex.apply` takes the result on the owner's thread. So the reading can
happen in a worker while only one thread ever mutates the index. Standard library only.
"""

from __future__ import annotations

import json
import os
from array import array
from collections import OrderedDict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

BLOCK = 1024 * 1024
TAIL_BLOCK = 64 * 1024
CACHE_SIZE = 4096

APPENDED = "appended"
RESET = "reset"
UNCHANGED = "unchanged"
MISSING = "missing"


def file_identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


class Snapshot:
    """What a scan found: line offsets, the end of the last complete line, and the file's
    identity. ``complete_from`` > 0 means the lines before it are not indexed yet."""

    __slots__ = ("offsets", "end", "complete_from", "identity")

    def __init__(
        self, offsets: array[int], end: int, complete_from: int, identity: tuple[int, int] | None
    ) -> None:
        self.offsets = offsets
        self.end = end
        self.complete_from = complete_from
        self.identity = identity


class Update:
    """What :meth:`TraceIndex.poll` saw since the last poll."""

    __slots__ = ("kind", "offsets", "end", "identity")

    def __init__(
        self,
        kind: str,
        offsets: array[int] | None = None,
        end: int = 0,
        identity: tuple[int, int] | None = None,
    ) -> None:
        self.kind = kind
        self.offsets = offsets if offsets is not None else array("q")
        self.end = end
        self.identity = identity

    @property
    def added(self) -> int:
        return len(self.offsets)


def scan_tail(path: str, lines: int = 2000) -> Snapshot:
    """The newest ``lines`` complete lines, read backwards from the end of the file."""
    identity = file_identity(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:
        return Snapshot(array("q"), 0, 0, None)
    try:
        size = os.fstat(fd).st_size
        data = b""
        position = size
        while position > 0:
            start = max(0, position - TAIL_BLOCK)
            data = os.pread(fd, position - start, start) + data
            position = start
            if data.count(b"\n") > lines:
                break
    finally:
        os.close(fd)
    base = position
    last = data.rfind(b"\n")
    if last < 0:
        return Snapshot(array("q"), 0, 0, identity)
    starts: list[int] = []
    cursor = last
    while len(starts) < lines:
        previous = data.rfind(b"\n", 0, cursor)
        if previous < 0:
            if base == 0:
                starts.append(0)
            break
        starts.append(base + previous + 1)
        cursor = previous
    starts.reverse()
    complete_from = starts[0] if starts else 0
    return Snapshot(array("q", starts), base + last + 1, complete_from, identity)


def scan_head(
    path: str, tail: Snapshot, should_stop: Callable[[], bool] | None = None
) -> Snapshot | None:
    """Every line start before ``tail.complete_from``, joined to the tail's; None when
    stopped or when the file was replaced meanwhile."""
    stop_at = tail.complete_from
    if stop_at == 0:
        return tail
    found = array("q", [0])
    try:
        with open(path, "rb") as handle:
            position = 0
            while position < stop_at:
                if should_stop is not None and should_stop():
                    return None
                chunk = handle.read(min(BLOCK, stop_at - position))
                if not chunk:
                    break
                index = chunk.find(b"\n")
                while index >= 0:
                    line_start = position + index + 1
                    if line_start < stop_at:
                        found.append(line_start)
                    index = chunk.find(b"\n", index + 1)
                position += len(chunk)
    except OSError:
        return None
    if file_identity(path) != tail.identity:
        return None
    found.extend(tail.offsets)
    return Snapshot(found, tail.end, 0, tail.identity)


class TraceIndex:
    """Offsets of the complete lines of one JSONL file, oldest first."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.offsets = array("q")
        self.end = 0
        self.complete_from = 0
        self.identity: tuple[int, int] | None = None
        self.generation = 0  # bumped on every reset, so viewers can drop stale work
        self._cache: OrderedDict[int, dict[str, object] | None] = OrderedDict()

    def __len__(self) -> int:
        return len(self.offsets)

    @property
    def fully_indexed(self) -> bool:
        return self.complete_from == 0

    def adopt(self, snapshot: Snapshot) -> None:
        """Take a scan's result as the whole index (from :func:`scan_tail` / :func:`scan_head`)."""
        if snapshot.identity != self.identity or snapshot.end < self.end or not self.offsets:
            self._cache.clear()
            self.generation += 1
        elif len(snapshot.offsets) != len(self.offsets):
            self._cache.clear()  # line numbers shifted as older lines were prepended
        self.offsets = snapshot.offsets
        self.end = snapshot.end
        self.complete_from = snapshot.complete_from
        self.identity = snapshot.identity

    def poll(self) -> Update:
        """Look for appended lines, truncation or replacement; changes nothing."""
        identity = file_identity(self.path)
        if identity is None:
            return (
                Update(MISSING) if self.identity is not None or self.offsets else Update(UNCHANGED)
            )
        try:
            size = os.path.getsize(self.path)
        except OSError:
            return Update(UNCHANGED)
        if (self.identity is not None and identity != self.identity) or size < self.end:
            return Update(RESET, identity=identity)
        end = self.end
        if size <= end:
            return Update(UNCHANGED, end=end, identity=identity)
        try:
            with open(self.path, "rb") as handle:
                handle.seek(end)
                chunk = handle.read(size - end)
        except OSError:
            return Update(UNCHANGED)
        offsets = array("q")
        start = 0
        index = chunk.find(b"\n")
        while index >= 0:
            offsets.append(end + start)
            start = index + 1
            index = chunk.find(b"\n", start)
        if not offsets:
            return Update(UNCHANGED, end=end, identity=identity)
        return Update(APPENDED, offsets, end + start, identity)

    def apply(self, update: Update) -> None:
        """Take what :meth:`poll` saw (a reset empties the index: scan again)."""
        if update.kind == APPENDED and update.offsets and update.offsets[0] == self.end:
            self.offsets.extend(update.offsets)
            self.end = update.end
            self.identity = update.identity
        elif update.kind in (RESET, MISSING):
            self.offsets = array("q")
            self.end = 0
            self.complete_from = 0
            self.identity = None if update.kind == MISSING else update.identity
            self._cache.clear()
            self.generation += 1

    # -- reading -----------------------------------------------------------------------------
    def line_bytes(self, index: int) -> bytes:
        start = self.offsets[index]
        stop = self.offsets[index + 1] if index + 1 < len(self.offsets) else self.end
        try:
            with open(self.path, "rb") as handle:
                handle.seek(start)
                return handle.read(max(0, stop - start)).rstrip(b"\n")
        except OSError:
            return b""

    def record(self, index: int) -> dict[str, object] | None:
        """The parsed record of line ``index`` (None when it is not a JSON object)."""
        cache = self._cache
        if index in cache:
            cache.move_to_end(index)
            return cache[index]
        try:
            value = json.loads(self.line_bytes(index))
        except (ValueError, IndexError):
            value = None
        record = value if isinstance(value, dict) else None
        cache[index] = record
        if len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
        return record

    def matching(
        self,
        needles: Sequence[bytes],
        should_stop: Callable[[], bool] | None = None,
        upto: int | None = None,
    ) -> array[int] | None:
        """Indexes of the lines (of the first ``upto``) holding every byte string of
        ``needles``, streamed in blocks; None when stopped. A cheap pre-filter: the caller
        confirms each hit on the parsed record."""
        offsets = self.offsets
        count = len(offsets) if upto is None else min(upto, len(offsets))
        result = array("q")
        if count == 0:
            return result
        start = offsets[0]
        stop = offsets[count] if count < len(offsets) else self.end
        line = 0
        carry = b""
        try:
            with open(self.path, "rb") as handle:
                handle.seek(start)
                position = start
                while position < stop:
                    if should_stop is not None and should_stop():
                        return None
                    chunk = handle.read(min(BLOCK, stop - position))
                    if not chunk:
                        break
                    position += len(chunk)
                    pieces = (carry + chunk).split(b"\n")
                    carry = pieces.pop()
                    for piece in pieces:
                        if line < count and all(needle in piece for needle in needles):
                            result.append(line)
                        line += 1
        except OSError:
            return result
        return result
