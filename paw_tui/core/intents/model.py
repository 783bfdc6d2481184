"""Intents: one entry of ``.orchestration/active_intents.yaml`` (DESIGN §4).

Standard library only: the gate rebuilds intents from the compiled policy cache.
:mod:`paw_tui.core.intents.parse` reads the YAML (slow path).
"""

from __future__ import annotations

ROOT_KEYS = ("active_intents", "intents")
STATUSES = ("PENDING", "IN_PROGRESS", "BLOCKED", "COMPLETED", "ABANDONED")
SELECTABLE = ("PENDING", "IN_PROGRESS")
ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}"
LIST_FIELDS = ("owned_scope", "constraints", "acceptance_criteria", "related_specs", "depends_on")
TEXT_FIELDS = ("id", "name", "status", "description")
KNOWN_FIELDS = TEXT_FIELDS + LIST_FIELDS
EXTENSION_PREFIX = "x-"
"""Keys starting with this are a team's own and are kept out of validation."""


class Intent:
    """One entry of active_intents.yaml. ``status_span`` locates the status value in the file
    (1-based line, 0-based start and end columns) so a status change can edit that token
    alone and keep the human's comments and layout."""

    __slots__ = (
        "id",
        "name",
        "status",
        "description",
        "owned_scope",
        "constraints",
        "acceptance_criteria",
        "related_specs",
        "depends_on",
        "line",
        "status_span",
    )

    def __init__(
        self,
        id: str,
        name: str,
        status: str,
        description: str = "",
        owned_scope: list[str] | None = None,
        constraints: list[str] | None = None,
        acceptance_criteria: list[str] | None = None,
        related_specs: list[str] | None = None,
        depends_on: list[str] | None = None,
        line: int = 0,
        status_span: tuple[int, int, int] | None = None,
    ) -> None:
        self.id = id
        self.name = name
        self.status = status
        self.description = description
        self.owned_scope = list(owned_scope or [])
        self.constraints = list(constraints or [])
        self.acceptance_criteria = list(acceptance_criteria or [])
        self.related_specs = list(related_specs or [])
        self.depends_on = list(depends_on or [])
        self.line = line
        self.status_span = status_span

    @property
    def selectable(self) -> bool:
        return self.status in SELECTABLE

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "description": self.description,
            "owned_scope": list(self.owned_scope),
            "constraints": list(self.constraints),
            "acceptance_criteria": list(self.acceptance_criteria),
            "related_specs": list(self.related_specs),
            "depends_on": list(self.depends_on),
            "line": self.line,
            "status_span": list(self.status_span) if self.status_span else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Intent:
        span = data.get("status_span")
        return cls(
            id=str(data["id"]),
            name=str(data.get("name") or ""),
            status=str(data["status"]),
            description=str(data.get("description") or ""),
            owned_scope=list(data.get("owned_scope") or []),  # type: ignore[call-overload]
            constraints=list(data.get("constraints") or []),  # type: ignore[call-overload]
            acceptance_criteria=list(data.get("acceptance_criteria") or []),  # type: ignore[call-overload]
            related_specs=list(data.get("related_specs") or []),  # type: ignore[call-overload]
            depends_on=list(data.get("depends_on") or []),  # type: ignore[call-overload]
            line=int(data.get("line") or 0),  # type: ignore[call-overload]
            status_span=tuple(span) if span else None,  # type: ignore[arg-type]
        )

    def __repr__(self) -> str:
        return f"Intent({self.id!r}, {self.name!r}, {self.status!r})"
