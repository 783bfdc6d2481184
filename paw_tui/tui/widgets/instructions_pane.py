"""The instructions pane: for an agent and a work item, each instruction layer with the
status that says which one wins, and the exact text ``paw_get_context`` answers."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Input, Select, Static

from paw_tui.core.context.layers import Layer, resolve_layers, work_items
from paw_tui.tui.display import elide_middle, plain, safe, shorten_home
from paw_tui.tui.widgets.pane import Pane

COLUMNS = ("LAYER", "STATUS", "SIZE", "TOKENS", "PATH")


class Picker(Select[str]):
    """A Select built after the first paint (InstructionsPane.build): quitting while it is
    being mounted removes its parts first, and Textual 8.2.8's Select then fails looking
    for them on mount; a picker that lost its parts has nothing to set up."""

    def _on_mount(self, event: events.Mount) -> None:
        # Textual calls each class's handler down the MRO; preventing the default stops it
        # before Select's own
        if not self.query("SelectOverlay"):
            event.prevent_default()


class InstructionsPane(Pane):
    TITLE = "Instructions"
    STOPS = ("#agent-select", "#work-select", "#agent-input", "#layers-table", "#context-scroll")
    COMPONENT_CLASSES = {
        "layer--wins",
        "layer--shadowed",
        "layer--empty",
        "layer--error",
        "layer--missing",
    }
    DEFAULT_CSS = """
    InstructionsPane > .layer--wins { color: $success; text-style: bold; }
    InstructionsPane > .layer--shadowed { color: $warning; }
    InstructionsPane > .layer--empty { color: $text-muted; }
    InstructionsPane > .layer--error { color: $error; text-style: bold; }
    InstructionsPane > .layer--missing { color: $text-muted; }
    """

    @dataclass
    class Resolved(Message):
        agent: str
        work_id: str | None
        rows: list[Layer]
        text: str

    @dataclass
    class Discovered(Message):
        agents: list[str]
        work_items: list[str]

    def __init__(self, root: str, user_dir: str | None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.root = root
        self.user_dir = user_dir
        self.agent: str | None = None
        self.work_id: str | None = None
        self.layer_rows: list[Layer] = []
        self._shown_for: tuple[int, int] | None = None  # (rows, width) on screen

    def compose(self) -> ComposeResult:
        # Nothing yet: the pickers and the table cost a third of the work before the trace's
        # first paint (DESIGN §10), so they are built after it (build).
        return iter(())

    @property
    def built(self) -> bool:
        """Whether every widget the pane's tab stops name is mounted."""
        return all(self.query(selector) for selector in self.STOPS)

    async def build(self) -> None:
        """Mount the pane's widgets, then look for agents and work items (the main screen
        calls this once the trace is painted)."""
        if self.query("#layers-table"):
            return  # built (or being built) already
        table: DataTable[str] = DataTable(id="layers-table", cursor_type="row")
        for label in COLUMNS:
            table.add_column(label)
        await self.mount_all(
            [
                Horizontal(
                    Picker([], prompt="agent", id="agent-select", compact=True),
                    Picker([], prompt="work item", id="work-select", compact=True),
                    id="instructions-pickers",
                ),
                Input(placeholder="or type an agent name", id="agent-input", compact=True),
                table,
                VerticalScroll(Static("", id="context-text", markup=False), id="context-scroll"),
            ]
        )
        self.call_after_refresh(self.discover)  # the pickers composed their own parts by then

    @work(thread=True, exclusive=True, group="instructions-discover", exit_on_error=False)
    def discover(self) -> None:
        from paw_tui.core.context.instructions import agents_in, workspace_instructions_dir

        agents = sorted(
            set(agents_in(workspace_instructions_dir(self.root))) | set(agents_in(self.user_dir)),
            key=str.casefold,
        )
        self.post_message(self.Discovered(agents, work_items(self.root)))

    @on(Discovered)
    def _discovered(self, message: Discovered) -> None:
        agent_select = self.query_one("#agent-select", Select)
        work_select = self.query_one("#work-select", Select)
        if not (agent_select.query("SelectOverlay") and work_select.query("SelectOverlay")):
            return  # the app is closing: the pickers lost their parts
        agent_select.set_options([(plain(name), name) for name in message.agents])
        work_select.set_options([(plain(name), name) for name in message.work_items])
        if message.agents:
            agent_select.value = message.agents[0]
        if message.work_items:
            work_select.value = message.work_items[0]
        if not message.agents:
            self.query_one("#context-text", Static).update(
                "No instruction files in either layer: type an agent name."
            )

    @on(Select.Changed, "#agent-select")
    def _agent_picked(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.agent = event.value
            self.resolve(self.agent, self.work_id)

    @on(Select.Changed, "#work-select")
    def _work_picked(self, event: Select.Changed) -> None:
        self.work_id = event.value if isinstance(event.value, str) else None
        if self.agent:
            self.resolve(self.agent, self.work_id)

    @on(Input.Submitted, "#agent-input")
    @on(Input.Changed, "#agent-input")
    def _agent_typed(self, event: Input.Changed | Input.Submitted) -> None:
        name = event.value.strip()
        if name:
            self.agent = name
            self.resolve(name, self.work_id)

    @work(thread=True, exclusive=True, group="instructions-resolve", exit_on_error=False)
    def resolve(self, agent: str, work_id: str | None) -> None:
        rows, text = resolve_layers(self.root, agent, work_id, self.user_dir)
        self.post_message(self.Resolved(agent, work_id, rows, text))

    @on(Resolved)
    def _resolved(self, message: Resolved) -> None:

        if message.agent != self.agent:
            return
        self.layer_rows = message.rows
        self._shown_for = None
        self.show_layers()
        self.query_one("#context-text", Static).update(message.text)
        self.border_subtitle = safe(message.agent)

    def on_resize(self) -> None:
        if self.built:
            self.call_after_refresh(self.show_layers)  # once the table has its new width

    def show_layers(self) -> None:
        """The layers, each path shortened in its middle to the width left for it."""
        from rich.text import Text

        table = self.query_one("#layers-table", DataTable)
        if self._shown_for == (id(self.layer_rows), table.size.width):
            return  # rebuilding the same rows would only make the table flicker
        self._shown_for = (id(self.layer_rows), table.size.width)
        # the columns too: a column keeps the width of the longest value it ever held
        table.clear(columns=True)
        for label in COLUMNS:
            table.add_column(label)
        cells = []
        for row in self.layer_rows:
            size = "-" if row.size is None else f"{row.size:,} B"
            tokens = "-" if row.tokens is None else f"~{row.tokens:,}"
            cells.append((row, size, tokens, shorten_home(row.path)))
        widths = [
            max([len(heading)] + [len(text) for text in column])
            for heading, column in zip(
                COLUMNS,
                (
                    [c[0].name for c in cells],
                    [c[0].status for c in cells],
                    [c[1] for c in cells],
                    [c[2] for c in cells],
                ),
                strict=False,
            )
        ]
        # each column is padded by one cell on either side
        room = table.size.width - sum(widths) - 2 * len(COLUMNS)
        for row, size, tokens, path in cells:
            status = Text(
                row.status, style=self.get_component_rich_style(f"layer--{row.status.lower()}")
            )
            shown = elide_middle(path, max(12, room)) if table.size.width else path
            table.add_row(row.name, status, size, tokens, plain(shown))
