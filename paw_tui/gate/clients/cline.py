"""Cline hooks (executable files in ``.clinerules/hooks/``): Cline's payloads in, Cline's JSON out.

Sources: docs.cline.bot/customization/hooks and ``cline/cline:docs/features/hooks/hook-reference.mdx``
(the classic payload), and cline/cline's source at 21cb8d2 (Aug 2026): the VS Code extension's
``apps/vscode/src/sdk/hooks-adapter.ts`` and the SDK's ``sdk/packages/core/src/hooks/``.

In: ``{clineVersion, hookName, timestamp, taskId, workspaceRoots, userId, <section>}`` with the
section named after the hook: ``preToolUse`` / ``postToolUse`` ``{toolName, parameters}``,
``userPromptSubmit`` ``{prompt}``, ``taskStart`` / ``taskResume``. The task is the session
(``taskId``); the workspace is ``workspaceRoots[0]`` (Cline sends no cwd). ``parameters`` maps
each argument to a *string* (Cline JSON-encodes the others), so the SDK's ``tool_call.input``
(the typed input, sent beside it by Cline's SDK runtime) is read first when present. The SDK
runtime names its hooks ``tool_call``, ``tool_result``, ``agent_start``, ``prompt_submit`` and so
on, and its tools ``editor``, ``apply_patch``, ``run_commands`` and ``<server>__<tool>`` for MCP
tools; the classic tools are ``write_to_file``, ``replace_in_file``, ``execute_command`` and
``use_mcp_tool`` (``server_name``, ``tool_name``, ``arguments`` as JSON text).

Out: one JSON object on stdout (Cline CLI 3.0.65 runs the tool when it finds two, or none,
or when the hook crashes, exits non-zero or times out: every failure fails open, so the
installed hook files answer for the gate when it cannot). What the real binary honours
(``reference/clients-observed.md`` Part 2):

- ``cancel: true`` blocks the call **and ends the whole run** (the model never hears why);
- ``overrideInput`` (the tool's input, replaced) with ``contextModification`` (a
  ``<hook_context>`` message after the tool's result) refuses one call and keeps the session:
  a built-in tool given ``{}`` fails its own validation and the model reads the reason. An
  MCP tool, though, runs with the replaced input. So a deny is that per-call refusal for the
  catalogue's file, shell and patch tools and for paw-tui's own MCP tools (whose hooked server
  only validates), and ``cancel: true`` for anything else, which ``{}`` might not stop.

TaskStart's output is dropped (the hook runs detached) and UserPromptSubmit does not fire for
the CLI's prompt, so the governance section reaches the model with the answer to the
session's first tool call. A completed run fires ``TaskComplete`` (``agent_end``), an aborted
one ``SessionShutdown``: both release the session (a sub-agent's end does not).
"""

from __future__ import annotations

from paw_tui.core.support import fastjson as json
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

