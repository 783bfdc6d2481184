"""What the workspace watcher and the panes tell the main screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.ledger.health import LedgerHealth
    from paw_tui.core.ledger.line_index import Update
    from paw_tui.core.policy.compiled import Policy
    from paw_tui.tui.controllers.approvals import PendingApproval


@dataclass
class LedgerGrew(Message):
    """The ledger changed on disk: lines appended, or the file truncated or replaced."""

    update: Update


@dataclass
class IntentsChanged(Message):
    """The intents, governance or sessions changed: the policy as now loaded, which live
    session holds each intent, and which of those intents their session only awaits (a
    selection pending a person's approval)."""

    policy: Policy
    held: dict[str, str]
    awaiting: frozenset[str] = frozenset()


@dataclass
class ApprovalsChanged(Message):
    """The pending approval requests now, in arrival order."""

    pending: list[PendingApproval]


@dataclass
class IntentHighlighted(Message):
    """The intents pane moved its cursor to ``intent_id`` (None: no intents)."""

    intent_id: str | None


@dataclass
class LedgerHealthChanged(Message):
    """Whether the ledger can be appended (and so whether the gate is denying because it
    cannot record) changed."""

    health: LedgerHealth
