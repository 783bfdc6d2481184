"""The header line: the workspace, the shell protection in force, and how many requests wait
for the person. What waits is never cut off: the path gives way first, then the words around
the protection (DESIGN §11)."""

from __future__ import annotations

from paw_tui.tui.display import ELLIPSIS, elide_middle

SEPARATOR = " · "
TITLE = "paw-tui"
# Textual's header: an icon (8 cells), the clock's space (10) and " — " after the title.
HEADER_CHROME = 8 + 10 + len(" — ")
WAITING_MARK = "⏵ "


def waiting_text(waiting: int) -> str:
    return f"{WAITING_MARK}{waiting:,} waiting (a)" if waiting else ""


def subtitle(path: str, shell: str, waiting: int, width: int) -> str:
    """The sub-title for a header ``width`` cells wide."""
    room = width - HEADER_CHROME - len(TITLE)
    waits = waiting_text(waiting)
    for protection in (f"shell: {shell}", shell, ""):
        tail = SEPARATOR.join(part for part in (protection, waits) if part)
        left = room - len(tail) - (len(SEPARATOR) if tail else 0)
        if left >= min(len(path), 8):  # all of the path, or enough of it to recognise
            return SEPARATOR.join(part for part in (elide_middle(path, left), tail) if part)
    return waits or ELLIPSIS
