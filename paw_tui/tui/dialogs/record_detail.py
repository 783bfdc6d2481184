"""One ledger record in full."""

from __future__ import annotations

import json

from rich.json import JSON
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static


def _pretty(body: str) -> Text:
    """Highlighted JSON that keeps its indentation and wraps long values (a deny reason, a
    hash) instead of cutting them."""
    text = JSON(body).text
    text.no_wrap = False
    text.overflow = "fold"
    return text


class RecordDetail(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,enter,q", "close", "Close", id="record.close"),
        Binding("c", "copy", "Copy", id="record.copy"),
    ]

    def __init__(self, record: dict[str, object] | None, raw: bytes) -> None:
        super().__init__()
        self.record = record
        self.raw = raw

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="record-dialog"):
            seq = self.record.get("seq") if self.record else "?"
            yield Label(f"Ledger record #{seq}  (c copies it, escape closes)")
            body = (
                json.dumps(self.record, indent=2, ensure_ascii=False)
                if self.record
                else self.raw.decode("utf-8", "replace")
            )
            with VerticalScroll():
                yield Static(_pretty(body) if self.record else Text(body), expand=True)
        yield Footer()

    def action_copy(self) -> None:
        from paw_tui.tui.clipboard import copy

        seq = self.record.get("seq") if self.record else None
        copy(self.app, self.raw.decode("utf-8", "replace"), f"record #{seq}")

    def action_close(self) -> None:
        self.dismiss(None)
