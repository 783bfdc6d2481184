"""Changing an intent's status in ``active_intents.yaml`` without losing the human's file.

Only the status token is replaced, at the position the parser recorded, so comments, order
and layout stay as the human wrote them. The edited text is parsed again before it is
written, and the write is atomic; callers hold the state lock.
"""

from __future__ import annotations

from paw_tui.core.errors import PawError, ValidationError
from paw_tui.core.intents.model import STATUSES
from paw_tui.core.policy.compiled import (
    Policy,
    compile_policy,
    load_policy,
    policy_key,
    save_policy_cache,
)
from paw_tui.core.support.fsutil import atomic_write
from paw_tui.core.workspace import layout


class StatusEditError(PawError):
    """The file changed under us or could not be edited safely."""


def change_status(root: str, intent_id: str, new_status: str) -> tuple[str, Policy]:
    """Set ``intent_id``'s status; returns the old status and the new policy."""
    if new_status not in STATUSES:
        raise ValidationError(f"Unknown status '{new_status}'. Use one of {', '.join(STATUSES)}.")
    path = layout.at(root, layout.INTENTS)
    policy = load_policy(root)
    if not policy.valid:
        raise ValidationError(policy.unavailable_reason or "Orchestration state unavailable.")
    intent = policy.intent(intent_id)
    if intent is None:
        known = ", ".join(i.id for i in policy.intents) or "none"
        raise ValidationError(f"Unknown intent '{intent_id}'. Known intents: {known}.")
    old = intent.status
    if old == new_status:
        return old, policy
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise StatusEditError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    gov_path = layout.at(root, layout.GOVERNANCE)
    try:
        with open(gov_path, "rb") as handle:
            gov_bytes: bytes | None = handle.read()
    except FileNotFoundError:
        gov_bytes = None
    if policy_key(data, gov_bytes) != policy.key:
        raise StatusEditError(f"{path} changed while its status was being edited; try again.")
    span = intent.status_span
    if not span or span[2] < 0:
        raise StatusEditError(
            f"The status of {intent_id} in {path} is not a one-line value; edit it by hand."
        )
    text = data.decode("utf-8-sig")
    lines = text.split("\n")
    number, start, end = span
    line = lines[number - 1]
    lines[number - 1] = line[:start] + new_status + line[end:]
    new_text = "\n".join(lines)
    new_bytes = new_text.encode("utf-8")
    if data.startswith(b"\xef\xbb\xbf"):
        new_bytes = b"\xef\xbb\xbf" + new_bytes
    new_policy = compile_policy(root, new_bytes, gov_bytes, policy_key(new_bytes, gov_bytes))
    check = new_policy.intent(intent_id)
    if not new_policy.valid or check is None or check.status != new_status:
        raise StatusEditError(
            f"Editing the status of {intent_id} in {path} would break the file; edit it by hand."
        )
    atomic_write(path, new_bytes)
    save_policy_cache(new_policy)
    return old, new_policy
