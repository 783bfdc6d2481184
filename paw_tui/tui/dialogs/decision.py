"""The shape of a person's decision on a pending request: yes (y), no (n) or later (escape).

Intent selections (:mod:`.approval`) and scope requests (:mod:`.scope_request`) are decided
the same way (DESIGN §11); each says what it shows and what its keys are called.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class DecisionModal(ModalScreen[bool | None]):
    """Result: True yes, False no, None leave the request pending."""

    TITLE_TEXT: ClassVar[str] = ""
    YES_LABEL: ClassVar[str] = "Approve"
    NO_LABEL: ClassVar[str] = "Reject"
    AUTO_FOCUS = "#later"  # the safe default: nothing decided

    def __init__(self, request_id: str) -> None:
        super().__init__()
        self.request_id = request_id

    def summary(self) -> str:
        """Markup: who asks for what."""
        raise NotImplementedError

    def details(self) -> str:
        """Plain text shown scrollable under the summary."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        # The ids are the approval dialog's, so every decision dialog shares one style.
        with Vertical(id="approval-dialog"):
            yield Label(self.TITLE_TEXT, id="approval-title")
            yield Static(self.summary(), id="approval-summary")
            with VerticalScroll(id="approval-context"):
                yield Static(self.details(), markup=False)
            with Horizontal(id="approval-buttons"):
                yield Button(f"{self.YES_LABEL} (y)", variant="success", id="approve")
                yield Button(f"{self.NO_LABEL} (n)", variant="error", id="reject")
                yield Button("Later (esc)", id="later")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"approve": True, "reject": False}.get(event.button.id or ""))

    def action_decide(self, value: bool | None) -> None:
        self.dismiss(value)
