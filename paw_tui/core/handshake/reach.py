"""How an agent reaches the handshake tool in its own client, said where it is denied.

Claude Code 2.1.330 and Codex defer MCP tools behind a tool search, Gemini CLI renames them,
and an MCP server may still be starting when the first denial comes. One sentence per client,
appended to the must-cite denial and to the governance section. Standard library only.
"""

from __future__ import annotations

HINTS = {
    "claude-code": (
        "If select_active_intent is not among your tools, load it first with ToolSearch "
        '(query "select:mcp__paw__select_active_intent"); if the paw server is still '
        "connecting, wait a few seconds and search again."
    ),
    "codex": (
        "It is in the mcp__paw namespace: find it with tool_search "
        '(query "select_active_intent") if it is not among your tools.'
    ),
    "gemini-cli": "Your client names it mcp_paw_select_active_intent.",
    "copilot": "Your client names it paw-select_active_intent.",
    "cline": "Your client names it paw__select_active_intent.",
    "opencode": "Your client names it paw_select_active_intent.",
    "qwen-code": (
        'Load it with tool_search (query "select:mcp__paw__select_active_intent"), then call '
        "it through tool_call."
    ),
    "vscode": (
        "Your client names it mcp_paw_select_active_intent; if it is not among your tools, ask "
        "the person to start and trust the paw server (MCP: List Servers)."
    ),
    "cursor": (
        "If it is not among your tools, ask the person to turn on the paw server in Cursor's "
        "MCP settings."
    ),
}
DECLINED = (
    "The paw MCP server is turned off here, so select_active_intent does not exist for you: "
    "ask the person to turn it on ({how})."
)


def handshake_hint(client: str | None, *, server_off: str | None = None) -> str:
    """The sentence for ``client`` ("" when it needs none); ``server_off``: how to turn the
    paw server back on, when the person turned it off."""
    if server_off:
        return DECLINED.format(how=server_off)
    return HINTS.get(client or "", "")
