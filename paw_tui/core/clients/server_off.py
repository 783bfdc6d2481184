"""Whether the person turned the paw MCP server off in their client, read on the gate's path.

Without the server the handshake tool does not exist for the model, so every change is denied
and the deny must say how to turn it back on, in that client's words. Each client keeps the
choice somewhere else: Claude Code in ``.claude/settings.local.json``
(``disabledMcpjsonServers``, the answer to "New MCP server found in this project"), Gemini CLI
in its settings (``mcp.excluded`` / ``mcp.allowed``, project or user) and in
``~/.gemini/mcp-server-enablement.json`` (``/mcp disable paw``). Standard library only, no
``re``: read only when a call is about to be denied for want of an intent.
"""

from __future__ import annotations

import os

from paw_tui.core.clients.claude_local import paw_server_declined
from paw_tui.core.support import fastjson as json
from paw_tui.core.support.regular_file import read_regular

SERVER_NAME = "paw"
GEMINI_SETTINGS = os.path.join(".gemini", "settings.json")
GEMINI_ENABLEMENT = os.path.join(".gemini", "mcp-server-enablement.json")
"""Where ``/mcp disable <server>`` records a server turned off, for every project (under the
home folder)."""
HOW_TO_ENABLE = {
    "claude-code": "in Claude Code: /mcp, then paw, then Enable; or run 'paw-tui install claude-code'",
    "gemini-cli": (
        "in Gemini CLI: /mcp enable paw, and remove paw from mcp.excluded in .gemini/settings.json "
        "or ~/.gemini/settings.json if it is listed there"
    ),
}


def _json(path: str) -> object:
    try:
        return json.loads(read_regular(path))
    except (OSError, ValueError):
        return None


def gemini_switches(root: str, home: str) -> list[str]:
    """The files that turn the paw server off in Gemini CLI for ``root``: the project's or the
    user's settings (as ``.gemini/settings.json`` / ``~/.gemini/settings.json``) whose
    ``mcp.excluded`` names it or whose ``mcp.allowed`` leaves it out, and the enablement file
    (its path) when ``/mcp disable paw`` was run; empty when it is on."""
    found: list[str] = []
    for where, base in ((GEMINI_SETTINGS, root), ("~/" + GEMINI_SETTINGS, home)):
        settings = _json(os.path.join(base, GEMINI_SETTINGS))
        mcp = settings.get("mcp") if isinstance(settings, dict) else None
        excluded = mcp.get("excluded") if isinstance(mcp, dict) else None
        allowed = mcp.get("allowed") if isinstance(mcp, dict) else None
        if (isinstance(excluded, list) and SERVER_NAME in excluded) or (
            isinstance(allowed, list) and SERVER_NAME not in allowed
        ):
            found.append(where)
    enablement = os.path.join(home, GEMINI_ENABLEMENT)
    states = _json(enablement)
    state = states.get(SERVER_NAME) if isinstance(states, dict) else None
    if isinstance(state, dict) and state.get("enabled") is False:
        found.append(enablement)
    return found


def how_to_enable(client: str | None, root: str, home: str | None = None) -> str | None:
    """How to turn the paw server back on in ``client`` when the person turned it off in this
    workspace; None when it is on (or the client keeps no such choice we can read)."""
    if client == "claude-code":
        off = paw_server_declined(root)
    elif client == "gemini-cli":
        off = bool(gemini_switches(root, home or os.path.expanduser("~")))
    else:
        return None
    return HOW_TO_ENABLE[client] if off else None
