"""Which intent a session may work under right now, or why it may not (DESIGN §4).

A pure function of the policy and the session record: the gate, ``paw-tui check`` and the
MCP server ask it the same question. Standard library only.
"""

from __future__ import annotations

from paw_tui.core.handshake import messages
from paw_tui.core.handshake.sessions import PENDING_APPROVAL
from paw_tui.core.intents.model import SELECTABLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.sessions import Session
    from paw_tui.core.intents.model import Intent
    from paw_tui.core.policy.compiled import Policy
    from paw_tui.core.workspace.state import WorkspaceState


def working_intent(policy: Policy, session: Session | None) -> tuple[Intent | None, str | None]:
    """``(intent, None)`` when the session may work under ``intent``; ``(None, reason)`` when
    it holds one it may not use now; ``(None, None)`` when it holds none (it must select)."""
    if session is None or not session.holds_intent or not session.intent_id:
        return None, None
    if session.state == PENDING_APPROVAL:
        return None, messages.awaiting_approval(session.intent_id)
    intent = policy.intent(session.intent_id)
    if intent is None:
        return None, messages.intent_gone(session.intent_id)
    if intent.status in SELECTABLE:
        return intent, None
    refusal = messages.status_refusal(intent)
    if refusal is None:
        return intent, None
    if intent.status == "BLOCKED":
        return None, refusal + messages.BLOCKED_FOLLOW_UP
    return None, refusal + messages.ENDED_FOLLOW_UP


def session_standing(
    state: WorkspaceState, session_id: str, tool: str | None = None
) -> tuple[Intent | None, str]:
    """For callers outside the gate (``check``, the MCP server): load the session and say
    which intent it may work under, or the full refusal the gate would give (a session whose
    lock expired holds nothing)."""
    from paw_tui.core.handshake.sessions import held_intents, load_session

    policy = state.policy
    now = state.now()
    ttl = policy.governance.session_ttl
    session = load_session(state.root, session_id)
    if session is not None and session.holds_intent and not session.is_live(now, ttl):
        session = None
    intent, refusal = working_intent(policy, session)
    if intent is not None:
        return intent, ""
    if refusal is None:
        held = held_intents(state.root, now, ttl, besides=session_id)
        refusal = messages.must_cite(policy.selectable(set(held)), tool, held)
    return None, refusal
