"""The approval queue: pending intent selections shown to a person one modal at a time
(the shared behaviour is :class:`~paw_tui.tui.controllers.decisions.DecisionQueue`)."""

from __future__ import annotations

from paw_tui.tui.controllers.decisions import DecisionQueue
from paw_tui.tui.controllers.request_facts import RequestFacts, with_facts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.approvals import ApprovalRequest
    from paw_tui.tui.dialogs.approval import ApprovalModal

__all__ = ["ApprovalQueue", "PendingApproval"]


class PendingApproval:
    """A pending request with what the modal shows of it (read off the UI thread)."""

    __slots__ = ("request", "facts")

    def __init__(self, request: ApprovalRequest, facts: RequestFacts) -> None:
        self.request = request
        self.facts = facts

    @classmethod
    def read_all(cls, root: str) -> list[PendingApproval]:
        """Every pending request, in arrival order."""
        from paw_tui.core.handshake.approvals import pending_requests

        return [cls(request, facts) for request, facts in with_facts(root, pending_requests(root))]


class ApprovalQueue(DecisionQueue[PendingApproval]):
    DECIDED_ELSEWHERE = "That approval request was decided elsewhere."
    WAITS_TITLE = "An intent selection waits for you"
    WORKER_GROUP = "approvals-decide"

    def request_id(self, item: PendingApproval) -> str:
        return item.request.id

    def facts(self, item: PendingApproval) -> RequestFacts:
        return item.facts

    def modal(self, item: PendingApproval) -> ApprovalModal:
        from paw_tui.tui.dialogs.approval import ApprovalModal

        return ApprovalModal(item.facts, self.clock)

    def decide(self, request_id: str, yes: bool) -> str:
        from paw_tui.core.handshake.selection import decide_approval
        from paw_tui.core.ledger.acts import person_name
        from paw_tui.core.workspace.state import WorkspaceState

        request = decide_approval(
            WorkspaceState(self.root), request_id, yes, by=person_name(via="tui")
        )
        verb = "Approved" if yes else "Rejected"
        return f"{verb} {request.intent_id} for session {request.session_id}."
