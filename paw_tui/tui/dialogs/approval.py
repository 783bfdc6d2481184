"""The approval modal: approve (y), reject (n) or leave pending (escape), with the request
shown as a person reads it (:mod:`.request_summary`)."""

from __future__ import annotations

from textual.binding import Binding

from paw_tui.tui.dialogs.decision import DecisionModal
from paw_tui.tui.dialogs.request_summary import approval_text

TITLE = "Approve intent selection?"


class ApprovalModal(DecisionModal):
    """Result: True approve, False reject, None leave the request pending."""

    TITLE_TEXT = TITLE
    BINDINGS = [
        Binding("y", "decide(True)", "Approve", id="approval.yes"),
        Binding("n", "decide(False)", "Reject", id="approval.no"),
        Binding("escape", "decide(None)", "Later", id="approval.later"),
    ]

    def body(self, now_seconds: float) -> str:
        return approval_text(self.facts, now_seconds)
