"""The handshake (seed 002, DESIGN §4): an agent session selects one active intent.

Every decision here runs under the state lock (so two sessions racing for one intent cannot
both win), is written to the ledger before it takes effect where it can be undone, and comes
back as a value carrying the exact message an agent or a human reads.
"""

from __future__ import annotations

from paw_tui.core.errors import ValidationError
from paw_tui.core.handshake import approvals as approvals_store
from paw_tui.core.handshake import messages
from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.handshake.names import SELECT_TOOL
from paw_tui.core.handshake.sessions import ACTIVE, PENDING_APPROVAL, Session
from paw_tui.core.ledger import records
from paw_tui.core.ledger.acts import record_act, recorded

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.claims.remote import ClaimAttempt
    from paw_tui.core.intents.model import Intent
    from paw_tui.core.workspace.state import WorkspaceState

SELECTED = "selected"
PENDING = "pending_approval"
REFUSED = "refused"


class Selection:
    """The outcome of one ``select_active_intent`` call."""

    __slots__ = ("outcome", "message", "intent", "session", "approval_id")

    def __init__(
        self,
        outcome: str,
        message: str,
        intent: Intent | None = None,
        session: Session | None = None,
        approval_id: str | None = None,
    ) -> None:
        self.outcome = outcome
        self.message = message
        self.intent = intent
        self.session = session
        self.approval_id = approval_id

    @property
    def accepted(self) -> bool:
        """Selected, or waiting for approval: the tool call itself is not refused."""
        return self.outcome != REFUSED

    def to_dict(self) -> dict[str, object]:
        return {
            "outcome": self.outcome,
            "message": self.message,
            "intent_id": self.intent.id if self.intent else None,
            "session_id": self.session.session_id if self.session else None,
            "approval_id": self.approval_id,
        }


def select_active_intent(
    state: WorkspaceState,
    session_id: str,
    intent_id: object,
    *,
    client: str | None = None,
    tool: str | None = None,
) -> Selection:
    """Select ``intent_id`` for ``session_id`` (see DESIGN §4 for every rule); ``tool`` is the
    handshake tool's name as the client called it (recorded as such)."""
    if not isinstance(session_id, str) or not session_id.strip():
        raise ValidationError("A session id is required to select an intent.")
    wanted = intent_id.strip() if isinstance(intent_id, str) else ""
    with sessions_store.state_lock(state.root):
        attempt = _Attempt(state, session_id, wanted, client, tool or SELECT_TOOL)
        outcome = attempt.run()
    if not isinstance(outcome, _NeedsClaim):
        return outcome
    # With claims on, the remote is asked outside the state lock (it may take seconds, and
    # every local decision waits on that lock), then everything is decided again under it.
    from paw_tui.core.claims.sessions import claim_for

    claim = claim_for(
        state.root, outcome.remote, outcome.intent_id, session_id, client, attempt.now
    )
    with sessions_store.state_lock(state.root):
        attempt = _Attempt(state, session_id, wanted, client, tool or SELECT_TOOL, claim)
        final = attempt.run()
    assert not isinstance(final, _NeedsClaim)
    kept = final.session.claim if final.session is not None else None
    if not attempt.claim_used and claim.commit and (kept or {}).get("commit") != claim.commit:
        # decided otherwise meanwhile (another local session took it), or a push cut off by
        # the deadline that may have landed: given back, with a lease on that commit
        from paw_tui.core.claims.sessions import drop_in_background, session_claim

        held = session_claim(outcome.remote, outcome.intent_id, claim.commit)
        drop_in_background(state.root, Session(session_id, claim=held))
    return final


class _NeedsClaim:
    """The selection would go ahead: the remote must be asked first (outside the lock)."""

    __slots__ = ("remote", "intent_id")

    def __init__(self, remote: str, intent_id: str) -> None:
        self.remote = remote
        self.intent_id = intent_id


