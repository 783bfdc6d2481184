"""A DataTable that also moves with vim keys."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import DataTable


class VimDataTable(DataTable[str]):
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("g", "scroll_top", "First", show=False),
        Binding("G", "scroll_bottom", "Last", show=False),
    ]
