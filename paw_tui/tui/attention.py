"""Whether the person is in the middle of something a request must not interrupt.

A request that arrives while a text field has the focus, or while the person is typing, does
not take the focus (DESIGN §11): its modal would receive the keys meant for the field, and a
"y" of "yes" would approve it. The app notes every key it is sent (:meth:`Attention.note_key`);
the decision queues ask :meth:`Attention.busy` before they show a modal, and wait while it
holds. Free of the screens, so any of them may ask.
"""

from __future__ import annotations

import sys
from typing import Any

from textual import _time  # the clock Textual stamps events with (monotonic; Windows: perf_counter)
from textual.widgets import Input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

TYPING_QUIET = 1.0
"""Seconds without a key press after which the person is no longer typing."""


def now() -> float:
    """The time on the clock of Textual's events (``Message.time``)."""
    return _time.get_time()


def is_text_field(widget: Widget | None) -> bool:
    if isinstance(widget, Input):
        return True
    # TextArea only where a form imported it: importing it here would slow the first paint
    text_area = sys.modules.get("textual.widgets._text_area")
    return text_area is not None and isinstance(widget, text_area.TextArea)


class Attention:
    """The time of the last key the person pressed."""

    __slots__ = ("last_key",)

    def __init__(self) -> None:
        self.last_key = float("-inf")

    def note_key(self, at: float) -> None:
        self.last_key = max(self.last_key, at)

    def typing(self) -> bool:
        return now() - self.last_key < TYPING_QUIET

    def busy(self, app: App[Any]) -> str | None:
        """Why a request must wait now (a sentence), or None."""
        if is_text_field(app.focused):
            return "a text field has the focus"
        if self.typing():
            return "you are typing"
        return None
