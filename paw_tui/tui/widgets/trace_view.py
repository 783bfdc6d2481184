"""A Line-API view of the ledger: one line per record, however many records there are.

Only the offsets of lines are held (:class:`~paw_tui.core.ledger.line_index.TraceIndex`); a record
is read and parsed when its line is painted. No widget per row.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat
from operator import add

from rich.segment import Segment
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from paw_tui.core.ledger.line_index import TraceIndex
from paw_tui.tui.widgets.trace_line import Columns, line_cells, plan_columns

DECISIONS = ("allow", "deny", "pending", "breach")
WIDTH = 400  # virtual width; lines are cropped to the view


class TraceView(ScrollView, can_focus=True):
    """The records of ``rows`` (indexes into the trace index), newest at the bottom."""

    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False),
        Binding("down,j", "cursor(1)", "Down", show=False),
        Binding("pageup,b", "page(-1)", "Page up", show=False),
        Binding("pagedown,space", "page(1)", "Page down", show=False),
        Binding("home,g", "first", "First", show=False),
        Binding("end,G", "last", "Newest", show=False),
        Binding("enter", "open", "Detail", id="trace.detail"),
    ]

    COMPONENT_CLASSES = {
        "trace-view--allow",
        "trace-view--deny",
        "trace-view--pending",
        "trace-view--breach",
        "trace-view--other",
        "trace-view--muted",
        "trace-view--cursor",
    }
    DEFAULT_CSS = """
    TraceView { height: 1fr; }
    TraceView > .trace-view--allow { color: $success; }
    TraceView > .trace-view--deny { color: $error; text-style: bold; }
    TraceView > .trace-view--pending { color: $warning; }
    TraceView > .trace-view--breach { color: $text-error; background: $error-muted; text-style: bold; }
    TraceView > .trace-view--other { color: $text-muted; }
    TraceView > .trace-view--muted { color: $text-muted; }
    TraceView > .trace-view--cursor { text-style: reverse; }
    """

    cursor = reactive(-1, init=False)

    @dataclass
    class Opened(Message):
        """Enter on a record."""

        view: TraceView
        index: int

        @property
        def control(self) -> TraceView:
            return self.view

    @dataclass
    class CursorMoved(Message):
        """The record under the cursor may have changed (``line``: its line; -1: none)."""

        view: TraceView
        line: int

        @property
        def control(self) -> TraceView:
            return self.view

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, TraceView.CursorMoved)

    @dataclass
    class NewestPainted(Message):
        """The newest record was painted for the first time (the first paint, DESIGN §10)."""

        view: TraceView

        @property
        def control(self) -> TraceView:
            return self.view

    @dataclass
    class TailChanged(Message):
        """The view started or stopped following the newest record."""

        view: TraceView
        following: bool

        @property
        def control(self) -> TraceView:
            return self.view

    def __init__(
        self,
        index: TraceIndex,
        *,
        clock: Callable[[], float] = time.time,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.index = index
        self.clock = clock  # which records are from today (those show no day)
        self.rows: array[int] | None = None  # None: every line of the index
        self.following = True
        self._columns_key: tuple[object, ...] | None = None
        self.newest_painted = False
        self._columns_plan: Columns | None = None

    # -- data --------------------------------------------------------------------------------
    @property
    def row_count(self) -> int:
        return len(self.index) if self.rows is None else len(self.rows)

    def line_of(self, row: int) -> int:
        return row if self.rows is None else self.rows[row]

    def set_rows(self, rows: array[int] | None) -> None:
        self.rows = rows
        self.data_changed(keep_position=False)

    def data_changed(self, *, keep_position: bool = True) -> None:
        """The index or the rows changed: resize, and follow the end when tailing."""
        count = self.row_count
        self.virtual_size = Size(WIDTH, count)
        if self.following or not keep_position or self.cursor >= count:
            self.set_reactive(TraceView.cursor, count - 1)
        self._cursor_moved()
        # The new virtual size is laid out on the next refresh; scroll only then.
        self.call_after_refresh(self.scroll_to_cursor)
        self.refresh()

    def lines_prepended(self, count: int) -> None:
        """Older lines were indexed in front of the shown ones (every line number grew by
        ``count``): the same records stay under the cursor and on screen."""
        if count <= 0:
            return
        if self.rows is not None:
            # filtered rows hold line numbers; the cursor is a row and stays put
            self.rows = array("q", map(add, self.rows, repeat(count)))
            self.data_changed()
            return
        if self.following:
            self.data_changed()
            return
        self.set_reactive(TraceView.cursor, self.cursor + count)
        top = round(self.scroll_offset.y) + count
        self.data_changed()
        self.call_after_refresh(lambda: self.scroll_to(y=top, animate=False, immediate=True))

    def scroll_to_cursor(self) -> None:
        """Bring the cursor row into view (the end, when following)."""
        row = self.cursor
        if row < 0:
            return
        height = max(1, self.scrollable_content_region.height)
        top = round(self.scroll_offset.y)
        if self.following:
            self.scroll_to(y=max(0, row - height + 1), animate=False, immediate=True)
        elif row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    # -- painting ----------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        scroll_x = self.scroll_offset.x
        row = self.top_row() + y
        width = self.size.width
        base = self.rich_style
        if row >= self.row_count:
            return Strip.blank(width, base)
        if not self.newest_painted and row == self.row_count - 1:
            self.newest_painted = True
            self.post_message(self.NewestPainted(self))
        try:
            record = self.index.record(self.line_of(row))
        except IndexError:
            return Strip.blank(width, base)
        decision = record.get("decision") if record is not None else None
        kind = decision if isinstance(decision, str) and decision in DECISIONS else "other"
        coloured = base + self.get_component_rich_style(f"trace-view--{kind}")
        muted = base + self.get_component_rich_style("trace-view--muted")
        styles = {"mark": coloured, "event": coloured, "time": muted, "meta": muted}
        styles["reason"] = muted
        if kind == "breach":  # a breach stands out over its whole line
            parts = ("mark", "event", "time", "meta", "subject", "gap", "reason")
            styles = dict.fromkeys(parts, coloured)
        cursor = self.get_component_rich_style("trace-view--cursor") if row == self.cursor else None
        segments = []
        for cell in line_cells(record, self._columns(self.scrollable_content_region.width)):
            style = styles.get(cell.part, base)
            segments.append(Segment(cell.text, style + cursor if cursor else style))
        fill = coloured if kind == "breach" else base
        fill = fill + cursor if cursor else fill
        strip = Strip(segments).crop_extend(0, width, fill)
        return strip.apply_offsets(scroll_x, row)

    def top_row(self) -> int:
        """The first row on screen. Until the newest record was first painted, a following
        view shows the end whatever its scroll offset (which reaches the end only once the
        new size is laid out): the first paint is the newest records, not the oldest."""
        if self.following and not self.newest_painted:
            return max(0, self.row_count - max(1, self.scrollable_content_region.height))
        return round(self.scroll_offset.y)

    def _columns(self, width: int) -> Columns:
        """The column widths for the records now on screen (cached until they change)."""
        top = self.top_row()
        today = time.strftime("%Y-%m-%d", time.gmtime(self.clock()))  # as ts is written: UTC
        key = (top, width, self.size.height, self.row_count, self.index.generation, id(self.rows))
        if self._columns_key != key + (today,) or self._columns_plan is None:
            rows = range(top, min(self.row_count, top + max(1, self.size.height)))
            records = [self.index.record(self.line_of(row)) for row in rows]
            self._columns_plan = plan_columns(records, width, today)
            self._columns_key = key + (today,)
        return self._columns_plan

    # -- moving ------------------------------------------------------------------------------
    def _cursor_moved(self) -> None:
        row = self.cursor
        self.post_message(
            self.CursorMoved(self, self.line_of(row) if 0 <= row < self.row_count else -1)
        )

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh()
        self._cursor_moved()
        if new < 0:
            return
        following = new >= self.row_count - 1
        if following != self.following:
            self.following = following
            self.post_message(self.TailChanged(self, following))
        self.scroll_to_cursor()

    def action_cursor(self, delta: int) -> None:
        if self.row_count:
            self.cursor = max(0, min(self.row_count - 1, self.cursor + delta))

    def action_page(self, direction: int) -> None:
        self.action_cursor(direction * max(1, self.size.height - 1))

    def action_first(self) -> None:
        if self.row_count:
            self.cursor = 0

    def action_last(self) -> None:
        if self.row_count:
            self.cursor = self.row_count - 1

    def action_open(self) -> None:
        if 0 <= self.cursor < self.row_count:
            self.post_message(self.Opened(self, self.line_of(self.cursor)))

    def on_mouse_scroll_up(self) -> None:
        if self.following and self.row_count:
            self.following = False
            self.post_message(self.TailChanged(self, False))

    def on_click(self, event) -> None:  # type: ignore[no-untyped-def]
        row = round(self.scroll_offset.y) + event.y
        if 0 <= row < self.row_count:
            self.cursor = row
