"""What Claude Code's machine-local settings say about paw-tui, read on the gate's path.

``.claude/settings.local.json`` keeps the person's answer to "New MCP server found in this
project: paw" (``enabledMcpjsonServers`` / ``disabledMcpjsonServers``). Standard library only,
and no ``re``: the gate reads this when it is about to deny a call for want of an intent.
"""

from __future__ import annotations

import os

from paw_tui.core.support import fastjson as json
from paw_tui.core.support.regular_file import read_regular

LOCAL_SETTINGS = os.path.join(".claude", "settings.local.json")
SERVER_NAME = "paw"


def paw_server_declined(root: str) -> bool:
    """Whether the person declined the project's ``paw`` MCP server."""
    try:
        data = json.loads(read_regular(os.path.join(root, LOCAL_SETTINGS)))
    except (OSError, ValueError):
        return False
    disabled = data.get("disabledMcpjsonServers") if isinstance(data, dict) else None
    return isinstance(disabled, list) and SERVER_NAME in disabled