class _Attempt:
    """One selection, decided under the state lock; each outcome is recorded."""

    def __init__(
        self,
        state: WorkspaceState,
        session_id: str,
        wanted: str,
        client: str | None,
        tool: str,
        claim: ClaimAttempt | None = None,
    ) -> None:
        self.claim_attempt = claim
        self.claim_used = False
        self.state = state
        self.tool = tool
        self.root = state.root
        self.session_id = session_id
        self.wanted = wanted
        self.client = client
        self.now = state.now()
        self.policy = state.policy
        self.existing = sessions_store.load_session(self.root, session_id)

    def record(self, event: str, intent_id: str | None, decision: str, **extra: object) -> None:
        self.state.record(
            event,
            session_id=self.session_id,
            intent_id=intent_id,
            client=self.client,
            tool=self.tool,
            decision=decision,
            **extra,
        )

    def refuse(self, message: str, intent: Intent | None = None) -> Selection:
        self.record(records.SELECTION_REFUSED, self.wanted or None, "deny", reason=message)
        return Selection(REFUSED, message, intent, self.existing)

    def run(self) -> Selection | _NeedsClaim:
        policy = self.policy
        ttl = policy.governance.session_ttl
        existing = self.existing
        if existing is not None and existing.holds_intent and not existing.is_live(self.now, ttl):
            # Its lock expired while it was idle: it selects again, and a request it was
            # still waiting on no longer reserves anything.
            _withdraw(
                self.root, existing, self.now, "the session was idle longer than the session TTL"
            )
            self.existing = existing = None
        held = sessions_store.held_intents(self.root, self.now, ttl, besides=self.session_id)
        if not policy.valid:
            return self.refuse(policy.unavailable_reason or "Orchestration state unavailable.")
        intent = policy.intent(self.wanted) if self.wanted else None
        if intent is None:
            return self.refuse(
                messages.unknown_intent(self.wanted, policy.selectable(set(held)), held)
            )
        if existing is not None and existing.holds_intent:
            return self.again(existing, intent)
        refusal = messages.status_refusal(intent)
        if refusal:
            return self.refuse(refusal, intent)
        holder = held.get(intent.id)
        if holder is not None and not policy.governance.intent_sharing:
            return self.refuse(messages.held_by_other(intent.id, holder), intent)
        return self.take(intent)

    def again(self, existing: Session, intent: Intent) -> Selection:
        """A session that already holds an intent: the same one again is idempotent."""
        if existing.intent_id != intent.id:
            return self.refuse(
                messages.session_locked(self.session_id, existing.intent_id or "", intent.id),
                intent,
            )
        if existing.state == PENDING_APPROVAL:
            return Selection(
                PENDING,
                messages.awaiting_approval(intent.id),
                intent,
                existing,
                existing.approval_id,
            )
        refusal = messages.status_refusal(intent)
        if refusal:
            return self.refuse(refusal, intent)
        self.record(
            records.INTENT_SELECTED, intent.id, "allow", reason="already held by this session"
        )
        return Selection(SELECTED, messages.selected(intent.id, self.session_id), intent, existing)

    def take(self, intent: Intent) -> Selection | _NeedsClaim:
        """The session takes the intent, or reserves it pending a human's approval."""
        session = self.existing or Session(self.session_id, started=self.now)
        remote = self.policy.governance.claims_remote
        if remote is not None:
            if self.claim_attempt is None:
                return _NeedsClaim(remote, intent.id)
            refusal = self.claim(session, intent, remote, self.claim_attempt)
            if refusal is not None:
                return refusal
        session.intent_id = intent.id
        session.last_seen = self.now
        if self.client:
            session.client = self.client
        if self.policy.governance.approval_required:
            return self.reserve(session, intent)
        session.state = ACTIVE
        session.approval_id = None
        # Recorded first: a selection the ledger cannot hold never takes effect.
        try:
            self.record(records.INTENT_SELECTED, intent.id, "allow")
        except BaseException:
            _drop_claim(self.root, session)
            raise
        sessions_store.save_session(self.root, session)
        if intent.status == "PENDING":
            intent = _start_intent(self.state, intent, f"selected by session {self.session_id}")
        return Selection(SELECTED, messages.selected(intent.id, self.session_id), intent, session)

    def claim(
        self, session: Session, intent: Intent, remote: str, attempt: ClaimAttempt
    ) -> Selection | None:
        """The remote's answer (DESIGN §12): a refusal when another machine holds the claim
        or the remote could not say; None when it is ours (kept in the session record)."""
        from paw_tui.core.claims.remote import LOST, WON
        from paw_tui.core.claims.sessions import session_claim

        if attempt.outcome == WON and attempt.commit:
            session.claim = session_claim(remote, intent.id, attempt.commit)
            self.claim_used = True
            return None
        if attempt.outcome == LOST and self.policy.governance.intent_sharing:
            return None  # shared intents: the claim stays its first holder's, as held locally
        if attempt.outcome == LOST and attempt.holder is not None:
            info = attempt.holder.info
            if info is None:
                message = messages.held_remotely(
                    intent.id, "(unreadable claim)", "?", "?", remote, False
                )
            else:
                ttl = self.policy.governance.session_ttl
                message = messages.held_remotely(
                    intent.id,
                    info.session_id,
                    info.host,
                    info.since(),
                    remote,
                    info.is_stale(self.now, ttl),
                )
            return self.refuse(message, intent)
        return self.refuse(
            messages.claims_unreachable(intent.id, remote, attempt.reason or "no answer"), intent
        )

    def reserve(self, session: Session, intent: Intent) -> Selection:
        request = approvals_store.ApprovalRequest(
            approvals_store.new_request_id(self.now),
            self.session_id,
            intent.id,
            requested_at=self.now,
        )
        session.state = PENDING_APPROVAL
        session.approval_id = request.id
        try:
            self.record(
                records.APPROVAL_REQUESTED,
                intent.id,
                "pending",
                approval_id=request.id,
                reason=messages.awaiting_approval(intent.id),
            )
        except BaseException:
            _drop_claim(self.root, session)
            raise
        approvals_store.save_request(self.root, request)
        sessions_store.save_session(self.root, session)
        return Selection(
            PENDING, messages.awaiting_approval(intent.id), intent, session, request.id
        )


