"""The tools paw-tui's own MCP server offers, and how a client's name for one is recognised.

A client names an MCP tool after its server: Claude Code and Codex ``mcp__<server>__<tool>``,
Gemini CLI ``mcp_<server>_<tool>``. Whatever the server is called, a name that ends in the
tool's own name after such a prefix is that tool (DESIGN §6). Standard library only.
"""

from __future__ import annotations

SELECT_TOOL = "select_active_intent"
"""The handshake: performed by the gate at PreToolUse for the payload's session."""
REQUEST_SCOPE_TOOL = "request_scope_expansion"
"""A request to widen the held intent's scope: filed by the gate, decided by a human."""
READ_ONLY_TOOLS = ("paw_get_context", "list_intents", "check_scope", "get_handoff_context")


def named(tool: str, name: str) -> bool:
    """``tool`` is ``name``, or an MCP server's ``name`` in any client's naming."""
    if tool == name or tool.endswith("__" + name):
        return True
    return tool.startswith("mcp_") and tool.endswith("_" + name) and len(tool) > len(name) + 5
