"""The shape of a person's decision on a pending request: yes (y), no (n) or later (escape).

Intent selections (:mod:`.approval`) and scope requests (:mod:`.scope_request`) are decided
the same way (DESIGN §11); each says what it shows and what its keys are called.

No key typed before the modal was on screen can decide it. Keys already on their way (typed
into a field a moment before the modal opened, queued while the app was busy) carry the time
they were pressed: until :data:`ARM_DELAY` after the modal's first paint, every key but
``escape`` (which decides nothing) is set aside, and the yes / no buttons stay disabled. A
time, not a count of keys: a person cannot read a request and answer it faster than that,
and however long a key waited in the queue, its time says when it was typed. The safe
default, "Later", has the focus.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Label, Static

from paw_tui.tui.attention import now

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.tui.controllers.request_facts import RequestFacts

ARM_DELAY = 0.6
"""Seconds after the modal is first painted before a key can decide it."""
AGE_REFRESH = 15.0
"""Seconds between refreshes of "asked N min ago"."""
SAFE_KEYS = frozenset({"escape"})
WAIT_NOTE = "Read the request: y and n work in a moment."
IGNORED_NOTE = "Ignored {key!r}: it was typed before this request was on screen."


class DecisionModal(ModalScreen[bool | None]):
    """Result: True yes, False no, None leave the request pending."""

    TITLE_TEXT: ClassVar[str] = ""
    YES_LABEL: ClassVar[str] = "Approve"
    NO_LABEL: ClassVar[str] = "Reject"
    AUTO_FOCUS = "#later"  # the safe default: nothing decided

    armed: reactive[bool] = reactive(False)
    """Whether a key or a click may decide now."""

    def __init__(self, facts: RequestFacts, clock: Callable[[], float]) -> None:
        super().__init__()
        self.facts = facts
        self.request_id = facts.request_id
        self.clock = clock
        self.armed_at = float("inf")  # on Textual's event clock, once painted
        self.ignored: list[str] = []  # keys set aside, for the person and the tests

    def body(self, now_seconds: float) -> str:
        """Markup: the request as a person reads it."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        # The ids are the approval dialog's, so every decision dialog shares one style.
        with Vertical(id="approval-dialog"):
            yield Label(self.TITLE_TEXT, id="approval-title")
            with VerticalScroll(id="approval-context"):
                yield Static(self.body(self.clock()), id="approval-summary")
            yield Static(WAIT_NOTE, id="decision-note")
            with Horizontal(id="approval-buttons"):
                yield Button(
                    f"{self.YES_LABEL} (y)", variant="success", id="approve", disabled=True
                )
                yield Button(f"{self.NO_LABEL} (n)", variant="error", id="reject", disabled=True)
                yield Button("Later (esc)", id="later")
        yield Footer()

    def on_mount(self) -> None:
        self.call_after_refresh(self._painted)
        self.set_interval(AGE_REFRESH, self._refresh_age)

    def _painted(self) -> None:
        self.armed_at = now() + ARM_DELAY
        self.set_timer(ARM_DELAY, self._arm)

    def _arm(self) -> None:
        self.armed = True

    def watch_armed(self, armed: bool) -> None:
        if not self.is_mounted:
            return
        for button in self.query("#approve, #reject").results(Button):
            button.disabled = not armed
        if armed and not self.ignored:
            self.query_one("#decision-note", Static).update("")

    def _refresh_age(self) -> None:
        self.query_one("#approval-summary", Static).update(self.body(self.clock()))

    def on_key(self, event: events.Key) -> None:
        """Set aside every key typed before the modal could be read (it bubbles here from
        the focused button, before the app looks up a binding for it)."""
        if event.key in SAFE_KEYS or event.time >= self.armed_at:
            return
        event.stop()
        event.prevent_default()
        self.ignored.append(event.key)
        self.query_one("#decision-note", Static).update(IGNORED_NOTE.format(key=event.key))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"approve": True, "reject": False}.get(event.button.id or ""))

    def action_decide(self, value: bool | None) -> None:
        if value is not None and now() < self.armed_at:
            return  # not from a key (those are set aside above): the palette, a script
        self.dismiss(value)
