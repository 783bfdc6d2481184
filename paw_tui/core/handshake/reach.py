"""How an agent reaches paw-tui's tools in its own client, said where it is denied.

Claude Code 2.1.330, Codex and Qwen Code defer MCP tools behind a tool search, and an MCP
server may still be starting when the first denial comes; every client names the tool its own
way (:func:`paw_tui.core.handshake.names.client_tool_name`). One sentence per client, appended
to the must-cite denial and to the governance section. Standard library only.
"""

from __future__ import annotations

from paw_tui.core.handshake.names import SELECT_TOOL, client_tool_name

HINTS = {
    "claude-code": (
        "If {name} is not among your tools, load it first with ToolSearch "
        '(query "select:{name}"); if the paw server is still connecting, wait a few seconds '
        "and search again."
    ),
    "codex": (
        "It is in the mcp__paw namespace: find it with tool_search "
        '(query "select_active_intent") if it is not among your tools.'
    ),
    "qwen-code": (
        'If {name} is not among your tools, load it with tool_search (query "select:{name}"), '
        "then call it through tool_call."
    ),
    "vscode": (
        "If {name} is not among your tools, ask the person to start and trust the paw server "
        "(MCP: List Servers)."
    ),
    "cursor": (
        "If it is not among your tools, ask the person to turn on the paw server in Cursor's "
        "MCP settings."
    ),
}
"""Only for clients that hide or defer the tool: elsewhere its name in the sentence suffices."""
DECLINED = (
    "The paw MCP server is turned off here, so {name} does not exist for you: "
    "ask the person to turn it on ({how})."
)


def handshake_hint(client: str | None, *, server_off: str | None = None) -> str:
    """The sentence for ``client`` ("" when it needs none); ``server_off``: how to turn the
    paw server back on, when the person turned it off."""
    name = client_tool_name(client, SELECT_TOOL)
    if server_off:
        return DECLINED.format(name=name, how=server_off)
    return HINTS.get(client or "", "").format(name=name)
