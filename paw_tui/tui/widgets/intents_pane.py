"""The intents pane: every intent with its status and holder, filtered as you type."""

from __future__ import annotations

from rich.style import Style
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Input, Static

from paw_tui.core.policy.compiled import Policy
from paw_tui.core.support.printable import printable
from paw_tui.tui.display import elide_middle, plain, safe
from paw_tui.tui.messages import IntentHighlighted
from paw_tui.tui.widgets.pane import Pane
from paw_tui.tui.widgets.vim_table import VimDataTable

HOLDER_WIDTH = 8  # a session id's first characters: enough to tell sessions apart
AWAITING = "awaits "  # before the session of a selection pending a person's approval
HELD_WIDTH = len(AWAITING) + HOLDER_WIDTH
NAME_MIN = 12


class IntentsPane(Pane):
    TITLE = "Intents"
    STOPS = ("#intents-table", "#intent-filter")
    FILTER = "#intent-filter"
    COMPONENT_CLASSES = {
        "held--awaiting",
        "status--in-progress",
        "status--pending",
        "status--blocked",
        "status--completed",
        "status--abandoned",
    }
    DEFAULT_CSS = """
    IntentsPane > .held--awaiting { color: $warning; text-style: bold italic; }
    IntentsPane > .status--in-progress { color: $success; text-style: bold; }
    IntentsPane > .status--pending { color: $warning; }
    IntentsPane > .status--blocked { color: $error; text-style: bold; }
    IntentsPane > .status--completed { color: $text-muted; }
    IntentsPane > .status--abandoned { color: $text-muted; text-style: strike; }
    #intent-problems { color: $error; }
    """
    BINDINGS = [
        Binding("n", "screen.new_intent", "New", id="intents.new"),
        Binding("e", "screen.edit_intent", "Edit", id="intents.edit"),
        Binding("s", "screen.change_status", "Set status", id="intents.set_status"),
        Binding("f", "screen.trace_intent", "Its trace", id="intents.trace"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.policy: Policy | None = None
        self.held: dict[str, str] = {}
        self.awaiting: frozenset[str] = frozenset()
        self.filter_text = ""
        self.highlighted: str | None = None
        self._fitted_width = -1  # the table width the names were shortened for

    def compose(self) -> ComposeResult:
        yield Input(placeholder="/ filter intents", id="intent-filter", compact=True)
        yield Static("", id="intent-problems")
        table = VimDataTable(id="intents-table", cursor_type="row", zebra_stripes=True)
        yield table

    def on_mount(self) -> None:
        self._add_columns()

    def _add_columns(self) -> None:
        table = self.query_one(DataTable)
        # NAME last: on a narrow screen it is the one shortened, never the holder
        table.add_column("ID", key="id")
        table.add_column("STATUS", key="status")
        table.add_column("HELD BY", key="held")
        table.add_column("NAME", key="name")

    def on_resize(self) -> None:
        if self.policy is not None:
            self.call_after_refresh(self._refit)  # once the table has its new width

    def _refit(self) -> None:
        width = self.query_one(DataTable).size.width
        if width != self._fitted_width:
            self.populate()

    def show(
        self, policy: Policy, held: dict[str, str], awaiting: frozenset[str] = frozenset()
    ) -> None:
        """The intents as now on disk, which session holds each, and which of them their
        session only awaits (pending approval), from the watcher."""
        self.policy = policy
        self.held = held
        self.awaiting = awaiting
        problems = self.query_one("#intent-problems", Static)
        if not policy.valid:
            problems.update(safe(policy.unavailable_reason or ""))
            problems.display = True
        elif not policy.intents:
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
            intent
            for intent in self.policy.intents
            if not needle
            or needle
            in f"{intent.id} {intent.name} {intent.status} {self._held(intent.id)}".casefold()
        ]

    def _held(self, intent_id: str) -> str:
        """The holder column's text: the session, marked when it only awaits approval."""
        holder = self.held.get(intent_id)
        if holder is None:
            return "-"
        return (AWAITING if intent_id in self.awaiting else "") + holder[:HOLDER_WIDTH]

    def populate(self) -> None:
        from rich.text import Text

        table = self.query_one(DataTable)
        self._fitted_width = table.size.width
        keep = self.highlighted
        # the columns too: a column keeps the width of the longest value it ever held
        table.clear(columns=True)
        self._add_columns()
        intents = self.visible_intents()
        ids_width = max((len(intent.id) for intent in intents), default=2)
        status_width = max((len(intent.status) for intent in intents), default=6)
        # each column is padded by one cell on either side; the scrollbar takes two
        held_width = HELD_WIDTH if self.awaiting else HOLDER_WIDTH
        room = table.size.width - ids_width - status_width - held_width - 4 * 2 - 2
        name_width = max(NAME_MIN, room) if table.size.width else 40
        awaiting_style = self.get_component_rich_style("held--awaiting")
        for intent in intents:
            held = self._held(intent.id)
            table.add_row(
                intent.id,
                Text(intent.status, style=self._status_style(intent.status)),
                Text(printable(held), style=awaiting_style)
                if intent.id in self.awaiting
                else plain(held),
                plain(elide_middle(intent.name, name_width)),
                key=intent.id,
            )
        ids = [intent.id for intent in intents]
        if ids:
            row = ids.index(keep) if keep in ids else 0
            table.move_cursor(row=row, animate=False)
            self._highlight(ids[row])
        else:
            self._highlight(None)

    def _status_style(self, status: str) -> Style:
        return self.get_component_rich_style(f"status--{status.lower().replace('_', '-')}")

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
