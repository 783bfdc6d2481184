"""The trace pane: the ledger's newest records, live, with filters and the chain status."""

from __future__ import annotations

import os
import threading
from array import array
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static
from textual.worker import Worker

from paw_tui.core.ledger.line_index import (
    MISSING,
    RESET,
    Snapshot,
    TraceIndex,
    Update,
    scan_head,
    scan_tail,
)
from paw_tui.tui.widgets.trace_view import TraceView

FIELDS = {
    "intent": "intent_id",
    "session": "session_id",
    "decision": "decision",
    "event": "event",
    "tool": "tool",
}
POLL_SECONDS = 0.1
FIRST_PAINT_LINES = 500


def parse_filter(text: str) -> dict[str, str]:
    """``intent:INT-1 decision:deny`` -> ``{"intent_id": "INT-1", "decision": "deny"}``;
    a bare word is taken as an intent id."""
    wanted: dict[str, str] = {}
    for token in text.split():
        key, sep, value = token.partition(":")
        if sep and key in FIELDS and value:
            wanted[FIELDS[key]] = value
        elif not sep:
            wanted["intent_id"] = token
    return wanted


def needles_for(wanted: dict[str, str]) -> list[bytes]:
    import json

    return [
        f'"{key}":{json.dumps(value, ensure_ascii=False)}'.encode() for key, value in wanted.items()
    ]


