"""A pending request as a person reads it: who asks, when, for what intent, what that intent
may write and promises, and which of the intents it depends on are unfinished (DESIGN §11).

Markup for a Static; every text from a file or an agent is shown with its control characters
escaped and its markup neutralised.
"""

from __future__ import annotations

from paw_tui.tui.display import ago, safe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.tui.controllers.request_facts import Dependency, RequestFacts


def who_asks(facts: RequestFacts, now: float) -> str:
    client = f" ({safe(facts.client)})" if facts.client else ""
    when = ago(max(0.0, now - facts.asked_at)) if facts.asked_at else "at an unknown time"
    return f"Session [b]{safe(facts.session_id)}[/b]{client} asked {when}"


def intent_line(facts: RequestFacts) -> str:
    intent = facts.intent
    if intent is None:
        return f"[b]{safe(facts.intent_id)}[/b] [$error](no longer defined)[/]"
    return f"[b]{safe(intent.id)}[/b] · {safe(intent.name)} · [i]{safe(intent.status)}[/i]"


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


def intent_details(facts: RequestFacts, *, scope_title: str = "May write") -> list[str]:
    """Description, dependencies, scope, constraints and criteria of the requested intent."""
    intent = facts.intent
    if intent is None:
        return []
    lines: list[str] = []
    if intent.description:
        lines += [safe(intent.description), ""]
    if facts.dependencies:
        lines.append("[b]Depends on[/b]")
        lines += [f"  {_dependency(d)}" for d in facts.dependencies]
    lines.append(f"[b]{scope_title}[/b]")
    lines += [f"  {safe(p)}" for p in intent.owned_scope] or ["  (nothing: owns no path)"]
    for title, values in (
        ("Constraints", intent.constraints),
        ("Acceptance criteria", intent.acceptance_criteria),
    ):
        if values:
            lines.append(f"[b]{title}[/b]")
            lines += [f"  • {safe(v)}" for v in values]
    return lines


def approval_text(facts: RequestFacts, now: float) -> str:
    lines = [f"{who_asks(facts, now)} to work on", intent_line(facts), ""]
    lines += warnings(facts)
    if facts.unfinished:
        lines.append("")
    lines += intent_details(facts)
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
    lines += intent_details(facts, scope_title="May write now")
    lines += [
        "",
        f"[$text-muted]Granting appends {safe(pattern)} to {safe(facts.intent_id)}'s "
        "owned_scope in active_intents.yaml (comments and order kept) and records "
        f"scope_granted. request {safe(facts.request_id)}[/]",
    ]
    return "\n".join(lines)
