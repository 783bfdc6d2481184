"""A pending request as a person reads it: who asks, when, for what intent, what that intent
may write and promises, and which of the intents it depends on are unfinished (DESIGN §11).

Markup for a Static; every text from a file or an agent is shown with its control characters
escaped and its markup neutralised.
"""

from __future__ import annotations

from paw_tui.tui.display import ago, safe
from paw_tui.tui.intent_text import intent_details, intent_heading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.tui.controllers.request_facts import Dependency, RequestFacts


def who_asks(facts: RequestFacts, now: float) -> str:
    client = f" ({safe(facts.client)})" if facts.client else ""
    when = ago(max(0.0, now - facts.asked_at)) if facts.asked_at else "at an unknown time"
    return f"Session [b]{safe(facts.session_id)}[/b]{client} asked {when}"


def intent_line(facts: RequestFacts) -> str:
    if facts.intent is None:
        return f"[b]{safe(facts.intent_id)}[/b] [$error](no longer defined)[/]"
    return intent_heading(facts.intent)


def _dependency(dependency: Dependency) -> str:
    if dependency.status is None:
        return f"[b $error]✗ {safe(dependency.id)}[/] (no such intent)"
    text = f"{safe(dependency.id)} {safe(dependency.name or '')} — {safe(dependency.status)}"
    if dependency.finished:
        return f"[$success]✓[/] {text}"
    return f"[b $error]✗ {text} (not finished)[/]"


def warnings(facts: RequestFacts) -> list[str]:
    """What must catch the eye before anything else: unfinished dependencies."""
    lines = []
    for dependency in facts.unfinished:
        state = (
            "which is not defined"
            if dependency.status is None
            else f"which is {safe(dependency.status)}, not finished"
        )
        lines.append(f"[b $error]⚠ Depends on {safe(dependency.id)}, {state}.[/]")
    return lines


def details(facts: RequestFacts, scope_title: str) -> list[str]:
    """What the requested intent may write and promises, with its dependencies."""
    if facts.intent is None:
        return []
    dependencies = [_dependency(d) for d in facts.dependencies]
    return intent_details(facts.intent, scope_title=scope_title, dependencies=dependencies)


def approval_text(facts: RequestFacts, now: float) -> str:
    lines = [f"{who_asks(facts, now)} to work on", intent_line(facts), ""]
    lines += warnings(facts)
    if facts.unfinished:
        lines.append("")
    lines += details(facts, "May write")
    lines += ["", f"[$text-muted]request {safe(facts.request_id)}[/]"]
    return "\n".join(lines)


def scope_request_text(facts: RequestFacts, pattern: str, reason: str, now: float) -> str:
    lines = [
        f"{who_asks(facts, now)} that",
        intent_line(facts),
        "may also write",
        f"  [b $warning]{safe(pattern)}[/]",
        f"Reason given: {safe(reason) if reason else '(none)'}",
        "",
    ]
    lines += warnings(facts)
    if facts.unfinished:
        lines.append("")
    lines += details(facts, "May write now")
    lines += [
        "",
        f"[$text-muted]Granting appends {safe(pattern)} to {safe(facts.intent_id)}'s "
        "owned_scope in active_intents.yaml (comments and order kept) and records "
        f"scope_granted. request {safe(facts.request_id)}[/]",
    ]
    return "\n".join(lines)
