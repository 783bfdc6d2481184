"""The tools paw-tui's own MCP server offers, each client's name for them, and how a client's
name for one is recognised.

A client names an MCP tool after its server: Claude Code, Codex and Qwen Code
``mcp__<server>__<tool>``, Gemini CLI and VS Code ``mcp_<server>_<tool>``, Copilot CLI
``<server>-<tool>``, Cline ``<server>__<tool>``, opencode ``<server>_<tool>``
(clients-observed.md). Whatever the server is called, a name that ends in the tool's own name
after such a prefix is that tool (DESIGN §6). The names a model is *told* to call use the
server ``paw-tui install`` writes (:data:`SERVER`). Standard library only.
"""

from __future__ import annotations

SELECT_TOOL = "select_active_intent"
"""The handshake: performed by the gate at PreToolUse for the payload's session."""
REQUEST_SCOPE_TOOL = "request_scope_expansion"
"""A request to widen the held intent's scope: filed by the gate, decided by a human."""
READ_ONLY_TOOLS = ("paw_get_context", "list_intents", "check_scope", "get_handoff_context")
SERVER = "paw"
"""The name every ``paw-tui install`` gives paw-tui's MCP server."""
CLIENT_NAMES = {
    "claude-code": "mcp__{server}__{tool}",
    "codex": "mcp__{server}__{tool}",
    "qwen-code": "mcp__{server}__{tool}",
    "gemini-cli": "mcp_{server}_{tool}",
    "vscode": "mcp_{server}_{tool}",
    "copilot": "{server}-{tool}",
    "cline": "{server}__{tool}",
    "opencode": "{server}_{tool}",
}
"""How each client names an MCP server's tool to its model; a client not here (the generic
protocol, Cursor, Windsurf, Kiro) is told the plain name."""


def client_tool_name(client: str | None, tool: str) -> str:
    """What ``client``'s model calls paw-tui's ``tool`` (``paw-select_active_intent``)."""
    form = CLIENT_NAMES.get(client or "")
    return form.format(server=SERVER, tool=tool) if form else tool


def named(tool: str, name: str) -> bool:
    """``tool`` is ``name``, or an MCP server's ``name`` in any client's naming."""
    if tool == name or tool.endswith("__" + name):
        return True
    return tool.startswith("mcp_") and tool.endswith("_" + name) and len(tool) > len(name) + 5
