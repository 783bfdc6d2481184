"""Changing an intent's status in ``active_intents.yaml`` without losing the human's file.

Only the status token is replaced, at the position the parser recorded, so comments, order
and layout stay as the human wrote them. The edited text is parsed again before it is
prepared; callers hold the state lock and commit the prepared edit once its ledger record is
written (:mod:`paw_tui.core.ledger.acts`).
"""

from __future__ import annotations

from paw_tui.core.errors import ValidationError
from paw_tui.core.intents.editing import IntentEditError, IntentFile, PreparedEdit, open_for_edit
from paw_tui.core.intents.model import STATUSES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.policy.compiled import Policy


def check_status(status: str) -> None:
    """ValidationError naming ``status`` when it is not one of the five."""
    if status not in STATUSES:
        raise ValidationError(f"Unknown status '{status}'. Use one of {', '.join(STATUSES)}.")


def prepare_status_change(
    root: str, intent_id: str, new_status: str
) -> tuple[str, PreparedEdit | None]:
    """The old status, and the edit setting ``intent_id``'s status prepared (None when it
    already has it)."""
    check_status(new_status)
    edit = open_for_edit(root, intent_id, "its status")
    old = edit.intent.status
    if old == new_status:
        return old, None
    return old, prepare_status_edit(edit, new_status)


def prepare_status_edit(edit: IntentFile, new_status: str) -> PreparedEdit:
    """Replace the status token of ``edit.intent`` alone (comments and layout kept)."""
    intent = edit.intent
    intent_id = intent.id
    span = intent.status_span
    if not span or span[2] < 0:
        raise IntentEditError(
            f"The status of {intent_id} in {edit.path} is not a one-line value; edit it by hand."
        )
    text = edit.data.decode("utf-8-sig")
    lines = text.split("\n")
    number, start, end = span
    line = lines[number - 1]
    lines[number - 1] = line[:start] + new_status + line[end:]
    new_bytes = "\n".join(lines).encode("utf-8")
    if edit.data.startswith(b"\xef\xbb\xbf"):
        new_bytes = b"\xef\xbb\xbf" + new_bytes

    def holds(policy: Policy) -> bool:
        check = policy.intent(intent_id)
        return check is not None and check.status == new_status

    return edit.prepare(new_bytes, holds, f"Editing the status of {intent_id}")
