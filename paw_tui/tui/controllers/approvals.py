"""The approval queue: pending intent selections shown to a person one modal at a time
(the shared behaviour is :class:`~paw_tui.tui.controllers.decisions.DecisionQueue`)."""

from __future__ import annotations

from paw_tui.tui.controllers.decisions import DecisionQueue, decider_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.approvals import ApprovalRequest
    from paw_tui.tui.dialogs.approval import ApprovalModal

__all__ = ["ApprovalQueue", "PendingApproval", "decider_name"]


class PendingApproval:
    """A pending request with what the modal shows of its intent (read off the UI thread)."""

    __slots__ = ("request", "intent_name", "context_block")

    def __init__(self, request: ApprovalRequest, intent_name: str, context_block: str) -> None:
        self.request = request
        self.intent_name = intent_name
        self.context_block = context_block

    @classmethod
    def read(cls, root: str, request: ApprovalRequest) -> PendingApproval:
        from paw_tui.core.intents.view import intent_context_block
        from paw_tui.core.workspace.state import WorkspaceState

        state = WorkspaceState(root)
        intent = state.policy.intent(request.intent_id)
        if intent is None:
            return cls(request, "", f"(intent {request.intent_id} is no longer defined)")
        return cls(request, intent.name, intent_context_block(state, intent))


class ApprovalQueue(DecisionQueue[PendingApproval]):
    DECIDED_ELSEWHERE = "That approval request was decided elsewhere."
    WORKER_GROUP = "approvals-decide"

    def request_id(self, item: PendingApproval) -> str:
        return item.request.id

    def modal(self, item: PendingApproval) -> ApprovalModal:
        from paw_tui.tui.dialogs.approval import ApprovalModal

        request = item.request
        return ApprovalModal(
            request.id, request.session_id, request.intent_id, item.intent_name, item.context_block
        )

    def decide(self, request_id: str, yes: bool) -> str:
        from paw_tui.core.handshake.selection import decide_approval
        from paw_tui.core.workspace.state import WorkspaceState

        request = decide_approval(WorkspaceState(self.root), request_id, yes, by=decider_name())
        verb = "Approved" if yes else "Rejected"
        return f"{verb} {request.intent_id} for session {request.session_id}."
