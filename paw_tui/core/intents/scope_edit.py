"""Changing an intent's ``owned_scope`` without losing the human's file.

The file is loaded in ruamel.yaml's round-trip mode (:mod:`~paw_tui.core.intents.yaml_rt`),
the one list is changed in place (so its flow or block style, quoting and comments stay), and
the new text is compiled before it is prepared; callers hold the state lock and commit the
prepared edit once its ledger record is written.
"""

from __future__ import annotations

from paw_tui.core.intents.editing import IntentEditError, IntentFile, PreparedEdit, open_for_edit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from paw_tui.core.policy.compiled import Policy

SCOPE_KEY = "owned_scope"


def scope_after(current: Sequence[str], add: Sequence[str], remove: Sequence[str]) -> list[str]:
    """``current`` without ``remove`` and with each of ``add`` not already there appended."""
    kept = [pattern for pattern in current if pattern not in set(remove)]
    for pattern in add:
        if pattern not in kept:
            kept.append(pattern)
    return kept


def prepare_scope_edit(
    edit: IntentFile, add: Sequence[str] = (), remove: Sequence[str] = ()
) -> PreparedEdit | None:
    """The edit of ``edit.intent``'s ``owned_scope`` adding and removing patterns, prepared;
    None when it would change nothing."""
    from ruamel.yaml.comments import CommentedSeq

    from paw_tui.core.intents.yaml_rt import Document, quoted_like

    intent_id = edit.intent.id
    wanted = scope_after(edit.intent.owned_scope, add, remove)
    if wanted == edit.intent.owned_scope:
        return None
    document = Document(edit.data, edit.path)
    entry = document.entry(intent_id)
    scope = entry.get(SCOPE_KEY)
    if scope is None:
        scope = entry[SCOPE_KEY] = CommentedSeq()
    if not isinstance(scope, list):
        raise IntentEditError(f"The owned_scope of {intent_id} in {edit.path} is not a list.")
    lead = scope[-1] if scope else None
    for index in reversed(range(len(scope))):
        if str(scope[index]) in set(remove):
            del scope[index]
    present = {str(item) for item in scope}
    for pattern in add:
        if pattern not in present:
            scope.append(quoted_like(lead, pattern))
            present.add(pattern)

    def holds(policy: Policy) -> bool:
        check = policy.intent(intent_id)
        return check is not None and check.owned_scope == wanted

    return edit.prepare(document.dump(), holds, f"Changing the scope of {intent_id}")


def prepare_owned_pattern(root: str, intent_id: str, pattern: str) -> PreparedEdit | None:
    """Appending ``pattern`` to ``intent_id``'s ``owned_scope``, prepared; None when it is
    already owned as written."""
    return prepare_scope_edit(open_for_edit(root, intent_id, "its scope"), add=[pattern])
