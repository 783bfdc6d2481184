"""What a person needs to decide a request, read off the UI thread: who asks (session,
client, when) and for what intent, with the intents it depends on and their statuses.

The decision modals show these as a summary for a person (DESIGN §11), never the raw intent
context block. No textual here: this is data, read by the workspace watcher's thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.intents.model import Intent
    from paw_tui.core.policy.compiled import Policy


class Request(Protocol):
    """What an approval request and a scope request have in common."""

    id: str
    session_id: str
    intent_id: str
    requested_at: float


R = TypeVar("R", bound=Request)

FINISHED = "COMPLETED"


@dataclass(frozen=True)
class Dependency:
    """One id of the intent's ``depends_on``: its name and status (None: no such intent)."""

    id: str
    name: str | None
    status: str | None

    @property
    def finished(self) -> bool:
        return self.status == FINISHED


@dataclass(frozen=True)
class RequestFacts:
    request_id: str
    session_id: str
    client: str | None
    asked_at: float
    intent_id: str
    intent: Intent | None  # None: the intent is no longer defined
    dependencies: tuple[Dependency, ...] = ()

    @property
    def unfinished(self) -> tuple[Dependency, ...]:
        """The dependencies not COMPLETED (or not defined at all): what should stand out."""
        return tuple(d for d in self.dependencies if not d.finished)


def read_facts(
    root: str, policy: Policy, request_id: str, session_id: str, intent_id: str, asked_at: float
) -> RequestFacts:
    from paw_tui.core.handshake.sessions import load_session

    session = load_session(root, session_id)
    intent = policy.intent(intent_id) if policy.valid else None
    dependencies: list[Dependency] = []
    for wanted in intent.depends_on if intent is not None else ():
        other = policy.intent(wanted)
        dependencies.append(
            Dependency(wanted, other.name if other else None, other.status if other else None)
        )
    return RequestFacts(
        request_id,
        session_id,
        session.client if session is not None else None,
        asked_at,
        intent_id,
        intent,
        tuple(dependencies),
    )


def with_facts(root: str, requests: list[R]) -> list[tuple[R, RequestFacts]]:
    """Each pending request with its facts, the policy read once for all of them."""
    if not requests:
        return []
    from paw_tui.core.policy.compiled import load_policy

    policy = load_policy(root)
    return [
        (
            request,
            read_facts(
                root,
                policy,
                request.id,
                request.session_id,
                request.intent_id,
                request.requested_at,
            ),
        )
        for request in requests
    ]
