"""The scope request modal: grant (y), deny (n) or leave pending (escape) an agent's request
for a pattern in its intent's ``owned_scope`` (DESIGN §5, §11)."""

from __future__ import annotations

from textual.binding import Binding

from paw_tui.tui.dialogs.decision import DecisionModal
from paw_tui.tui.dialogs.request_summary import scope_request_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.tui.controllers.request_facts import RequestFacts

TITLE = "Grant scope?"


class ScopeRequestModal(DecisionModal):
    """Result: True grant, False deny, None leave the request pending."""

    TITLE_TEXT = TITLE
    YES_LABEL = "Grant"
    NO_LABEL = "Deny"
    BINDINGS = [
        Binding("y", "decide(True)", "Grant", id="scope_request.yes"),
        Binding("n", "decide(False)", "Deny", id="scope_request.no"),
        Binding("escape", "decide(None)", "Later", id="scope_request.later"),
    ]

    def __init__(
        self, facts: RequestFacts, clock: Callable[[], float], pattern: str, reason: str
    ) -> None:
        super().__init__(facts, clock)
        self.pattern = pattern
        self.reason = reason

    def body(self, now_seconds: float) -> str:
        return scope_request_text(self.facts, self.pattern, self.reason, now_seconds)
