"""Changing an intent's status in ``active_intents.yaml`` without losing the human's file.

Only the status token is replaced, at the position the parser recorded, so comments, order
and layout stay as the human wrote them. The edited text is parsed again before it is
written, and the write is atomic; callers hold the state lock.
"""

from __future__ import annotations

from paw_tui.core.errors import ValidationError
from paw_tui.core.intents.editing import IntentEditError, open_for_edit
from paw_tui.core.intents.model import STATUSES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.policy.compiled import Policy


def change_status(root: str, intent_id: str, new_status: str) -> tuple[str, Policy]:
    """Set ``intent_id``'s status; returns the old status and the new policy."""
    if new_status not in STATUSES:
        raise ValidationError(f"Unknown status '{new_status}'. Use one of {', '.join(STATUSES)}.")
    edit = open_for_edit(root, intent_id, "its status")
    intent = edit.intent
    old = intent.status
    if old == new_status:
        return old, edit.policy
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

    return old, edit.write(new_bytes, holds, f"Editing the status of {intent_id}")
