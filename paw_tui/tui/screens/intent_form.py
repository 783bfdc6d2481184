"""The intent form (``n`` new, ``e`` the highlighted intent; DESIGN §11): every field of an
intent, a live preview of what the scope patterns cover, and a save that goes through the
core's validated, recorded edit (:mod:`paw_tui.tui.authoring`). A refusal is shown in the
form, the fields it names marked, and nothing is saved.

Every key typed here is text: the form's own keys are ctrl+s (save) and escape (cancel).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Button, Footer, Input, Label, Select, Static, TextArea

from paw_tui.core.intents.drafts import IntentDraft
from paw_tui.core.intents.model import SELECTABLE, STATUSES
from paw_tui.core.support.printable import printable
from paw_tui.tui.authoring import (
    field_of_problem,
    preview_patterns,
    proposed_id,
    save_intent,
)
from paw_tui.tui.display import safe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.intents.model import Intent
    from paw_tui.core.intents.scope_preview import ScopePreview
    from paw_tui.core.policy.compiled import Policy

PREVIEW_PAUSE = 0.15
"""Seconds of quiet typing before the scope's preview is worked out again."""
LIST_FIELDS = ("scope", "constraints", "criteria")


class IntentForm(ModalScreen[str | None]):
    """Result: the id of the intent saved, or None (cancelled)."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="form.save"),
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
    ]
    AUTO_FOCUS = "#form-name"

    @dataclass
    class Previewed(Message):
        patterns: tuple[str, ...]
        preview: ScopePreview

    @dataclass
    class Refused(Message):
        problems: list[str]

    def __init__(self, root: str, policy: Policy, intent: Intent | None = None) -> None:
        super().__init__()
        self.root = root
        self.policy = policy
        self.intent = intent  # None: a new intent
        self._preview_timer: Timer | None = None
        self.saving = False

    @property
    def editing(self) -> bool:
        return self.intent is not None

    # -- the form ----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        intent = self.intent
        statuses = STATUSES if intent is not None else SELECTABLE
        status = intent.status if intent is not None else "PENDING"
        title = f"Edit intent {intent.id}" if intent is not None else "New intent"
        with Vertical(id="form-dialog"):
            yield Label(f"{title}  (ctrl+s saves, escape cancels)", id="form-title")
            with VerticalScroll(id="form-body"):
                yield Label("id")
                yield Input(
                    intent.id if intent is not None else proposed_id(self.policy),
                    id="form-id",
                    compact=True,
                    disabled=intent is not None,  # sessions and the ledger refer to it
                )
                yield Label("name")
                yield Input(intent.name if intent else "", id="form-name", compact=True)
                yield Label("description")
                yield Input(
                    intent.description if intent else "", id="form-description", compact=True
                )
                yield Label("owned_scope: one pattern a line (gitignore syntax, from the root)")
                yield self._lines("form-scope", intent.owned_scope if intent else [])
                yield Static("", id="form-preview")
                yield Label("constraints: one a line")
                yield self._lines("form-constraints", intent.constraints if intent else [])
                yield Label("acceptance criteria: one a line")
                yield self._lines("form-criteria", intent.acceptance_criteria if intent else [])
                yield Label("depends_on: intent ids, separated by spaces or commas")
                yield Input(
                    " ".join(intent.depends_on) if intent else "", id="form-depends", compact=True
                )
                yield Label("status")
                yield Select(
                    [(s, s) for s in statuses],
                    value=status,
                    allow_blank=False,
                    id="form-status",
                    compact=True,
                )
            yield Static("", id="form-error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save (ctrl+s)", variant="primary", id="form-save")
                yield Button("Cancel (esc)", id="form-cancel")
        yield Footer()

    @staticmethod
    def _lines(widget_id: str, values: list[str]) -> TextArea:
        area = TextArea("\n".join(values), id=widget_id, compact=True, soft_wrap=False)
        area.show_line_numbers = False
        return area

    def on_mount(self) -> None:
        self.query_one("#form-error", Static).display = False
        self._schedule_preview()

    def fields(self) -> IntentDraft:
        """What the form holds (list fields one item a line, as typed); the form does not
        show ``related_specs``, which the save keeps."""

        def text(widget_id: str) -> str:
            return self.query_one(f"#{widget_id}", Input).value

        def lines(widget_id: str) -> tuple[str, ...]:
            return tuple(self.query_one(f"#{widget_id}", TextArea).text.split("\n"))

        status = self.query_one("#form-status", Select).value
        return IntentDraft(
            id=text("form-id"),
            name=text("form-name"),
            description=text("form-description"),
            owned_scope=lines("form-scope"),
            constraints=lines("form-constraints"),
            acceptance_criteria=lines("form-criteria"),
            depends_on=tuple(text("form-depends").replace(",", " ").split()),
            status=status if isinstance(status, str) else "PENDING",
        )

    # -- the scope's preview -----------------------------------------------------------------
    @on(TextArea.Changed, "#form-scope")
    def _scope_typed(self) -> None:
        self._schedule_preview()

    def _schedule_preview(self) -> None:
        if self._preview_timer is not None:
            self._preview_timer.stop()
        self._preview_timer = self.set_timer(PREVIEW_PAUSE, self._start_preview)

    def _start_preview(self) -> None:
        self._preview_timer = None
        self.preview(self.fields().owned_scope)

    @work(thread=True, exclusive=True, group="form-preview", exit_on_error=False)
    def preview(self, patterns: tuple[str, ...]) -> None:
        self.post_message(self.Previewed(patterns, preview_patterns(self.root, patterns)))

    @on(Previewed)
    def _previewed(self, message: Previewed) -> None:
        if message.patterns != self.fields().owned_scope:
            return  # typed on since: a newer preview follows
        preview = message.preview
        lines = [f"[$text-muted]covers[/] {safe(preview.summary())}"]
        lines += [f"[b $warning]⚠ {safe(flag)}[/]" for flag in preview.flags]
        self.query_one("#form-preview", Static).update("\n".join(lines))

    # -- saving ------------------------------------------------------------------------------
    def action_save(self) -> None:
        if self.saving:
            return
        self.saving = True
        self.query_one("#form-save", Button).disabled = True
        self.save(self.fields(), self.intent.id if self.intent is not None else None)

    @work(thread=True, exclusive=True, group="form-save", exit_on_error=False)
    def save(self, fields: IntentDraft, editing: str | None) -> None:
        problems, told = save_intent(self.root, fields, editing)
        if problems:
            self.post_message(self.Refused(problems))
            return
        self.app.call_from_thread(self.notify, printable(told), markup=False)
        self.app.call_from_thread(self.dismiss, fields.id.strip())

    @on(Refused)
    def _refused(self, message: Refused) -> None:
        self.saving = False
        self.query_one("#form-save", Button).disabled = False
        for widget in self.query(".-invalid"):
            widget.remove_class("-invalid")
        named = {field_of_problem(problem) for problem in message.problems}
        for field in named - {None}:
            self.query_one(f"#form-{field}").add_class("-invalid")
        error = self.query_one("#form-error", Static)
        lines = [f"[b]Not saved[/b] ({len(message.problems)} to fix; nothing was written):"]
        lines += [f"• {safe(problem)}" for problem in message.problems]
        error.update("\n".join(lines))
        error.display = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "form-save":
            self.action_save()
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        self.dismiss(None)
