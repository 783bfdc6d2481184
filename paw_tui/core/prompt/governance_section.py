"""The governance section of an agent's prompt (DESIGN §8), for one session.

Before a selection it carries the mandate and the selectable intents; after it, the active
intent's guidance and scope. Broken state and "no intents" are said plainly. Standard
library only: the gate injects it on SessionStart and every UserPromptSubmit.
"""

from __future__ import annotations

from paw_tui.core.intents.context_block import clip

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.handshake.sessions import Session
    from paw_tui.core.intents.model import Intent
    from paw_tui.core.policy.compiled import Policy

MANDATE = (
    "You are an Intent-Driven Architect. You CANNOT write code immediately. Your first action "
    "MUST be to analyze the user request and call select_active_intent to load the necessary "
    "context."
)
HEADING = "## Governance (paw-tui)"
MAX_LISTED = 50


def _one_line(text: str, limit: int = 160) -> str:
    return clip(" ".join(text.split()), limit)


def _bullets(title: str, values: list[str]) -> list[str]:
    if not values:
        return []
    return [f"{title}:"] + [f"- {_one_line(value, 300)}" for value in values[:MAX_LISTED]]


def render_governance_section(
    policy: Policy | None,
    session: Session | None,
    *,
    held_elsewhere: set[str] | frozenset[str] = frozenset(),
    unavailable: str | None = None,
    client: str | None = None,
) -> str:
    """The section as plain text. ``unavailable`` overrides everything (state unreadable);
    ``client`` adds how that client reaches the handshake tool."""
    lines = [HEADING, ""]
    reason = unavailable or (policy.unavailable_reason if policy is not None else None)
    if reason or policy is None:
        lines.append(reason or "Orchestration state unavailable: no workspace was found.")
        lines.append(
            "Every tool that changes files is blocked until a human fixes this; read-only tools still work."
        )
        return "\n".join(lines)
    intent = (
        policy.intent(session.intent_id)
        if session is not None and session.holds_intent and session.intent_id
        else None
    )
    if session is not None and session.holds_intent and intent is not None:
        lines += _active_lines(policy, session, intent)
    else:
        if session is not None and session.holds_intent and intent is None:
            lines.append(
                f"Your session held intent {session.intent_id}, which no longer exists in active_intents.yaml."
            )
        lines.append(MANDATE)
        lines.append("")
        selectable = policy.selectable(held_elsewhere)
        if not policy.intents:
            lines.append(
                "No intents are defined (.orchestration/active_intents.yaml), so no file may be "
                "changed. Ask a human to add one."
            )
        elif not selectable:
            lines.append(
                "No intent can be selected now (none is PENDING or IN_PROGRESS and free). "
                "Ask a human to add or reopen one."
            )
        else:
            from paw_tui.core.handshake.names import SELECT_TOOL, client_tool_name
            from paw_tui.core.handshake.reach import handshake_hint

            select = client_tool_name(client, SELECT_TOOL)
            lines.append(f"Selectable intents (call {select} with one id):")

            hint = handshake_hint(client)
            if hint:
                lines.insert(len(lines) - 1, hint)
                lines.insert(len(lines) - 1, "")
            for candidate in selectable[:MAX_LISTED]:
                summary = f": {_one_line(candidate.description)}" if candidate.description else ""
                lines.append(f"- {candidate.id} — {_one_line(candidate.name, 120)}{summary}")
            if len(selectable) > MAX_LISTED:
                lines.append(
                    f"- ... and {len(selectable) - MAX_LISTED} more (list_intents shows all)"
                )
    return "\n".join(lines)


def _active_lines(policy: Policy, session: Session, intent: Intent) -> list[str]:
    from paw_tui.core.handshake.messages import awaiting_approval, status_refusal
    from paw_tui.core.policy.scope.checker import render_patterns

    lines: list[str] = []
    name = f" — {_one_line(intent.name, 120)}" if intent.name else ""
    if session.state == "pending_approval":
        lines.append(f"Requested intent: {intent.id}{name}.")
        lines.append(
            awaiting_approval(intent.id)
            + " Tools that change files are blocked until a human approves it."
        )
        return lines
    lines.append(f"Active intent: {intent.id}{name} ({intent.status}).")
    refusal = status_refusal(intent)
    if refusal:
        lines.append(refusal + " Tools that change files are blocked.")
        if intent.status == "BLOCKED":
            lines.append("They work again when a human sets it back to IN_PROGRESS.")
        else:
            lines.append("Start a new session and select another intent to continue.")
        return lines
    if intent.description:
        lines.append(_one_line(intent.description, 600))
    lines.append(
        f"You may change only paths inside its owned scope: {render_patterns(intent.owned_scope)}. "
        "Anything else is denied; ask the human for a scope expansion if you need more."
    )
    lines += _bullets("Constraints", intent.constraints)
    lines += _bullets("Acceptance criteria", intent.acceptance_criteria)
    lines += _bullets("Read first", intent.related_specs)
    lines.append(
        f"This session is locked to {intent.id}: to work on another intent, start a new session."
    )
    return lines
