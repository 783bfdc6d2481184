"""Cursor hooks (``.cursor/hooks.json``, version 1): Cursor's payloads in, Cursor's JSON out.

Sources (cursor.com/docs/hooks, mirrored in mehmetbaykar/cursor-docs-skill
``skills/cursor-docs/references/hooks.md``): every payload carries ``conversation_id`` (the
session; ``sessionStart`` repeats it as ``session_id``), ``hook_event_name`` and
``workspace_roots``. ``preToolUse`` fires for every tool (``Shell``, ``Read``, ``Write``,
``Delete``, ``Task``, ``MCP:<tool>``) with ``tool_name``, ``tool_input`` and ``tool_use_id``;
``beforeShellExecution`` carries ``command`` and ``cwd``; ``beforeMCPExecution`` ``tool_name``
and ``tool_input`` as JSON text.

Answers: a permission event always prints a JSON object. With ``failClosed`` set, Cursor
treats empty output as a failed hook and blocks the call (reported in deftai/directive#2779,
aovestdipaperino/tokensave#187, stablyai/orca#15462), so an allow is
``{"permission":"allow"}``. A deny is ``{"permission":"deny","user_message","agent_message"}``
*and* exit 2 with the reason on stderr (the documented pairing: either blocks).
``sessionStart`` takes ``additional_context``; ``beforeSubmitPrompt`` cannot inject context and
is answered ``{"continue": true}``, never blocked; ``postToolUse`` takes ``additional_context``.
"""

from __future__ import annotations

from paw_tui.gate.clients import _common
from paw_tui.gate.events import (
    DEFAULT_DENY_REASON,
    POST_TOOL,
    PRE_TOOL,
    PROMPT,
    SESSION_END,
    SESSION_START,
    Answer,
    Decision,
    GateEvent,
    PayloadError,
    checked_cwd,
)
from paw_tui.gate.new_text import NewText

NAME = "cursor"
NEW_TEXT = {
    "Write": NewText(content=("contents", "content"), edits="edits", fragment=("new_string",)),
}
"""Where each file tool's input holds its new text (:mod:`paw_tui.gate.new_text`): a
postToolUse ``Write`` carries the whole ``contents``, an afterFileEdit its ``edits``."""
EVENT_NAMES = {
    "preToolUse": PRE_TOOL,
    "beforeShellExecution": PRE_TOOL,
    "beforeMCPExecution": PRE_TOOL,
    "beforeReadFile": PRE_TOOL,
    "postToolUse": POST_TOOL,
    "afterFileEdit": POST_TOOL,
    "sessionStart": SESSION_START,
    "beforeSubmitPrompt": PROMPT,
    "sessionEnd": SESSION_END,
}
DEFAULT_EVENT = {
    PRE_TOOL: "preToolUse",
    POST_TOOL: "postToolUse",
    SESSION_START: "sessionStart",
    PROMPT: "beforeSubmitPrompt",
    SESSION_END: "sessionEnd",
}
"""The payload shape to read when a payload names no event but ``--event`` does."""
IGNORED_EVENTS = frozenset(
    {
        "postToolUseFailure",
        "subagentStart",
        "subagentStop",
        "afterShellExecution",
        "afterMCPExecution",
        "afterAgentResponse",
        "afterAgentThought",
        "preCompact",
        "stop",
        "beforeTabFileRead",
        "afterTabFileEdit",
        "workspaceOpen",
    }
)
MCP_SERVER = "cursor"
"""The server part of an MCP tool's name when Cursor does not say which server it is
(``preToolUse`` names MCP tools ``MCP:<tool>``)."""


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    found = _common.hook_event(
        payload,
        "hook_event_name",
        event_override,
        EVENT_NAMES,
        DEFAULT_EVENT,
        IGNORED_EVENTS,
        "Cursor",
    )
    if found is None:
        return None
    name, kind = found
    # conversation_id is the session on every event; sessionStart/End also call it session_id
    session_id = _common.first_of(payload, "conversation_id", "session_id")
    if session_id is None:
        raise PayloadError("the payload has no conversation_id")
    cwd = checked_cwd(payload) or _common.first_root(payload, "workspace_roots")
    event = GateEvent(kind, NAME, session_id, cwd=cwd)
    if name == "beforeShellExecution":
        command = payload.get("command")
        return _common.set_tool(event, "Shell", {"command": command})
    if name == "beforeMCPExecution":
        tool = _common.text(payload, "tool_name")
        server = _common.optional_text(payload, "mcp_server_name") or MCP_SERVER
        arguments = _common.tool_arguments(payload.get("tool_input"), tool, "tool_input")
        return _common.set_tool(event, _common.mcp_tool(server, tool), arguments)
    if name in ("beforeReadFile", "afterFileEdit"):
        path = payload.get("file_path")
        tool_input: dict[str, object] = {"file_path": path}
        if name == "afterFileEdit" and isinstance(payload.get("edits"), list):
            tool_input["edits"] = payload["edits"]
        return _common.set_tool(event, "Read" if name == "beforeReadFile" else "Write", tool_input)
    if kind in (PRE_TOOL, POST_TOOL):
        return _read_tool_call(payload, event)
    if kind == PROMPT:
        event.prompt = _common.optional_text(payload, "prompt")
    elif kind == SESSION_START:
        event.source = "startup"
    return event


def _read_tool_call(payload: dict[str, object], event: GateEvent) -> GateEvent:
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or not tool.strip():
        # Some Cursor builds send preToolUse without tool_name (deftai/directive#2628, #2669):
        # what the call would change cannot be told, so it is denied, saying so.
        raise PayloadError(
            "the payload has no tool_name (some Cursor builds omit it), so what this call "
            "would change cannot be told"
        )
    arguments = _common.tool_arguments(payload.get("tool_input"), tool, "tool_input")
    _common.set_tool(event, _tool_name(tool), arguments, payload.get("tool_use_id"))
    directory = arguments.get("working_directory")
    if tool == "Shell" and event.command_cwd is None and isinstance(directory, str):
        # The Shell tool names its directory in working_directory (docs' preToolUse example);
        # the catalogue does not say so yet, and a relative write must be placed where it runs.
        event.command_cwd = directory
    return event


def _tool_name(tool: str) -> str:
    """Cursor's ``MCP:<tool>`` as ``mcp__<server>__<tool>``: the handshake recognises that form,
    and no catalogued native tool name can be taken by an MCP tool."""
    if not tool.startswith("MCP:"):
        return tool
    name = tool[4:].strip() or tool
    split = _common.split_paw_tool(name)
    return _common.mcp_tool(*split) if split else _common.mcp_tool(MCP_SERVER, name)


def deny(reason: str) -> Answer:
    body = {"permission": "deny", "user_message": reason, "agent_message": reason}
    return _common.json_answer(body, 2, _common.reason_line(reason))


def render(event: GateEvent, decision: Decision) -> Answer:
    if event.kind == PRE_TOOL:
        if not decision.allow:
            return deny(decision.reason or DEFAULT_DENY_REASON)
        return _common.json_answer({"permission": "allow"})
    if event.kind == PROMPT:
        return _common.json_answer({"continue": True})  # Cursor cannot inject context here
    if event.kind in (SESSION_START, POST_TOOL) and decision.context:
        return _common.json_answer({"additional_context": decision.context})
    return _common.json_answer({})


def context_only(kind: str, text: str) -> Answer:
    """SessionStart gets the text as context; a prompt is let through (Cursor cannot show it)."""
    if kind == SESSION_START:
        return _common.json_answer({"additional_context": text})
    return _common.json_answer({"continue": True}, stderr=_common.reason_line(text))
