"""The generic protocol, for custom agent loops and clients without an adapter yet.

In: ``{"event": "pre_tool"|"post_tool"|"session_start"|"prompt"|"session_end",
"session_id": .., "tool": .., "paths": [..], "command": .., "cwd": .., "prompt": ..,
"tool_input": {..}}``. Out: ``{"decision": "allow"|"deny", "reason": .., "intent_id": ..,
"context": ..}`` on stdout; exit 0 for allow, 2 for deny.
"""

from __future__ import annotations

from paw_tui.core.handshake.names import SELECT_TOOL, named
from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)
from paw_tui.gate.events import (
    EVENTS,
    PRE_TOOL,
    Answer,
    Decision,
    GateEvent,
    PayloadError,
    checked_cwd,
    checked_path,
)

NAME = "generic"


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent:
    kind = event_override or payload.get("event")
    if kind not in EVENTS:
        raise PayloadError(f"unknown event {kind!r}; use one of {', '.join(EVENTS)}")
    session_id = payload.get("session_id")
    if not isinstance(session_id, str) or not session_id.strip():
        raise PayloadError("the payload has no session_id")
    cwd = checked_cwd(payload)
    event = GateEvent(str(kind), NAME, session_id, cwd=cwd)
    tool = payload.get("tool")
    if tool is not None and not isinstance(tool, str):
        raise PayloadError("'tool' must be a string")
    event.tool = tool
    if kind in (PRE_TOOL, "post_tool") and not tool:
        raise PayloadError("the payload has no tool")
    paths = payload.get("paths", [])
    if paths is None:
        paths = []
    if not isinstance(paths, list):
        raise PayloadError("'paths' must be a list of non-empty path strings")
    event.paths = [checked_path(path, f"paths[{index}]") for index, path in enumerate(paths)]
    command = payload.get("command")
    if command is not None and not isinstance(command, str):
        raise PayloadError("'command' must be a string")
    event.command = command
    tool_input = payload.get("tool_input", {})
    if not isinstance(tool_input, dict):
        raise PayloadError("'tool_input' must be an object")
    event.tool_input = tool_input
    call_id = payload.get("call_id")
    event.call_id = call_id if isinstance(call_id, str) and call_id else None
    if tool is not None and named(tool, SELECT_TOOL):
        if "intent_id" in payload and "intent_id" not in tool_input:
            event.tool_input = dict(tool_input, intent_id=payload["intent_id"])
    prompt = payload.get("prompt")
    event.prompt = prompt if isinstance(prompt, str) else None
    return event


def render(event: GateEvent | None, decision: Decision) -> Answer:
    body = {
        "decision": "allow" if decision.allow else "deny",
        "reason": decision.reason,
        "intent_id": decision.intent_id,
        "context": decision.context,
    }
    stdout = json.dumps(body, ensure_ascii=False) + "\n"
    if decision.allow:
        return Answer(stdout)
    return Answer(stdout, (decision.reason or "denied").rstrip("\n") + "\n", 2)


def deny(reason: str) -> Answer:
    return render(None, Decision(False, reason))


def context_only(kind: str, text: str) -> Answer:
    return render(None, Decision(True, context=text))
