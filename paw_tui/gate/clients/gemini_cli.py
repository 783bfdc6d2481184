"""Gemini CLI hooks (``.gemini/settings.json``): ``BeforeTool``, ``AfterTool``,
``SessionStart``, ``BeforeAgent`` and ``SessionEnd`` payloads in, Gemini's JSON out.

What the real 0.61.0 binary sends and honours (``reference/clients-observed.md``, and the
payloads recorded by the real-client harness in ``tests/data/gemini-cli/``): every payload
carries ``session_id``, ``cwd``, ``hook_event_name``, ``transcript_path`` and ``timestamp``;
tool events ``tool_name`` and ``tool_input`` (paths may be relative to ``cwd``) and no tool
call id; MCP tools are named ``mcp_<server>_<tool>`` (with ``mcp_context.server_name``), which
the handshake recognises as it is (:func:`paw_tui.core.handshake.names.named`), so the ledger
keeps Gemini's own name.

Answers: a deny is ``{"decision": "deny", "reason": ...}`` with exit 0 and nothing on
stderr. Only one channel: Gemini parses stdout first, so JSON beside an exit 2 would be read
as the answer and a stray ``{}`` lets the tool run; the model receives
``Tool execution blocked: <reason>``. Context goes in ``hookSpecificOutput.additionalContext``
on SessionStart, BeforeAgent and AfterTool (Gemini ignores it on BeforeTool, so the gate's
execution guidance for a tool cannot reach a Gemini model); the person's notice in
``systemMessage`` (written to the terminal). SessionStart and BeforeAgent are never denied: a
deny on BeforeAgent would drop the person's prompt.
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
from paw_tui.gate.new_text import edit, whole

NAME = "gemini-cli"
NEW_TEXT = {
    "write_file": whole("content"),
    "replace": edit("new_string", every="allow_multiple"),
}
"""Where each file tool's input holds its new text (:mod:`paw_tui.gate.new_text`)."""
EVENT_NAMES = {
    "BeforeTool": PRE_TOOL,
    "AfterTool": POST_TOOL,
    "SessionStart": SESSION_START,
    "BeforeAgent": PROMPT,
    "SessionEnd": SESSION_END,
}
HOOK_NAMES = {kind: name for name, kind in EVENT_NAMES.items()}
"""The Gemini event of each internal kind (also what a payload without a name is read as
when ``--event`` says which it is)."""
IGNORED_EVENTS = frozenset(
    {
        "AfterAgent",
        "BeforeModel",
        "AfterModel",
        "BeforeToolSelection",
        "PreCompress",
        "Notification",
    }
)
"""Events Gemini sends that the gate has nothing to say about."""


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    """The internal event; None for an event deliberately ignored; PayloadError when the
    payload cannot be trusted."""
    name = _common.optional_text(payload, "hook_event_name")
    if name is None:
        if event_override is None:
            raise PayloadError("the payload has no hook_event_name")
        name = HOOK_NAMES[event_override]
    kind = EVENT_NAMES.get(name)
    if kind is None:
        if name in IGNORED_EVENTS:
            return None
        raise PayloadError(f"unknown Gemini CLI hook event '{name}'")
    kind = _common.check_kind(kind, event_override, name)
    assert kind is not None
    session_id = _common.text(payload, "session_id")
    event = GateEvent(kind, NAME, session_id, cwd=checked_cwd(payload))
    if kind in (PRE_TOOL, POST_TOOL):
        tool = _common.text(payload, "tool_name")
        arguments = _common.tool_arguments(payload.get("tool_input"), tool, "tool_input")
        return _common.set_tool(event, tool, arguments)
    if kind == PROMPT:
        event.prompt = _common.optional_text(payload, "prompt")
    elif kind == SESSION_START:
        event.source = _common.optional_text(payload, "source")
    return event


def deny(reason: str) -> Answer:
    """Gemini's deny: JSON on stdout, exit 0 (see the module docstring for why not exit 2)."""
    return _common.json_answer({"decision": "deny", "reason": reason})


def render(event: GateEvent, decision: Decision) -> Answer:
    if event.kind == PRE_TOOL:
        if not decision.allow:
            return deny(decision.reason or DEFAULT_DENY_REASON)
        return Answer()  # BeforeTool context is ignored by Gemini: nothing to say
    if event.kind in (SESSION_START, PROMPT, POST_TOOL):
        body: dict[str, object] = {}
        if decision.context:
            body["hookSpecificOutput"] = {
                "hookEventName": HOOK_NAMES[event.kind],
                "additionalContext": decision.context,
            }
        if decision.notice:
            body["systemMessage"] = decision.notice  # shown to the person, not the model
        return _common.json_answer(body) if body else Answer()
    return Answer()


def context_only(kind: str, text: str) -> Answer:
    """SessionStart / BeforeAgent when the state cannot be read: the model is told, and so is
    the person; exit 0, never a block."""
    return _common.json_answer(
        {
            "hookSpecificOutput": {"hookEventName": HOOK_NAMES[kind], "additionalContext": text},
            "systemMessage": text,
        }
    )
