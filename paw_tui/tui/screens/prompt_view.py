"""The Prompt view: for one session, each layer of the assembled prompt in order with its
source and size, the assembled text, and a field to set the supervisor instruction."""

from __future__ import annotations

import time
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Select, Static

from paw_tui.core.prompt.assembly import PromptLayer
from paw_tui.core.support.printable import printable
from paw_tui.tui.display import plain

NO_SESSION = "(a new session)"


class PromptView(Screen[None]):
    # the layers, not the session picker: a focused Select takes printable keys as a search
    AUTO_FOCUS = "#prompt-layers"
    BINDINGS = [
        Binding("e", "edit_supervisor", "Supervisor", id="prompt.supervisor"),
        Binding("escape", "close", "Back", id="prompt.back"),
    ]

    @dataclass
    class Assembled(Message):
        session_id: str
        layers: list[PromptLayer]

    @dataclass
    class Sessions(Message):
        ids: list[str]

    def __init__(self, root: str) -> None:
        super().__init__()
        self.root = root
        self.session_id = NO_SESSION

    def compose(self) -> ComposeResult:
        yield Header()  # the app's line: what waits for the person stays in sight
        with Vertical(id="prompt-view"):
            yield Label(
                "Assembled prompt — what the gate injects on SessionStart and every UserPromptSubmit",
                id="prompt-title",
            )
            yield Select[str]([], prompt="session", id="prompt-session", compact=True)
            table: DataTable[str] = DataTable(id="prompt-layers", cursor_type="row")
            yield table
            with VerticalScroll(id="prompt-text-scroll"):
                yield Static("", id="prompt-text", markup=False)
            yield Input(
                placeholder="supervisor instruction (enter: set for this session)",
                id="supervisor-input",
                compact=True,
            )
            with Horizontal(id="supervisor-buttons"):
                # one row each, so the four fit at 80 columns
                yield Button("Set for session", id="set-session", variant="primary", compact=True)
                yield Button("Set for all", id="set-global", compact=True)
                yield Button("Clear session's", id="clear-session", compact=True)
                yield Button("Clear global", id="clear-global", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#prompt-layers", DataTable)
        for label in ("#", "LAYER", "SOURCE", "CHARS", "~TOKENS"):
            table.add_column(label)
        self.list_sessions()
        self.assemble(NO_SESSION)

    @work(thread=True, exclusive=True, group="prompt-sessions", exit_on_error=False)
    def list_sessions(self) -> None:
        from paw_tui.core.handshake.sessions import iter_sessions

        ids = [s.session_id for s in sorted(iter_sessions(self.root), key=lambda s: -s.last_seen)]
        self.post_message(self.Sessions(ids))

    @on(Sessions)
    def _sessions(self, message: Sessions) -> None:
        select = self.query_one("#prompt-session", Select)
        select.set_options([(NO_SESSION, NO_SESSION)] + [(plain(s), s) for s in message.ids])
        select.value = NO_SESSION

    @on(Select.Changed, "#prompt-session")
    def _session_picked(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.session_id = event.value
            self.assemble(event.value)

    @work(thread=True, exclusive=True, group="prompt-assemble", exit_on_error=False)
    def assemble(self, session_id: str) -> None:
        from paw_tui.core.handshake.sessions import Session, held_intents, load_session
        from paw_tui.core.prompt.assembly import prompt_layers
        from paw_tui.core.workspace.state import WorkspaceState

        state = WorkspaceState(self.root)
        real = None if session_id == NO_SESSION else session_id
        session = (load_session(self.root, real) if real else None) or Session(real or "preview")
        held = {}
        if state.policy.valid:
            held = held_intents(
                self.root, time.time(), state.policy.governance.session_ttl, besides=real
            )
        self.post_message(self.Assembled(session_id, prompt_layers(state, session, held=held)))

    @on(Assembled)
    def _assembled(self, message: Assembled) -> None:
        from paw_tui.core.prompt.assembly import assemble_prompt

        if message.session_id != self.session_id:
            return
        table = self.query_one("#prompt-layers", DataTable)
        table.clear()
        for number, layer in enumerate(message.layers, 1):
            data = layer.to_dict()
            table.add_row(
                str(number),
                layer.name,
                plain(layer.source),
                f"{data['chars']:,}",
                f"{data['tokens']:,}",
            )
        self.query_one("#prompt-text", Static).update(assemble_prompt(message.layers))

    def _target(self, scope: str) -> str | None:
        return None if scope == "global" or self.session_id == NO_SESSION else self.session_id

    @on(Input.Submitted, "#supervisor-input")
    def _submitted(self) -> None:
        self.apply("set", "session")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        action, _, scope = (event.button.id or "").partition("-")
        if action in ("set", "clear"):
            self.apply(action, scope)

    def apply(self, action: str, scope: str) -> None:
        if scope == "session" and self.session_id == NO_SESSION:
            self.notify("Pick a session first, or set it for every session.", severity="warning")
            return
        text = self.query_one("#supervisor-input", Input).value
        self.change_supervisor(action, self._target(scope), text)

    @work(thread=True, group="supervisor", exit_on_error=False)
    def change_supervisor(self, action: str, target: str | None, text: str) -> None:
        """A person's act, recorded first (the state lock, the ledger's lock, a sync): off
        the screen's thread, which a lock held by a gate would otherwise freeze."""
        from paw_tui.core.errors import PawError
        from paw_tui.core.ledger.acts import person_name
        from paw_tui.core.prompt.supervisor import clear_supervisor, set_supervisor
        from paw_tui.tui.dialogs.act_failed import report_failure

        try:
            if action == "set":
                set_supervisor(self.root, text, target, by=person_name(via="tui"))
            else:
                clear_supervisor(self.root, target, by=person_name(via="tui"))
        except PawError as exc:
            # stays until dismissed: nothing was set
            self.app.call_from_thread(report_failure, self.app, str(exc))
            return
        done = "set" if action == "set" else "cleared"
        whom = "every session" if target is None else "session " + printable(target)
        self.app.call_from_thread(
            self.notify, f"Supervisor instruction {done} for {whom}.", markup=False
        )
        self.assemble(self.session_id)

    def action_edit_supervisor(self) -> None:
        self.query_one("#supervisor-input", Input).focus()

    def action_close(self) -> None:
        self.dismiss(None)
