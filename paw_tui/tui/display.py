"""How paths and agent-written text are shown on screen."""

from __future__ import annotations

import os

from rich.text import Text

from paw_tui.core.support.printable import printable

ELLIPSIS = "…"


def safe(text: object) -> str:
    """Text from a file, an agent or the keyboard for inside Textual markup: control
    characters escaped and every ``[`` escaped. (``rich.markup.escape`` leaves a ``[`` that
    does not look like a tag, such as the ``[2J`` of an escaped ``\\x1b[2J``; Textual's
    parser reads it as the start of one, and a later tag then stops the app.)"""
    return printable(str(text)).replace("[", "\\[")


def plain(text: str) -> Text:
    """Text from a file or an agent (a session id, a work item's folder, a path) for a table
    cell or a picker, which read a ``str`` as markup: shown as written, control characters
    escaped (a session id ``[/]`` would otherwise stop the app with a markup error)."""
    return Text(printable(text))


def shorten_home(path: str) -> str:
    """``path`` with the user's home directory written as ``~``."""
    home = os.path.expanduser("~")
    if home and home != "/" and (path == home or path.startswith(home.rstrip(os.sep) + os.sep)):
        return "~" + path[len(home.rstrip(os.sep)) :]
    return path


def elide_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters; a path keeps its file name whole when it fits
    (``src/acme…/auth/token.py``), anything else loses its middle."""
    if len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    name = text.rsplit("/", 1)[-1]
    budget = width - 1
    tail = min(len(text), max(len(name) + 1 if "/" in text else 0, budget // 2))
    if tail >= budget:  # the name alone is too long: keep its end (the extension)
        return ELLIPSIS + text[len(text) - budget :]
    return text[: budget - tail] + ELLIPSIS + text[len(text) - tail :]


def ago(seconds: float) -> str:
    """How long ago, in the words a person reads at a glance (``just now``, ``5 min ago``,
    ``2 h 10 min ago``, ``3 days ago``); coarse on purpose, so a picture of the screen is
    the same a few seconds later."""
    if seconds < 60:
        return "just now"
    minutes = int(seconds // 60)
    if minutes < 60:
        return f"{minutes} min ago"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} min ago" if minutes else f"{hours} h ago"
    days = hours // 24
    return "1 day ago" if days == 1 else f"{days} days ago"
