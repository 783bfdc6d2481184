"""opencode (through paw-tui's plugin, ``.opencode/plugin/paw-tui.js``): the plugin's events in,
the generic protocol's answer out.

opencode has no command hooks (observed with 1.18.33, ``reference/clients-observed.md`` Part 2):
the plugin, loaded in opencode's process, sends the gate one JSON object per event:
``{"event": "tool.execute.before" | "tool.execute.after" | "chat.message" | "session.end",
"sessionID", "callID", "tool", "args", "prompt", "directory"}`` with opencode's own names and
arguments as the model sent them (a sub-agent's calls under its parent's session: the plugin
maps them). It reads ``{"decision": "allow" | "deny", "reason", "context"}`` back, exit 2 for a
deny (:mod:`~paw_tui.gate.clients.generic`'s answer), and throws the reason to refuse the call.

What opencode's tools look like: ``write {filePath, content}``, ``edit {filePath, oldString,
newString}`` (``filePath`` may be relative to the directory), ``apply_patch {patchText}`` (for
``gpt-*`` models), ``bash {command, workdir}``; MCP tools are ``<server>_<tool>``: paw-tui's
own are read as ``mcp__<server>__<tool>`` (the handshake's form).
"""

from __future__ import annotations

from paw_tui.gate.clients import _common, generic
from paw_tui.gate.events import (
    POST_TOOL,
    PRE_TOOL,
    PROMPT,
    SESSION_END,
    Answer,
    Decision,
    GateEvent,
    PayloadError,
    checked_cwd,
)
from paw_tui.gate.new_text import edit, whole

NAME = "opencode"
NEW_TEXT = {
    "write": whole("content"),
    "edit": edit("newString", every="replaceAll"),
}
"""Where each file tool's input holds its new text (:mod:`paw_tui.gate.new_text`); its
``apply_patch`` is a patch (the catalogue's ``patchText``), whose files get the lines its hunks
leave in them, as every client's patches do."""
EVENT_NAMES = {
    "tool.execute.before": PRE_TOOL,
    "tool.execute.after": POST_TOOL,
    "chat.message": PROMPT,
    "session.end": SESSION_END,
}
MCP_SEPARATORS = "_"
"""How opencode joins an MCP server's name to its tool's (``paw_select_active_intent``)."""


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    name = _common.optional_text(payload, "event")
    kind = EVENT_NAMES.get(name or "")
    if kind is None:
        raise PayloadError(f"unknown opencode plugin event {name!r}")
    kind = _common.check_kind(kind, event_override, str(name)) or kind
    session_id = _common.text(payload, "sessionID")
    cwd = checked_cwd({"cwd": payload.get("directory")})
    event = GateEvent(kind, NAME, session_id, cwd=cwd)
    if kind in (PRE_TOOL, POST_TOOL):
        tool = _common.text(payload, "tool")
        arguments = _common.tool_arguments(payload.get("args"), tool, "args")
        name_read, arguments = tool_call(tool, arguments)
        return _common.set_tool(event, name_read, arguments, payload.get("callID"))
    if kind == PROMPT:
        event.prompt = _common.optional_text(payload, "prompt")
    return event


def tool_call(tool: str, arguments: dict[str, object]) -> tuple[str, dict[str, object]]:
    """The name and input the gate reads a call under: paw's own MCP tools in the handshake's
    form, every other call as opencode sent it (the catalogue reads opencode's own fields,
    ``apply_patch``'s ``patchText`` among them)."""
    split = _common.split_paw_tool(tool, MCP_SEPARATORS)
    if split is not None:
        return _common.mcp_tool(*split), arguments
    return tool, arguments


def render(event: GateEvent, decision: Decision) -> Answer:
    return generic.render(event, decision)


def deny(reason: str) -> Answer:
    return generic.deny(reason)


def context_only(kind: str, text: str) -> Answer:
    return generic.context_only(kind, text)
