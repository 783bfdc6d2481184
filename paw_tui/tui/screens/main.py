"""The main screen: four panes on a grid, wired to each other and to the workspace watcher.

The panes never reach into each other: they post messages, and this screen passes what one
pane says to the others. The watcher (one thread) reports the ledger, the intents and the
approval requests; the approval queue puts pending selections in front of the person.
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input
from textual.worker import Worker, WorkerState, get_current_worker

from paw_tui.core.ledger.line_index import TraceIndex
from paw_tui.core.workspace import layout
from paw_tui.tui.controllers.approvals import ApprovalQueue
from paw_tui.tui.display import shorten_home
from paw_tui.tui.messages import ApprovalsChanged, IntentHighlighted, IntentsChanged, LedgerGrew
from paw_tui.tui.watcher import WorkspaceWatcher
from paw_tui.tui.widgets.instructions_pane import InstructionsPane
from paw_tui.tui.widgets.intents_pane import IntentsPane
from paw_tui.tui.widgets.scope_pane import ScopePane
from paw_tui.tui.widgets.trace_pane import TracePane
from paw_tui.tui.widgets.trace_view import TraceView

PANES = ("instructions", "intents", "scope", "trace")
PANE_FOCUS = {
    "instructions": "#agent-select",
    "intents": "#intents-table",
    "scope": "#scope-test",
    "trace": "#trace-view",
}
PANE_FILTER = {
    "intents": "#intent-filter",
    "trace": "#trace-filter",
    "scope": "#scope-test",
    "instructions": "#agent-input",
}


class MainScreen(Screen[None]):
    BINDINGS = [
        Binding("tab", "cycle_pane(1)", "Next pane", show=False, id="main.next_pane"),
        Binding(
            "shift+tab", "cycle_pane(-1)", "Previous pane", show=False, id="main.previous_pane"
        ),
        Binding("a", "review_approvals", "Approvals", id="main.approvals"),
        Binding("s", "change_status", "Set status", id="intents.set_status"),
        Binding("t", "toggle_tail", "Tail", id="trace.tail"),
        Binding("d", "trace_denials", "Denials", id="trace.denials"),
        Binding("f", "trace_intent", "Trace of intent", id="trace.intent"),
        Binding("slash", "focus_filter", "Filter", show=False, id="main.filter"),
        Binding("escape", "leave_field", "Leave field", show=False, id="main.leave_field"),
        Binding("z", "zoom", "Zoom", id="main.zoom"),
        Binding("p", "show_prompt", "Prompt", id="main.prompt"),
    ]

    def __init__(self, root: str, user_dir: str | None, *, watch_approvals: bool = True) -> None:
        super().__init__()
        self.root = root
        self.user_dir = user_dir
        self.index = TraceIndex(layout.at(root, layout.LEDGER))
        self.watcher = WorkspaceWatcher(
            root, self.index, self.post_message, watch_approvals=watch_approvals
        )
        self.approvals = ApprovalQueue(self, root)

    def compose(self) -> ComposeResult:
        yield Header()
        with Grid(id="panes"):
            yield InstructionsPane(self.root, self.user_dir, id="instructions")
            yield IntentsPane(id="intents")
            yield ScopePane(self.root, id="scope")
            yield TracePane(self.root, self.index, self.watcher.ledger_ready, id="trace")
        yield Footer()

    def on_mount(self) -> None:
        from paw_tui.core.confine.status import protection

        # what holds the agents' shell commands: a few small reads and one system call
        self.sub_title = f"{shorten_home(self.root)} · shell: {protection(self.root).kind}"
        self.query_one("#intents-table", DataTable).focus()
        self.watch_workspace()

    @work(thread=True, exclusive=True, group="workspace-watch", exit_on_error=False)
    def watch_workspace(self) -> None:
        worker = get_current_worker()
        self.watcher.run(lambda: worker.is_cancelled)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A background job that failed says so; nothing fails silently."""
        if event.state == WorkerState.ERROR:
            error = event.worker.error
            self.notify(
                f"{event.worker.group or event.worker.name} failed: {type(error).__name__}: {error}",
                severity="error",
                timeout=10,
            )

    # -- what the watcher reports ------------------------------------------------------------
    @on(LedgerGrew)
    def _ledger_grew(self, message: LedgerGrew) -> None:
        self.query_one(TracePane).apply_update(message.update)

    @on(IntentsChanged)
    def _intents_changed(self, message: IntentsChanged) -> None:
        intents = self.query_one(IntentsPane)
        intents.show(message.policy, message.held)
        self.query_one(ScopePane).show(message.policy, intents.highlighted)

    @on(ApprovalsChanged)
    def _approvals_changed(self, message: ApprovalsChanged) -> None:
        self.approvals.update(message.pending)

    # -- what one pane tells the others ------------------------------------------------------
    @on(IntentHighlighted)
    def _intent_highlighted(self, message: IntentHighlighted) -> None:
        self.query_one(ScopePane).show(self.query_one(IntentsPane).policy, message.intent_id)

    @on(TraceView.Opened)
    def _open_record(self, message: TraceView.Opened) -> None:
        from paw_tui.tui.dialogs.record_detail import RecordDetail

        self.app.push_screen(
            RecordDetail(self.index.record(message.index), self.index.line_bytes(message.index))
        )

    # -- actions -----------------------------------------------------------------------------
    def action_review_approvals(self) -> None:
        self.approvals.review()

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

            self.app.push_screen(
                ConfirmModal(f"Set {intent.id} from {intent.status} to {status}?"), confirmed
            )

        self.app.push_screen(
            ChoiceModal(f"Status of {intent.id} ({intent.status})", list(STATUSES)), chosen
        )

    @work(thread=True, exit_on_error=False, group="intents-status")
    def set_status(self, intent_id: str, status: str) -> None:
        from paw_tui.core.errors import PawError
        from paw_tui.core.handshake.selection import set_intent_status
        from paw_tui.core.workspace.state import WorkspaceState
        from paw_tui.tui.controllers.approvals import decider_name

        try:
            old = set_intent_status(WorkspaceState(self.root), intent_id, status, by=decider_name())
        except PawError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error")
            return
        self.app.call_from_thread(self.notify, f"{intent_id}: {old} -> {status}")
        self.watcher.nudge()

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

    def action_verify_chain(self) -> None:
        self.query_one(TracePane).verify()

    def action_show_prompt(self) -> None:
        from paw_tui.tui.screens.prompt_view import PromptView

        self.app.push_screen(PromptView(self.root))

    # -- focus -------------------------------------------------------------------------------
    def _pane_of_focus(self) -> str | None:
        widget = self.focused
        while widget is not None:
            if widget.id in PANES:
                return widget.id
            widget = widget.parent  # type: ignore[assignment]
        return None

    def action_focus_pane(self, name: str) -> None:
        self.query_one(PANE_FOCUS[name]).focus()

    def action_cycle_pane(self, step: int) -> None:
        current = self._pane_of_focus()
        position = PANES.index(current) if current is not None else -1
        self.action_focus_pane(PANES[(position + step) % len(PANES)])

    def action_focus_filter(self) -> None:
        self.query_one(PANE_FILTER[self._pane_of_focus() or "trace"]).focus()

    def action_leave_field(self) -> None:
        if isinstance(self.focused, Input):
            self.action_focus_pane(self._pane_of_focus() or "intents")

    def action_zoom(self) -> None:
        if self.maximized is not None:
            self.minimize()
            return
        pane = self._pane_of_focus()
        if pane is not None:
            self.maximize(self.query_one(f"#{pane}"), container=False)
