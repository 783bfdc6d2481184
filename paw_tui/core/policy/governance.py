"""Policy from ``.orchestration/governance.yaml``: the model every decision reads.

A missing file means the defaults. Standard library only: the gate rebuilds it from the
compiled cache. :mod:`paw_tui.core.policy.governance_parse` reads the YAML (slow path).
"""

from __future__ import annotations

DEFAULT_SESSION_TTL = 8 * 3600
MAX_SESSION_TTL = 365 * 86400
BUILTIN_PROTECTED = (".orchestration/**", ".paw/instructions/**", ".git/**")
_DURATION = r"(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?)?"
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class Governance:
    """The effective policy; every field has the documented default."""

    __slots__ = (
        "approval_required",
        "intent_sharing",
        "session_ttl",
        "protected",
        "read_only_tools",
        "mutating_tools",
        "shell_tools",
        "log_reads",
        "tool_instructions",
        "tool_defaults",
        "confine_writable",
        "claims_remote",
        "trace_endpoint",
    )

    def __init__(
        self,
        approval_required: bool = False,
        intent_sharing: bool = False,
        session_ttl: float = DEFAULT_SESSION_TTL,
        protected: list[str] | None = None,
        read_only_tools: list[str] | None = None,
        mutating_tools: list[str] | None = None,
        shell_tools: list[str] | None = None,
        log_reads: bool = False,
        tool_instructions: dict[str, str] | None = None,
        tool_defaults: dict[str, dict[str, object]] | None = None,
        confine_writable: list[str] | None = None,
        claims_remote: str | None = None,
        trace_endpoint: str | None = None,
    ) -> None:
        self.approval_required = approval_required
        self.intent_sharing = intent_sharing
        self.session_ttl = session_ttl
        self.protected = list(protected or [])
        self.read_only_tools = list(read_only_tools or [])
        self.mutating_tools = list(mutating_tools or [])
        self.shell_tools = list(shell_tools or [])
        self.log_reads = log_reads
        self.tool_instructions = dict(tool_instructions or {})
        self.tool_defaults = dict(tool_defaults or {})
        self.confine_writable = list(confine_writable or [])
        """Trees outside the scope a confined shell may write (package caches, build outputs)."""
        self.claims_remote = claims_remote
        """The git remote intent claims go through (``claims: remote:``; None: claims off)."""
        self.trace_endpoint = trace_endpoint
        """Where ``trace ship`` sends the ledger by default (``trace: ship: endpoint:``)."""

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Governance:
        return cls(**{name: data[name] for name in cls.__slots__ if name in data})  # type: ignore[arg-type]


def parse_duration(text: str) -> float | None:
    """Seconds in ``8h``, ``30m``, ``90s``, ``2d`` or a bare number of seconds; None if not one."""
    import re

    match = re.fullmatch(_DURATION, text.strip().lower())
    if not match:
        return None
    unit = (match.group(2) or "s")[0]
    return float(match.group(1)) * _UNIT_SECONDS[unit]
