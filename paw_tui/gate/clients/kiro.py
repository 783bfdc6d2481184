"""Kiro hooks (CLI v2 agent hooks, CLI v3 / IDE ``.kiro/hooks/*.json``): Kiro's payloads in,
exit codes and stdout out.

Sources: kiro.dev/docs/cli/hooks and kiro.dev/docs/cli/v3/hooks; what the CLI sends is
``aws/amazon-q-developer-cli:crates/chat-cli/src/cli/chat/cli/hooks.rs`` (15cc8f3, Apr 2026):
``{hook_event_name, cwd, prompt?, tool_name?, tool_input?, tool_response?}``, events
``agentSpawn``, ``userPromptSubmit``, ``preToolUse``, ``postToolUse``, ``stop`` (v3 spells them
``SessionStart``, ``UserPromptSubmit``, ``PreToolUse``, ``PostToolUse``, ``Stop``). Built-in tools
are ``fs_write`` (``command``: create, str_replace, insert, append; ``path``), ``execute_bash``
(``execute_cmd`` on Windows; ``command``), ``fs_read``; MCP tools ``@<server>/<tool>``, read here
as ``mcp__<server>__<tool>``.

The CLI sends no session id. A payload's ``session_id`` (or ``conversation_id``) is used when a
Kiro build sends one; otherwise the session is ``kiro:<cwd>``: the Kiro sessions of one directory
share one intent (said in ``paw-tui install kiro``'s notes).

Answers (documented for both generations): exit 2 blocks a PreToolUse and its stderr goes to the
model; any other exit lets the tool run. On exit 0, the stdout of ``agentSpawn`` /
``userPromptSubmit`` is added to the model's context; nothing else is read.
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
from paw_tui.gate.new_text import NewText, edit

NAME = "kiro"
NEW_TEXT = {
    "fs_write": NewText(content=("file_text",), fragment=("new_str",)),
    "str_replace": edit("new_str"),
}
"""Where each file tool's input holds its new text (:mod:`paw_tui.gate.new_text`):
``fs_write`` creates from ``file_text``, replaces, inserts or appends ``new_str``."""
EVENT_NAMES = {
    "agentSpawn": SESSION_START,
    "SessionStart": SESSION_START,
    "userPromptSubmit": PROMPT,
    "UserPromptSubmit": PROMPT,
    "preToolUse": PRE_TOOL,
    "PreToolUse": PRE_TOOL,
    "postToolUse": POST_TOOL,
    "PostToolUse": POST_TOOL,
}
IGNORED_EVENTS = frozenset(
    {
        "stop",
        "Stop",
        "PermissionRequest",
        "PreTaskExec",
        "PostTaskExec",
        "PostFileCreate",
        "PostFileSave",
        "PostFileDelete",
        "Manual",
        "fileEdited",
        "fileCreated",
    }
)
DEFAULT_EVENT = {
    PRE_TOOL: "preToolUse",
    POST_TOOL: "postToolUse",
    SESSION_START: "agentSpawn",
    PROMPT: "userPromptSubmit",
    SESSION_END: "stop",
}
"""The payload shape to read when a payload names no event but ``--event`` does."""
MAX_OUTPUT = 9_500
"""Kiro keeps 10 KB of a hook's output (``max_output_size``); cut first, saying so."""


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    found = _common.hook_event(
        payload,
        "hook_event_name",
        event_override,
        EVENT_NAMES,
        DEFAULT_EVENT,
        IGNORED_EVENTS,
        "Kiro",
    )
    if found is None:
        return None
    kind = found[1]
    cwd = checked_cwd(payload)
    session_id = _common.first_of(payload, "session_id", "conversation_id")
    if session_id is None:
        if cwd is None:
            raise PayloadError("the payload has neither a session_id nor a cwd")
        session_id = f"{NAME}:{cwd}"
    event = GateEvent(kind, NAME, session_id, cwd=cwd)
    if kind in (PRE_TOOL, POST_TOOL):
        tool = _common.text(payload, "tool_name")
        arguments = _common.tool_arguments(payload.get("tool_input"), tool, "tool_input")
        call_id = payload.get("tool_use_id")
        return _common.set_tool(event, _tool_name(tool), arguments, call_id)
    if kind == PROMPT:
        event.prompt = _common.optional_text(payload, "prompt")
    elif kind == SESSION_START:
        event.source = "startup"
    return event


def _tool_name(tool: str) -> str:
    """Kiro's ``@<server>/<tool>`` as ``mcp__<server>__<tool>``: the handshake recognises that
    form, and no catalogued native tool name can be taken by an MCP tool."""
    if not tool.startswith("@"):
        return tool
    server, separator, name = tool[1:].partition("/")
    if not (separator and server and name):
        raise PayloadError(f"the MCP tool name '{tool}' is not @<server>/<tool>")
    return _common.mcp_tool(server, name)


def deny(reason: str) -> Answer:
    """Exit 2 with the reason on stderr (what the model is shown); stdout stays empty."""
    return Answer("", _common.reason_line(reason), 2)


def _context(text: str) -> Answer:
    return Answer(_common.clip(text, MAX_OUTPUT, "Kiro").rstrip("\n") + "\n")


def render(event: GateEvent, decision: Decision) -> Answer:
    if event.kind == PRE_TOOL and not decision.allow:
        return deny(decision.reason or DEFAULT_DENY_REASON)
    if event.kind in (SESSION_START, PROMPT) and decision.context:
        return _context(decision.context)
    return Answer()


def context_only(kind: str, text: str) -> Answer:
    """Agent spawn and prompts get the text as context, with exit 0 (never a block)."""
    return _context(text) if kind in (SESSION_START, PROMPT) else Answer()
