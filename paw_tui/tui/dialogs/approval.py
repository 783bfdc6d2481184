"""The approval modal: approve (y), reject (n) or leave pending (escape)."""

from __future__ import annotations

from rich.markup import escape
from textual.binding import Binding

from paw_tui.tui.dialogs.decision import DecisionModal

TITLE = "Approve intent selection?"


class ApprovalModal(DecisionModal):
    """Result: True approve, False reject, None leave the request pending."""

    TITLE_TEXT = TITLE
    BINDINGS = [
        Binding("y", "decide(True)", "Approve", id="approval.yes"),
        Binding("n", "decide(False)", "Reject", id="approval.no"),
        Binding("escape", "decide(None)", "Later", id="approval.later"),
    ]

    def __init__(
        self, request_id: str, session_id: str, intent_id: str, intent_name: str, context_block: str
    ) -> None:
        super().__init__(request_id)
        self.session_id = session_id
        self.intent_id = intent_id
        self.intent_name = intent_name
        self.context_block = context_block

    def summary(self) -> str:
        return (
            f"Session [b]{escape(self.session_id)}[/b] asks to work on "
            f"[b]{escape(self.intent_id)}[/b] {escape(self.intent_name)}\n"
            f"[$text-muted]request {escape(self.request_id)}[/]"
        )

    def details(self) -> str:
        return self.context_block
