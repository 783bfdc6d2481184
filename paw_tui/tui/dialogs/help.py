"""The help screen (``?``): every key by where it acts, with the id a keymap file uses.

It is handed its rows (:func:`paw_tui.tui.keys.key_rows` builds them from every screen's real
bindings), so it needs nothing of the modules that list the screens it is one of."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from paw_tui.tui.display import safe

KEYS_WIDTH = 14
WHAT_WIDTH = 22


@dataclass(frozen=True)
class KeyRow:
    section: str
    keys: str  # as the person presses them, after their keymap
    description: str
    binding_id: str | None  # what keymap.yaml names (None: not remappable)


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "close", "Close", id="help.close")]

    def __init__(self, rows: Sequence[KeyRow], keymap_file: str) -> None:
        super().__init__()
        self.rows = list(rows)
        self.keymap_file = keymap_file

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help-dialog"):
            yield Label("Keys  (escape closes)", id="help-title")
            with VerticalScroll(id="help-body"):
                section = None
                lines: list[str] = []
                for row in self.rows:
                    if row.section != section:
                        if lines:
                            yield Static("\n".join(lines), classes="help-section")
                        section = row.section
                        lines = [f"[b $accent]{safe(row.section)}[/]"]
                    ident = f"  [$text-muted]{safe(row.binding_id)}[/]" if row.binding_id else ""
                    keys = safe(row.keys.ljust(KEYS_WIDTH))
                    what = safe(row.description.ljust(WHAT_WIDTH))
                    lines.append(f"  [b]{keys}[/b] {what}{ident}")
                if lines:
                    yield Static("\n".join(lines), classes="help-section")
                yield Static(
                    f"[$text-muted]Remap keys in {safe(self.keymap_file)}, one "
                    "'binding.id: keys' line each (for example  trace.tail: T).[/]",
                    id="help-keymap",
                )
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
