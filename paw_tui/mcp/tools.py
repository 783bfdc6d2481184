"""The MCP server's six tools over the core (DESIGN §6), with no dependency on the ``mcp`` SDK.

Tools: ``paw_get_context``, ``select_active_intent``, ``list_intents``, ``check_scope``,
``request_scope_expansion``, ``get_handoff_context``. Domain failures come back as
``is_error`` results carrying the core's exact messages.

Plain mode holds one session per server process and locks intents itself. Hooked mode
(``paw-tui mcp --hooked``, what ``install claude-code`` writes) runs beside the gate, which
sees the client's real session id and performs the selection on PreToolUse; the server then
only validates and returns the intent context block.

Every core module is imported inside the tool that needs it: the server must answer
``initialize`` and ``tools/list`` before any of them (or pyyaml, pathspec) is loaded.
:data:`TOOLS` describes each tool's arguments once: :func:`input_schema` renders them as
JSON schema and :func:`bind_arguments` checks a call against them.
"""

from __future__ import annotations

import json
import os
from typing import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from paw_tui.core.workspace.state import WorkspaceState

SERVER_NAME = "paw"
INSTRUCTIONS = (
    "paw-tui governs this repository: call paw_get_context for your custom instructions, and "
    "select_active_intent before changing any file."
)
CONTEXT_ERROR_PREFIX = "Error retrieving PAW context: "
CANCELLED = "Context retrieval was cancelled."
UNAVAILABLE = "Orchestration state unavailable."

PAW_GET_CONTEXT = (
    "Retrieve workspace-specific custom instructions, user-level custom instructions (if they "
    "exist), and workflow context for an agent. Returns text with sections wrapped in XML tags: "
    "<workspace_instructions> for the workspace's .paw/instructions/, <user_instructions> for "
    "~/.paw/instructions/, and <workflow_context> for the raw WorkflowContext.md. Workspace "
    "instructions override user instructions; both override your defaults."
)
SELECT_ACTIVE_INTENT = (
    "Select the active intent for this session before changing anything: every tool that "
    "writes is blocked until an intent is selected, and writes are allowed only inside its "
    "owned scope. Returns the intent context block (scope, constraints, acceptance criteria, "
    "recent history). A session holds one intent: to work on another, start a new session."
)
LIST_INTENTS = (
    "List the intents of this workspace with their status, scope and which session holds each."
)
GET_HANDOFF_CONTEXT = (
    "Build the Context Protocol v1 hand-off block for a sub-agent: the project path, stack and "
    "commands, a short conventions summary with the path of the full file, and the current work "
    "(story, PRD, branch). Pass it at the very start of the sub-agent's prompt."
)
REQUEST_SCOPE_EXPANSION = (
    "Ask a person to widen the owned scope of this session's active intent by one gitignore-"
    "style pattern (e.g. 'docs/api/**'), saying why in 'reason'. Use it after a Scope Violation "
    "for a write the task really needs. It files a request; it grants nothing: writes there stay "
    "denied until a person grants it. Protected paths can never be granted."
)
CHECK_SCOPE = (
    "Check whether a write to a path would be allowed under an intent's owned scope, and which "
    "pattern decides. Defaults to this session's active intent."
)


class ToolResult(NamedTuple):
    """One text block, and whether it reports a failure (MCP ``isError``)."""

    text: str
    is_error: bool = False


class _Required:
    """Marks a parameter without a default."""


REQUIRED = _Required()


class Param(NamedTuple):
    """A string parameter: ``nullable`` is ``str | None``; ``default`` may be ``REQUIRED``."""

    name: str
    default: str | None | _Required = REQUIRED
    nullable: bool = False


