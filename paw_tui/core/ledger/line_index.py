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
import time
from array import array
from bisect import bisect_left
from collections import OrderedDict
from itertools import accumulate, islice, repeat
from operator import add

from paw_tui.core.support.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

BLOCK = 1024 * 1024
TAIL_BLOCK = 64 * 1024
CACHE_SIZE = 4096
COMPACT = "I" if array("I").itemsize == 4 else "q"
"""Offsets below 4 GiB take 4 bytes each (4 MB for a million lines); larger ones 8."""
COMPACT_LIMIT = 1 << 32 if COMPACT == "I" else 1 << 63
SCAN_BLOCK = 256 * 1024
"""The background scan's read: its C loops hold the interpreter lock for well under 1 ms."""
LIVE_PAUSE = 0.03
"""How long the background scan stands aside, per block, for a record on its way to the
screen (bounded, so a ledger appended to without a pause is still indexed)."""
LIVE_WINDOW = 0.1
"""Seconds after an append was seen during which :meth:`TraceIndex.live` holds."""
SCAN_SHARE = 3
"""The background scan sleeps (SCAN_SHARE - 1) times as long as each block took: it never
holds more than a third of the interpreter's time, whatever the machine's load."""

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
    end = base + last + 1
    return Snapshot(array(_typecode(end), starts), end, complete_from, identity)


def scan_head(
    path: str,
    tail: Snapshot,
    should_stop: Callable[[], bool] | None = None,
    should_wait: Callable[[], bool] | None = None,
) -> Snapshot | None:
    """The line starts before ``tail.complete_from`` (what :meth:`TraceIndex.adopt` prepends
    to the tail's); None when stopped or when the file was replaced meanwhile.

    Each block's newlines are found by C loops (``split``, ``map``, ``accumulate``), never a
    Python loop per line, and the thread sleeps between blocks (:data:`SCAN_SHARE`): a scan
    of a million lines holds the interpreter lock only in short slices, so the live tail
    keeps its pace; while ``should_wait()`` (a new record on its way to the screen) it pauses
    :data:`LIVE_PAUSE` before each block."""
    stop_at = tail.complete_from
    if stop_at == 0:
        return tail
    found = array(tail.offsets.typecode, [0])
    try:
        with open_regular(path) as handle:
            position = 0
            while position < stop_at:
                if should_stop is not None and should_stop():
                    return None
                if should_wait is not None and should_wait():
                    time.sleep(LIVE_PAUSE)
                began = time.perf_counter()
                chunk = handle.read(min(SCAN_BLOCK, stop_at - position))
                if not chunk:
                    break
                _add_line_starts(found, chunk, position)
                position += len(chunk)
                time.sleep((time.perf_counter() - began) * (SCAN_SHARE - 1))
    except OSError:
        return None
    if file_identity(path) != tail.identity:
        return None
    if found[-1] >= stop_at:
        found.pop()  # the start of the tail's first line, which the tail holds already
    return Snapshot(found, stop_at, 0, tail.identity)


def _add_line_starts(found: array[int], chunk: bytes, position: int) -> None:
    """Append to ``found`` the offset just after each newline of ``chunk`` (which starts at
    ``position`` in the file)."""
    pieces = chunk.split(b"\n")
    pieces.pop()  # what follows the last newline ends no line here
    lengths = map(add, map(len, pieces), repeat(1))
    found.extend(islice(accumulate(lengths, initial=position), 1, None))


def _typecode(end: int) -> str:
    """The array type for offsets below ``end``."""
    return COMPACT if end < COMPACT_LIMIT else "q"


def _joined(front: array[int], back: array[int]) -> array[int]:
    """``front`` extended in place by ``back`` (or a wider copy when an offset outgrows it)."""
    if front.typecode == back.typecode:
        front.extend(back)
        return front
    if back and back[-1] >= COMPACT_LIMIT and front.typecode == COMPACT:
        front = array("q", front)  # the ledger passed 4 GiB
    front.extend(back.tolist() if back.typecode != front.typecode else back)
    return front


class TraceIndex:
    """Offsets of the complete lines of one JSONL file, oldest first."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.offsets = array("q")
        self.end = 0
        self.complete_from = 0
        self.identity: tuple[int, int] | None = None
        # bumped whenever line numbers change meaning (a reset; older lines put in front), so
        # viewers can drop work done against the old numbers
        self.generation = 0
        self._cache: OrderedDict[int, dict[str, object] | None] = OrderedDict()
        self._live_until = 0.0

    def live(self) -> bool:
        """Whether appended lines were seen a moment ago (they are being shown): background
        work on this index stands aside (:func:`scan_head`'s ``should_wait``)."""
        return time.monotonic() < self._live_until

    def __len__(self) -> int:
        return len(self.offsets)

    @property
    def fully_indexed(self) -> bool:
        return self.complete_from == 0

    def adopt(self, snapshot: Snapshot) -> int:
        """Take a scan's result: the first one (:func:`scan_tail`) as the whole index, then
        the older lines (:func:`scan_head`) in front of what is indexed, keeping the lines
        appended meanwhile. Returns how many lines were put in front (every line number
        grows by that much, and a new generation starts), 0 otherwise. A snapshot of another
        file replaces the index and starts a new generation."""
        same_file = snapshot.identity == self.identity
        if same_file and self.offsets and snapshot.end <= self.end:
            if snapshot.complete_from >= self.complete_from:
                return 0  # nothing the index lacks
            if snapshot.end != self.complete_from:
                return 0  # not the piece just before the indexed lines: a stale scan
            older = snapshot.offsets  # extended in place: no second copy of a big index
            del older[bisect_left(older, self.complete_from) :]
            added = len(older)
            self.offsets = _joined(older, self.offsets)
            self.complete_from = snapshot.complete_from
            self._cache.clear()  # keyed by line number, and every number moved
            self.generation += 1
            return added
        if self.offsets or (self.identity is not None and not same_file):
            self.generation += 1  # another file, or one that shrank: earlier work is stale
        self._cache.clear()
        self.offsets = snapshot.offsets
        self.end = snapshot.end
        self.complete_from = snapshot.complete_from
        self.identity = snapshot.identity
        return 0

    def poll(self) -> Update:
        """Look for appended lines, truncation or replacement; changes nothing in the index
        (an append seen is noted for :meth:`live`)."""
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
            with open_regular(self.path) as handle:
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
        self._live_until = time.monotonic() + LIVE_WINDOW
        return Update(APPENDED, offsets, end + start, identity)

    def apply(self, update: Update) -> None:
        """Take what :meth:`poll` saw (a reset empties the index: scan again)."""
        if update.kind == APPENDED and update.offsets and update.offsets[0] == self.end:
            self.offsets = _joined(self.offsets, update.offsets)
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
            with open_regular(self.path) as handle:
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
            with open_regular(self.path) as handle:
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
