"""Codex CLI hooks (``.codex/hooks.json``): Codex's payloads in, Codex's JSON out.

Observed with the real Codex 0.169.0 (``tests/data/codex/``, recorded by the real-client
probes): every payload carries ``session_id`` (the thread id, also ``CODEX_THREAD_ID`` in the
shell's environment), ``cwd`` and ``hook_event_name``. ``PreToolUse`` / ``PostToolUse`` fire
for the shell (``tool_name: "Bash"``, ``tool_input.command``, whatever the model called:
``exec_command``), for edits (``apply_patch``, the raw patch in ``tool_input.command``) and
for MCP tools (``mcp__<server>__<tool>``, paw-tui's handshake among them), with
``tool_use_id``. A patch the model sends through the shell (``apply_patch <<'EOF'``) arrives
only as ``Bash``: the catalogue reads its files from the heredoc. ``SessionEnd`` fires once
when the session ends; ``Stop`` ends every turn, not the session, so the gate ignores it
(releasing the intent there would take it away between two prompts of one session).

Answers: a deny is ``permissionDecision: "deny"`` JSON *and* exit 2 with the reason on
stderr (either blocks; with both, Codex shows the model the stderr text as
``Command blocked by PreToolUse hook: <reason>. Command: <raw>``). Context goes in
``additionalContext`` on all four events (Codex adds each as a developer message); the
person's notice in ``systemMessage``. Only PreToolUse denies: a prompt is never blocked.
"""

from __future__ import annotations

from paw_tui.gate.clients import _common, claude_code
from paw_tui.gate.events import (
    DEFAULT_DENY_REASON,
    POST_TOOL,
    PRE_TOOL,
    PROMPT,
    SESSION_START,
    Answer,
    Decision,
    GateEvent,
    checked_cwd,
)

NAME = "codex"
# Codex took Claude Code's hook names (and payload shape) for these five events.
EVENT_NAMES = claude_code.EVENT_NAMES
HOOK_NAMES = claude_code.HOOK_NAMES
IGNORED_EVENTS = frozenset(
    {
        "Stop",
        "StopFailure",
        "PermissionRequest",
        "PreCompact",
        "PostCompact",
        "SubagentStart",
        "SubagentStop",
        "Interrupt",
        "PreModelRequest",
        "PostModelRequest",
    }
)
"""Events Codex 0.169 sends that the gate has nothing to say about."""


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    """The internal event; None for an event the gate ignores; PayloadError when the payload
    cannot be trusted."""
    found = _common.hook_event(
        payload, "hook_event_name", event_override, EVENT_NAMES, HOOK_NAMES, IGNORED_EVENTS, "Codex"
    )
    if found is None:
        return None
    name, kind = found
    session_id = _common.text(payload, "session_id")
    event = GateEvent(kind, NAME, session_id, cwd=checked_cwd(payload))
    if kind in (PRE_TOOL, POST_TOOL):
        tool = _common.text(payload, "tool_name")
        arguments = _common.tool_arguments(payload.get("tool_input"), tool, "tool_input")
        return _common.set_tool(event, tool, arguments, payload.get("tool_use_id"))
    if kind == PROMPT:
        event.prompt = _common.optional_text(payload, "prompt")
    elif kind == SESSION_START:
        event.source = _common.optional_text(payload, "source")
    return event


def deny(reason: str) -> Answer:
    body = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }
    return _common.json_answer(body, 2, _common.reason_line(reason))


def _context(kind: str, text: str | None, notice: str | None = None) -> Answer:
    body: dict[str, object] = {}
    if text:
        body["hookSpecificOutput"] = {"hookEventName": HOOK_NAMES[kind], "additionalContext": text}
    if notice:
        body["systemMessage"] = notice  # for the person, not the model
    return _common.json_answer(body) if body else Answer()


def render(event: GateEvent, decision: Decision) -> Answer:
    if event.kind == PRE_TOOL:
        if not decision.allow:
            return deny(decision.reason or DEFAULT_DENY_REASON)
        # Never permissionDecision "allow": that would skip Codex's own approval policy.
        return _context(PRE_TOOL, decision.context)
    if event.kind in (SESSION_START, PROMPT, POST_TOOL):
        return _context(event.kind, decision.context, decision.notice)
    return Answer()


def context_only(kind: str, text: str) -> Answer:
    """SessionStart / UserPromptSubmit when the state cannot be read: say so, never block."""
    return _context(kind, text)
