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

Out: the *last* JSON object on stdout, ``{"cancel", "contextModification", "errorMessage"}``.
Only ``cancel: true`` blocks: a non-zero exit, a crash or a timeout lets the tool run, so a deny
is that JSON with exit 0 (exit 2 would add nothing). A cancel stops the task, not only the tool
call: the person resumes it. ``contextModification`` (at most 50 KB) reaches the model on the
next request.
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

NAME = "cline"
EVENT_NAMES = {
    "PreToolUse": PRE_TOOL,
    "tool_call": PRE_TOOL,
    "PostToolUse": POST_TOOL,
    "tool_result": POST_TOOL,
    "TaskStart": SESSION_START,
    "agent_start": SESSION_START,
    "TaskResume": SESSION_START,
    "agent_resume": SESSION_START,
    "UserPromptSubmit": PROMPT,
    "prompt_submit": PROMPT,
    "SessionShutdown": SESSION_END,
    "session_shutdown": SESSION_END,
}
RESUMED = frozenset({"TaskResume", "agent_resume"})
IGNORED_EVENTS = frozenset(
    {
        "TaskComplete",
        "agent_end",
        "TaskCancel",
        "agent_abort",
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


def parse(payload: dict[str, object], event_override: str | None = None) -> GateEvent | None:
    found = _common.hook_event(
        payload, "hookName", event_override, EVENT_NAMES, DEFAULT_EVENT, IGNORED_EVENTS, "Cline"
    )
    if found is None:
        return None
    name, kind = found
    session_id = _common.text(payload, "taskId")
    cwd = checked_cwd(payload) or _common.first_root(payload, "workspaceRoots")
    event = GateEvent(kind, NAME, session_id, cwd=cwd)
    if kind in (PRE_TOOL, POST_TOOL):
        return _read_tool_call(payload, event)
    if kind == PROMPT:
        section = payload.get("userPromptSubmit")
        prompt = section.get("prompt") if isinstance(section, dict) else None
        event.prompt = prompt if isinstance(prompt, str) else None
    elif kind == SESSION_START:
        event.source = "resume" if name in RESUMED else "startup"
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
        body = typed if isinstance(typed, str) else arguments.get("input")
        # the catalogue reads an apply_patch body from 'command' (Codex's spelling)
        return _common.set_tool(event, tool, {"command": body}, call_id)
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


def _answer(cancel: bool, context: str | None = None, error: str | None = None) -> Answer:
    body: dict[str, object] = {"cancel": cancel}
    if context:
        body["contextModification"] = _common.clip(context, MAX_CONTEXT, "Cline")
    if error:
        body["errorMessage"] = _common.clip(error, MAX_CONTEXT, "Cline")
    return _common.json_answer(body, 0, _common.reason_line(error) if error else "")


def deny(reason: str) -> Answer:
    """``cancel: true`` (the only answer Cline honours), the reason for the person
    (``errorMessage``) and for the model when the task resumes (``contextModification``)."""
    return _answer(True, reason, reason)


def render(event: GateEvent, decision: Decision) -> Answer:
    if event.kind == PRE_TOOL and not decision.allow:
        return deny(decision.reason or DEFAULT_DENY_REASON)
    answer = _answer(False, decision.context)
    if decision.notice:
        answer.stderr = _common.reason_line(decision.notice)  # shown in Cline's hook output
    return answer


def context_only(kind: str, text: str) -> Answer:
    """The text as context for the next request; never a cancel (that would stop the task)."""
    return _answer(False, text)
