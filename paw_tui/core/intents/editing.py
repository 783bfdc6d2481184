"""What every edit of the human's ``active_intents.yaml`` shares: read the file and the
policy it compiled to (refusing when the file moved underneath), and prepare the edited text
only after it compiles to what was intended. A prepared edit is in effect once committed
(after its ledger record is written: :mod:`paw_tui.core.ledger.acts`). Callers hold the
state lock."""

from __future__ import annotations

from paw_tui.core.errors import PawError, ValidationError
from paw_tui.core.policy.compiled import (
    Policy,
    compile_policy,
    load_policy,
    policy_key,
    save_policy_cache,
)
from paw_tui.core.support.fsutil import PreparedFile
from paw_tui.core.support.regular_file import read_regular
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.core.intents.model import Intent


class IntentEditError(PawError):
    """The file changed under us or cannot be edited safely."""


class PreparedEdit:
    """Validated new bytes of ``active_intents.yaml``, written beside it, not yet in effect;
    ``policy`` is what they compile to."""

    __slots__ = ("file", "policy")

    def __init__(self, path: str, data: bytes, policy: Policy) -> None:
        self.file = PreparedFile(path, data)
        self.policy = policy

    def commit(self) -> Policy:
        """Put the new file in place; the policy it compiles to."""
        self.file.commit()
        save_policy_cache(self.policy)
        return self.policy

    def discard(self) -> None:
        self.file.discard()


class IntentsFile:
    """``active_intents.yaml`` as read for one edit: its bytes (None when it does not exist
    yet), the governance bytes and the policy they compile to."""

    __slots__ = ("root", "path", "data", "governance", "policy")

    def __init__(
        self, root: str, path: str, data: bytes | None, governance: bytes | None, policy: Policy
    ) -> None:
        self.root = root
        self.path = path
        self.data = data
        self.governance = governance
        self.policy = policy

    def compile(self, new_bytes: bytes) -> Policy:
        """What ``new_bytes`` would compile to, with this file's governance."""
        key = policy_key(new_bytes, self.governance)
        return compile_policy(self.root, new_bytes, self.governance, key)

    def prepare(self, new_bytes: bytes, holds: Callable[[Policy], bool], what: str) -> PreparedEdit:
        """``new_bytes`` prepared when they compile and ``holds`` of the new policy;
        IntentEditError (nothing written) otherwise."""
        new_policy = self.compile(new_bytes)
        if not new_policy.valid or not holds(new_policy):
            raise IntentEditError(f"{what} in {self.path} would break the file; edit it by hand.")
        return PreparedEdit(self.path, new_bytes, new_policy)


class IntentFile(IntentsFile):
    """:class:`IntentsFile` for editing one intent, ``intent``, which it holds."""

    __slots__ = ("intent",)
    data: bytes

    def __init__(
        self,
        root: str,
        path: str,
        data: bytes,
        governance: bytes | None,
        policy: Policy,
        intent: Intent,
    ) -> None:
        super().__init__(root, path, data, governance, policy)
        self.intent = intent


def open_intents(root: str, what: str) -> IntentsFile:
    """The file read for an edit (``what`` names it for the messages); ValidationError while
    the orchestration files are invalid, IntentEditError when the file cannot be read or
    changed meanwhile."""
    path = layout.at(root, layout.INTENTS)
    policy = load_policy(root)
    if not policy.valid:
        raise ValidationError(policy.unavailable_reason or "Orchestration state unavailable.")
    try:
        data: bytes | None = read_regular(path)
    except FileNotFoundError:
        data = None
    except OSError as exc:
        raise IntentEditError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    try:
        governance: bytes | None = read_regular(layout.at(root, layout.GOVERNANCE))
    except FileNotFoundError:
        governance = None
    if policy_key(data, governance) != policy.key:
        raise IntentEditError(f"{path} changed while {what} was being edited; try again.")
    return IntentsFile(root, path, data, governance, policy)


def unknown_intent(intent_id: str, policy: Policy) -> ValidationError:
    """``Unknown intent 'X'. Known intents: A, B.`` (with a "did you mean")."""
    from paw_tui.core.support.suggest import did_you_mean_sentence

    ids = [i.id for i in policy.intents]
    known = ", ".join(ids) or "none"
    hint = did_you_mean_sentence(intent_id, ids)
    return ValidationError(f"Unknown intent '{intent_id}'. Known intents: {known}.{hint}")


def open_for_edit(root: str, intent_id: str, what: str) -> IntentFile:
    """The file, read for editing ``intent_id``; ValidationError for an unknown intent or an
    invalid policy, IntentEditError when the file cannot be read or changed meanwhile."""
    found = open_intents(root, what)
    intent = found.policy.intent(intent_id)
    if intent is None or found.data is None:
        raise unknown_intent(intent_id, found.policy)
    return IntentFile(root, found.path, found.data, found.governance, found.policy, intent)
