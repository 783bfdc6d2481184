"""An act of the person's that was not done (DESIGN §7): the reason stays on screen until it
is dismissed. A notification would fade while the person looked elsewhere, and they would
believe a status was changed or a request approved when nothing was."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Label, Static

from paw_tui.tui.display import safe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from textual.app import App

TITLE = "Not done"


class ActFailed(ModalScreen[None]):
    AUTO_FOCUS = "#dismiss"
    BINDINGS = [Binding("escape,enter", "close", "Dismiss", id="failed.dismiss")]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="failed-dialog"):
            yield Label(TITLE, id="failed-title")
            yield Static(safe(self.message), id="failed-message")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Dismiss (enter)", id="dismiss")
        yield Footer()

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


def report_failure(app: App[Any], message: str) -> None:
    """Show ``message`` until the person dismisses it (stacked when several fail)."""
    app.push_screen(ActFailed(message))
