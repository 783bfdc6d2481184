"""``paw-tui mcp``: the MCP stdio server over the core (DESIGN §6), on the mcp 2.x
``MCPServer`` API.

Tools: ``paw_get_context``, ``select_active_intent``, ``list_intents``, ``check_scope``,
``get_handoff_context``, ``request_scope_expansion``.
Domain failures come back as ``isError`` results carrying the core's exact messages (a raised
``ToolError`` would be prefixed "Error executing tool ...").

Plain ``paw-tui mcp`` holds one session per server process and locks intents itself.
``paw-tui mcp --hooked`` (what ``install claude-code`` writes) runs beside the gate, which
sees the client's real session id and performs the selection on PreToolUse; the server then
only validates and returns the intent context block.
"""

from __future__ import annotations

import json
import os

import anyio
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent

from paw_tui.core.errors import CancelledError, PawError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from paw_tui.core.workspace.state import WorkspaceState

SERVER_NAME = "paw"
CONTEXT_ERROR_PREFIX = "Error retrieving PAW context: "
CANCELLED = "Context retrieval was cancelled."

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


def _text(text: str, *, error: bool = False) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=error)


class PawMcp:
    """The server's state: where the workspace is, and (plain mode) this process's session."""

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
    ) -> CallToolResult:
        from paw_tui.core.context.format import format_context
        from paw_tui.core.context.tool import get_context
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
            return _text(CANCELLED, error=True)
        except PawError as exc:
            return _text(CONTEXT_ERROR_PREFIX + str(exc), error=True)
        return _text(format_context(result))

    def select_active_intent(self, intent_id: str) -> CallToolResult:
        from paw_tui.core.intents.view import intent_context_block

        try:
            state = self.state()
            if self.hooked:
                return self._validate_selection(state, intent_id)
            from paw_tui.core.handshake.selection import SELECTED, select_active_intent

            selection = select_active_intent(state, self.session_id, intent_id, client="mcp")
            if not selection.accepted:
                return _text(selection.message, error=True)
            if selection.outcome != SELECTED or selection.intent is None:
                return _text(selection.message)
            return _text(intent_context_block(state, selection.intent))
        except PawError as exc:
            return _text(str(exc), error=True)

    def _validate_selection(self, state: WorkspaceState, intent_id: str) -> CallToolResult:
        """Hooked mode: the gate already decided on PreToolUse; say what it decided."""
        from paw_tui.core.handshake import messages
        from paw_tui.core.handshake.sessions import PENDING_APPROVAL, held_intents, iter_sessions
        from paw_tui.core.intents.view import intent_context_block

        policy = state.policy
        if not policy.valid:
            return _text(
                policy.unavailable_reason or "Orchestration state unavailable.", error=True
            )
        wanted = intent_id.strip() if isinstance(intent_id, str) else ""
        intent = policy.intent(wanted)
        held = held_intents(state.root, state.now(), policy.governance.session_ttl)
        if intent is None:
            return _text(
                messages.unknown_intent(wanted, policy.selectable(set(held)), held), error=True
            )
        refusal = messages.status_refusal(intent)
        if refusal:
            return _text(refusal, error=True)
        for session in iter_sessions(state.root):
            if session.intent_id == intent.id and session.state == PENDING_APPROVAL:
                return _text(messages.awaiting_approval(intent.id))
        return _text(intent_context_block(state, intent))

    def list_intents(self) -> CallToolResult:
        from paw_tui.core.handshake.sessions import held_intents

        try:
            state = self.state()
        except PawError as exc:
            return _text(str(exc), error=True)
        policy = state.policy
        if not policy.valid:
            return _text(
                policy.unavailable_reason or "Orchestration state unavailable.", error=True
            )
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
        return _text(json.dumps({"intents": data}, ensure_ascii=False, indent=1))

    def check_scope(self, path: str, intent_id: str | None = None) -> CallToolResult:
        try:
            state = self.state()
            policy = state.policy
            if not policy.valid:
                return _text(
                    policy.unavailable_reason or "Orchestration state unavailable.", error=True
                )
            wanted = intent_id or self._current_intent(state)
            if not wanted:
                return _text(
                    "No active intent: pass intent_id, or select an intent first.", error=True
                )
            intent = policy.intent(wanted)
            if intent is None:
                return _text(f"Unknown intent '{wanted}'.", error=True)
            verdict = policy.checker(intent).check(path, cwd=state.root)
            return _text(json.dumps(verdict.to_dict(), ensure_ascii=False, indent=1))
        except (PawError, ValueError) as exc:
            return _text(str(exc), error=True)

    def get_handoff_context(self) -> CallToolResult:
        from paw_tui.core.handoff.protocol import handoff_for_workspace

        try:
            state = self.state()
            session = None if self.hooked else self.session_id
            return _text(handoff_for_workspace(state.root, session))
        except PawError as exc:
            return _text(str(exc), error=True)

    def request_scope_expansion(self, pattern: str, reason: str = "") -> CallToolResult:
        try:
            state = self.state()
            if self.hooked:
                return self._scope_request_status(state, pattern)
            from paw_tui.core.handshake.scope_expansion import file_scope_request

            filing = file_scope_request(state, self.session_id, pattern, reason, client="mcp")
            return _text(filing.message, error=not filing.filed)
        except PawError as exc:
            return _text(str(exc), error=True)

    def _scope_request_status(self, state: WorkspaceState, pattern: str) -> CallToolResult:
        """Hooked mode: the gate filed the request on PreToolUse; say where it stands."""
        from paw_tui.core.handshake.scope_expansion import pending_message
        from paw_tui.core.handshake.scope_requests import iter_requests

        wanted = pattern.strip() if isinstance(pattern, str) else ""
        latest = None
        for request in iter_requests(state.root):
            if request.pattern == wanted:
                latest = request
        if latest is None:
            return _text(f"No scope request for {wanted!r} was filed.", error=True)
        if latest.pending:
            return _text(pending_message(latest))
        return _text(f"Scope request {latest.id} for {latest.pattern} was {latest.state}.")

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


