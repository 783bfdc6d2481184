"""The help screen (``?``): every key by where it acts, with the id a keymap file uses."""

from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

KEYS_WIDTH = 14
WHAT_WIDTH = 22


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "close", "Close", id="help.close")]

    def compose(self) -> ComposeResult:
        from paw_tui.tui.keys import key_rows
        from paw_tui.tui.settings import keymap_path

        app = self.app
        keymap = dict(getattr(app, "_keymap", {}))
        rows = key_rows(app, keymap)
        with Vertical(classes="dialog", id="help-dialog"):
            yield Label("Keys  (escape closes)", id="help-title")
            with VerticalScroll(id="help-body"):
                section = None
                lines: list[str] = []
                for row in rows:
                    if row.section != section:
                        if lines:
                            yield Static("\n".join(lines), classes="help-section")
                        section = row.section
                        lines = [f"[b $accent]{escape(row.section)}[/]"]
                    ident = f"  [$text-muted]{escape(row.binding_id)}[/]" if row.binding_id else ""
                    keys = escape(row.keys.ljust(KEYS_WIDTH))
                    what = escape(row.description.ljust(WHAT_WIDTH))
                    lines.append(f"  [b]{keys}[/b] {what}{ident}")
                if lines:
                    yield Static("\n".join(lines), classes="help-section")
                yield Static(
                    f"[$text-muted]Remap keys in {escape(keymap_path())}, one "
                    "'binding.id: keys' line each (for example  trace.tail: T).[/]",
                    id="help-keymap",
                )

    def action_close(self) -> None:
        self.dismiss(None)
