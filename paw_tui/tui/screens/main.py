"""The main screen: four panes on a grid, wired to each other and to the workspace watcher.

The panes never reach into each other: they post messages, and this screen passes what one
pane says to the others. The watcher (one thread) reports the ledger, the intents and the
approval requests; the approval queue puts pending selections in front of the person.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Header, Input, Static, Tab, Tabs
from textual.worker import Worker, WorkerState, get_current_worker

from paw_tui.core.intents.model import Intent
from paw_tui.core.ledger.line_index import TraceIndex
from paw_tui.core.workspace import layout
from paw_tui.tui.attention import Attention
from paw_tui.tui.controllers.approvals import ApprovalQueue
from paw_tui.tui.controllers.decisions import DecisionQueue
from paw_tui.tui.controllers.scope_requests import ScopeRequestQueue, ScopeRequestsChanged
from paw_tui.tui.display import safe, shorten_home
from paw_tui.tui.header import subtitle
from paw_tui.tui.messages import (
    ApprovalsChanged,
    IntentHighlighted,
    IntentsChanged,
    LedgerGrew,
    LedgerHealthChanged,
)
from paw_tui.tui.watcher import WorkspaceWatcher
from paw_tui.tui.widgets.instructions_pane import InstructionsPane
from paw_tui.tui.widgets.intents_pane import IntentsPane
from paw_tui.tui.widgets.pane import Pane
from paw_tui.tui.widgets.scope_pane import ScopePane
from paw_tui.tui.widgets.trace_pane import TracePane
from paw_tui.tui.widgets.trace_view import TraceView

PANES = ("instructions", "intents", "scope", "trace")
# Below either size the panes take turns on the whole screen, one tab each; above both they
# sit side by side, two by two (each then has about 55 columns and 12 rows).
WIDE_FROM = (110, 30)


class PaneTabs(Tabs, can_focus=False):
    """The pane names on a narrow screen (clicked, or reached with tab / 1-4); never focused
    itself, so tab goes through the panes' own widgets."""

    @dataclass
    class Chosen(Message):
        """A click on a pane's tab (not the tabs following the focus)."""

        pane: str

    def on_tab_clicked(self, event: Tab.Clicked) -> None:
        self.post_message(self.Chosen((event.tab.id or "").removeprefix("tab-")))


