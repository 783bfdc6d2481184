"""Group commit: threads of one process appending at once share one lock and one sync.

A durable append costs one ``fdatasync`` (~0.2-0.5 ms), far more than the rest of it. When
several threads append to the same ledger, the first to arrive becomes the *leader*: once
it holds the inter-process lock it takes the queued records (its own first), writes them
all with one ``write`` and one ``fdatasync``, and wakes their threads. Records queued while
it was writing form the next batch, led by the oldest waiter, which the leader wakes last.

No thread returns before the sync that covers its own record has completed, so "every
decision is durable before its tool runs" holds record by record; a failure of the batch
(lock, disk) is every one of its records' failure, and a record that cannot be encoded fails
alone. Waiting uses thread locks, never sleeps. Ledgers differing in anything that changes
how a record is written (file, head, key, clock, durability, lock timeout) never share a
batch. Standard library only (``_thread``: ``threading`` is not on the gate's path).
"""

from __future__ import annotations

import _thread
import os

from paw_tui.core.ledger.io import LedgerError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable

    from paw_tui.core.ledger.io import LedgerFiles
    from paw_tui.core.ledger.records import Record

MAX_BATCH = 512
"""Records one leader writes at most before handing over (bounds a batch's latency)."""


class Pending:
    """One queued record: ``fields`` to write for ``owner``; once ``done``, its ``result``
    or its ``error``. ``wake`` is released once: when it is done, or when it must lead."""

    __slots__ = ("owner", "fields", "wake", "done", "promoted", "result", "error")

    def __init__(self, owner: LedgerFiles, fields: dict[str, object]) -> None:
        self.owner = owner
        self.fields = fields
        self.wake = _thread.allocate_lock()
        self.wake.acquire()
        self.done = False
        self.promoted = False  # chosen to lead the next batch
        self.result: Record | None = None
        self.error: BaseException | None = None


class Group:
    """The queue of one ledger (as one process writes it)."""

    __slots__ = ("mutex", "queue", "busy", "batches")

    def __init__(self) -> None:
        self.mutex = _thread.allocate_lock()
        self.queue: list[Pending] = []
        self.busy = False  # a leader is writing, or about to
        self.batches = 0  # batches written (for tests: records per sync)

    def enqueue(self, pending: Pending) -> bool:
        """Queue ``pending``; True when its thread must lead (nobody else is)."""
        with self.mutex:
            self.queue.append(pending)
            lead = not self.busy
            self.busy = True
        return lead

    def wait(self, pending: Pending, commit: Callable[[Callable[[], list[Pending]]], None]) -> None:
        """Wait until ``pending`` is done, leading a batch when its turn comes.

        A signal's exception (Ctrl-C) can end the wait early: a record not yet taken into a
        batch is then withdrawn; one already taken is waited for; and a turn to lead is
        still taken (else every later append of this process would wait for ever)."""
        try:
            if not pending.promoted:
                pending.wake.acquire()
        except BaseException:
            with self.mutex:
                withdrawn = not pending.promoted and pending in self.queue
                if withdrawn:
                    self.queue.remove(pending)
            if not withdrawn and not pending.promoted and not pending.done:
                pending.wake.acquire()  # taken into a batch being written: its outcome is near
            if pending.promoted and not pending.done:
                self.lead(commit)
            raise
        if not pending.done:
            self.lead(commit)

    def lead(self, commit: Callable[[Callable[[], list[Pending]]], None]) -> None:
        """Write a batch with ``commit``, then hand over. ``commit`` calls the function it is
        given once, after it has taken the inter-process lock: records queued while the
        leader waited for the lock join its batch."""
        batch: list[Pending] = []

        def take() -> list[Pending]:
            with self.mutex:
                batch[:] = self.queue[:MAX_BATCH]
                del self.queue[:MAX_BATCH]
                self.batches += 1
            return batch

        successor = None
        try:
            commit(take)
        except BaseException as error:  # the leader's own call raises it; the others say so
            if not batch:
                take()
            fail(batch[1:], _failed(batch[0], f"{type(error).__name__}: {error}"))
            raise
        finally:
            if not batch:
                take()  # the leader is the queue's first: it gets its outcome below
            with self.mutex:
                if self.queue:
                    successor = self.queue[0]
                    successor.promoted = True
                else:
                    self.busy = False
            leader = batch[0]
            for pending in batch:
                if pending.error is None and pending.result is None:
                    pending.error = _failed(pending, "its batch ended without writing it")
                pending.done = True
                if pending is not leader:
                    pending.wake.release()
            if successor is not None:
                successor.wake.release()


def _failed(pending: Pending, why: str) -> LedgerError:
    return LedgerError(f"Cannot append to the audit ledger {pending.owner.path}: {why}.")


def fail(batch: list[Pending], error: BaseException) -> None:
    """Every entry of ``batch`` without an outcome gets ``error``."""
    for pending in batch:
        if pending.result is None and pending.error is None:
            pending.error = error


_GUARD = _thread.allocate_lock()
_GROUPS: dict[Hashable, Group] = {}


def group_for(key: Hashable) -> Group:
    with _GUARD:
        group = _GROUPS.get(key)
        if group is None:
            group = _GROUPS[key] = Group()
        return group


def _forget_groups() -> None:
    """In a forked child, a batch another thread was leading at the fork never finishes."""
    global _GUARD
    _GUARD = _thread.allocate_lock()
    _GROUPS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_groups)
