"""Copying text for the person: OSC 52 through the terminal, and a way out where the terminal
is known to ignore it."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from textual.app import App

# Terminals that ignore OSC 52 (their clipboard is unreachable from an escape sequence).
NO_OSC52 = {"Apple_Terminal": "pbcopy"}


def copy(app: App[object], text: str, what: str) -> None:
    """Put ``text`` on the clipboard and tell the person what happened to ``what``."""
    app.copy_to_clipboard(text)
    program = os.environ.get("TERM_PROGRAM", "")
    command = NO_OSC52.get(program)
    if command is None:
        note = (
            " (inside tmux, `set -g set-clipboard on` lets it through)"
            if "TMUX" in os.environ
            else ""
        )
        app.notify(f"Copied {what} to the clipboard{note}.", timeout=4)
        return
    if _pipe(command, text):
        app.notify(f"Copied {what} to the clipboard ({command}).", timeout=4)
        return
    app.notify(
        f"{program} cannot receive a copy from paw-tui, and {command} failed: open the record "
        "(enter) and select its text with the mouse instead.",
        severity="warning",
        timeout=8,
    )


def _pipe(command: str, text: str) -> bool:
    import subprocess

    try:
        done = subprocess.run([command], input=text.encode("utf-8"), timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0
