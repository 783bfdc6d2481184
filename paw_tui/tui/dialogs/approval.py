"""The approval modal: approve (y), reject (n) or leave pending (escape)."""

from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

TITLE = "Approve intent selection?"


class ApprovalModal(ModalScreen[bool | None]):
    """Result: True approve, False reject, None leave the request pending."""

    AUTO_FOCUS = "#later"  # the safe default: nothing decided
    BINDINGS = [
        Binding("y", "decide(True)", "Approve", id="approval.yes"),
        Binding("n", "decide(False)", "Reject", id="approval.no"),
        Binding("escape", "decide(None)", "Later", id="approval.later"),
    ]

    def __init__(
        self, request_id: str, session_id: str, intent_id: str, intent_name: str, context_block: str
    ) -> None:
        super().__init__()
        self.request_id = request_id
        self.session_id = session_id
        self.intent_id = intent_id
        self.intent_name = intent_name
        self.context_block = context_block

    def compose(self) -> ComposeResult:
        with Vertical(id="approval-dialog"):
            yield Label(TITLE, id="approval-title")
            yield Static(
                f"Session [b]{escape(self.session_id)}[/b] asks to work on "
                f"[b]{escape(self.intent_id)}[/b] {escape(self.intent_name)}\n[$text-muted]request {escape(self.request_id)}[/]",
                id="approval-summary",
            )
            with VerticalScroll(id="approval-context"):
                yield Static(self.context_block, markup=False)
            with Horizontal(id="approval-buttons"):
                yield Button("Approve (y)", variant="success", id="approve")
                yield Button("Reject (n)", variant="error", id="reject")
                yield Button("Later (esc)", id="later")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"approve": True, "reject": False}.get(event.button.id or ""))

    def action_decide(self, value: bool | None) -> None:
        self.dismiss(value)
