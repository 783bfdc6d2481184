"""The trace pane: the ledger's newest records, live, with filters and the chain status."""

from __future__ import annotations

import os
import threading
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.timer import Timer
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
from paw_tui.core.ledger.query import TraceFilter, parse_filter
from paw_tui.core.support.words import count
from paw_tui.tui.display import safe
from paw_tui.tui.widgets.pane import Pane
from paw_tui.tui.widgets.record_fields import RecordFields
from paw_tui.tui.widgets.trace_view import TraceView

POLL_SECONDS = 0.1
FIRST_PAINT_LINES = 500
FIELDS_FROM = 130
"""Pane width from which the highlighted record's fields sit beside the list (a zoomed
trace on a 160-column terminal, or a very wide one)."""


INSTALL_HINT = (
    "No records yet. Set up an agent client so its tool calls come through the gate and "
    "are recorded here: paw-tui install claude-code (or {others})."
)
INSTALLED_HINT = (
    "No records yet. Set up here: {clients}. Start an agent session in this workspace: its "
    "first tool call is recorded here."
)
INSTALL_LOOK = 3.0
"""Seconds between looks at which clients are set up, while the ledger is empty."""
REVERIFY_QUIET = 2.0
"""Seconds without an append before the chain is verified again (records arrived since)."""
REVERIFY_QUIET_BIG = 60.0
"""The same for a ledger of :data:`BIG_LEDGER` records or more: a check costs seconds there."""
BIG_LEDGER = 100_000
FIRST_PAINT_WAIT = 1.0
"""Seconds after the first records are read beyond which the work kept back for the first
paint starts anyway."""