class ToolSpec(NamedTuple):
    name: str
    description: str
    params: tuple[Param, ...]


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec("paw_get_context", PAW_GET_CONTEXT, (Param("feature_slug"), Param("agent_name"))),
    ToolSpec("select_active_intent", SELECT_ACTIVE_INTENT, (Param("intent_id"),)),
    ToolSpec("list_intents", LIST_INTENTS, ()),
    ToolSpec("check_scope", CHECK_SCOPE, (Param("path"), Param("intent_id", None, nullable=True))),
    ToolSpec(
        "request_scope_expansion", REQUEST_SCOPE_EXPANSION, (Param("pattern"), Param("reason", ""))
    ),
    ToolSpec("get_handoff_context", GET_HANDOFF_CONTEXT, ()),
)
TOOLS_BY_NAME: dict[str, ToolSpec] = {tool.name: tool for tool in TOOLS}


def input_schema(tool: ToolSpec) -> dict[str, object]:
    """The tool's arguments as JSON schema (as pydantic would write it for the function, so
    clients that cache schemas see no change from earlier releases)."""
    properties: dict[str, object] = {}
    for param in tool.params:
        title = param.name.replace("_", " ").title()
        if param.nullable:
            field: dict[str, object] = {"anyOf": [{"type": "string"}, {"type": "null"}]}
        else:
            field = {}
        if not isinstance(param.default, _Required):
            field["default"] = param.default
        field["title"] = title
        if not param.nullable:
            field["type"] = "string"
        properties[param.name] = field
    schema: dict[str, object] = {"properties": properties}
    required = [param.name for param in tool.params if isinstance(param.default, _Required)]
    if required:
        schema["required"] = required
    schema["type"] = "object"
    schema["title"] = f"{tool.name}Arguments"
    return schema


def tool_listing() -> list[dict[str, object]]:
    """``tools/list``'s ``tools``, as the SDK serialises them."""
    return [
        {"description": tool.description, "inputSchema": input_schema(tool), "name": tool.name}
        for tool in TOOLS
    ]


def bind_arguments(tool: ToolSpec, arguments: Mapping[str, object]) -> dict[str, str | None] | str:
    """The keyword arguments for ``tool``, or a message naming the argument that is missing
    or of the wrong type. Unknown keys are ignored (clients add their own metadata); a
    nullable argument also takes the JSON text ``"null"`` (some clients send every argument
    as a string)."""
    bound: dict[str, str | None] = {}
    for param in tool.params:
        if param.name not in arguments:
            if isinstance(param.default, _Required):
                return f"Invalid arguments for {tool.name}: '{param.name}' is required."
            bound[param.name] = param.default
            continue
        value = arguments[param.name]
        if param.nullable and value == "null":
            value = None
        if isinstance(value, str) or (value is None and param.nullable):
            bound[param.name] = value
        else:
            wanted = "a string or null" if param.nullable else "a string"
            return (
                f"Invalid arguments for {tool.name}: '{param.name}' must be {wanted}, "
                f"not {type(value).__name__}."
            )
    return bound


