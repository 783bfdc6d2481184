"""One ledger record in full."""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static


class RecordDetail(ModalScreen[None]):
    BINDINGS = [Binding("escape,enter,q", "close", "Close")]

    def __init__(self, record: dict[str, object] | None, raw: bytes) -> None:
        super().__init__()
        self.record = record
        self.raw = raw

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="record-dialog"):
            seq = self.record.get("seq") if self.record else "?"
            yield Label(f"Ledger record #{seq}")
            body = (
                json.dumps(self.record, indent=2, ensure_ascii=False)
                if self.record
                else self.raw.decode("utf-8", "replace")
            )
            with VerticalScroll():
                yield Static(body, markup=False)

    def action_close(self) -> None:
        self.dismiss(None)
