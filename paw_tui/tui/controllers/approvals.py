"""The approval queue: pending intent selections shown to a person one modal at a time.

Requests pending at start-up are shown too, in arrival order. ``escape`` leaves a request
pending and hides it for this session of the TUI (``a`` brings the hidden ones back); a
request decided elsewhere (the CLI, another TUI, a session that ended) closes its modal.
Decisions go through the core, with their ledger records, in a worker thread.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from paw_tui.core.handshake.approvals import ApprovalRequest


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


def decider_name() -> str:
    """Who the ledger says decided, for a decision made in the TUI."""
    return f"{os.environ.get('USER') or os.environ.get('USERNAME') or 'human'} (tui)"


class ApprovalQueue:
    """Which pending request is on screen, which were set aside, and what comes next."""

    def __init__(self, screen: Screen[None], root: str) -> None:
        self.screen = screen
        self.root = root
        self.pending: list[PendingApproval] = []
        self.dismissed: set[str] = set()
        self.open_request: str | None = None

    @property
    def app(self) -> App[None]:
        return self.screen.app

    def update(self, pending: list[PendingApproval]) -> None:
        """The pending set changed on disk."""
        from paw_tui.tui.dialogs.approval import ApprovalModal

        self.pending = pending
        ids = {item.request.id for item in pending}
        if self.open_request is not None and self.open_request not in ids:
            self.open_request = None
            if isinstance(self.app.screen, ApprovalModal):
                self.app.screen.dismiss(None)
                self.app.notify("That approval request was decided elsewhere.")
        self.show_next()

    def review(self) -> None:
        """Show the pending requests again, the ones set aside included."""
        if not self.pending:
            self.app.notify("No intent selection awaits approval.")
            return
        self.dismissed.clear()
        self.show_next()

    def show_next(self) -> None:
        from paw_tui.tui.dialogs.approval import ApprovalModal

        if self.open_request is not None or isinstance(self.app.screen, ApprovalModal):
            return
        for item in self.pending:
            request = item.request
            if request.id in self.dismissed:
                continue
            self.open_request = request.id
            modal = ApprovalModal(
                request.id,
                request.session_id,
                request.intent_id,
                item.intent_name,
                item.context_block,
            )
            self.app.push_screen(modal, lambda result, rid=request.id: self._result(rid, result))
            return

    def _result(self, request_id: str, result: bool | None) -> None:
        if self.open_request == request_id:
            self.open_request = None
        self.dismissed.add(request_id)  # not shown again while the decision is written
        if result is None:
            self.show_next()
            return
        self.app.run_worker(
            lambda: self._decide(request_id, result),
            thread=True,
            group="approvals-decide",
            exit_on_error=False,
        )

    def _decide(self, request_id: str, approve: bool) -> None:
        """In a worker thread: the decision through the core, then back to the UI thread."""
        from paw_tui.core.errors import PawError
        from paw_tui.core.handshake.selection import decide_approval
        from paw_tui.core.workspace.state import WorkspaceState

        app = self.app
        try:
            request = decide_approval(
                WorkspaceState(self.root), request_id, approve, by=decider_name()
            )
        except PawError as exc:
            app.call_from_thread(app.notify, str(exc), severity="error")
            return
        verb = "Approved" if approve else "Rejected"
        app.call_from_thread(
            app.notify, f"{verb} {request.intent_id} for session {request.session_id}."
        )
        app.call_from_thread(self.show_next)
