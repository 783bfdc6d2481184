"""An intent as a person reads it, as markup for a Static: the Scope pane and the decision
modals (:mod:`paw_tui.tui.dialogs.request_summary`) show the same lines. Every text from a
file or an agent goes through :func:`~paw_tui.tui.display.safe`: control characters
escaped, markup neutralised (DESIGN §7).
"""

from __future__ import annotations

from paw_tui.tui.display import safe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.intents.model import Intent

NO_SCOPE = "  (nothing: owns no path)"


def intent_heading(intent: Intent) -> str:
    """``INT-001 · name · STATUS``."""
    return f"[b]{safe(intent.id)}[/b] · {safe(intent.name)} · [i]{safe(intent.status)}[/i]"


def intent_details(
    intent: Intent,
    *,
    scope_title: str,
    numbered: bool = False,
    dependencies: list[str] | None = None,
) -> list[str]:
    """Description, dependencies (lines already rendered), scope (``numbered`` as the path
    tester names a pattern: by its index), constraints and acceptance criteria."""
    lines = [safe(intent.description)] if intent.description else []
    if dependencies:
        lines.append("[b]Depends on[/b]")
        lines += [f"  {line}" for line in dependencies]
    lines.append(f"[b]{scope_title}[/b]")
    lines += [
        f"  {f'{number}  ' if numbered else ''}{safe(pattern)}"
        for number, pattern in enumerate(intent.owned_scope)
    ] or [NO_SCOPE]
    for title, values in (
        ("Constraints", intent.constraints),
        ("Acceptance criteria", intent.acceptance_criteria),
    ):
        if values:
            lines.append(f"[b]{title}[/b]")
            lines += [f"  • {safe(value)}" for value in values]
    return lines