class TracePane(Vertical):
    """Status line, filter field and the live view."""

    @dataclass
    class Loaded(Message):
        snapshot: Snapshot
        generation: int

    @dataclass
    class Filtered(Message):
        rows: array[int] | None
        text: str
        generation: int
        scanned: int = 0  # lines of the index the scan covered; later ones are checked on arrival

    @dataclass
    class Verified(Message):
        text: str
        ok: bool

    def __init__(
        self, root: str, index: TraceIndex, ready: threading.Event, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.root = root
        self.index = index
        self.filter: dict[str, str] = {}
        self.filter_text = ""
        self.new_count = 0
        self.chain = "verifying…"
        self.chain_ok = True
        # Set once a scan has been adopted: until then the watcher would read the whole file
        # as "appended" lines, so it waits.
        self.ready = ready
        self.border_title = "Trace"

    def compose(self) -> ComposeResult:
        yield Static("", id="trace-status")
        yield Input(
            placeholder="filter: intent:ID session:S decision:deny  (/ to focus)",
            id="trace-filter",
            compact=True,
        )
        yield TraceView(self.index, id="trace-view")

    @property
    def view(self) -> TraceView:
        return self.query_one(TraceView)

    def on_mount(self) -> None:
        self.load()
        self.verify()
        self.update_status()

    # -- workers -----------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="trace-load", exit_on_error=False)
    def load(self) -> None:
        generation = self.index.generation
        tail = scan_tail(self.index.path, FIRST_PAINT_LINES)
        self.post_message(self.Loaded(tail, generation))
        if tail.complete_from:
            worker = self._current_worker()
            full = scan_head(
                self.index.path, tail, lambda: worker is not None and worker.is_cancelled
            )
            if full is not None:
                self.post_message(self.Loaded(full, generation))

    def _current_worker(self) -> Worker[None] | None:
        from textual.worker import get_current_worker

        try:
            return get_current_worker()
        except Exception:
            return None

    @work(thread=True, exclusive=True, group="trace-verify", exit_on_error=False)
    def verify(self) -> None:
        """Check the chain in a separate process: hashing a million lines in a thread would
        hold the GIL and slow the live tail."""
        import json
        import subprocess
        import sys

        if not os.path.exists(self.index.path):
            self.post_message(self.Verified("no records yet", True))
            return
        command = [
            sys.executable,
            "-m",
            "paw_tui",
            "trace",
            "verify",
            "--json",
            "--workspace",
            self.root,
        ]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=600)
            result = json.loads(done.stdout)
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            self.post_message(self.Verified(f"not verified ({type(exc).__name__})", False))
            return
        if result.get("first_bad_line") is not None:
            text = f"broken at line {result['first_bad_line']}"
        elif not result.get("ok"):
            text = f"head {result.get('head_status')}"
        else:
            text = "verified"
        self.post_message(self.Verified(text, bool(result.get("ok"))))

    @work(thread=True, exclusive=True, group="trace-filter", exit_on_error=False)
    def run_filter(self, text: str, generation: int) -> None:
        wanted = parse_filter(text)
        if not wanted:
            self.post_message(self.Filtered(None, text, generation))
            return
        worker = self._current_worker()
        scanned = len(self.index)
        rows = self.index.matching(
            needles_for(wanted), lambda: worker is not None and worker.is_cancelled, upto=scanned
        )
        if rows is not None:
            self.post_message(self.Filtered(rows, text, generation, scanned))

    # -- results -----------------------------------------------------------------------------
    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        if message.generation != self.index.generation:
            return
        self.index.adopt(message.snapshot)
        self.ready.set()
        if self.filter:
            self.run_filter(self.filter_text, self.index.generation)
        else:
            self.view.data_changed(keep_position=False)
        self.update_status()

    def apply_update(self, update: Update) -> None:
        """Lines appended, or the file truncated or replaced (from the workspace watcher)."""
        if update.kind in (RESET, MISSING):
            self.ready.clear()
            self.index.apply(update)
            self.view.set_rows(None if not self.filter else array("q"))
            self.new_count = 0
            self.notify("The ledger was truncated or replaced; reloading it.", severity="warning")
            self.load()
            self.verify()
            self.update_status()
            return
        if update.offsets and update.offsets[0] != self.index.end:
            return  # a poll that raced a reload; the next one will catch up
        first = len(self.index)
        self.index.apply(update)
        added = len(self.index) - first
        if self.filter and self.view.rows is not None:
            matches = self._matching_lines(first, len(self.index))
            self.view.rows.extend(matches)
            added = len(matches)
        if not self.view.following:
            self.new_count += added
        self.view.data_changed()
        self.update_status()

    @on(Filtered)
    def _filtered(self, message: Filtered) -> None:
        if message.generation != self.index.generation or message.text != self.filter_text:
            return
        rows = message.rows
        if rows is not None:
            # Lines appended while the scan ran arrived after it had counted: check them here,
            # or they would be missing from the filtered view until the next filter change.
            rows.extend(self._matching_lines(message.scanned, len(self.index)))
        self.view.set_rows(rows)
        self.update_status()

    def _matching_lines(self, first: int, stop: int) -> list[int]:
        wanted = self.filter
        return [
            line
            for line in range(first, stop)
            if (record := self.index.record(line)) is not None
            and all(record.get(k) == v for k, v in wanted.items())
        ]

    @on(Verified)
    def _verified(self, message: Verified) -> None:
        self.chain = message.text
        self.chain_ok = message.ok
        self.set_class(not message.ok, "-broken")
        self.update_status()

    @on(TraceView.TailChanged)
    def _tail_changed(self, message: TraceView.TailChanged) -> None:
        if message.following:
            self.new_count = 0
        self.update_status()

    @on(Input.Changed, "#trace-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.set_filter(event.value, update_input=False)

    # -- API for the app ---------------------------------------------------------------------
    def set_filter(self, text: str, *, update_input: bool = True) -> None:
        self.filter_text = text.strip()
        self.filter = parse_filter(self.filter_text)
        if update_input:
            field = self.query_one("#trace-filter", Input)
            if field.value != text:
                with field.prevent(Input.Changed):
                    field.value = text
        self.new_count = 0
        self.view.following = True
        self.run_filter(self.filter_text, self.index.generation)
        self.update_status()

    def toggle_tail(self) -> None:
        view = self.view
        if view.following:
            view.following = False
        else:
            view.following = True
            self.new_count = 0
            view.action_last()
        self.update_status()

    def update_status(self) -> None:
        total = len(self.index)
        shown = self.view.row_count if self.is_mounted else total
        parts = [f"{total:,} records" + ("" if self.index.fully_indexed else " (indexing older…)")]
        if self.filter:
            parts.append(f"{shown:,} match '{self.filter_text}'")
        parts.append(f"chain: {self.chain}")
        parts.append("tail: on" if self.view.following else "tail: off")
        if self.new_count:
            parts.append(f"{self.new_count} new ↓ (G)")
        self.query_one("#trace-status", Static).update(" · ".join(parts))
