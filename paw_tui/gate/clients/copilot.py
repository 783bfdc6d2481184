"""GitHub Copilot hooks (CLI and cloud agent, ``.github/hooks/*.json``): both payload dialects
in, one answer every reader of that file honours out.

Source: docs.github.com/en/copilot/reference/hooks-reference (github/docs
``content/copilot/reference/hooks-reference.md``). The dialect follows how the event is
spelled in the hook file:

- camelCase (``preToolUse``, what ``paw-tui install`` writes): ``{sessionId, timestamp (ms),
  cwd, toolName, toolArgs}`` with Copilot's own tool names (``bash``, ``create``, ``edit``,
  ...) and MCP tools named ``<server>-<tool>``. The payload does not say which event it is,
  so the hook command carries ``--event``. ``toolArgs`` has been the JSON *text* of the
  arguments (older docs, hooks.md §4) and is now an object: both are read.
- PascalCase (``PreToolUse``), "VS Code compatible": ``{hook_event_name, session_id,
  timestamp (ISO), cwd, tool_name, tool_input}``, the dialect VS Code's own agent sends
  (:mod:`paw_tui.gate.clients.vscode`). Copilot reports Claude Code's tool names in it
  (``Bash``, ``Write``, ``Edit``), with its own tools' arguments.

VS Code also loads ``.github/hooks/*.json`` (converting ``preToolUse`` to ``PreToolUse``) and
sends its own PascalCase payloads to the same command, so whichever client name the command
carries, the adapter reads both dialects, and an event in the camelCase dialect, which only
Copilot sends, is recorded as Copilot's.

Answers: a deny is exit 2 with one JSON object on stdout holding Copilot's
``permissionDecision`` (Copilot CLI 1.0.102 shows the model ``Denied by preToolUse hook:
<reason>`` from it, and only ``hook exited with code 2`` from stderr) and VS Code's
``hookSpecificOutput`` (which Copilot honours only in a PascalCase file), the reason on stderr
too. An allow prints nothing (a ``permissionDecision: "allow"`` would skip the person's own
approval prompts). Context goes in both ``additionalContext`` (Copilot) and
``hookSpecificOutput.additionalContext`` (VS Code); the note for the person in
``systemMessage`` (VS Code shows it). Copilot CLI injects both sessionStart's context (a user
message of its own) and userPromptSubmitted's (in the prompt): its sessionStart says nothing to
the model, or the mandate would arrive twice. Nothing here ever blocks a prompt.
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
from paw_tui.gate.new_text import NewText, edit, whole

NAME = "copilot"
NEW_TEXT = {
    "create": whole("file_text"),
    "edit": edit("new_str"),
    "Write": whole("file_text", "content"),
    "str_replace_editor": NewText(content=("file_text",), fragment=("new_str",)),
}
"""Where each file tool's input holds its new text (:mod:`paw_tui.gate.new_text`): the
camelCase and the PascalCase dialect (``Write`` with Copilot's arguments)."""
EVENT_NAMES = {
    # camelCase (Copilot CLI format) and PascalCase (VS Code format) spellings
    "preToolUse": PRE_TOOL,
    "postToolUse": POST_TOOL,
    "sessionStart": SESSION_START,
    "userPromptSubmitted": PROMPT,
    "sessionEnd": SESSION_END,
    "PreToolUse": PRE_TOOL,
    "PostToolUse": POST_TOOL,
    "SessionStart": SESSION_START,
    "UserPromptSubmit": PROMPT,
    "SessionEnd": SESSION_END,
}
HOOK_NAMES = {
    PRE_TOOL: "PreToolUse",
    POST_TOOL: "PostToolUse",
    SESSION_START: "SessionStart",
    PROMPT: "UserPromptSubmit",
    SESSION_END: "SessionEnd",
}
"""The event names VS Code's ``hookSpecificOutput.hookEventName`` expects."""
IGNORED_EVENTS = frozenset(
    {
        "agentStop",
        "Stop",
        "subagentStart",
        "SubagentStart",
        "subagentStop",
        "SubagentStop",
        "errorOccurred",
        "ErrorOccurred",
        "preCompact",
        "PreCompact",
        "postToolUseFailure",
        "PostToolUseFailure",
        "notification",
        "Notification",
        "permissionRequest",
        "PermissionRequest",
        "userPromptTransformed",
    }
)
MCP_SEPARATORS = "-/"
"""How Copilot CLI joins an MCP server's name to its tool's (``paw-select_active_intent``)."""
MAX_OUTPUT = 9500  # Copilot caps joined additionalContext at 10 KB


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    return parse_for(NAME, payload, event_override)


def parse_for(
    client: str, payload: dict[str, object], event_override: str | None
) -> GateEvent | None:
    """The event of a payload in either dialect, recorded as ``client``'s (as Copilot's when
    the payload is in the camelCase dialect, which only Copilot sends)."""
    # VS Code's docs spell the common fields hookEventName/sessionId, its code snake_case
    name = _common.first_of(payload, "hook_event_name", "hookEventName")
    camel = name is None
    if name is None:
        if event_override is None:
            raise PayloadError(
                "the payload names no event (Copilot's camelCase payloads do not): the hook "
                "command must pass --event"
            )
        kind: str | None = event_override
    else:
        if name in IGNORED_EVENTS:
            return None
        kind = EVENT_NAMES.get(name)
        if kind is None:
            raise PayloadError(f"unknown hook event '{name}'")
        kind = _common.check_kind(kind, event_override, name)
    assert kind is not None
    session_id = _common.first_of(payload, "session_id", "sessionId")
    if session_id is None:
        raise PayloadError("the payload has no session id (sessionId or session_id)")
    event = GateEvent(kind, NAME if camel else client, session_id, cwd=checked_cwd(payload))
    if kind in (PRE_TOOL, POST_TOOL):
        return _read_tool_call(payload, event)
    if kind == PROMPT:
        event.prompt = _common.optional_text(payload, "prompt")
    elif kind == SESSION_START:
        event.source = _common.optional_text(payload, "source")
    return event


def _read_tool_call(payload: dict[str, object], event: GateEvent) -> GateEvent:
    tool = _common.first_of(payload, "tool_name", "toolName")
    if tool is None:
        raise PayloadError("the payload has no tool name (toolName or tool_name)")
    field = "tool_input" if "tool_input" in payload else "toolArgs"
    arguments = _common.tool_arguments(payload.get(field), tool, field)
    call_id = payload.get("tool_use_id", payload.get("toolCallId"))
    name, arguments = tool_call(tool, arguments)
    return _common.set_tool(event, name, arguments, call_id)


def tool_call(tool: str, arguments: dict[str, object]) -> tuple[str, dict[str, object]]:
    """The name and input the gate reads a call under.

    - Copilot CLI's ``paw-select_active_intent`` as ``mcp__paw__select_active_intent``: the
      handshake recognises that form; only paw-tui's own tools are split (where a foreign
      server's name ends cannot be told).
    - Copilot's PascalCase dialect reports its ``edit`` and ``apply_patch`` as Claude Code's
      ``Edit`` with Copilot's arguments (``path``, not ``file_path``): read as ``edit``, or as
      ``apply_patch`` when a patch comes in ``input`` (Copilot's own patch arguments are
      undocumented; ``input`` is VS Code's, where the catalogue reads both clients' patches).
    """
    if not tool.startswith("mcp_") and "__" not in tool:
        split = _common.split_paw_tool(tool, MCP_SEPARATORS)
        if split is not None:
            return _common.mcp_tool(*split), arguments
    if tool == "Edit" and "file_path" not in arguments:
        if "path" in arguments:
            return "edit", arguments
        if isinstance(arguments.get("input"), str):
            return "apply_patch", arguments
    return tool, arguments


def _clip(text: str) -> str:
    return _common.clip(text, MAX_OUTPUT, "Copilot")


def _context(kind: str, text: str | None, notice: str | None = None) -> Answer:
    """Context for both readers, and the note for the person; nothing when there is neither."""
    body: dict[str, object] = {}
    if text:
        body["additionalContext"] = _clip(text)
        body["hookSpecificOutput"] = {
            "hookEventName": HOOK_NAMES[kind],
            "additionalContext": _clip(text),
        }
    if notice:
        body["systemMessage"] = _clip(notice)
    return _common.json_answer(body) if body else Answer()


def deny(reason: str) -> Answer:
    clipped = _clip(reason)
    body = {
        "permissionDecision": "deny",
        "permissionDecisionReason": clipped,
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": clipped,
        },
    }
    return _common.json_answer(body, 2, _common.reason_line(reason))


def render(event: GateEvent, decision: Decision) -> Answer:
    if event.kind == PRE_TOOL:
        if not decision.allow:
            return deny(decision.reason or DEFAULT_DENY_REASON)
        return _context(PRE_TOOL, decision.context)
    if event.kind == SESSION_START and event.client == NAME:
        return _context(event.kind, None, decision.notice)  # the prompt's context follows
    if event.kind in (SESSION_START, PROMPT, POST_TOOL):
        return _context(event.kind, decision.context, decision.notice)
    return Answer()


def context_only(kind: str, text: str) -> Answer:
    """For sessionStart / a prompt when the state cannot be read: say so, never block."""
    return _context(kind, text)
