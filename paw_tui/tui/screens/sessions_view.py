"""The sessions view (``S``; DESIGN §11): every live agent session with its client, the intent
it holds or awaits, its age and its last activity; ``r`` releases the highlighted one after a
confirmation, through the core (recorded, or not done and said so)."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label, Static

from paw_tui.core.support.printable import printable
from paw_tui.tui.display import ago, plain
from paw_tui.tui.widgets.vim_table import VimDataTable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.core.handshake.sessions import Session

COLUMNS = (
    ("SESSION", "session"),
    ("CLIENT", "client"),
    ("INTENT", "intent"),
    ("STATE", "state"),
    ("AGE", "age"),
    ("LAST SEEN", "seen"),
)
AWAITING = "awaiting approval"
FULL_IDS_FROM = 110
"""Below this width a session id shows its first characters (enough to tell sessions apart),
so the age and last activity stay on screen."""
SHORT_ID = 10
NOTHING = "No live session: agents appear here from their first tool call through the gate."


def state_of(session: Session) -> str:
    from paw_tui.core.handshake.sessions import ACTIVE, PENDING_APPROVAL

    if session.state == PENDING_APPROVAL:
        return AWAITING
    return "holds its intent" if session.state == ACTIVE else "no intent yet"


class SessionsView(Screen[None]):
    BINDINGS = [
        Binding("r", "release", "Release", id="sessions.release"),
        Binding("escape", "close", "Back", id="sessions.back"),
    ]
    AUTO_FOCUS = "#sessions-table"

    @dataclass
    class Loaded(Message):
        sessions: list[Session]

    def __init__(self, root: str, clock: Callable[[], float]) -> None:
        super().__init__()
        self.root = root
        self.clock = clock
        self.sessions: list[Session] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="sessions-view"):
            yield Label(
                "Live sessions — r releases the highlighted one (after a confirmation)",
                id="sessions-title",
            )
            yield Static("", id="sessions-empty")
            yield VimDataTable(id="sessions-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label, key in COLUMNS:
            table.add_column(label, key=key)
        self.reload()

    @work(thread=True, exclusive=True, group="sessions-load", exit_on_error=False)
    def reload(self) -> None:
        """Read the live sessions again (the main screen calls this when they change)."""
        from paw_tui.core.handshake.sessions import iter_sessions
        from paw_tui.core.policy.compiled import load_policy

        policy = load_policy(self.root)
        ttl = policy.governance.session_ttl if policy.valid else 8 * 3600.0
        now = self.clock()
        live = [s for s in iter_sessions(self.root) if s.is_live(now, ttl)]
        live.sort(key=lambda s: -s.last_seen)
        self.post_message(self.Loaded(live))

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        table = self.query_one(DataTable)
        keep = self.highlighted
        table.clear()
        self.sessions = message.sessions
        now = self.clock()
        short = self.size.width < FULL_IDS_FROM
        for session in message.sessions:
            shown = printable(session.session_id)
            if short and len(shown) > SHORT_ID:
                shown = shown[: SHORT_ID - 1] + "…"
            table.add_row(
                plain(shown),
                plain(session.client or "-"),
                plain(session.intent_id or "-"),
                state_of(session),
                ago(max(0.0, now - session.started)).removesuffix(" ago")
                if session.started
                else "-",
                ago(max(0.0, now - session.last_seen)) if session.last_seen else "-",
                key=session.session_id,
            )
        ids = [s.session_id for s in message.sessions]
        if keep in ids:
            table.move_cursor(row=ids.index(keep), animate=False)
        empty = self.query_one("#sessions-empty", Static)
        empty.update(NOTHING if not ids else "")
        empty.display = not ids

    @property
    def highlighted(self) -> str | None:
        table = self.query_one(DataTable)
        if not self.sessions or not 0 <= table.cursor_row < len(self.sessions):
            return None
        return self.sessions[table.cursor_row].session_id

    def action_release(self) -> None:
        from paw_tui.tui.dialogs.confirm import ConfirmModal

        session_id = self.highlighted
        if session_id is None:
            self.notify("No session to release.", severity="warning")
            return
        session = next(s for s in self.sessions if s.session_id == session_id)
        held = f" It frees {session.intent_id}." if session.intent_id else ""

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.release(session_id)

        question = f"Release session {printable(session_id)}?{printable(held)}"
        self.app.push_screen(ConfirmModal(question), confirmed)

    @work(thread=True, exclusive=True, group="sessions-release", exit_on_error=False)
    def release(self, session_id: str) -> None:
        from paw_tui.core.errors import PawError
        from paw_tui.core.handshake.selection import release_session
        from paw_tui.core.ledger.acts import person_name
        from paw_tui.core.workspace.state import WorkspaceState
        from paw_tui.tui.dialogs.act_failed import report_failure

        state = WorkspaceState(self.root)
        try:
            done = release_session(
                state, session_id, reason=f"released by {person_name(via='tui')}"
            )
        except PawError as exc:
            self.app.call_from_thread(report_failure, self.app, str(exc))
            return
        told = f"Released {session_id}." if done else f"{session_id} had already ended."
        self.app.call_from_thread(self.notify, printable(told), markup=False)
        self.reload()

    def action_close(self) -> None:
        self.dismiss(None)