def _withdraw(root: str, session: Session, now: float, why: str) -> None:
    """Mark the session's pending approval request withdrawn (if it has one)."""
    if session.state != PENDING_APPROVAL or not session.approval_id:
        return
    request = approvals_store.load_request(root, session.approval_id)
    if request is not None and request.pending:
        request.state = approvals_store.WITHDRAWN
        request.decided_at = now
        request.note = why
        approvals_store.save_request(root, request)


def _drop_claim(root: str, session: Session) -> None:
    """Give the session's remote claim back (in the background: never a network wait)."""
    if session.claim:
        from paw_tui.core.claims.sessions import drop_in_background

        drop_in_background(root, session)
        session.claim = None


def _start_intent(state: WorkspaceState, intent: Intent, why: str) -> Intent:
    """PENDING -> IN_PROGRESS, recorded before it takes effect; the caller holds the state
    lock. When it cannot be recorded the intent stays PENDING and UnrecordedAct says why."""
    from paw_tui.core.intents.status import prepare_status_change

    old, edit = prepare_status_change(state.root, intent.id, "IN_PROGRESS")
    if edit is None:
        return intent
    record_act(
        state,
        f"starting {intent.id}",
        records.INTENT_STATUS_CHANGED,
        [edit],
        intent_id=intent.id,
        reason=f"{old} -> IN_PROGRESS ({why})",
        status_from=old,
        status_to="IN_PROGRESS",
    )
    state._policy = edit.policy
    return edit.policy.intent(intent.id) or intent


def set_intent_status(
    state: WorkspaceState, intent_id: str, status: str, *, by: str = "human"
) -> str:
    """A person changes an intent's status; returns the old one. The change and its ledger
    record stand or fall together (UnrecordedAct, nothing changed, when it cannot be
    recorded); no change, no record."""
    from paw_tui.core.intents.status import prepare_status_change

    with sessions_store.state_lock(state.root):
        old, edit = prepare_status_change(state.root, intent_id, status)
        if edit is not None:
            record_act(
                state,
                f"changing the status of {intent_id}",
                records.INTENT_STATUS_CHANGED,
                [edit],
                intent_id=intent_id,
                reason=f"{old} -> {status} (by {by})",
                status_from=old,
                status_to=status,
            )
            state._policy = edit.policy
    return old


