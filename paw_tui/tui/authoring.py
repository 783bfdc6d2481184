"""The TUI's one door to the core's authoring API (:mod:`paw_tui.core.intents.authoring`,
:mod:`~paw_tui.core.intents.scope_preview`): the form hands it what was typed and gets back
either the problems that refused the save (nothing was written) or what to tell the person.
No YAML is edited and no ledger is probed here: the core is the one place for both.

Functions here run in worker threads (they take the state lock, read and write files).
"""

from __future__ import annotations

import re
from dataclasses import replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.intents.drafts import IntentDraft
    from paw_tui.core.intents.scope_preview import ScopePreview
    from paw_tui.core.policy.compiled import Policy

DEFAULT_PREFIX = "INT-"


def proposed_id(policy: Policy) -> str:
    """The next free id in the workspace's own style (``INT-007`` after ``INT-006``)."""
    taken = {intent.id for intent in policy.intents}
    best: tuple[int, str, int] | None = None  # number, prefix, digits
    for intent_id in taken:
        found = re.fullmatch(r"(.*?)(\d+)", intent_id)
        if found and (best is None or int(found[2]) > best[0]):
            best = (int(found[2]), found[1], len(found[2]))
    number, prefix, digits = best if best is not None else (0, DEFAULT_PREFIX, 3)
    while True:
        number += 1
        candidate = f"{prefix}{number:0{digits}d}"
        if candidate not in taken:
            return candidate


def preview_patterns(root: str, patterns: tuple[str, ...]) -> ScopePreview:
    """How many files ``patterns`` cover, a few of them, and the patterns to flag."""
    from paw_tui.core.intents.scope_preview import preview_scope
    from paw_tui.core.policy.compiled import load_policy

    return preview_scope(root, patterns, policy=load_policy(root))


FORM_FIELDS = {
    "id": "id",
    "name": "name",
    "description": "description",
    "owned_scope": "scope",
    "constraints": "constraints",
    "acceptance_criteria": "criteria",
    "depends_on": "depends",
    "status": "status",
}
"""The draft's fields (:class:`~paw_tui.core.intents.drafts.Problem` names one) as the
form's widgets (``#form-<name>``)."""


def field_of_problem(problem: str) -> str | None:
    """The form field a refusal is about (``scope``, ``name``, ...), or None."""
    return FORM_FIELDS.get(getattr(problem, "field", ""))


def save_intent(root: str, draft: IntentDraft, editing: str | None) -> tuple[list[str], str]:
    """Create (``editing`` None) or update the intent from what the form holds:
    ``(problems, "")`` when refused (by validation, or because the act could not be
    recorded), else ``([], what to tell)``."""
    from paw_tui.core.errors import PawError
    from paw_tui.core.intents.authoring import create_intent, update_intent
    from paw_tui.core.intents.drafts import DraftError
    from paw_tui.core.ledger.acts import person_name
    from paw_tui.core.workspace.state import WorkspaceState

    state = WorkspaceState(root)
    try:
        if editing is None:
            done = create_intent(state, draft, by=person_name(via="tui"))
        else:
            related = state.policy.intent(editing)
            if related is not None:  # fields the form does not show are kept
                draft = replace(draft, related_specs=tuple(related.related_specs))
            done = update_intent(state, editing, draft, by=person_name(via="tui"))
    except DraftError as error:
        return list(error.problems), ""
    except PawError as error:
        return [str(error)], ""
    if editing is None:
        return [], f"Created {done.intent.id} ({done.intent.name})."
    if not done.changed:
        return [], f"{editing}: nothing changed."
    return [], f"Saved {editing}: {', '.join(done.changed)} changed."