class TracePane(Pane):
    """Status line, filter field and the live view."""

    TITLE = "Trace"
    STOPS = ("#trace-view", "#trace-filter")
    FILTER = "#trace-filter"
    BINDINGS = [
        Binding("t", "screen.toggle_tail", "Tail", id="trace.tail"),
        Binding("d", "screen.trace_denials", "Denials", id="trace.denials"),
        Binding("x", "screen.trace_clear", "Clear filter", show=False, id="trace.clear"),
        Binding("c", "copy_record", "Copy", show=False, id="trace.copy"),
    ]

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

    @dataclass
    class Installed(Message):
        clients: list[str]

    class Painted(Message):
        """The newest records are on screen for the first time: work that can wait until
        then (the other panes, the watcher) may start without delaying that paint."""

    def __init__(
        self,
        root: str,
        index: TraceIndex,
        ready: threading.Event,
        *,
        clock: Callable[[], float] = time.time,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.root = root
        self.index = index
        self.clock = clock
        self.filter = TraceFilter()
        self.known_intents: list[str] = []  # the workspace's intent ids, for "did you mean"
        self.filter_text = ""
        self.new_count = 0
        self.chain = "verifying…"
        self.chain_ok = True
        self.chain_newer = 0  # records appended since the chain's status was found
        self.verify_started = False
        self.installed: list[str] | None = None  # clients set up here (None: not looked yet)
        self.first_painted = False
        self._waiting: list[tuple[Callable[..., object], tuple[object, ...]]] = []
        self._reverify_timer: Timer | None = None
        # Set once a scan has been adopted: until then the watcher would read the whole file
        # as "appended" lines, so it waits.
        self.ready = ready

    def compose(self) -> ComposeResult:
        yield Static("", id="trace-status")
        yield Static("", id="trace-hint")
        yield Input(
            placeholder="/ filter: intent:ID decision:deny event:E path:P tool:T or any word",
            id="trace-filter",
            compact=True,
        )
        with Horizontal(id="trace-body"):
            yield TraceView(self.index, clock=self.clock, id="trace-view")
            yield RecordFields(id="trace-fields")

    @property
    def view(self) -> TraceView:
        return self.query_one(TraceView)

    def on_resize(self) -> None:
        wide = self.size.width >= FIELDS_FROM
        if wide != self.has_class("-wide"):
            self.set_class(wide, "-wide")
            if wide:
                self._show_fields(self.view.line_of(self.view.cursor))
        # shown again (a tab chosen, a zoom undone): the cursor row back in view
        self.view.call_after_refresh(self.view.scroll_to_cursor)

    @on(TraceView.NewestPainted)
    def _newest_painted(self) -> None:
        self._first_paint_done()

    def _after_first_paint(self, work: Callable[..., object], *args: object) -> None:
        """Run ``work`` once the newest records are on screen (at once after that): its
        thread would take the interpreter lock from the first paint (DESIGN §10)."""
        if self.first_painted:
            self.call_after_refresh(work, *args)
        else:
            self._waiting.append((work, args))

    def _unless_on_screen(self) -> None:
        """A trace not on screen (another pane's tab on a narrow terminal) paints nothing:
        the first paint is then the screen as it is."""
        if not self.view.region.area:
            self._first_paint_done()

    def _first_paint_done(self) -> None:
        if self.first_painted:
            return
        self.first_painted = True
        waiting, self._waiting = self._waiting, []
        for job, args in waiting:
            self.call_after_refresh(job, *args)
        self.post_message(self.Painted())

    @on(TraceView.CursorMoved)
    def _cursor_moved(self, message: TraceView.CursorMoved) -> None:
        if self.has_class("-wide"):  # hidden, it is filled when it shows
            self._show_fields(message.line)

    def _show_fields(self, line: int) -> None:
        view = self.view
        shown = 0 <= view.cursor < view.row_count and line >= 0
        self.query_one(RecordFields).show(self.index.record(line) if shown else None)

    def on_mount(self) -> None:
        self.load()  # the older lines and the chain's check follow the first paint (_loaded)
        self.update_status()
        self.set_interval(INSTALL_LOOK, self._look_for_clients)

    def _look_for_clients(self) -> None:
        if len(self.index) == 0 and self.index.fully_indexed and self.ready.is_set():
            self.look_for_clients()

    @work(thread=True, exclusive=True, group="trace-installed", exit_on_error=False)
    def look_for_clients(self) -> None:
        from paw_tui.tui.install_state import installed_clients

        self.post_message(self.Installed(installed_clients(self.root)))

    @on(Installed)
    def _installed(self, message: Installed) -> None:
        if message.clients != self.installed:
            self.installed = message.clients
            self.show_hint()

    def chain_may_be_stale(self, added: int) -> None:
        """Records arrived after the chain's status was found: say so, and check again once
        the appends pause (a long pause for a big ledger: a check costs seconds there)."""
        self.chain_newer += added
        if self._reverify_timer is not None:
            self._reverify_timer.stop()
        quiet = REVERIFY_QUIET if len(self.index) < BIG_LEDGER else REVERIFY_QUIET_BIG
        if self.chain == "no records yet":
            quiet = 0.01  # nothing was checked: check now
        self._reverify_timer = self.set_timer(quiet, self._reverify)

    def _reverify(self) -> None:
        self._reverify_timer = None
        self.chain = "verifying…"
        self.chain_newer = 0
        self.update_status()
        self.verify()

    # -- workers -----------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="trace-load", exit_on_error=False)
    def load(self) -> None:
        generation = self.index.generation
        self.post_message(self.Loaded(scan_tail(self.index.path, FIRST_PAINT_LINES), generation))

    @work(thread=True, exclusive=True, group="trace-load-older", exit_on_error=False)
    def load_older(self, tail: Snapshot, generation: int) -> None:
        """The lines before the tail's, indexed after the first paint so that every record
        can be scrolled to without delaying that paint."""
        worker = self._current_worker()
        older = scan_head(
            self.index.path,
            tail,
            lambda: worker is not None and worker.is_cancelled,
            self.index.live,  # a new record goes to the screen first
        )
        if older is not None:
            self.post_message(self.Loaded(older, generation))

    def _current_worker(self) -> Worker[None] | None:
        from textual.worker import get_current_worker

        try:
            return get_current_worker()
        except Exception:
            return None

    @work(thread=True, exclusive=True, group="trace-verify", exit_on_error=False)
    def verify(self) -> None:
        """Check the chain in this process, paced like the background index (see
        :mod:`paw_tui.tui.chain_check`); a newer check or the TUI quitting stops it."""
        from paw_tui.tui.chain_check import check_chain

        if not os.path.exists(self.index.path):
            self.post_message(self.Verified("no records yet", True))
            return
        worker = self._current_worker()

        def stopped() -> bool:
            return worker is not None and worker.is_cancelled

        checked = check_chain(self.root, stopped, self._verify_stands_aside)
        if checked is not None and not stopped():  # else a newer check's verdict is shown
            self.post_message(self.Verified(*checked))

    def _verify_stands_aside(self) -> bool:
        """The live tail first, then reaching every record: the chain check slows to a crawl
        while a new record goes to the screen or the older lines are still being indexed."""
        return self.index.live() or not self.index.fully_indexed

    @work(thread=True, exclusive=True, group="trace-filter", exit_on_error=False)
    def run_filter(self, text: str, generation: int) -> None:
        wanted = parse_filter(text)
        if not wanted:
            self.post_message(self.Filtered(None, text, generation))
            return
        worker = self._current_worker()

        def stopped() -> bool:
            return worker is not None and worker.is_cancelled

        scanned = len(self.index)
        rows = self.index.matching(wanted.needles(), stopped, upto=scanned)
        if rows is not None and not wanted.exact:
            rows = self._confirmed(rows, wanted, stopped)
        if rows is not None:
            self.post_message(self.Filtered(rows, text, generation, scanned))

    def _confirmed(
        self, rows: array[int], wanted: TraceFilter, stopped: Callable[[], bool]
    ) -> array[int] | None:
        """The lines of ``rows`` whose record the filter keeps (the byte pre-filter cannot
        fold case or tell a field from a string holding its name). Read in one pass through
        the file, without the view's record cache, which belongs to the UI thread."""
        import json

        offsets, end = self.index.offsets, self.index.end
        kept = array("q")
        try:
            with open(self.index.path, "rb") as handle:
                for done, line in enumerate(rows):
                    if done % 4096 == 0 and stopped():
                        return None
                    start = offsets[line]
                    stop = offsets[line + 1] if line + 1 < len(offsets) else end
                    handle.seek(start)
                    try:
                        record = json.loads(handle.read(stop - start))
                    except ValueError:
                        continue
                    if isinstance(record, dict) and wanted.matches(record):
                        kept.append(line)
        except (OSError, IndexError):
            return kept
        return kept

    # -- results -----------------------------------------------------------------------------
    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        if message.generation != self.index.generation:
            return
        prepended = self.index.adopt(message.snapshot)
        self.ready.set()
        # background work waits until the newest records are on screen
        if message.snapshot.complete_from and not self.index.fully_indexed:
            self._after_first_paint(self.load_older, message.snapshot, message.generation)
        if not self.verify_started:
            self.verify_started = True
            self._after_first_paint(self.verify)
            if not len(self.index):  # nothing to paint: the empty pane is the first paint
                self._after_first_paint(self.look_for_clients)
                self.call_after_refresh(self._first_paint_done)
            else:
                self.call_after_refresh(self._unless_on_screen)
            # whatever happens on screen, the rest does not wait longer than this
            self.set_timer(FIRST_PAINT_WAIT, self._first_paint_done)
        if prepended:
            self.view.lines_prepended(prepended)
        if self.filter:
            self.run_filter(self.filter_text, self.index.generation)
        elif not prepended:
            self.view.data_changed(keep_position=False)
        self.update_status()

    def apply_update(self, update: Update) -> range | None:
        """Lines appended, or the file truncated or replaced (from the workspace watcher);
        the lines appended (None: the ledger is read again)."""
        if update.kind in (RESET, MISSING):
            self.ready.clear()
            self.index.apply(update)
            self.view.set_rows(None if not self.filter else array("q"))
            self.new_count = 0
            self.notify("The ledger was truncated or replaced; reloading it.", severity="warning")
            self.load()
            self.chain, self.chain_newer = "verifying…", 0
            self.verify()
            self.update_status()
            return None
        if update.offsets and update.offsets[0] != self.index.end:
            return range(0)  # a poll that raced a reload; the next one will catch up
        first = len(self.index)
        self.index.apply(update)
        added = len(self.index) - first
        appended = range(first, len(self.index))
        if added and not self.chain.startswith("verifying"):
            self.chain_may_be_stale(added)
        if self.filter and self.view.rows is not None:
            matches = self._matching_lines(first, len(self.index))
            self.view.rows.extend(matches)
            added = len(matches)
        if not self.view.following:
            self.new_count += added
        self.view.data_changed()
        self.update_status()
        return appended

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
        return [line for line in range(first, stop) if self.filter.matches(self.index.record(line))]

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
        self.show_hint()
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
        parts = [
            count(total, "record") + ("" if self.index.fully_indexed else " (indexing older…)")
        ]
        if self.filter:
            parts.append(count(shown, "match", "matches"))
        newer = f" ({self.chain_newer:,} newer)" if self.chain_newer else ""
        parts.append(f"chain: {self.chain}{newer}")
        parts.append("tail: on" if self.view.following else "tail: off")
        if self.new_count:
            parts.append(f"{self.new_count} new ↓ (G)")
        self.query_one("#trace-status", Static).update(" · ".join(parts))
        self.show_hint()

    def show_hint(self) -> None:
        """What the filter could not understand, or, on an empty ledger, what to do next."""
        hint = self.query_one("#trace-hint", Static)
        lines = [f"[$error]{safe(problem)}[/]" for problem in self.filter.problems]
        lines += [f"[$warning]{safe(note)}[/]" for note in self._unknown_intent()]
        if not lines and len(self.index) == 0 and self.index.fully_indexed and self.ready.is_set():
            from paw_tui.core.clients.registry import CLIENTS

            if self.installed:
                text = INSTALLED_HINT.format(clients=", ".join(self.installed))
            else:
                others = ", ".join(name for name in CLIENTS if name != "claude-code")
                text = INSTALL_HINT.format(others=others)
            lines.append(f"[$text-muted]{safe(text)}[/]")
        hint.update("\n".join(lines))
        hint.display = bool(lines)

    def _unknown_intent(self) -> list[str]:
        """A filtered view left empty by an intent id the workspace does not know."""
        wanted = dict(self.filter.terms).get("intent_id")
        rows = self.view.rows if self.is_mounted else None
        if wanted is None or rows is None or len(rows) or not self.known_intents:
            return []
        if wanted.casefold() in {known.casefold() for known in self.known_intents}:
            return []
        from paw_tui.core.support.suggest import did_you_mean_sentence

        hint = did_you_mean_sentence(wanted, self.known_intents)
        return [f"No intent '{wanted}' in this workspace.{hint}"]

    def action_copy_record(self) -> None:
        from paw_tui.tui.clipboard import copy

        view = self.view
        if not 0 <= view.cursor < view.row_count:
            self.notify("No record to copy.", severity="warning")
            return
        line = view.line_of(view.cursor)
        record = self.index.record(line)
        seq = record.get("seq") if record else None
        raw = self.index.line_bytes(line).decode("utf-8", "replace")
        copy(self.app, raw, f"record #{seq}" if seq is not None else f"line {line + 1}")
