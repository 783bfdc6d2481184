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

from paw_tui.tui.controllers.decisions import DecisionQueue, decider_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.scope_requests import ScopeRequest
    from paw_tui.tui.dialogs.scope_request import ScopeRequestModal


class PendingScopeRequest:
    """A pending request with what the modal shows of its intent (read off the UI thread)."""

    __slots__ = ("request", "intent_name", "owned_scope")

    def __init__(self, request: ScopeRequest, intent_name: str, owned_scope: list[str]) -> None:
        self.request = request
        self.intent_name = intent_name
        self.owned_scope = owned_scope

    @classmethod
    def read_all(cls, root: str) -> list[PendingScopeRequest]:
        """Every pending request, in arrival order."""
        from paw_tui.core.handshake.scope_requests import pending_requests
        from paw_tui.core.policy.compiled import load_policy

        requests = pending_requests(root)
        if not requests:
            return []
        policy = load_policy(root)
        found = []
        for request in requests:
            intent = policy.intent(request.intent_id) if policy.valid else None
            if intent is None:
                found.append(cls(request, "(no longer defined)", []))
            else:
                found.append(cls(request, intent.name, list(intent.owned_scope)))
        return found


@dataclass
class ScopeRequestsChanged(Message):
    """The pending scope requests now, in arrival order (from the workspace watcher)."""

    pending: list[PendingScopeRequest]


class ScopeRequestQueue(DecisionQueue[PendingScopeRequest]):
    DECIDED_ELSEWHERE = "That scope request was decided elsewhere."
    WORKER_GROUP = "scope-requests-decide"

    def request_id(self, item: PendingScopeRequest) -> str:
        return item.request.id

    def modal(self, item: PendingScopeRequest) -> ScopeRequestModal:
        from paw_tui.tui.dialogs.scope_request import ScopeRequestModal

        request = item.request
        return ScopeRequestModal(
            request.id,
            request.session_id,
            request.intent_id,
            item.intent_name,
            request.pattern,
            request.reason,
            item.owned_scope,
        )

    def decide(self, request_id: str, yes: bool) -> str:
        from paw_tui.core.handshake.scope_expansion import decide_scope_request
        from paw_tui.core.workspace.state import WorkspaceState

        request = decide_scope_request(
            WorkspaceState(self.root), request_id, yes, by=decider_name()
        )
        if yes:
            return f"Granted: {request.intent_id} now owns {request.pattern}."
        return f"Denied {request.pattern} for {request.intent_id}."
