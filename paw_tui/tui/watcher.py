"""The one thread that watches the workspace for the TUI.

It follows the ledger (appended lines, truncation, replacement), the intents, governance and
session files, and the approval requests, and tells the main screen through messages
(:mod:`paw_tui.tui.messages`). It never touches a widget: all it shares with the UI thread is
the trace index, which it only reads (:meth:`TraceIndex.poll`), and the messages it posts.
"""

from __future__ import annotations

import os
import threading
import time

from paw_tui.core.ledger.line_index import APPENDED, MISSING, RESET
from paw_tui.core.workspace import layout
from paw_tui.tui.controllers.approvals import PendingApproval
from paw_tui.tui.messages import ApprovalsChanged, IntentsChanged, LedgerGrew

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.message import Message

    from paw_tui.core.ledger.line_index import TraceIndex

TICK = 0.1
"""Seconds between looks at the ledger."""
STATE_EVERY = 3
"""Ticks between looks at the intents, sessions and approvals."""


def _stat_key(path: str) -> tuple[int, int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


def _dir_key(path: str) -> tuple[tuple[str, int], ...] | None:
    try:
        return tuple(sorted((e.name, e.stat().st_mtime_ns) for e in os.scandir(path)))
    except OSError:
        return None


class WorkspaceWatcher:
    """Watches ``root`` and posts what changed through ``post``.

    ``ledger_ready`` is set by the trace pane once it has adopted its first scan: until then
    every line of the file would look appended, so the ledger is not polled.
    """

    def __init__(
        self,
        root: str,
        index: TraceIndex,
        post: Callable[[Message], object],
        *,
        watch_approvals: bool = True,
    ) -> None:
        self.root = root
        self.index = index
        self.post = post
        self.watch_approvals = watch_approvals
        self.ledger_ready = threading.Event()
        self.wake = threading.Event()
        self._state_key: object = ()  # never equal to a real key: the first look reports
        self._approvals_key: object = ()
        self._posted_approvals: tuple[str, ...] | None = None

    def nudge(self) -> None:
        """Look again now (after the UI itself changed the state)."""
        self._state_key = ()
        self.wake.set()

    def run(self, cancelled: Callable[[], bool]) -> None:
        tick = 0
        while not cancelled():
            if self.ledger_ready.is_set():
                update = self.index.poll()
                if update.kind in (APPENDED, RESET, MISSING):
                    self.post(LedgerGrew(update))
            if tick % STATE_EVERY == 0 or self.wake.is_set():
                self.wake.clear()
                self.look_at_state()
            tick += 1
            self.wake.wait(TICK)

    def look_at_state(self) -> None:
        root = self.root
        key = (
            _stat_key(layout.at(root, layout.INTENTS)),
            _stat_key(layout.at(root, layout.GOVERNANCE)),
            _dir_key(layout.at(root, layout.SESSIONS)),
        )
        if key != self._state_key:
            self._state_key = key
            self.post(self._intents())
        if self.watch_approvals:
            approvals = _dir_key(layout.at(root, layout.APPROVALS))
            if approvals != self._approvals_key:
                self._approvals_key = approvals
                self._report_approvals()

    def _intents(self) -> IntentsChanged:
        from paw_tui.core.handshake.sessions import held_intents
        from paw_tui.core.policy.compiled import load_policy

        policy = load_policy(self.root)
        held = (
            held_intents(self.root, time.time(), policy.governance.session_ttl)
            if policy.valid
            else {}
        )
        return IntentsChanged(policy, held)

    def _report_approvals(self) -> None:
        from paw_tui.core.handshake.approvals import pending_requests

        requests = pending_requests(self.root)
        ids = tuple(request.id for request in requests)
        if ids == self._posted_approvals:
            return
        self._posted_approvals = ids
        self.post(
            ApprovalsChanged([PendingApproval.read(self.root, request) for request in requests])
        )
