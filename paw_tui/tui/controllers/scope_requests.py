"""The scope request queue: an agent's pending requests for more scope, shown to a person
one modal at a time like intent selections (DESIGN §5, §11).

Granting and denying go through :func:`~paw_tui.core.handshake.scope_expansion.decide_scope_request`,
as ``paw-tui scope grant|deny`` does: the pattern joins the intent's ``owned_scope`` (an
atomic edit keeping the YAML's comments and order) and ``scope_granted`` or ``scope_denied``
is recorded.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from paw_tui.tui.controllers.decisions import DecisionQueue
from paw_tui.tui.controllers.request_facts import RequestFacts, with_facts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.scope_requests import ScopeRequest
    from paw_tui.tui.dialogs.scope_request import ScopeRequestModal


class PendingScopeRequest:
    """A pending request with what the modal shows of it (read off the UI thread)."""

    __slots__ = ("request", "facts")

    def __init__(self, request: ScopeRequest, facts: RequestFacts) -> None:
        self.request = request
        self.facts = facts

    @classmethod
    def read_all(cls, root: str) -> list[PendingScopeRequest]:
        """Every pending request, in arrival order."""
        from paw_tui.core.handshake.scope_requests import pending_requests

        return [cls(request, facts) for request, facts in with_facts(root, pending_requests(root))]


@dataclass
class ScopeRequestsChanged(Message):
    """The pending scope requests now, in arrival order (from the workspace watcher)."""

    pending: list[PendingScopeRequest]


class ScopeRequestQueue(DecisionQueue[PendingScopeRequest]):
    DECIDED_ELSEWHERE = "That scope request was decided elsewhere."
    WAITS_TITLE = "A scope request waits for you"
    WORKER_GROUP = "scope-requests-decide"

    def request_id(self, item: PendingScopeRequest) -> str:
        return item.request.id

    def facts(self, item: PendingScopeRequest) -> RequestFacts:
        return item.facts

    def modal(self, item: PendingScopeRequest) -> ScopeRequestModal:
        from paw_tui.tui.dialogs.scope_request import ScopeRequestModal

        request = item.request
        return ScopeRequestModal(item.facts, self.clock, request.pattern, request.reason)

    def decide(self, request_id: str, yes: bool) -> str:
        from paw_tui.core.handshake.scope_expansion import decide_scope_request
        from paw_tui.core.ledger.acts import person_name
        from paw_tui.core.workspace.state import WorkspaceState

        request = decide_scope_request(
            WorkspaceState(self.root), request_id, yes, by=person_name(via="tui")
        )
        if yes:
            return f"Granted: {request.intent_id} now owns {request.pattern}."
        return f"Denied {request.pattern} for {request.intent_id}."
