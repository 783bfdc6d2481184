"""Qwen Code hooks (``.qwen/settings.json``): Claude Code's protocol, with Qwen's own events.

Qwen Code 0.24.4 is a Gemini CLI fork whose hooks speak **Claude Code's** protocol (observed
with the real binary, ``reference/clients-observed.md`` Part 2): the same payload fields, the
same ``hookSpecificOutput`` answers, a deny honoured as JSON or as exit 2 with the reason on
stderr. So the payload is read and the answer written by the Claude Code adapter; what differs:

- ``UserPromptSubmit`` fires before **every** model request, with ``prompt: ""`` (and no
  ``submitted_prompt``) after each tool result. Only a prompt the person submitted is answered
  with context; the others are ignored, or the governance section would pile up in the
  conversation once per tool call.
- ``SessionStart`` context lands in the system prompt and the first ``UserPromptSubmit``'s in
  the prompt: the model would read the mandate twice, so SessionStart says nothing to it.
- A headless run sends no ``SessionEnd``; ``Stop`` (the end of the agent's turn, ``agent_id``
  set for a sub-agent's) releases the session. In an interactive session that means once per
  turn: the next prompt's context asks the agent to select its intent again.
- ``run_shell_command`` names its working directory ``directory`` (Gemini: ``dir_path``): the
  catalogue's entry for Qwen says so.
- MCP tools are ``mcp__<server>__<tool>`` and reached through ``tool_search``; the hook sees the
  underlying tool, never ``tool_call``.
"""

from __future__ import annotations

from paw_tui.gate.clients import claude_code
from paw_tui.gate.events import SESSION_START, Answer, Decision, GateEvent
from paw_tui.gate.new_text import edit, whole

NAME = "qwen-code"
NEW_TEXT = {
    "write_file": whole("content"),
    "edit": edit("new_string", every="replace_all"),
}
"""Where each file tool's input holds its new text (:mod:`paw_tui.gate.new_text`): Qwen's own
names, with Claude Code's fields."""
RENAMED = {"Stop": "SessionEnd"}
"""Qwen's events read as another Claude Code event."""
IGNORED_EVENTS = frozenset(
    {"StopFailure", "PermissionRequest", "MessageDisplay", "SessionDelete", "SubagentStart"}
)


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    name = payload.get("hook_event_name")
    if name in IGNORED_EVENTS:
        return None
    if name == "Stop":
        if payload.get("agent_id"):
            return None  # a sub-agent's turn ended, not the session's
        payload = dict(payload, hook_event_name=RENAMED["Stop"])
    if name == "UserPromptSubmit" and not payload.get("prompt"):
        if not payload.get("submitted_prompt"):
            return None  # a model request after a tool result, not the person's prompt
    return claude_code.parse(payload, event_override, client=NAME)


def render(event: GateEvent, decision: Decision) -> Answer:
    if event.kind == SESSION_START:
        decision = Decision(
            decision.allow, decision.reason, decision.intent_id, None, decision.notice
        )
    return claude_code.render(event, decision)


def deny(reason: str) -> Answer:
    return claude_code.deny(reason)


def context_only(kind: str, text: str) -> Answer:
    return claude_code.context_only(kind, text)