def release_session(
    state: WorkspaceState, session_id: str, *, reason: str = "released"
) -> Session | None:
    """End a session's lock (SessionEnd or ``sessions release``); None if it had no record."""
    with sessions_store.state_lock(state.root):
        session = sessions_store.load_session(state.root, session_id)
        if session is None:
            return None
        end_session(state, session, reason=reason)
        return session


def end_session(state: WorkspaceState, session: Session, *, reason: str) -> None:
    """Record the release, withdraw the session's pending request, remove the record (the
    caller holds the state lock); UnrecordedAct, with nothing removed, when it cannot be
    recorded."""
    root = state.root
    recorded(
        state,
        f"releasing session {session.session_id}",
        records.SESSION_RELEASED,
        session_id=session.session_id,
        intent_id=session.intent_id,
        client=session.client,
        reason=reason,
    )
    if session.state == PENDING_APPROVAL and session.approval_id:
        request = approvals_store.load_request(root, session.approval_id)
        if request is not None and request.pending:
            request.state = approvals_store.WITHDRAWN
            request.decided_at = state.now()
            request.note = reason
            approvals_store.save_request(root, request)
    sessions_store.delete_session(root, session.session_id)
    _drop_claim(root, session)


def decide_approval(
    state: WorkspaceState, request_id: str, approve: bool, *, by: str = "human"
) -> approvals_store.ApprovalRequest:
    """Approve or reject a pending request; raises ValidationError naming what is wrong."""
    root = state.root
    with sessions_store.state_lock(root):
        request = approvals_store.load_request(root, request_id)
        if request is None:
            raise ValidationError(f"No approval request '{request_id}'.")
        if not request.pending:
            raise ValidationError(f"Approval request '{request_id}' is already {request.state}.")
        now = state.now()
        session = sessions_store.load_session(root, request.session_id)
        if session is None or session.approval_id != request.id:
            request.state = approvals_store.WITHDRAWN
            request.decided_at = now
            request.note = "the session no longer waits for it"
            approvals_store.save_request(root, request)
            raise ValidationError(
                f"Approval request '{request_id}' was withdrawn: session {request.session_id} no longer waits for it."
            )
        if approve and not state.policy.governance.intent_sharing:
            # A request from a session that went idle no longer reserves the intent, so
            # another session may hold (or wait for) it now: approving would make two holders.
            ttl = state.policy.governance.session_ttl
            others = sessions_store.holders(
                root, request.intent_id, now, ttl, besides=request.session_id
            )
            if others:
                raise ValidationError(
                    f"Approval request '{request_id}' cannot be approved: intent {request.intent_id} is "
                    f"held by session {others[0].session_id}."
                )
        request.decided_at = now
        request.decided_by = by
        if approve:
            request.state = approvals_store.APPROVED
            session.state = ACTIVE
            # The wait for a human is not idleness: the approved session starts its TTL now.
            session.last_seen = max(session.last_seen, now)
            event = records.APPROVAL_GRANTED
        else:
            request.state = approvals_store.REJECTED
            session.state = sessions_store.NONE
            session.intent_id = None
            event = records.APPROVAL_REJECTED
        session.approval_id = None
        recorded(
            state,
            f"{'approving' if approve else 'rejecting'} approval request {request.id}",
            event,
            session_id=request.session_id,
            intent_id=request.intent_id,
            decision="allow" if approve else "deny",
            reason=f"by {by}",
            approval_id=request.id,
        )
        approvals_store.save_request(root, request)
        released = None if approve else Session(session.session_id, claim=session.claim)
        if released is not None:
            session.claim = None
        sessions_store.save_session(root, session)
        if released is not None:
            _drop_claim(root, released)
        if approve:
            intent = state.policy.intent(request.intent_id)
            if intent is not None and intent.status == "PENDING":
                _start_intent(state, intent, f"approved for session {request.session_id}")
        return request


def request_for_session(root: str, session_id: str) -> approvals_store.ApprovalRequest | None:
    """The pending request of a session (for ``approvals approve --session S``)."""
    for request in approvals_store.pending_requests(root):
        if request.session_id == session_id:
            return request
    return None
