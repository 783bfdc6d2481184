"""Filing and deciding scope requests (DESIGN §5).

The agent files (the gate, at PreToolUse of ``request_scope_expansion``, for the payload's
session; or the MCP server in plain mode); a person decides. Filing refuses what could never
be granted (no intent held, a protected or malformed pattern) so the agent hears why at once.
Every outcome is recorded, under the state lock.
"""

from __future__ import annotations

from paw_tui.core.errors import ValidationError
from paw_tui.core.handshake import scope_requests as store
from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.handshake.names import REQUEST_SCOPE_TOOL
from paw_tui.core.ledger import records
from paw_tui.core.ledger.acts import record_act
from paw_tui.core.support.printable import has_control, printable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.policy.compiled import Policy
    from paw_tui.core.workspace.state import WorkspaceState

MAX_PATTERN_CHARS = 512
MAX_REASON_CHARS = 2000
_GLOB = "*?[\\"


class ScopeFiling:
    """The outcome of one ``request_scope_expansion`` call: ``request`` when filed (or when
    the same request was already pending), else ``message`` says why not."""

    __slots__ = ("filed", "message", "request")

    def __init__(self, filed: bool, message: str, request: store.ScopeRequest | None = None):
        self.filed = filed
        self.message = message
        self.request = request

    def to_dict(self) -> dict[str, object]:
        return {
            "filed": self.filed,
            "message": self.message,
            "request": self.request.to_dict() if self.request else None,
        }


def pattern_problem(policy: Policy, pattern: object) -> str | None:
    """Why ``pattern`` could never be granted, or None."""
    from paw_tui.core.policy.scope.compile import compile_scope
    from paw_tui.core.policy.scope.patterns import ScopePatternError
    from paw_tui.core.policy.scope.protect import builtin_protection

    if not isinstance(pattern, str) or not pattern.strip():
        return "the pattern must be a non-empty string"
    if len(pattern) > MAX_PATTERN_CHARS:
        return f"the pattern is longer than {MAX_PATTERN_CHARS} characters"
    if has_control(pattern):
        return f"the pattern '{printable(pattern)}' holds a control character"
    if pattern.startswith("!"):
        return "a request widens the scope; a '!' pattern would narrow it"
    try:
        compile_scope([pattern], label="requested pattern")
    except ScopePatternError as error:
        return str(error)
    literal = literal_prefix(pattern)
    if builtin_protection(literal) is not None or _governance_protects(policy, literal):
        return f"{literal or '.'} is protected: agents never write it, and no grant can change that"
    return None


def literal_prefix(pattern: str) -> str:
    """The directory (or file) a pattern names before its first wildcard, root-relative:
    ``src/auth/**`` -> ``src/auth``, ``*.md`` -> ``""`` (the root)."""
    literal = pattern.strip().removeprefix("!").lstrip("/")
    cut = min((literal.find(char) for char in _GLOB if char in literal), default=-1)
    if cut >= 0:
        literal = literal[:cut].rpartition("/")[0]
    return literal.rstrip("/")


def protected_by(policy: Policy, pattern: str) -> str | None:
    """The protected path an including pattern names (its literal prefix lies in a built-in
    protected path or one of ``governance.yaml: protected:``), or None. Patterns naming the
    root (``**``, ``*.md``) are not flagged: protection still holds inside them."""
    from paw_tui.core.policy.scope.protect import builtin_protection

    literal = literal_prefix(pattern)
    if not literal or pattern.strip().startswith("!"):
        return None
    if builtin_protection(literal) is not None or _governance_protects(policy, literal):
        return literal
    return None


def _governance_protects(policy: Policy, literal: str) -> bool:
    protected = policy.protected_scope()
    if protected is None or not literal:
        return False
    include, index = protected.match(literal)
    return bool(include) and index is not None


