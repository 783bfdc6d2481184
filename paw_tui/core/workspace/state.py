"""One workspace root with what every decision needs: the clock, the policy, the ledger.

Built once per gate event, MCP call or CLI command; it loads the policy and opens the ledger
only when a decision asks for them.
"""

from __future__ import annotations

import os
import time

from paw_tui.core.policy.compiled import Policy, load_policy
from paw_tui.core.workspace.secret import load_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.core.ledger.store import Ledger
    from paw_tui.core.support.keyed import Mac


class WorkspaceState:
    __slots__ = ("root", "clock", "durable", "_policy", "_ledger", "_signer")

    def __init__(
        self,
        root: str,
        *,
        clock: Callable[[], float] = time.time,
        policy: Policy | None = None,
        ledger: Ledger | None = None,
        signer: Mac | None = None,
        durable: bool = True,
    ) -> None:
        self.root = os.path.abspath(root)
        self.clock = clock
        self._policy = policy
        self._ledger = ledger
        self._signer: Mac | None = signer
        self.durable = durable
        """False: ledger records are written unsynced, and the caller syncs them (the
        Governor, once for a batch of decisions) before any of them is acted on."""

    def now(self) -> float:
        return self.clock()

    @property
    def signer(self) -> Mac:
        """The workspace's signing key, created on first use (OSError when it cannot be)."""
        if self._signer is None:
            self._signer = load_key(self.root, create=True)
            assert self._signer is not None
        return self._signer

    @property
    def has_signer(self) -> bool:
        """Whether the key was loaded (or given) already."""
        return self._signer is not None

    def _signer_or_none(self) -> Mac | None:
        try:
            return self.signer
        except OSError:
            return None

    @property
    def policy(self) -> Policy:
        if self._policy is None:
            self._policy = load_policy(self.root, signer=self._signer_or_none())
        return self._policy

    @property
    def loaded_policy(self) -> Policy | None:
        """The policy, if this state has loaded (or been given) it."""
        return self._policy

    def reload_policy(self) -> Policy:
        """Read the policy again (after a shell command's changes to its files were undone)."""
        self._policy = None
        return self.policy

    @property
    def ledger(self) -> Ledger:
        if self._ledger is None:
            from paw_tui.core.ledger.store import Ledger

            self._ledger = Ledger.for_workspace(
                self.root, clock=self.clock, signer=self._signer_or_none(), durable=self.durable
            )
        return self._ledger

    @property
    def unsynced_ledger(self) -> tuple[str, tuple[int, int]] | None:
        """The ledger's path and file when records were written to it unsynced."""
        ledger = self._ledger
        if ledger is None or ledger.unsynced is None:
            return None
        return ledger.path, ledger.unsynced

    def record(self, event: str, **fields: object) -> dict[str, object]:
        """Append one ledger record; raises LedgerError when it cannot be written."""
        record: dict[str, object] = {"event": event}
        record.update(fields)
        return self.ledger.append(record)
