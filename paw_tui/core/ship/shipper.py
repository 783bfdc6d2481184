"""The shipping loop: read what follows the cursor, send it in batches, move the cursor.

Each batch is sent synchronously and resent, with growing pauses (or the backend's
``Retry-After``), until the backend accepts it; only then does the cursor move. The lines are
checked as they are read: each record's ``prev`` must be the hash of the line before it (the
ledger's chain), so a ledger rewritten under the cursor is never shipped as if it were the
same history; ``paw-tui trace verify`` then says what happened. ``--follow`` keeps going as
records are appended, woken by the OS (``watchfiles``, as the TUI is) and by a slow timer.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from paw_tui.core.errors import PawError
from paw_tui.core.ledger.io import line_hash, loads_record
from paw_tui.core.ledger.read import iter_lines
from paw_tui.core.ship import sender
from paw_tui.core.ship.cursor import Cursor, matches_ledger, save_cursor
from paw_tui.core.ship.endpoint import Endpoint
from paw_tui.core.ship.mapping import SpanData, record_span, root_span

BATCH_RECORDS = 512
FIRST_PAUSE = 0.5
LONGEST_PAUSE = 30.0
EMPTY_HASH = line_hash(b"")


class ShipError(PawError):
    """The run cannot deliver (or must not): the message names the endpoint and what waits."""

    exit_code = 2


@dataclass
class ShipReport:
    shipped: int = 0
    first_seq: int | None = None
    last_seq: int | None = None
    requests: int = 0
    resends: int = 0
    rejected_spans: int = 0
    restarted: str | None = None  # why shipping started again from the first record
    notes: list[str] = field(default_factory=list)


@dataclass
class _Batch:
    spans: list[SpanData]
    records: int
    last_seq: int
    last_hash: str
    end_offset: int
    roots: dict[str, int]


class Shipper:
    """Ships one workspace's ledger to one endpoint, under one project name."""

    def __init__(
        self,
        workspace: str,
        ledger_path: str,
        endpoint: Endpoint,
        encode: Callable[[list[SpanData]], bytes],
        cursor: Cursor,
        cursor_file: str,
        *,
        timeout: float | None = None,
        send: Callable[[Endpoint, bytes], sender.Answer] = sender.send,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        batch_records: int = BATCH_RECORDS,
    ) -> None:
        self.workspace = workspace
        self.ledger_path = ledger_path
        self.endpoint = endpoint
        self.encode = encode
        self.cursor = cursor
        self.cursor_file = cursor_file
        self.timeout = timeout
        self._send = send
        self._sleep = sleep
        self._clock = clock
        self.batch_records = batch_records

    # -- one pass ---------------------------------------------------------------------------

    def ship_available(self, report: ShipReport | None = None) -> ShipReport:
        """Ship every complete record after the cursor; ShipError when a batch cannot be
        delivered in time or must not be."""
        report = report or ShipReport()
        if not matches_ledger(self.cursor, self.ledger_path):
            report.restarted = (
                f"the ledger no longer holds record {self.cursor.seq} where it was shipped "
                "from (replaced or rewritten): shipping again from its first record"
            )
            self.cursor = Cursor(self.cursor.endpoint, self.cursor.project)
        while True:
            batch = self._next_batch()
            if batch is None:
                return report
            self._deliver(batch, report)
            self.cursor.seq = batch.last_seq
            self.cursor.hash = batch.last_hash
            self.cursor.offset = batch.end_offset
            self.cursor.roots.update(batch.roots)
            save_cursor(self.cursor_file, self.cursor)
            report.shipped += batch.records
            if report.first_seq is None:
                report.first_seq = batch.last_seq - batch.records + 1
            report.last_seq = batch.last_seq

    def _next_batch(self) -> _Batch | None:
        spans: list[SpanData] = []
        roots: dict[str, int] = {}
        previous = self.cursor.hash or EMPTY_HASH
        count, last_seq, end = 0, self.cursor.seq, self.cursor.offset
        for offset, line in iter_lines(self.ledger_path, self.cursor.offset):
            record = loads_record(line)
            if record is None:
                raise ShipError(
                    f"The ledger {self.ledger_path} holds a line that is not a record (byte "
                    f"{offset}): nothing after it is shipped; run 'paw-tui trace verify'."
                )
            seq = record.get("seq")
            if record.get("prev") != previous or not isinstance(seq, int):
                raise ShipError(
                    f"The ledger's chain breaks at the record after seq {last_seq} (byte "
                    f"{offset} of {self.ledger_path}): nothing after it is shipped; run "
                    "'paw-tui trace verify'."
                )
            session = record.get("session_id")
            if isinstance(session, str) and session:
                if session not in self.cursor.roots and session not in roots:
                    root = root_span(self.workspace, record)
                    if root is not None:
                        spans.append(root)
                        roots[session] = seq
            spans.append(record_span(self.workspace, record, seq))
            previous = line_hash(line)
            count, last_seq, end = count + 1, seq, offset + len(line) + 1
            if count >= self.batch_records:
                break
        if count == 0:
            return None
        return _Batch(spans, count, last_seq, previous, end, roots)

    def _deliver(self, batch: _Batch, report: ShipReport) -> None:
        body = self.encode(batch.spans)
        started = self._clock()
        pause = FIRST_PAUSE
        attempt = 0
        while True:
            answer = self._send(self.endpoint, body)
            report.requests += 1
            if answer.outcome == sender.ACCEPTED:
                self._note_partial(answer, report)
                return
            if answer.outcome == sender.TOO_LARGE and len(batch.spans) > 1:
                self._split(batch, report)
                return
            if answer.outcome in (sender.FATAL, sender.TOO_LARGE):
                raise ShipError(
                    f"{self.endpoint.url} refused the batch ({answer.detail}); sending it again "
                    f"cannot help. {self._waiting()}"
                )
            attempt += 1
            report.resends += 1
            wait = answer.retry_after if answer.retry_after is not None else pause
            wait = min(LONGEST_PAUSE, wait) * random.uniform(0.8, 1.2)
            if self.timeout is not None and self._clock() - started + wait > self.timeout:
                raise ShipError(
                    f"{self.endpoint.url} did not accept the batch within {self.timeout:g} s "
                    f"({attempt} attempts; last: {answer.detail}). {self._waiting()}"
                )
            self._sleep(wait)
            pause = min(LONGEST_PAUSE, pause * 2)

    def _split(self, batch: _Batch, report: ShipReport) -> None:
        """A batch too large for the backend: its spans in two halves (same cursor move)."""
        half = len(batch.spans) // 2
        for spans in (batch.spans[:half], batch.spans[half:]):
            self._deliver(_Batch(spans, 0, 0, "", 0, {}), report)
        self.batch_records = max(1, self.batch_records // 2)

    def _note_partial(self, answer: sender.Answer, report: ShipReport) -> None:
        from paw_tui.core.ship.encode import partial_rejection

        partial = partial_rejection(answer.body) if answer.body else None
        if partial is not None and partial[0]:
            report.rejected_spans += partial[0]
            report.notes.append(
                f"{self.endpoint.url} rejected {partial[0]} span(s) as invalid: {partial[1]}"
            )

    def _waiting(self) -> str:
        waiting = sum(1 for _ in iter_lines(self.ledger_path, self.cursor.offset))
        return (
            f"{waiting} record(s) wait to be shipped (the backend has everything up to seq "
            f"{self.cursor.seq}); nothing is lost: the next run sends them."
        )
