"""A yes/no confirmation, focused on "No"."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Label, OptionList


class ConfirmModal(ModalScreen[bool]):
    AUTO_FOCUS = "#no"
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, markup=False)  # it may name an agent's session
            with Horizontal(classes="dialog-buttons"):
                yield Button("Yes (y)", variant="warning", id="yes")
                yield Button("No (n)", id="no")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class ChoiceModal(ModalScreen[str | None]):
    """Pick one of ``choices`` (enter), or escape for none; the list starts on ``current``
    (a status chooser starts on the status the intent has)."""

    AUTO_FOCUS = "#choices"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="choice.cancel")]

    def __init__(self, title: str, choices: list[str], *, current: str | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text)
            options = OptionList(*self.choices, id="choices")
            if self.current in self.choices:
                options.highlighted = self.choices.index(self.current)
            yield options
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)