NAME = "cline"
NEW_TEXT = {
    "editor": edit("new_text"),
    "write_to_file": whole("content"),
}
"""Where each file tool's input holds its new text (:mod:`paw_tui.gate.new_text`): ``editor``
creates a file from ``new_text`` alone, or puts it in place of ``old_text``. ``apply_patch``
(gpt and codex models) is a patch: its fields are the catalogue's."""
EVENT_NAMES = {
    "PreToolUse": PRE_TOOL,
    "tool_call": PRE_TOOL,
    "PostToolUse": POST_TOOL,
    "tool_result": POST_TOOL,
    "UserPromptSubmit": PROMPT,
    "prompt_submit": PROMPT,
    "SessionShutdown": SESSION_END,
    "session_shutdown": SESSION_END,
    "TaskComplete": SESSION_END,
    "agent_end": SESSION_END,
    "TaskCancel": SESSION_END,
    "agent_abort": SESSION_END,
}
ENDS = frozenset({"TaskComplete", "agent_end", "TaskCancel", "agent_abort"})
"""Ends of a task: a sub-agent's (``parent_agent_id`` set) are not the session's."""
IGNORED_EVENTS = frozenset(
    {
        "TaskStart",
        "agent_start",
        "TaskResume",
        "agent_resume",
        "TaskError",
        "agent_error",
        "PreCompact",
        "Notification",
        "PostAssistantTurn",
    }
)
DEFAULT_EVENT = {
    PRE_TOOL: "PreToolUse",
    POST_TOOL: "PostToolUse",
    SESSION_START: "TaskStart",
    PROMPT: "UserPromptSubmit",
    SESSION_END: "SessionShutdown",
}
"""The payload shape to read when a payload names no hook but ``--event`` does."""
SECTIONS = {PRE_TOOL: "preToolUse", POST_TOOL: "postToolUse"}
SDK_RECORDS = {PRE_TOOL: "tool_call", POST_TOOL: "tool_result"}
"""Where Cline's SDK runtime puts the typed call (``{id, name, input}``) beside the section."""
MAX_CONTEXT = 49_000
"""Cline cuts ``contextModification`` at 50 KB; cut first, saying so."""
MCP_TOOL = "use_mcp_tool"
RUN_COMMANDS = "run_commands"
APPLY_PATCH = "apply_patch"
PATCH_FIELD = "input"
"""Where Cline's ``apply_patch`` keeps the patch (its SDK may also send the bare text)."""


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    found = _common.hook_event(
        payload, "hookName", event_override, EVENT_NAMES, DEFAULT_EVENT, IGNORED_EVENTS, "Cline"
    )
    if found is None:
        return None
    name, kind = found
    if name in ENDS and payload.get("parent_agent_id"):
        return None  # a sub-agent ended, not the task
    session_id = _common.text(payload, "taskId")
    cwd = checked_cwd(payload) or _common.first_root(payload, "workspaceRoots")
    event = GateEvent(kind, NAME, session_id, cwd=cwd)
    if kind in (PRE_TOOL, POST_TOOL):
        event.briefed_by_first_call = kind == PRE_TOOL
        return _read_tool_call(payload, event)
    if kind == PROMPT:
        section = payload.get("userPromptSubmit")
        prompt = section.get("prompt") if isinstance(section, dict) else None
        event.prompt = prompt if isinstance(prompt, str) else None
    elif kind == SESSION_START:
        event.source = "startup"
    return event


def _read_tool_call(payload: dict[str, object], event: GateEvent) -> GateEvent:
    section_name = SECTIONS[event.kind]
    section = _common.section(payload, section_name)
    tool = _common.text(section, "toolName", f"{section_name}.toolName")
    parameters = section.get("parameters")
    if parameters is None:
        parameters = {}
    if not isinstance(parameters, dict):
        raise PayloadError(f"the {section_name}.parameters of {tool} is not an object")
    record = payload.get(SDK_RECORDS[event.kind])
    typed = record.get("input") if isinstance(record, dict) else None
    call_id = record.get("id") if isinstance(record, dict) else None
    arguments = typed if isinstance(typed, dict) else parameters
    if tool == MCP_TOOL:
        server = _common.text(arguments, "server_name", f"server_name of {MCP_TOOL}")
        name = _common.text(arguments, "tool_name", f"tool_name of {MCP_TOOL}")
        inner = _common.tool_arguments(arguments.get("arguments"), MCP_TOOL, "arguments")
        return _common.set_tool(event, _common.mcp_tool(server, name), inner, call_id)
    if tool == RUN_COMMANDS:
        lines = _command_lines(typed if typed is not None else arguments.get("commands"))
        return _common.set_tool(event, tool, {**arguments, "commands": lines}, call_id)
    if tool == APPLY_PATCH:
        body = typed if isinstance(typed, str) else arguments.get(PATCH_FIELD)
        return _common.set_tool(event, tool, {PATCH_FIELD: body}, call_id)
    server_tool = _sdk_mcp_tool(tool)
    if server_tool is not None:
        return _common.set_tool(event, _common.mcp_tool(*server_tool), arguments, call_id)
    return _common.set_tool(event, tool, dict(arguments), call_id)