def build_server(paw: PawMcp) -> MCPServer:
    server = MCPServer(
        SERVER_NAME,
        instructions=(
            "paw-tui governs this repository: call paw_get_context for your custom instructions, and "
            "select_active_intent before changing any file."
        ),
    )

    @server.tool(name="paw_get_context", description=PAW_GET_CONTEXT)
    async def paw_get_context(feature_slug: str, agent_name: str) -> CallToolResult:
        """The work id (lowercase letters, digits, hyphens) and the calling agent's exact name."""
        cancelled = anyio.Event()
        try:
            return await anyio.to_thread.run_sync(
                lambda: paw.paw_get_context(feature_slug, agent_name, cancelled.is_set)
            )
        except anyio.get_cancelled_exc_class():
            cancelled.set()
            raise

    @server.tool(name="select_active_intent", description=SELECT_ACTIVE_INTENT)
    async def select_active_intent(intent_id: str) -> CallToolResult:
        return await anyio.to_thread.run_sync(lambda: paw.select_active_intent(intent_id))

    @server.tool(name="list_intents", description=LIST_INTENTS)
    async def list_intents() -> CallToolResult:
        return await anyio.to_thread.run_sync(paw.list_intents)

    @server.tool(name="check_scope", description=CHECK_SCOPE)
    async def check_scope(path: str, intent_id: str | None = None) -> CallToolResult:
        return await anyio.to_thread.run_sync(lambda: paw.check_scope(path, intent_id))

    @server.tool(name="request_scope_expansion", description=REQUEST_SCOPE_EXPANSION)
    async def request_scope_expansion(pattern: str, reason: str = "") -> CallToolResult:
        return await anyio.to_thread.run_sync(lambda: paw.request_scope_expansion(pattern, reason))

    @server.tool(name="get_handoff_context", description=GET_HANDOFF_CONTEXT)
    async def get_handoff_context() -> CallToolResult:
        return await anyio.to_thread.run_sync(paw.get_handoff_context)

    return server


def serve(*, hooked: bool = False) -> None:
    paw = PawMcp(hooked=hooked)
    server = build_server(paw)
    try:
        server.run("stdio")
    finally:
        paw.release()
