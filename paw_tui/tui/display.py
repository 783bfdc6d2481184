"""How paths and agent-written text are shown on screen."""

from __future__ import annotations

import os


def shorten_home(path: str) -> str:
    """``path`` with the user's home directory written as ``~``."""
    home = os.path.expanduser("~")
    if home and home != "/" and (path == home or path.startswith(home.rstrip(os.sep) + os.sep)):
        return "~" + path[len(home.rstrip(os.sep)) :]
    return path
