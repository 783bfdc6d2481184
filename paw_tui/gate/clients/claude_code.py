"""Claude Code hooks: ``PreToolUse``, ``PostToolUse``, ``SessionStart``,
``UserPromptSubmit`` and ``SessionEnd`` payloads in, Claude Code's JSON out.

A deny is the ``hookSpecificOutput`` JSON on stdout *and* exit 2 with the reason on stderr
(exit 2 blocks even if the JSON were lost). An allow prints nothing or only
``additionalContext``, never ``permissionDecision: "allow"``, which would skip the user's own
permission prompts. Only PreToolUse can deny: SessionStart and UserPromptSubmit never exit 2
(that would erase the user's prompt).
"""

from __future__ import annotations

from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)
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
from paw_tui.gate.tool_input import read_tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

NAME = "claude-code"
NEW_TEXT = {
    "Write": whole("content"),
    "Edit": edit("new_string", every="replace_all"),
    "MultiEdit": NewText(edits="edits", fragment=("new_string",), every="replace_all"),
}
"""Where each file tool's input holds its new text (:mod:`paw_tui.gate.new_text`)."""
EVENT_NAMES = {
    "PreToolUse": PRE_TOOL,
    "PostToolUse": POST_TOOL,
    "SessionStart": SESSION_START,
    "UserPromptSubmit": PROMPT,
    "SessionEnd": SESSION_END,
}
HOOK_NAMES = {kind: name for name, kind in EVENT_NAMES.items()}
# Events Claude Code sends that the gate has nothing to say about.
IGNORED_EVENTS = frozenset(
    {
        "Stop",
        "SubagentStop",
        "Notification",
        "PreCompact",
        "PostToolUseFailure",
        "SubagentStart",
        "PostToolBatch",
        "CwdChanged",
    }
)
MAX_OUTPUT = 9500  # Claude Code caps hook output strings at 10,000 characters


def parse(
    payload: dict[str, object], event_override: str | None = None, client: str = NAME
) -> GateEvent | None:
    """The internal event; None for an event we deliberately ignore; PayloadError when the
    payload cannot be trusted."""
    name = event_override or payload.get("hook_event_name")
    if not isinstance(name, str) or not name:
        raise PayloadError("the payload has no hook_event_name")
    kind = EVENT_NAMES.get(name) or (name if name in HOOK_NAMES else None)
    if kind is None:
        if name in IGNORED_EVENTS:
            return None
        raise PayloadError(f"unknown hook event '{name}'")
    session_id = payload.get("session_id")
    if not isinstance(session_id, str) or not session_id.strip():
        raise PayloadError("the payload has no session_id")
    cwd = checked_cwd(payload)
    event = GateEvent(kind, client, session_id, cwd=cwd)
    if kind in (PRE_TOOL, POST_TOOL):
        _read_tool_call(payload, event)
    elif kind == PROMPT:
        prompt = payload.get("prompt")
        event.prompt = prompt if isinstance(prompt, str) else None
    elif kind == SESSION_START:
        source = payload.get("source")
        event.source = source if isinstance(source, str) else None
    return event


def _read_tool_call(payload: dict[str, object], event: GateEvent) -> None:
    """The tool, its input, and the paths or command it names."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or not tool:
        raise PayloadError("the payload has no tool_name")
    tool_input = payload.get("tool_input", {})
    if tool_input is None:
        tool_input = {}
    if not isinstance(tool_input, dict):
        raise PayloadError(f"the tool_input of {tool} is not an object")
    event.tool = tool
    event.tool_input = tool_input
    call_id = payload.get("tool_use_id")
    event.call_id = call_id if isinstance(call_id, str) and call_id else None
    read_tool_input(event)


def _json(data: Mapping[str, object]) -> str:
    return json.dumps(data, ensure_ascii=False) + "\n"


def _clip(text: str) -> str:
    return (
        text
        if len(text) <= MAX_OUTPUT
        else text[: MAX_OUTPUT - 60] + "\n[... cut to fit Claude Code's hook output limit]"
    )


def deny(reason: str) -> Answer:
    output = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": _clip(reason),
        }
    }
    return Answer(_json(output), reason.rstrip("\n") + "\n", 2)


def render(event: GateEvent, decision: Decision) -> Answer:
    if event.kind == PRE_TOOL:
        if not decision.allow:
            return deny(decision.reason or DEFAULT_DENY_REASON)
        if decision.context:
            return Answer(
                _json(
                    {
                        "hookSpecificOutput": {
                            "hookEventName": "PreToolUse",
                            "additionalContext": _clip(decision.context),
                        }
                    }
                )
            )
        return Answer()
    if event.kind in (SESSION_START, PROMPT, POST_TOOL):
        body: dict[str, object] = {}
        if decision.context:
            body["hookSpecificOutput"] = {
                "hookEventName": HOOK_NAMES[event.kind],
                "additionalContext": _clip(decision.context),
            }
        if decision.notice:
            body["systemMessage"] = _clip(decision.notice)  # shown to the person
        return Answer(_json(body)) if body else Answer()
    return Answer()


def context_only(kind: str, text: str) -> Answer:
    """For SessionStart / UserPromptSubmit when the state cannot be read: say so, exit 0."""
    return Answer(
        _json(
            {
                "hookSpecificOutput": {
                    "hookEventName": HOOK_NAMES[kind],
                    "additionalContext": _clip(text),
                }
            }
        )
    )
