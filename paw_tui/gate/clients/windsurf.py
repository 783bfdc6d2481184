"""Windsurf Cascade hooks (``.windsurf/hooks.json``): Cascade's payloads in, exit codes out.

Source: docs.windsurf.com/windsurf/cascade/hooks (also the hook types of
CorridorSecurity/hookshot ``docs/reference-cascade.md``). Every payload carries
``agent_action_name`` (the event), ``trajectory_id`` (the conversation: the session),
``execution_id`` (the turn), ``timestamp`` and ``tool_info``:

- ``pre_write_code`` / ``post_write_code``: ``file_path`` (absolute) and ``edits``;
- ``pre_run_command`` / ``post_run_command``: ``command_line`` (not ``command``) and ``cwd``;
- ``pre_read_code``: ``file_path``;
- ``pre_mcp_tool_use`` / ``post_mcp_tool_use``: ``mcp_server_name``, ``mcp_tool_name``,
  ``mcp_tool_arguments``;
- ``pre_user_prompt``: ``user_prompt``.

Cascade names no tools: the events are typed, so the tool is the pre-event's name
(``pre_write_code``, ``pre_run_command``, ``pre_read_code``: the catalogue's Windsurf entries),
for the post-event too, so that a call and its result are the same tool; MCP tools are
``mcp__<server>__<tool>`` as everywhere in the gate.

Answers: exit codes only. Exit 2 blocks a pre-hook and Cascade shows the model stderr; any other
code lets the action run, and stdout is never read. There is no context injection, so context is
not sent (the agent reads it through the paw MCP server) and a prompt is never blocked.
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
    checked_cwd,
)
from paw_tui.gate.new_text import NewText

NAME = "windsurf"
WRITE = "pre_write_code"
RUN = "pre_run_command"
READ = "pre_read_code"
MCP = "mcp"
NEW_TEXT = {WRITE: NewText(edits="edits", fragment=("new_string",))}
"""Where each file tool's input holds its new text (:mod:`paw_tui.gate.new_text`)."""
EVENTS = {
    "pre_write_code": (PRE_TOOL, WRITE),
    "post_write_code": (POST_TOOL, WRITE),
    "pre_run_command": (PRE_TOOL, RUN),
    "post_run_command": (POST_TOOL, RUN),
    "pre_read_code": (PRE_TOOL, READ),
    "pre_mcp_tool_use": (PRE_TOOL, MCP),
    "post_mcp_tool_use": (POST_TOOL, MCP),
    "pre_user_prompt": (PROMPT, None),
}
"""Cascade's event -> (the gate's event, the tool it is about)."""
KINDS = {name: kind for name, (kind, _tool) in EVENTS.items()}
IGNORED_EVENTS = frozenset({"post_read_code", "post_cascade_response", "post_setup_worktree"})
DEFAULT_EVENT = {
    PRE_TOOL: "pre_write_code",
    POST_TOOL: "post_write_code",
    PROMPT: "pre_user_prompt",
}
"""The payload shape to read when a payload names no event but ``--event`` does."""


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    found = _common.hook_event(
        payload,
        "agent_action_name",
        event_override,
        KINDS,
        DEFAULT_EVENT,
        IGNORED_EVENTS,
        "Cascade",
    )
    if found is None:
        return None
    name, kind = found
    session_id = _common.text(payload, "trajectory_id")
    # Cascade runs hooks in the workspace root (the hook's default working_directory); its
    # only cwd is a command's, which the catalogue reads from tool_info as the command's own.
    event = GateEvent(kind, NAME, session_id, cwd=checked_cwd(payload))
    info = _common.section(payload, "tool_info")
    if kind == PROMPT:
        event.prompt = _common.optional_text(info, "user_prompt")
        return event
    tool = EVENTS[name][1]
    if tool == MCP:
        server = _common.text(info, "mcp_server_name", "tool_info.mcp_server_name")
        called = _common.text(info, "mcp_tool_name", "tool_info.mcp_tool_name")
        arguments = _common.tool_arguments(
            info.get("mcp_tool_arguments"), called, "mcp_tool_arguments"
        )
        return _common.set_tool(event, _common.mcp_tool(server, called), arguments)
    assert tool is not None
    return _common.set_tool(event, tool, dict(info))


def deny(reason: str) -> Answer:
    """Exit 2 with the reason on stderr: the only block Cascade honours (stdout is not read)."""
    return Answer("", _common.reason_line(reason), 2)


def render(event: GateEvent, decision: Decision) -> Answer:
    if event.kind == PRE_TOOL and not decision.allow:
        return deny(decision.reason or DEFAULT_DENY_REASON)
    # Nothing to print: Cascade reads no output. A notice for the person goes to stderr, which
    # Cascade shows in the hook's output when the hook sets show_output.
    return Answer(stderr=_common.reason_line(decision.notice)) if decision.notice else Answer()


def context_only(kind: str, text: str) -> Answer:
    """Exit 0 (a prompt is never blocked), saying why on stderr."""
    if kind not in (SESSION_START, PROMPT, SESSION_END):  # pragma: no cover - main never asks
        return deny(text)
    return Answer(stderr=_common.reason_line(text))
