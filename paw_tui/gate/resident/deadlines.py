"""When each worker's current call must be over, where the server can see it.

A worker's own timer (:mod:`paw_tui.gate.budget`) denies a call whose analysis runs past the
budget, but a timer's handler runs only between Python's instructions: a worker stuck in a
system call or in C code, or stopped, would hold a call, and a worker, for as long as it
stays stuck. So each worker posts, in a page of memory it shares with the server (no system
call, no wake-up), the time by which its current call must be over; the server kills a
worker that is still at it after that (the hook, its connection closed, denies the call) and
forks another. The deadlines are ``CLOCK_MONOTONIC`` seconds, the same clock in every process.
"""

from __future__ import annotations

import mmap
import struct

_SLOT = struct.Struct("d")
GRACE = 1.0
"""Seconds past the analysis budget a worker's own timer has to deny the call before the
server stops the worker."""


class Deadlines:
    """One deadline per worker slot (0.0: no call under way)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._page = mmap.mmap(-1, _SLOT.size * slots)  # shared with the forked workers

    def post(self, slot: int, when: float) -> None:
        _SLOT.pack_into(self._page, slot * _SLOT.size, when)

    def clear(self, slot: int) -> None:
        self.post(slot, 0.0)

    def read(self, slot: int) -> float:
        """The slot's deadline; read until two reads agree (a worker may be writing it)."""
        offset = slot * _SLOT.size
        while True:
            first = _SLOT.unpack_from(self._page, offset)[0]
            if _SLOT.unpack_from(self._page, offset)[0] == first:
                return float(first)

    def overdue(self, now: float) -> list[int]:
        """The slots whose call should be over by ``now``."""
        return [slot for slot in range(self.slots) if 0.0 < self.read(slot) <= now]

    def earliest(self) -> float | None:
        """The nearest deadline posted, or None when no call is under way."""
        posted = [when for when in map(self.read, range(self.slots)) if when > 0.0]
        return min(posted) if posted else None