def file_scope_request(
    state: WorkspaceState,
    session_id: str,
    pattern: object,
    reason: object,
    *,
    client: str | None = None,
) -> ScopeFiling:
    """File a request for the intent ``session_id`` holds; refused (and recorded) when no
    intent is held or the pattern could never be granted."""
    root = state.root
    with sessions_store.state_lock(root):
        policy = state.policy
        now = state.now()
        session = sessions_store.load_session(root, session_id)
        live = (
            session is not None
            and session.state == sessions_store.ACTIVE
            and session.intent_id
            and session.is_live(now, policy.governance.session_ttl)
        )
        intent_id = session.intent_id if live and session is not None else None
        shown = printable(pattern) if isinstance(pattern, str) else repr(pattern)

        def refuse(message: str) -> ScopeFiling:
            state.record(
                records.SCOPE_DENIED, session_id=session_id, intent_id=intent_id, client=client,
                tool=REQUEST_SCOPE_TOOL, decision="deny", reason=message,
                pattern=shown[:MAX_PATTERN_CHARS],
            )  # fmt: skip
            return ScopeFiling(False, message)

        if not policy.valid:
            return refuse(policy.unavailable_reason or "Orchestration state unavailable.")
        if intent_id is None:
            return refuse(
                "paw-tui policy: no active intent is held by this session; select one with "
                "select_active_intent before asking to widen its scope."
            )
        problem = pattern_problem(policy, pattern)
        if problem is not None:
            return refuse(f"paw-tui policy: cannot request '{shown}': {problem}.")
        assert isinstance(pattern, str)
        pattern = pattern.strip()
        intent = policy.intent(intent_id)
        if intent is not None and pattern in intent.owned_scope:
            return ScopeFiling(True, f"{intent_id} already owns {pattern}.")
        for waiting in store.pending_requests(root):
            if waiting.intent_id == intent_id and waiting.pattern == pattern:
                return ScopeFiling(True, pending_message(waiting), waiting)
        text = reason if isinstance(reason, str) else ""
        request = store.ScopeRequest(
            store.new_request_id(now), session_id, intent_id, pattern,
            printable(text.strip())[:MAX_REASON_CHARS], store.PENDING, now,
        )  # fmt: skip
        state.record(
            records.SCOPE_REQUESTED, session_id=session_id, intent_id=intent_id, client=client,
            tool=REQUEST_SCOPE_TOOL, decision="pending", pattern=pattern,
            reason=request.reason or None, request_id=request.id,
        )  # fmt: skip
        store.save_request(root, request)
        return ScopeFiling(True, pending_message(request), request)


def pending_message(request: store.ScopeRequest) -> str:
    return (
        f"Scope request {request.id} filed: {request.pattern} for {request.intent_id}. It waits "
        "for a person to grant or deny it; until then writes there stay denied. Carry on "
        "with work inside the current scope."
    )


def decide_scope_request(
    state: WorkspaceState, request_id: str, grant: bool, *, by: str = "human", note: str = ""
) -> store.ScopeRequest:
    """Grant (the pattern joins the intent's ``owned_scope``) or deny a pending request;
    raises ValidationError naming what is wrong."""
    root = state.root
    with sessions_store.state_lock(root):
        request = store.load_request(root, request_id)
        if request is None:
            raise ValidationError(f"No scope request '{request_id}'.")
        if not request.pending:
            raise ValidationError(f"Scope request '{request_id}' is already {request.state}.")
        changes = []
        if grant:
            problem = pattern_problem(state.policy, request.pattern)
            if problem is not None:
                raise ValidationError(f"Scope request '{request_id}' cannot be granted: {problem}.")
            from paw_tui.core.intents.scope_edit import prepare_owned_pattern

            edit = prepare_owned_pattern(root, request.intent_id, request.pattern)
            if edit is not None:
                changes.append(edit)
        request.state = store.GRANTED if grant else store.DENIED
        request.decided_at = state.now()
        request.decided_by = by
        request.note = note.strip() or None
        record_act(
            state,
            f"{'granting' if grant else 'denying'} scope request {request.id}",
            records.SCOPE_GRANTED if grant else records.SCOPE_DENIED,
            changes,
            session_id=request.session_id, intent_id=request.intent_id,
            decision="allow" if grant else "deny", pattern=request.pattern,
            reason=f"by {by}" + (f": {printable(note.strip())}" if note.strip() else ""),
            request_id=request.id,
        )  # fmt: skip
        if changes:
            state.reload_policy()
        store.save_request(root, request)
        return request
