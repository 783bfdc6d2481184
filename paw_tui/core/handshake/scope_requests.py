"""Requests to widen an intent's scope (``.orchestration/scope_requests/<id>.json``).

An agent denied a write it needs files one with ``request_scope_expansion(pattern, reason)``;
a person grants it (the pattern joins the intent's ``owned_scope``) or denies it, in the TUI
or with ``paw-tui scope``. Requests stay on disk with their outcome, like approvals.
"""

from __future__ import annotations

from paw_tui.core.handshake import request_files
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

PENDING = "pending"
GRANTED = "granted"
DENIED = "denied"
STATES = (PENDING, GRANTED, DENIED)
_TEXT_FIELDS = ("id", "session_id", "intent_id", "pattern")


class ScopeRequest:
    __slots__ = (
        "id",
        "session_id",
        "intent_id",
        "pattern",
        "reason",
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
        pattern: str,
        reason: str = "",
        state: str = PENDING,
        requested_at: float = 0.0,
        decided_at: float | None = None,
        decided_by: str | None = None,
        note: str | None = None,
    ) -> None:
        self.id = id
        self.session_id = session_id
        self.intent_id = intent_id
        self.pattern = pattern
        self.reason = reason
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
    def from_dict(cls, data: dict[str, object]) -> ScopeRequest:
        state = data.get("state")
        if state not in STATES:
            raise ValueError(f"unknown state {state!r}")
        for key in _TEXT_FIELDS:
            if not isinstance(data.get(key), str):
                raise ValueError(f"no {key}")
        decided_at = data.get("decided_at")
        return cls(
            str(data["id"]),
            str(data["session_id"]),
            str(data["intent_id"]),
            str(data["pattern"]),
            str(data.get("reason") or ""),
            str(state),
            float(data.get("requested_at") or 0.0),  # type: ignore[arg-type]
            float(decided_at) if isinstance(decided_at, (int, float)) else None,
            _text_or_none(data.get("decided_by")),
            _text_or_none(data.get("note")),
        )

    def __repr__(self) -> str:
        return (
            f"ScopeRequest({self.id!r}, intent={self.intent_id!r}, pattern={self.pattern!r}, "
            f"{self.state})"
        )


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


FOLDER = request_files.RequestFolder(layout.SCOPE_REQUESTS, "scp", "scope request")


def new_request_id(now: float) -> str:
    return FOLDER.new_id(now)


def request_path(root: str, request_id: str) -> str:
    return FOLDER.path(root, request_id)


def save_request(root: str, request: ScopeRequest) -> None:
    """Atomic; callers hold the state lock."""
    FOLDER.save(root, request)


def load_request(root: str, request_id: str) -> ScopeRequest | None:
    return FOLDER.load(root, request_id, ScopeRequest.from_dict)


def iter_requests(root: str) -> Iterator[ScopeRequest]:
    """Every readable request, in arrival order."""
    return FOLDER.all(root, ScopeRequest.from_dict)


def pending_requests(root: str) -> list[ScopeRequest]:
    return FOLDER.pending(root, ScopeRequest.from_dict)
