"""Watching ``.orchestration/approvals/`` for requests a human must decide."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from paw_tui.core.handshake.approvals import ApprovalRequest


@dataclass
class PendingApprovals(Message):
    """The pending requests now, in arrival order (sent whenever the set changes)."""

    requests: list[ApprovalRequest]


def pending_ids(requests: list[ApprovalRequest]) -> tuple[str, ...]:
    return tuple(r.id for r in requests)
