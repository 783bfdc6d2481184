"""The scope request modal: grant (y), deny (n) or leave pending (escape) an agent's request
for a pattern in its intent's ``owned_scope`` (DESIGN §5, §11)."""

from __future__ import annotations

from rich.markup import escape
from textual.binding import Binding

from paw_tui.tui.dialogs.decision import DecisionModal

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
        self,
        request_id: str,
        session_id: str,
        intent_id: str,
        intent_name: str,
        pattern: str,
        reason: str,
        owned_scope: list[str],
    ) -> None:
        super().__init__(request_id)
        self.session_id = session_id
        self.intent_id = intent_id
        self.intent_name = intent_name
        self.pattern = pattern
        self.reason = reason
        self.owned_scope = owned_scope

    def summary(self) -> str:
        return (
            f"Session [b]{escape(self.session_id)}[/b] asks that "
            f"[b]{escape(self.intent_id)}[/b] {escape(self.intent_name)} may also write\n"
            f"  [b $warning]{escape(self.pattern)}[/]\n"
            f"[$text-muted]request {escape(self.request_id)}[/]"
        )

    def details(self) -> str:
        owned = "\n".join(f"  {pattern}" for pattern in self.owned_scope) or "  (nothing)"
        return (
            f"Reason given: {self.reason or '(none)'}\n\n"
            f"owned_scope now:\n{owned}\n\n"
            f"Granting appends {self.pattern} to {self.intent_id}'s owned_scope in "
            "active_intents.yaml (comments and order kept) and records scope_granted."
        )