class MainScreen(Screen[None]):
    # Where on_mount puts the focus anyway: Textual's default (the first focusable widget, in
    # the instructions pane) would mark that pane, then unmark it, restyling it twice before
    # the first paint.
    AUTO_FOCUS = "#intents-table"
    BINDINGS = [
        Binding("tab", "focus_step(1)", "Next field", show=False, id="main.next"),
        Binding("shift+tab", "focus_step(-1)", "Previous field", show=False, id="main.previous"),
        Binding("1", "focus_pane('instructions')", "Instructions", show=False, id="main.pane1"),
        Binding("2", "focus_pane('intents')", "Intents", show=False, id="main.pane2"),
        Binding("3", "focus_pane('scope')", "Scope", show=False, id="main.pane3"),
        Binding("4", "focus_pane('trace')", "Trace", show=False, id="main.pane4"),
        Binding("slash", "focus_filter", "Filter", show=False, id="main.filter"),
        Binding("escape", "leave_field", "Leave the field", show=False, id="main.leave_field"),
        Binding("a", "review_approvals", "Approvals", show=False, id="main.approvals"),
        Binding("z", "zoom", "Zoom", id="main.zoom"),
        Binding("p", "show_prompt", "Prompt", id="main.prompt"),
        Binding("S", "show_sessions", "Sessions", id="main.sessions"),
    ]

    def __init__(
        self,
        root: str,
        user_dir: str | None,
        *,
        watch_approvals: bool = True,
        attention: Attention | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        import time

        super().__init__()
        self.root = root
        self.user_dir = user_dir
        self.clock = clock or time.time
        self.shell = ""  # the protection in force, for the header
        self.index = TraceIndex(layout.at(root, layout.LEDGER))
        self.watcher = WorkspaceWatcher(
            root, self.index, self.post_message, watch_approvals=watch_approvals
        )
        self.queues: list[DecisionQueue[object]] = []  # they take turns, in this order
        attention = attention or Attention()
        self.approvals = ApprovalQueue(
            self,
            root,
            attention=attention,
            clock=self.clock,
            group=self.queues,
            changed=self.show_header,
        )
        self.scope_requests = ScopeRequestQueue(
            self,
            root,
            attention=attention,
            clock=self.clock,
            group=self.queues,
            changed=self.show_header,
        )

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="ledger-banner")
        yield PaneTabs(
            *(Tab(f"{n} {name.title()}", id=f"tab-{name}") for n, name in enumerate(PANES, 1)),
            active="tab-intents",
            id="pane-tabs",
        )
        with Grid(id="panes"):
            yield InstructionsPane(self.root, self.user_dir, id="instructions")
            yield IntentsPane(id="intents")
            yield ScopePane(self.root, id="scope")
            yield TracePane(
                self.root, self.index, self.watcher.ledger_ready, clock=self.clock, id="trace"
            )
        yield Footer()

    def on_mount(self) -> None:
        self.show_header()
        self.watch(self, "focused", self._focus_moved)
        self.watch(self, "maximized", lambda _: self._focus_moved(self.focused))
        self._fit_layout()
        self._focus(self.query_one("#intents-table", DataTable))
        # the rest starts once the newest records are painted (_trace_painted)

    @on(TracePane.Painted)
    async def _trace_painted(self) -> None:
        """The first paint is the trace's newest records (DESIGN §10): the instructions pane's
        widgets, and the threads that read everything else (their imports and parsing hold
        the interpreter lock), come after."""
        self.watch_workspace()
        self.probe_protection()
        await self.query_one(InstructionsPane).build()

    @work(thread=True, exclusive=True, group="protection", exit_on_error=False)
    def probe_protection(self) -> None:
        """What holds the agents' shell commands: a few small reads and one system call."""
        from paw_tui.core.confine.status import protection

        kind = protection(self.root).kind
        self.app.call_from_thread(self._protection_found, kind)

    def _protection_found(self, kind: str) -> None:
        self.shell = kind
        self.show_header()

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
                markup=False,
            )

    # -- what the watcher reports ------------------------------------------------------------
    @on(LedgerGrew)
    def _ledger_grew(self, message: LedgerGrew) -> None:
        trace = self.query_one(TracePane)
        appended = trace.apply_update(message.update)
        # the files the highlighted intent touched follow its new records
        scope = self.query_one(ScopePane)
        if scope.intent_id is None:
            return
        if appended is None or any(
            (record := self.index.record(line)) is not None
            and record.get("intent_id") == scope.intent_id
            for line in appended
        ):
            scope.load_touched(scope.intent_id)

    @on(IntentsChanged)
    def _intents_changed(self, message: IntentsChanged) -> None:
        from paw_tui.tui.screens.sessions_view import SessionsView

        for screen in self.app.screen_stack:  # the sessions changed too, maybe
            if isinstance(screen, SessionsView):
                screen.reload()
        intents = self.query_one(IntentsPane)
        intents.show(message.policy, message.held, message.awaiting)
        self.query_one(ScopePane).show(message.policy, intents.highlighted)
        trace = self.query_one(TracePane)
        trace.known_intents = [i.id for i in message.policy.intents]
        trace.show_hint()  # an intent the filter names may have come or gone

    @on(LedgerHealthChanged)
    def _ledger_health(self, message: LedgerHealthChanged) -> None:
        """While the ledger cannot be appended the gate denies every mutating tool and no
        act of the person's can be recorded: a banner says so until it can."""
        banner = self.query_one("#ledger-banner", Static)
        health = message.health
        banner.display = health.denying
        if health.denying:
            banner.update(
                "[b]The gate is denying every mutating tool: it cannot record.[/b] "
                + safe(health.message())
            )

    @on(ApprovalsChanged)
    def _approvals_changed(self, message: ApprovalsChanged) -> None:
        self.approvals.update(message.pending)

    @on(ScopeRequestsChanged)
    def _scope_requests_changed(self, message: ScopeRequestsChanged) -> None:
        self.scope_requests.update(message.pending)

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

    def _highlighted_intent(self) -> Intent | None:
        pane = self.query_one(IntentsPane)
        if pane.policy is None or pane.highlighted is None:
            return None
        return pane.policy.intent(pane.highlighted)

    def action_new_intent(self) -> None:
        self._open_form(None)

    def action_edit_intent(self) -> None:
        intent = self._highlighted_intent()
        if intent is None:
            self.notify("Highlight an intent first.", severity="warning")
            return
        self._open_form(intent)

    def _open_form(self, intent: Intent | None) -> None:
        from paw_tui.tui.screens.intent_form import IntentForm

        policy = self.query_one(IntentsPane).policy
        if policy is None or not policy.valid:
            reason = policy.unavailable_reason if policy is not None else "not read yet"
            self.notify(
                f"The intents cannot be edited now: {reason}", severity="error", markup=False
            )
            return

        def saved(intent_id: str | None) -> None:
            if intent_id:
                self.query_one(IntentsPane).highlighted = intent_id
                self.watcher.nudge()

        self.app.push_screen(IntentForm(self.root, policy, intent), saved)

    def action_show_sessions(self) -> None:
        from paw_tui.tui.screens.sessions_view import SessionsView

        self.app.push_screen(SessionsView(self.root, self.clock))

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
            ChoiceModal(
                f"Status of {intent.id} ({intent.status})", list(STATUSES), current=intent.status
            ),
            chosen,
        )

    @work(thread=True, exit_on_error=False, group="intents-status")
    def set_status(self, intent_id: str, status: str) -> None:
        from paw_tui.core.errors import PawError
        from paw_tui.core.handshake.selection import set_intent_status
        from paw_tui.core.ledger.acts import person_name
        from paw_tui.core.workspace.state import WorkspaceState
        from paw_tui.tui.dialogs.act_failed import report_failure

        try:
            old = set_intent_status(
                WorkspaceState(self.root), intent_id, status, by=person_name(via="tui")
            )
        except PawError as exc:
            self.app.call_from_thread(report_failure, self.app, str(exc))
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

    # -- the header -------------------------------------------------------------------------
    @property
    def waiting(self) -> int:
        """How many requests wait for the person."""
        return sum(len(queue.pending) for queue in self.queues)

    def show_header(self) -> None:
        """The header's line for the terminal's width, set on the app so that every screen's
        header shows it: what waits stays visible, the path gives way first."""
        width = self.app.size.width if self.is_attached else 80
        shell = self.shell or "…"
        self.app.sub_title = subtitle(shorten_home(self.root), shell, self.waiting, width)

    # -- layout and focus --------------------------------------------------------------------
    def on_resize(self) -> None:
        self._fit_layout()
        self.show_header()

    def _fit_layout(self) -> None:
        width, height = self.size
        self.set_class(width < WIDE_FROM[0] or height < WIDE_FROM[1], "-narrow")

    @property
    def narrow(self) -> bool:
        return self.has_class("-narrow")

    def pane(self, name: str) -> Pane:
        return self.query_one(f"#{name}", Pane)

    def _pane_of(self, widget: Widget | None) -> str | None:
        while widget is not None:
            if widget.id in PANES:
                return widget.id
            widget = widget.parent if isinstance(widget.parent, Widget) else None
        return None

    def _pane_of_focus(self) -> str | None:
        return self._pane_of(self.focused)

    def _focus_moved(self, focused: Widget | None) -> None:
        """The pane holding the focus is marked (a title mark, not only a colour) and, on a
        narrow screen, is the one shown."""
        current = self._pane_of(focused)
        if current is None:
            return
        self.show_pane(current)
        zoomed = self._pane_of(self.maximized)
        for name in PANES:
            self.pane(name).mark_focus(name == current, zoomed=name == zoomed)

    def show_pane(self, name: str) -> None:
        """Make ``name`` the pane on screen when the panes take turns."""
        for other in PANES:
            self.pane(other).set_class(other == name, "-current")
        tabs = self.query_one(PaneTabs)
        if tabs.active != f"tab-{name}":
            tabs.active = f"tab-{name}"

    @on(PaneTabs.Chosen)
    def _tab_clicked(self, event: PaneTabs.Chosen) -> None:
        if event.pane in PANES and event.pane != self._pane_of_focus():
            self.action_focus_pane(event.pane)

    def _focus(self, widget: Widget) -> None:
        pane = self._pane_of(widget)
        if pane is not None:
            self.show_pane(pane)  # shown first: a hidden pane's widget would not scroll to view
        widget.focus()

    def _stops(self) -> list[Widget]:
        """Every widget tab stops at, pane by pane (only the zoomed pane's when zoomed; a
        pane still being built has none yet)."""
        names = [self._pane_of(self.maximized)] if self.maximized is not None else PANES
        return [
            widget
            for name in names
            if name is not None
            for selector in self.pane(name).STOPS
            for widget in self.query(selector)
        ]

    def action_focus_pane(self, name: str) -> None:
        if self.maximized is not None and self._pane_of(self.maximized) != name:
            self.minimize()
        first = self.query(self.pane(name).STOPS[0])
        self._focus(first.first() if first else self.pane(name))

    def action_focus_step(self, step: int) -> None:
        stops = self._stops()
        focused = self.focused
        position = -1 if step > 0 else 0
        for number, stop in enumerate(stops):
            if focused is not None and (focused is stop or stop in focused.ancestors):
                position = number
                break
        else:
            current = self._pane_of(focused)
            if current is not None:  # somewhere in a pane but not on a stop: its first stop
                first = self.query_one(self.pane(current).STOPS[0])
                position = stops.index(first) - (1 if step > 0 else 0) if first in stops else -1
        self._focus(stops[(position + step) % len(stops)])

    def action_focus_filter(self) -> None:
        current = self._pane_of_focus()
        field = self.pane(current).FILTER if current is not None else None
        if field is None:
            current, field = "trace", self.pane("trace").FILTER
        assert field is not None
        if self.maximized is not None and self._pane_of(self.maximized) != current:
            self.minimize()
        self._focus(self.query_one(field))

    def action_leave_field(self) -> None:
        if isinstance(self.focused, Input):
            self.action_focus_pane(self._pane_of_focus() or "intents")

    def action_zoom(self) -> None:
        if self.maximized is not None:
            self.minimize()
            return
        pane = self._pane_of_focus()
        if pane is not None:
            self.maximize(self.pane(pane), container=False)