def _sdk_mcp_tool(tool: str) -> tuple[str, str] | None:
    """``(server, tool)`` for the SDK runtime's ``<server>__<tool>`` MCP names."""
    if tool.startswith(_common.MCP_PREFIX):
        return None
    server, separator, name = tool.partition("__")
    return (server, name) if separator and server and name else None


def _command_lines(value: object) -> list[str]:
    """``run_commands``' commands, each a command line the gate analyses on its own (Cline
    runs them one by one): a string as is; a list (or its JSON text, as ``parameters`` carries
    it) one per entry. Never joined into one script: a here-document opened in one entry
    would hide the next ones from the parser, while Cline runs them."""
    if isinstance(value, dict):
        value = value.get("commands", value.get("command", value.get("cmd")))
    if isinstance(value, str) and value.lstrip().startswith("["):
        try:
            value = json.loads(value)
        except ValueError:
            raise PayloadError("the commands of run_commands are not valid JSON") from None
    if isinstance(value, str) and value.strip():
        return [value]
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list) or not value:
        raise PayloadError("run_commands has no command to run")
    return [_command_line(item) for item in value]


def _command_line(item: object) -> str:
    """One entry of ``run_commands``: a command line, or ``{command, args}`` run directly."""
    if isinstance(item, str) and item.strip():
        return item
    if isinstance(item, dict) and isinstance(item.get("command"), str) and item["command"]:
        args = item.get("args") or []
        if isinstance(args, list) and all(isinstance(a, str) for a in args):
            return " ".join(_quote(word) for word in (item["command"], *args))
    raise PayloadError("a command of run_commands is neither a string nor {command, args}")


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\"'\"'") + "'"


def _answer(
    cancel: bool, context: str | None = None, error: str | None = None, refuse: bool = False
) -> Answer:
    body: dict[str, object] = {"cancel": cancel}
    if refuse:
        body["overrideInput"] = {}
    if context:
        body["contextModification"] = _common.clip(context, MAX_CONTEXT, "Cline")
    if error:
        body["errorMessage"] = _common.clip(error, MAX_CONTEXT, "Cline")
    return _common.json_answer(body, 0, _common.reason_line(error) if error else "")


def deny(reason: str) -> Answer:
    """``cancel: true``: the call cannot be read, so nothing says an empty input would stop
    it; the reason for the person (``errorMessage``) and the model (``contextModification``)."""
    return _answer(True, reason, reason)


def refusable(tool: str | None) -> bool:
    """Whether an empty input stops the call: Cline's own file, shell and patch tools fail
    their validation with ``{}``; paw-tui's own MCP tools only validate (hooked server)."""
    from paw_tui.core.handshake.names import named
    from paw_tui.core.policy.catalogue import FILE, PATCH, SHELL, catalogue

    if tool is None:
        return False
    if tool.startswith(_common.MCP_PREFIX):
        return any(named(tool, own) for own in _common.PAW_TOOLS)
    known = catalogue()
    entry = known.get(tool, NAME)
    return (
        entry is not None
        and known.classified_for(tool, NAME)
        and entry.kind in (FILE, PATCH, SHELL)
    )


def render(event: GateEvent, decision: Decision) -> Answer:
    if event.kind == PRE_TOOL and not decision.allow:
        reason = decision.reason or DEFAULT_DENY_REASON
        told = f"{reason}\n\n{decision.context}" if decision.context else reason
        if refusable(event.tool):
            return _answer(False, told, refuse=True)
        return _answer(True, told, reason)
    answer = _answer(False, decision.context)
    if decision.notice:
        answer.stderr = _common.reason_line(decision.notice)  # shown in Cline's hook output
    return answer


def context_only(kind: str, text: str) -> Answer:
    """The text as context for the next request; never a cancel (that would stop the task)."""
    return _answer(False, text)
