"""The intents pane: every intent with its status and holder, filtered as you type."""

from __future__ import annotations

import os
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input, Static

from paw_tui.core.policy.compiled import Policy, load_policy
from paw_tui.tui.messages import IntentHighlighted
from paw_tui.tui.widgets.vim_table import VimDataTable

STATUS_STYLES = {
    "IN_PROGRESS": "bold green",
    "PENDING": "yellow",
    "BLOCKED": "bold red",
    "COMPLETED": "dim",
    "ABANDONED": "dim strike",
}
REFRESH_SECONDS = 1.0


def _signature(root: str) -> tuple[object, ...]:
    """Changes whenever the intents, governance or sessions on disk change."""
    parts: list[object] = []
    for name in ("active_intents.yaml", "governance.yaml"):
        try:
            info = os.stat(os.path.join(root, ".orchestration", name))
            parts.append((info.st_mtime_ns, info.st_size, info.st_ino))
        except OSError:
            parts.append(None)
    sessions = os.path.join(root, ".orchestration", "sessions")
    try:
        parts.append(tuple(sorted((e.name, e.stat().st_mtime_ns) for e in os.scandir(sessions))))
    except OSError:
        parts.append(None)
    return tuple(parts)


class IntentsPane(Vertical):
    BINDINGS = [
        Binding("s", "change_status", "Set status", id="intents.status"),
        Binding("slash", "focus_filter", "Filter", show=False),
    ]

    @dataclass
    class Loaded(Message):
        policy: Policy
        held: dict[str, str]

    def __init__(self, root: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.root = root
        self.policy: Policy | None = None
        self.held: dict[str, str] = {}
        self.filter_text = ""
        self.highlighted: str | None = None
        self.border_title = "Intents"

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter intents…  (/)", id="intent-filter", compact=True)
        yield Static("", id="intent-problems")
        table = VimDataTable(id="intents-table", cursor_type="row", zebra_stripes=True)
        yield table

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("ID", key="id")
        table.add_column("STATUS", key="status")
        table.add_column("NAME", key="name")
        table.add_column("HELD BY", key="held")
        self.reload()
        self.watch_files()

    @work(thread=True, exclusive=True, group="intents-load", exit_on_error=False)
    def reload(self) -> None:
        from paw_tui.core.handshake.sessions import held_intents

        policy = load_policy(self.root)
        import time

        held = held_intents(self.root, time.time(), policy.governance.session_ttl) if policy.valid else {}
        self.post_message(self.Loaded(policy, held))

    @work(thread=True, exclusive=True, group="intents-watch", exit_on_error=False)
    def watch_files(self) -> None:
        import time

        from textual.worker import get_current_worker

        worker = get_current_worker()
        last = _signature(self.root)
        while not worker.is_cancelled:
            for _ in range(int(REFRESH_SECONDS / 0.1)):
                if worker.is_cancelled:
                    return
                time.sleep(0.1)  # short naps: the app's exit does not wait a whole interval
            now = _signature(self.root)
            if now != last:
                last = now
                self.app.call_from_thread(self.reload)

    @on(Loaded)
    def _loaded(self, message: Loaded) -> None:
        self.policy = message.policy
        self.held = message.held
        problems = self.query_one("#intent-problems", Static)
        if not message.policy.valid:
            problems.update("[b red]" + (message.policy.unavailable_reason or "") + "[/]")
            problems.display = True
        elif not message.policy.intents:
            problems.update("No intents: add them to .orchestration/active_intents.yaml.")
            problems.display = True
        else:
            problems.display = False
        self.populate()

    def visible_intents(self) -> list:  # type: ignore[type-arg]
        if self.policy is None:
            return []
        needle = self.filter_text.casefold()
        return [
            intent for intent in self.policy.intents
            if not needle or needle in f"{intent.id} {intent.name} {intent.status} {self.held.get(intent.id, '')}".casefold()
        ]

    def populate(self) -> None:
        from rich.text import Text

        table = self.query_one(DataTable)
        keep = self.highlighted
        table.clear()
        intents = self.visible_intents()
        for intent in intents:
            holder = self.held.get(intent.id, "-")
            table.add_row(
                intent.id,
                Text(intent.status, style=STATUS_STYLES.get(intent.status, "")),
                intent.name if len(intent.name) <= 40 else intent.name[:39] + "…",
                holder if len(holder) <= 14 else holder[:13] + "…",
                key=intent.id,
            )
        ids = [intent.id for intent in intents]
        if ids:
            row = ids.index(keep) if keep in ids else 0
            table.move_cursor(row=row, animate=False)
            self._highlight(ids[row])
        else:
            self._highlight(None)

    def _highlight(self, intent_id: str | None) -> None:
        if intent_id != self.highlighted or intent_id is None:
            self.highlighted = intent_id
            self.post_message(IntentHighlighted(intent_id))

    @on(DataTable.RowHighlighted, "#intents-table")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key is not None and event.row_key.value is not None:
            self._highlight(str(event.row_key.value))

    @on(Input.Changed, "#intent-filter")
    def _filter(self, event: Input.Changed) -> None:
        self.filter_text = event.value.strip()
        self.populate()

    @on(Input.Submitted, "#intent-filter")
    def _filter_done(self) -> None:
        self.query_one(DataTable).focus()

    def action_focus_filter(self) -> None:
        self.query_one("#intent-filter", Input).focus()

    async def action_change_status(self) -> None:
        await self.app.run_action("change_status")  # the app owns the dialogs
