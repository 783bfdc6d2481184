"""Per-client tool calls for scripts: "write this file", "run this command", "call the probe".

Each client names its tools differently and takes different arguments; these helpers return
the :class:`ToolCall` a real model of that client would emit, plus the names the client then
reports to its hooks. ``kind`` is ``"claude"``, ``"gemini"`` or ``"codex"``.
"""

from __future__ import annotations

from pathlib import Path

from .probes import MCP_SERVER
from .script import ToolCall

# tool_name in the hook payload for a file write and for a shell command
HOOK_WRITE_TOOL = {"claude": "Write", "gemini": "write_file", "codex": "apply_patch"}
HOOK_SHELL_TOOL = {"claude": "Bash", "gemini": "run_shell_command", "codex": "Bash"}
PRE_TOOL_EVENT = {"claude": "PreToolUse", "gemini": "BeforeTool", "codex": "PreToolUse"}
POST_TOOL_EVENT = {"claude": "PostToolUse", "gemini": "AfterTool", "codex": "PostToolUse"}
PROMPT_EVENT = {"claude": "UserPromptSubmit", "gemini": "BeforeAgent", "codex": "UserPromptSubmit"}
# the MCP tool's name as the model calls it and as hooks see it
MCP_TOOL = {
    "claude": f"mcp__{MCP_SERVER}__probe_echo",
    "gemini": f"mcp_{MCP_SERVER}_probe_echo",
    "codex": f"mcp__{MCP_SERVER}__probe_echo",
}


def add_file_patch(relative: str, content: str) -> str:
    """A Codex apply_patch body that creates ``relative`` (paths are relative to the cwd)."""
    lines = content.splitlines() or [""]
    body = "".join(f"+{line}\n" for line in lines)
    return f"*** Begin Patch\n*** Add File: {relative}\n{body}*** End Patch\n"


def write_file(kind: str, workspace: Path, relative: str, content: str) -> ToolCall:
    """Create ``workspace/relative`` with ``content`` through the client's own file tool."""
    if kind == "claude":
        return ToolCall("Write", {"file_path": str(workspace / relative), "content": content})
    if kind == "gemini":
        return ToolCall("write_file", {"file_path": relative, "content": content})
    if kind == "codex":
        return ToolCall("apply_patch", {"input": add_file_patch(relative, content)}, kind="custom")
    raise ValueError(kind)


def shell(kind: str, command: str) -> ToolCall:
    """Run ``command`` through the client's shell tool."""
    if kind == "claude":
        return ToolCall("Bash", {"command": command, "description": "harness shell call"})
    if kind == "gemini":
        return ToolCall(
            "run_shell_command", {"command": command, "description": "harness shell call"}
        )
    if kind == "codex":
        return ToolCall("exec_command", {"cmd": command})
    raise ValueError(kind)


def mcp_echo(kind: str, text: str) -> ToolCall:
    """Call the probe MCP server's ``probe_echo`` directly, by the client's name for it.

    Codex offers MCP tools only through ``tool_search`` (a ``namespace`` tool
    ``mcp__probe`` holding ``probe_echo``), but a namespaced call works without a search.
    """
    if kind == "codex":
        return ToolCall("probe_echo", {"text": text}, namespace=f"mcp__{MCP_SERVER}")
    return ToolCall(MCP_TOOL[kind], {"text": text})


def tool_search(kind: str, query: str) -> ToolCall:
    """Claude's ``ToolSearch`` (2.1.330: ``select:<name>``) or Codex's ``tool_search``."""
    if kind == "claude":
        return ToolCall("ToolSearch", {"query": query, "max_results": 5})
    if kind == "codex":
        return ToolCall("tool_search", {"query": query, "limit": 5}, kind="tool_search")
    raise ValueError(f"{kind} has no tool search")
