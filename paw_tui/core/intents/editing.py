"""What every edit of the human's ``active_intents.yaml`` shares: read the file and the
policy it compiled to (refusing when the file moved underneath), and write the edited text
only after it compiles to what was intended. Callers hold the state lock."""

from __future__ import annotations

from paw_tui.core.errors import PawError, ValidationError
from paw_tui.core.policy.compiled import (
    Policy,
    compile_policy,
    load_policy,
    policy_key,
    save_policy_cache,
)
from paw_tui.core.support.fsutil import atomic_write
from paw_tui.core.support.regular_file import read_regular
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.core.intents.model import Intent


class IntentEditError(PawError):
    """The file changed under us or cannot be edited safely."""


class IntentFile:
    """``active_intents.yaml`` as read for one edit: its bytes, the governance bytes, the
    policy they compile to and the intent being edited."""

    __slots__ = ("root", "path", "data", "governance", "policy", "intent")

    def __init__(
        self,
        root: str,
        path: str,
        data: bytes,
        governance: bytes | None,
        policy: Policy,
        intent: Intent,
    ) -> None:
        self.root = root
        self.path = path
        self.data = data
        self.governance = governance
        self.policy = policy
        self.intent = intent

    def write(self, new_bytes: bytes, holds: Callable[[Policy], bool], what: str) -> Policy:
        """Write ``new_bytes`` when they compile and ``holds`` of the new policy; the policy."""
        key = policy_key(new_bytes, self.governance)
        new_policy = compile_policy(self.root, new_bytes, self.governance, key)
        if not new_policy.valid or not holds(new_policy):
            raise IntentEditError(f"{what} in {self.path} would break the file; edit it by hand.")
        atomic_write(self.path, new_bytes)
        save_policy_cache(new_policy)
        return new_policy


def open_for_edit(root: str, intent_id: str, what: str) -> IntentFile:
    """The file, read for editing ``intent_id``; ValidationError for an unknown intent or an
    invalid policy, IntentEditError when the file cannot be read or changed meanwhile."""
    path = layout.at(root, layout.INTENTS)
    policy = load_policy(root)
    if not policy.valid:
        raise ValidationError(policy.unavailable_reason or "Orchestration state unavailable.")
    intent = policy.intent(intent_id)
    if intent is None:
        from paw_tui.core.support.suggest import did_you_mean_sentence

        ids = [i.id for i in policy.intents]
        known = ", ".join(ids) or "none"
        hint = did_you_mean_sentence(intent_id, ids)
        raise ValidationError(f"Unknown intent '{intent_id}'. Known intents: {known}.{hint}")
    try:
        data = read_regular(path)
    except OSError as exc:
        raise IntentEditError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    try:
        governance: bytes | None = read_regular(layout.at(root, layout.GOVERNANCE))
    except FileNotFoundError:
        governance = None
    if policy_key(data, governance) != policy.key:
        raise IntentEditError(f"{path} changed while {what} was being edited; try again.")
    return IntentFile(root, path, data, governance, policy, intent)
