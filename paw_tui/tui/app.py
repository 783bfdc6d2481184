"""The paw-tui application: four panes on one screen, approvals as modals."""

from __future__ import annotations

import os
import time

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.widgets import DataTable, Footer, Header, Input

from paw_tui.tui.approvals_watch import PendingApprovals, pending_ids
from paw_tui.tui.commands import PawCommands
from paw_tui.tui.dialogs.approval import ApprovalModal
from paw_tui.tui.messages import IntentHighlighted
from paw_tui.tui.widgets.instructions_pane import InstructionsPane
from paw_tui.tui.widgets.intents_pane import IntentsPane
from paw_tui.tui.widgets.scope_pane import ScopePane
from paw_tui.tui.widgets.trace_pane import TracePane
from paw_tui.tui.widgets.trace_view import TraceView

PANES = ("instructions", "intents", "scope", "trace")
APPROVAL_POLL_SECONDS = 0.25


class PawApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "paw-tui"
    COMMANDS = App.COMMANDS | {PawCommands}
    BINDINGS = [
        Binding("q", "quit_app", "Quit", id="app.quit"),
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False, id="app.force_quit"),
        Binding("tab", "cycle_pane(1)", "Next pane", priority=True, show=False, id="app.next_pane"),
        Binding("shift+tab", "cycle_pane(-1)", "Previous pane", priority=True, show=False, id="app.previous_pane"),
        Binding("a", "review_approvals", "Approvals", id="app.approvals"),
        Binding("s", "change_status", "Set status", id="intents.set_status"),
        Binding("t", "toggle_tail", "Tail", id="trace.tail"),
        Binding("d", "trace_denials", "Denials", id="trace.denials"),
        Binding("f", "trace_intent", "Trace of intent", id="trace.intent"),
        Binding("slash", "focus_filter", "Filter", show=False, id="app.filter"),
        Binding("escape", "leave_field", "Leave field", show=False),
        Binding("z", "zoom", "Zoom", id="app.zoom"),
        Binding("p", "show_prompt", "Prompt", id="app.prompt"),
    ]

    def __init__(self, root: str, *, user_dir: str | None = None, watch_approvals: bool = True) -> None:
        super().__init__()
        from paw_tui.core.workspace.platform import PlatformProbe, user_instructions_dir

        self.root = os.path.abspath(root)
        self.user_dir = user_dir if user_dir is not None else user_instructions_dir(PlatformProbe())
        self.watching_approvals = watch_approvals
        self.pending: list = []  # type: ignore[type-arg]
        self.context_blocks: dict[str, str] = {}
        self.intent_names: dict[str, str] = {}
        self.dismissed: set[str] = set()
        self.open_request: str | None = None
        self.sub_title = self.root

    def compose(self) -> ComposeResult:
        yield Header()
        with Grid(id="panes"):
            yield InstructionsPane(self.root, self.user_dir, id="instructions")
            yield IntentsPane(self.root, id="intents")
            yield ScopePane(self.root, id="scope")
            yield TracePane(self.root, id="trace")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#intents-table", DataTable).focus()
        if self.watching_approvals:
            self.watch_approvals()

    # -- panes talking to each other ---------------------------------------------------------
    def _panes(self) -> tuple[IntentsPane, ScopePane] | None:
        """The intents and scope panes, or None while the main screen is not up (a worker's
        message can arrive while the app is closing)."""
        if not self.screen_stack:
            return None
        main = self.screen_stack[0]  # the panes live there, whatever modal is on top
        intents = main.query(IntentsPane)
        scope = main.query(ScopePane)
        if not intents or not scope:
            return None
        return intents.first(), scope.first()

    @on(IntentHighlighted)
    def _intent_highlighted(self, message: IntentHighlighted) -> None:
        panes = self._panes()
        if panes is not None:
            panes[1].show(panes[0].policy, message.intent_id)

    @on(IntentsPane.Loaded)
    def _intents_loaded(self, message: IntentsPane.Loaded) -> None:
        panes = self._panes()
        if panes is not None:
            panes[1].show(message.policy, panes[0].highlighted)

    @on(TraceView.Opened)
    def _open_record(self, message: TraceView.Opened) -> None:
        from paw_tui.tui.dialogs.record_detail import RecordDetail

        pane = self.query_one(TracePane)
        self.push_screen(RecordDetail(pane.index.record(message.index), pane.index.line_bytes(message.index)))

    # -- approvals ---------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="approvals-watch", exit_on_error=False)
    def watch_approvals(self) -> None:
        from textual.worker import get_current_worker

        from paw_tui.core.handshake.approvals import pending_requests

        worker = get_current_worker()
        last: tuple[str, ...] | None = None
        while not worker.is_cancelled:
            requests = pending_requests(self.root)
            ids = pending_ids(requests)
            if ids != last:
                last = ids
                self._prepare_blocks(requests)
                self.post_message(PendingApprovals(requests))
            time.sleep(APPROVAL_POLL_SECONDS)

    def _prepare_blocks(self, requests: list) -> None:  # type: ignore[type-arg]
        from paw_tui.core.intents.view import intent_context_block
        from paw_tui.core.workspace.state import WorkspaceState

        state = WorkspaceState(self.root)
        for request in requests:
            if request.id in self.context_blocks:
                continue
            intent = state.policy.intent(request.intent_id)
            self.intent_names[request.intent_id] = intent.name if intent is not None else ""
            self.context_blocks[request.id] = (
                intent_context_block(state, intent) if intent is not None else f"(intent {request.intent_id} is no longer defined)"
            )

    @on(PendingApprovals)
    def _pending(self, message: PendingApprovals) -> None:
        self.pending = message.requests
        ids = {r.id for r in message.requests}
        if self.open_request is not None and self.open_request not in ids:
            # decided elsewhere (CLI, another TUI, the session ended): close its modal
            self.open_request = None
            if isinstance(self.screen, ApprovalModal):
                self.screen.dismiss(None)
                self.notify("That approval request was decided elsewhere.")
        self.show_next_approval()

    def show_next_approval(self) -> None:
        if self.open_request is not None or isinstance(self.screen, ApprovalModal):
            return
        for request in self.pending:
            if request.id in self.dismissed:
                continue
            name = self.intent_names.get(request.intent_id, "")
            self.open_request = request.id
            modal = ApprovalModal(request.id, request.session_id, request.intent_id, name,
                                  self.context_blocks.get(request.id, ""))
            self.push_screen(modal, lambda result, rid=request.id: self._approval_result(rid, result))
            return

    def _approval_result(self, request_id: str, result: bool | None) -> None:
        if self.open_request == request_id:
            self.open_request = None
        if result is None:
            self.dismissed.add(request_id)
            self.show_next_approval()
            return
        self.dismissed.add(request_id)  # do not show it again while the decision is written
        self.decide(request_id, result)

    @work(thread=True, exit_on_error=False, group="approvals-decide")
    def decide(self, request_id: str, approve: bool) -> None:
        from paw_tui.core.errors import PawError
        from paw_tui.core.handshake.selection import decide_approval
        from paw_tui.core.workspace.state import WorkspaceState

        who = os.environ.get("USER") or os.environ.get("USERNAME") or "human"
        try:
            request = decide_approval(WorkspaceState(self.root), request_id, approve, by=f"{who} (tui)")
        except PawError as exc:
            self.call_from_thread(self.notify, str(exc), severity="error")
            return
        verb = "Approved" if approve else "Rejected"
        self.call_from_thread(self.notify, f"{verb} {request.intent_id} for session {request.session_id}.")
        self.call_from_thread(self.query_one(IntentsPane).reload)
        self.call_from_thread(self.show_next_approval)

    def action_review_approvals(self) -> None:
        if not self.pending:
            self.notify("No intent selection awaits approval.")
            return
        self.dismissed.clear()
        self.show_next_approval()

    # -- intents -----------------------------------------------------------------------------
    def action_change_status(self) -> None:
        from paw_tui.core.intents.model import STATUSES
        from paw_tui.tui.dialogs.confirm import ChoiceModal, ConfirmModal

        pane = self.query_one(IntentsPane)
        intent = pane.policy.intent(pane.highlighted) if pane.policy and pane.highlighted else None
        if intent is None:
            self.notify("Highlight an intent first.", severity="warning")
            return

        def chosen(status: str | None) -> None:
            if status is None or status == intent.status:
                return
            def confirmed(yes: bool | None) -> None:
                if yes:
                    self.set_status(intent.id, status)

            self.push_screen(ConfirmModal(f"Set {intent.id} from {intent.status} to {status}?"), confirmed)

        self.push_screen(ChoiceModal(f"Status of {intent.id} ({intent.status})", list(STATUSES)), chosen)

    @work(thread=True, exit_on_error=False, group="intents-status")
    def set_status(self, intent_id: str, status: str) -> None:
        from paw_tui.core.errors import PawError
        from paw_tui.core.handshake.selection import set_intent_status
        from paw_tui.core.workspace.state import WorkspaceState

        who = os.environ.get("USER") or "human"
        try:
            old = set_intent_status(WorkspaceState(self.root), intent_id, status, by=f"{who} (tui)")
        except PawError as exc:
            self.call_from_thread(self.notify, str(exc), severity="error")
            return
        self.call_from_thread(self.notify, f"{intent_id}: {old} -> {status}")
        self.call_from_thread(self.query_one(IntentsPane).reload)

    # -- trace -------------------------------------------------------------------------------
    def action_toggle_tail(self) -> None:
        self.query_one(TracePane).toggle_tail()

    def action_trace_denials(self) -> None:
        self.query_one(TracePane).set_filter("decision:deny")

    def action_trace_clear(self) -> None:
        self.query_one(TracePane).set_filter("")

    def action_trace_intent(self) -> None:
        highlighted = self.query_one(IntentsPane).highlighted
        if highlighted:
            self.query_one(TracePane).set_filter(f"intent:{highlighted}")

    def action_show_prompt(self) -> None:
        from paw_tui.tui.screens.prompt_view import PromptView

        if not isinstance(self.screen, PromptView):
            self.push_screen(PromptView(self.root))

    def action_verify_chain(self) -> None:
        self.query_one(TracePane).verify()

    # -- focus and keys ----------------------------------------------------------------------
    def _pane_of_focus(self) -> int:
        widget = self.focused
        while widget is not None:
            if widget.id in PANES:
                return PANES.index(widget.id)
            widget = widget.parent  # type: ignore[assignment]
        return -1

    def action_focus_pane(self, name: str) -> None:
        targets = {
            "instructions": "#agent-select",
            "intents": "#intents-table",
            "scope": "#scope-test",
            "trace": "#trace-view",
        }
        self.query_one(targets[name]).focus()

    def action_cycle_pane(self, step: int) -> None:
        if not isinstance(self.screen, type(self.screen)) or self.screen is not self.screen_stack[0]:
            return
        current = self._pane_of_focus()
        self.action_focus_pane(PANES[(current + step) % len(PANES)])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cycle_pane" and len(self.screen_stack) > 1:
            return False  # modals keep tab for their own buttons
        return True

    def action_focus_filter(self) -> None:
        pane = PANES[self._pane_of_focus()] if self._pane_of_focus() >= 0 else "trace"
        field = {"intents": "#intent-filter", "trace": "#trace-filter", "scope": "#scope-test",
                 "instructions": "#agent-input"}[pane]
        self.query_one(field).focus()

    def action_leave_field(self) -> None:
        if isinstance(self.focused, Input):
            pane = self._pane_of_focus()
            self.action_focus_pane(PANES[pane] if pane >= 0 else "intents")

    def action_zoom(self) -> None:
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
            return
        pane = self._pane_of_focus()
        if pane >= 0:
            screen.maximize(self.query_one(f"#{PANES[pane]}"), container=False)

    def action_quit_app(self) -> None:
        if isinstance(self.focused, Input):
            return
        self.exit()


def run_app(root: str, *, user_dir: str | None = None) -> int:
    import sys

    # Background threads (indexing a large ledger) hand the GIL back sooner, so the screen
    # keeps up with the live tail.
    sys.setswitchinterval(0.001)
    PawApp(root, user_dir=user_dir).run()
    return 0
