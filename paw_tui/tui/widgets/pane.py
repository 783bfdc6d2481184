"""What the four panes share: a title that marks focus by more than colour, zoom, and the
widgets that ``tab`` stops at."""

from __future__ import annotations

from typing import ClassVar

from textual.containers import Vertical

FOCUS_MARK = "▶ "
ZOOMED = " · zoomed (z or escape: back)"


class Pane(Vertical):
    """A titled pane. ``STOPS`` are the selectors of its widgets that ``tab`` reaches, in
    order (every field and every scrollable region); the first is where the pane's focus
    lands; ``FILTER`` is the field ``/`` goes to (None: the trace filter)."""

    ALLOW_MAXIMIZE = True  # containers refuse it by default; `z` zooms a whole pane
    TITLE: ClassVar[str] = ""
    STOPS: ClassVar[tuple[str, ...]] = ()
    FILTER: ClassVar[str | None] = None

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = self.TITLE

    def mark_focus(self, focused: bool, *, zoomed: bool = False) -> None:
        """Show (or stop showing) that the focus is in this pane, and how to leave a zoom."""
        mark = FOCUS_MARK if focused else ""
        self.border_title = mark + self.TITLE + (ZOOMED if zoomed else "")
        self.set_class(focused, "-focused")
