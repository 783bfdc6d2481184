"""Human approval of intent selections (``.orchestration/approvals/<id>.json``).

With ``governance.yaml: approval: required`` a selection becomes a pending request that
reserves the intent for its session. A human approves or rejects it in the TUI or with
``paw-tui approvals``; requests stay on disk with their outcome, so the history is visible.
"""

from __future__ import annotations

from paw_tui.core.handshake import request_files
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

PENDING = "pending"
APPROVED = "approved"
REJECTED = "rejected"
WITHDRAWN = "withdrawn"  # the session ended or was released before anyone decided
STATES = (PENDING, APPROVED, REJECTED, WITHDRAWN)


class ApprovalRequest:
    __slots__ = (
        "id",
        "session_id",
        "intent_id",
        "state",
        "requested_at",
        "decided_at",
        "decided_by",
        "note",
    )

    def __init__(
        self,
        id: str,
        session_id: str,
        intent_id: str,
        state: str = PENDING,
        requested_at: float = 0.0,
        decided_at: float | None = None,
        decided_by: str | None = None,
        note: str | None = None,
    ) -> None:
        self.id = id
        self.session_id = session_id
        self.intent_id = intent_id
        self.state = state
        self.requested_at = requested_at
        self.decided_at = decided_at
        self.decided_by = decided_by
        self.note = note

    @property
    def pending(self) -> bool:
        return self.state == PENDING

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> ApprovalRequest:
        state = data.get("state")
        if state not in STATES:
            raise ValueError(f"unknown state {state!r}")
        for key in ("id", "session_id", "intent_id"):
            if not isinstance(data.get(key), str):
                raise ValueError(f"no {key}")
        return cls(
            str(data["id"]),
            str(data["session_id"]),
            str(data["intent_id"]),
            str(state),
            float(data.get("requested_at") or 0.0),  # type: ignore[arg-type]
            data.get("decided_at"),  # type: ignore[arg-type]
            data.get("decided_by"),  # type: ignore[arg-type]
            data.get("note"),  # type: ignore[arg-type]
        )

    def __repr__(self) -> str:
        return f"ApprovalRequest({self.id!r}, session={self.session_id!r}, intent={self.intent_id!r}, {self.state})"


FOLDER = request_files.RequestFolder(layout.APPROVALS, "apr", "approval request")


def new_request_id(now: float) -> str:
    return FOLDER.new_id(now)


def request_path(root: str, request_id: str) -> str:
    return FOLDER.path(root, request_id)


def save_request(root: str, request: ApprovalRequest) -> None:
    """Atomic; callers hold the state lock."""
    FOLDER.save(root, request)


def load_request(root: str, request_id: str) -> ApprovalRequest | None:
    return FOLDER.load(root, request_id, ApprovalRequest.from_dict)


def iter_requests(root: str) -> Iterator[ApprovalRequest]:
    """Every readable request, in arrival order."""
    return FOLDER.all(root, ApprovalRequest.from_dict)


def pending_requests(root: str) -> list[ApprovalRequest]:
    return FOLDER.pending(root, ApprovalRequest.from_dict)