class PawTools:
    """The server's state (where the workspace is; in plain mode, this process's session)
    and its tools, each returning a :class:`ToolResult`."""

    def __init__(
        self,
        *,
        hooked: bool = False,
        environ: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        self.hooked = hooked
        self.environ = os.environ if environ is None else environ
        self.cwd = cwd or os.getcwd()
        self.session_id = f"mcp-{os.getpid()}-{os.urandom(4).hex()}"

    @staticmethod
    def failure(text: str) -> ToolResult:
        """A result reporting a failure (MCP ``isError``)."""
        return ToolResult(text, True)

    def call(
        self,
        name: str,
        arguments: Mapping[str, str | None],
        is_cancelled: Callable[[], bool] | None = None,
    ) -> ToolResult:
        """Run tool ``name`` with arguments bound by :func:`bind_arguments`."""
        if name == "paw_get_context":
            return self.paw_get_context(
                str(arguments["feature_slug"]), str(arguments["agent_name"]), is_cancelled
            )
        if name == "select_active_intent":
            return self.select_active_intent(str(arguments["intent_id"]))
        if name == "list_intents":
            return self.list_intents()
        if name == "check_scope":
            return self.check_scope(str(arguments["path"]), arguments.get("intent_id"))
        if name == "request_scope_expansion":
            return self.request_scope_expansion(
                str(arguments["pattern"]), str(arguments.get("reason", ""))
            )
        if name == "get_handoff_context":
            return self.get_handoff_context()
        raise KeyError(name)

    # -- workspace ---------------------------------------------------------------------------
    def roots(self) -> list[str]:
        from paw_tui.core.workspace.discovery import discover_roots
        from paw_tui.core.workspace.platform import PlatformProbe, home_directory

        return discover_roots(
            environ=self.environ,
            cwd=self.cwd,
            home=home_directory(PlatformProbe(environ=self.environ)),
            client_project_env=True,
        )

    def state(self) -> WorkspaceState:
        from paw_tui.core.errors import WorkspaceError
        from paw_tui.core.workspace.state import WorkspaceState

        roots = self.roots()
        if not roots:
            raise WorkspaceError(
                "Unable to determine workspace path: no workspace folder is currently open."
            )
        return WorkspaceState(roots[0])

    # -- tools -------------------------------------------------------------------------------
    def paw_get_context(
        self, feature_slug: str, agent_name: str, is_cancelled: Callable[[], bool] | None = None
    ) -> ToolResult:
        from paw_tui.core.context.format import format_context
        from paw_tui.core.context.tool import get_context
        from paw_tui.core.errors import CancelledError, PawError
        from paw_tui.core.workspace.platform import PlatformProbe, user_instructions_dir

        try:
            result = get_context(
                feature_slug,
                agent_name,
                roots=self.roots(),
                user_instructions_dir=user_instructions_dir(PlatformProbe(environ=self.environ)),
                is_cancelled=is_cancelled,
            )
        except CancelledError:
            return ToolResult(CANCELLED, True)
        except PawError as exc:
            return ToolResult(CONTEXT_ERROR_PREFIX + str(exc), True)
        return ToolResult(format_context(result))

    def select_active_intent(self, intent_id: str) -> ToolResult:
        from paw_tui.core.errors import PawError
        from paw_tui.core.intents.view import intent_context_block

        try:
            state = self.state()
            if self.hooked:
                return self._validate_selection(state, intent_id)
            from paw_tui.core.handshake.selection import SELECTED, select_active_intent

            selection = select_active_intent(state, self.session_id, intent_id, client="mcp")
            if not selection.accepted:
                return ToolResult(selection.message, True)
            if selection.outcome != SELECTED or selection.intent is None:
                return ToolResult(selection.message)
            return ToolResult(intent_context_block(state, selection.intent))
        except PawError as exc:
            return ToolResult(str(exc), True)

    def _validate_selection(self, state: WorkspaceState, intent_id: str) -> ToolResult:
        """Hooked mode: the gate already decided on PreToolUse; say what it decided."""
        from paw_tui.core.handshake import messages
        from paw_tui.core.handshake.sessions import (
            PENDING_APPROVAL,
            held_intents,
            holding_sessions,
        )
        from paw_tui.core.intents.view import intent_context_block

        policy = state.policy
        if not policy.valid:
            return ToolResult(policy.unavailable_reason or UNAVAILABLE, True)
        wanted = intent_id.strip() if isinstance(intent_id, str) else ""
        intent = policy.intent(wanted)
        held = held_intents(state.root, state.now(), policy.governance.session_ttl)
        if intent is None:
            return ToolResult(
                messages.unknown_intent(wanted, policy.selectable(set(held)), held), True
            )
        refusal = messages.status_refusal(intent)
        if refusal:
            return ToolResult(refusal, True)
        for session in holding_sessions(state.root):
            if session.intent_id == intent.id and session.state == PENDING_APPROVAL:
                return ToolResult(messages.awaiting_approval(intent.id))
        return ToolResult(intent_context_block(state, intent))

    def list_intents(self) -> ToolResult:
        from paw_tui.core.errors import PawError
        from paw_tui.core.handshake.sessions import held_intents

        try:
            state = self.state()
        except PawError as exc:
            return ToolResult(str(exc), True)
        policy = state.policy
        if not policy.valid:
            return ToolResult(policy.unavailable_reason or UNAVAILABLE, True)
        held = held_intents(state.root, state.now(), policy.governance.session_ttl)
        data = [
            {
                "id": i.id,
                "name": i.name,
                "status": i.status,
                "selectable": i.selectable and i.id not in held,
                "held_by": held.get(i.id),
                "description": i.description,
                "owned_scope": i.owned_scope,
            }
            for i in policy.intents
        ]
        return ToolResult(json.dumps({"intents": data}, ensure_ascii=False, indent=1))

    def check_scope(self, path: str, intent_id: str | None = None) -> ToolResult:
        from paw_tui.core.errors import PawError

        try:
            state = self.state()
            policy = state.policy
            if not policy.valid:
                return ToolResult(policy.unavailable_reason or UNAVAILABLE, True)
            wanted = intent_id or self._current_intent(state)
            if not wanted:
                return ToolResult(
                    "No active intent: pass intent_id, or select an intent first.", True
                )
            intent = policy.intent(wanted)
            if intent is None:
                return ToolResult(f"Unknown intent '{wanted}'.", True)
            verdict = policy.checker(intent).check(path, cwd=state.root)
            return ToolResult(json.dumps(verdict.to_dict(), ensure_ascii=False, indent=1))
        except (PawError, ValueError) as exc:
            return ToolResult(str(exc), True)

    def get_handoff_context(self) -> ToolResult:
        from paw_tui.core.errors import PawError
        from paw_tui.core.handoff.protocol import handoff_for_workspace

        try:
            state = self.state()
            session = None if self.hooked else self.session_id
            return ToolResult(handoff_for_workspace(state.root, session))
        except PawError as exc:
            return ToolResult(str(exc), True)

    def request_scope_expansion(self, pattern: str, reason: str = "") -> ToolResult:
        from paw_tui.core.errors import PawError

        try:
            state = self.state()
            if self.hooked:
                return self._scope_request_status(state, pattern)
            from paw_tui.core.handshake.scope_expansion import file_scope_request

            filing = file_scope_request(state, self.session_id, pattern, reason, client="mcp")
            return ToolResult(filing.message, not filing.filed)
        except PawError as exc:
            return ToolResult(str(exc), True)

    def _scope_request_status(self, state: WorkspaceState, pattern: str) -> ToolResult:
        """Hooked mode: the gate filed the request on PreToolUse; say where it stands."""
        from paw_tui.core.handshake.scope_expansion import pending_message
        from paw_tui.core.handshake.scope_requests import iter_requests

        wanted = pattern.strip() if isinstance(pattern, str) else ""
        latest = None
        for request in iter_requests(state.root):
            if request.pattern == wanted:
                latest = request
        if latest is None:
            return ToolResult(f"No scope request for {wanted!r} was filed.", True)
        if latest.pending:
            return ToolResult(pending_message(latest))
        return ToolResult(f"Scope request {latest.id} for {latest.pattern} was {latest.state}.")

    def _current_intent(self, state: WorkspaceState) -> str | None:
        from paw_tui.core.handshake.sessions import held_intents, load_session

        if not self.hooked:
            session = load_session(state.root, self.session_id)
            return session.intent_id if session is not None and session.holds_intent else None
        held = held_intents(state.root, state.now(), state.policy.governance.session_ttl)
        return next(iter(held)) if len(held) == 1 else None

    def release(self) -> None:
        """Plain mode: give up this process's lock when the client goes away."""
        if self.hooked:
            return
        try:
            from paw_tui.core.handshake.selection import release_session

            release_session(self.state(), self.session_id, reason="MCP server stopped")
        except Exception:
            pass
