"""Every sentence the handshake says to an agent or a person (DESIGN §4), written once.

The gate, the MCP server, the CLI and the prompt assembly all import these; a test pins the
contract wording. Standard library only: the gate renders them.
"""

from __future__ import annotations

from paw_tui.core.handshake.names import REQUEST_SCOPE_TOOL, SELECT_TOOL, client_tool_name
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from paw_tui.core.intents.model import Intent

NO_INTENT = "You must cite a valid active Intent ID."
BLOCKED_FOLLOW_UP = " Mutating tools are denied until a human sets it back to IN_PROGRESS."
ENDED_FOLLOW_UP = " Start a new session and select another intent."
NONE_SELECTABLE = (
    f"No intent can be selected now: ask a human to add or reopen one in {layout.INTENTS}."
)


def describe(intent: Intent) -> str:
    """``INT-001 (JWT Authentication Migration)``, or the bare id when it has no name."""
    return f"{intent.id} ({intent.name})" if intent.name else intent.id


MAX_AVAILABLE = 20
"""Selectable intents a message names before it says how many more: a deny listing 2,000
would cost the hook more than its decision and be cut at the client's output limit."""


def available_list(available: Iterable[Intent], held: Mapping[str, str] | None = None) -> str:
    """The selectable intents as messages list them (the first ``MAX_AVAILABLE``); when none
    is free, ``none``, saying which are held by other sessions (so "none" never hides
    intents that exist)."""
    chosen = list(available)
    listed = ", ".join(describe(intent) for intent in chosen[:MAX_AVAILABLE])
    if listed:
        hidden = len(chosen) - MAX_AVAILABLE
        return listed + (f" and {hidden} more (list_intents lists them all)" if hidden > 0 else "")
    taken = sorted(held or {})
    if not taken:
        return "none"
    shown = ", ".join(f"{intent_id} (held by session {held[intent_id]})" for intent_id in taken[:5])  # type: ignore[index]
    more = f" and {len(taken) - 5} more" if len(taken) > 5 else ""
    return f"none free; held by other sessions: {shown}{more}"


def must_cite(
    available: list[Intent],
    tool: str | None,
    held: Mapping[str, str] | None = None,
    *,
    client: str | None = None,
    hint: str = "",
) -> str:
    """The deny before a selection: the contract sentence, then how to select, under
    ``client``'s own name for the tool (and, for a client that hides it, how to reach it)."""
    what = f" before using {tool}" if tool else ""
    if available:
        tail = f" {hint}" if hint else ""
        select = client_tool_name(client, SELECT_TOOL)
        return f"{NO_INTENT} Call {select} with one of: {available_list(available)}{what}.{tail}"
    if held:
        return f"{NO_INTENT} No intent is free: {available_list([], held)}. {NONE_SELECTABLE}"
    return f"{NO_INTENT} {NONE_SELECTABLE}"


def scope_expansion_how(client: str | None) -> str:
    """The sentence after a Scope Violation's ``Request scope expansion.`` (DESIGN §5): the
    tool to call for it, under ``client``'s own name."""
    name = client_tool_name(client, REQUEST_SCOPE_TOOL)
    return f"To ask a person for it, call {name}(pattern, reason)."


def unknown_intent(
    intent_id: str, available: list[Intent], held: Mapping[str, str] | None = None
) -> str:
    from paw_tui.core.support.suggest import did_you_mean_sentence

    hint = (
        did_you_mean_sentence(intent_id, [intent.id for intent in available]) if intent_id else ""
    )
    return (
        f"Unknown intent '{intent_id}'. Available intents: {available_list(available, held)}.{hint}"
    )


def awaiting_approval(intent_id: str) -> str:
    return f"Intent selection {intent_id} awaits human approval."


def session_locked(session_id: str, held_id: str, wanted_id: str) -> str:
    return (
        f"Session {session_id} is locked to {held_id}. Start a new session to work on {wanted_id}."
    )


def held_by_other(intent_id: str, holder: str) -> str:
    return (
        f"Intent {intent_id} is held by session {holder}. Choose another intent, or ask a "
        f"human to release it (paw-tui sessions release {holder})."
    )


def status_refusal(intent: Intent) -> str | None:
    """Why an intent cannot be selected (or worked on) because of its status."""
    if intent.status == "BLOCKED":
        return f"Intent {intent.id} is BLOCKED: human intervention is required before work can continue."
    if intent.status in ("COMPLETED", "ABANDONED"):
        return f"Intent {intent.id} is {intent.status} and no longer active."
    return None


def intent_gone(intent_id: str) -> str:
    return f"Intent {intent_id} no longer exists in {layout.INTENTS}.{ENDED_FOLLOW_UP}"


def selected(intent_id: str, session_id: str) -> str:
    return f"Intent {intent_id} is active for session {session_id}."


def held_remotely(
    intent_id: str, session_id: str, host: str, since: str, remote: str, stale: bool
) -> str:
    """The refusal when another machine's session holds the intent's claim (DESIGN §12)."""
    message = (
        f"Intent {intent_id} is held by session {session_id} on {host} since {since} (a claim "
        f"on the git remote '{remote}'). Choose another intent, or ask a human to release it "
        f"(paw-tui claims release {intent_id})."
    )
    if stale:
        message += (
            " The claim is older than the session TTL: a person can take it over with "
            f"paw-tui claims release {intent_id}."
        )
    return message


def claims_unreachable(intent_id: str, remote: str, reason: str) -> str:
    """The refusal when the claim cannot be taken or known (DESIGN §12)."""
    return (
        f"Intent {intent_id} cannot be claimed on the git remote '{remote}': {reason}. "
        "Claims are on (governance.yaml: claims), so a selection needs the remote; try again, "
        "or ask a person to turn claims off."
    )
