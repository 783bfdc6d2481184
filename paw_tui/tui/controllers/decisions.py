"""Queues of requests that wait for a person: one modal at a time, in arrival order.

Intent selections (:mod:`.approvals`) and scope requests (:mod:`.scope_requests`) share this
behaviour (DESIGN §11). Requests pending at start-up are shown too (they are files, so a
restart of the TUI loses none). ``escape`` leaves a request pending and hides it for this
session of the TUI (``a`` brings the hidden ones back); a request decided elsewhere (the CLI,
another TUI, a session that ended) closes its modal. Decisions go through the core, with
their ledger records, in a worker thread. The queues of one screen take turns: a modal never
opens over another request's.
"""

from __future__ import annotations

import os
from typing import Generic, TypeVar, cast
from weakref import WeakKeyDictionary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from paw_tui.tui.dialogs.decision import DecisionModal

Item = TypeVar("Item")
BADGE = " · ⏵ "
"""Where the header's count of waiting requests begins."""

_QUEUES: WeakKeyDictionary[Screen[None], list[DecisionQueue[object]]] = WeakKeyDictionary()
"""The queues of each screen, so that one closing its modal lets the next one show."""


def decider_name() -> str:
    """Who the ledger says decided, for a decision made in the TUI."""
    return f"{os.environ.get('USER') or os.environ.get('USERNAME') or 'human'} (tui)"


class DecisionQueue(Generic[Item]):
    """Which pending request is on screen, which were set aside, and what comes next."""

    NOTHING_PENDING = "Nothing awaits a decision: no intent selection or scope request is pending."
    DECIDED_ELSEWHERE = "That request was decided elsewhere."
    WORKER_GROUP = "decisions"

    def __init__(self, screen: Screen[None], root: str) -> None:
        self.screen = screen
        self.root = root
        self.pending: list[Item] = []
        self.dismissed: set[str] = set()
        self.open_request: str | None = None
        _QUEUES.setdefault(screen, []).append(cast("DecisionQueue[object]", self))

    # -- what a kind of request says ---------------------------------------------------------
    def request_id(self, item: Item) -> str:
        raise NotImplementedError

    def modal(self, item: Item) -> DecisionModal:
        raise NotImplementedError

    def decide(self, request_id: str, yes: bool) -> str:
        """In a worker thread: the decision through the core; what to tell the person.
        Raises PawError naming what went wrong."""
        raise NotImplementedError

    # -- shared behaviour --------------------------------------------------------------------
    @property
    def app(self) -> App[None]:
        return self.screen.app

    def peers(self) -> list[DecisionQueue[object]]:
        """Every queue of this screen, this one included."""
        return _QUEUES.get(self.screen) or [cast("DecisionQueue[object]", self)]

    def update(self, pending: list[Item]) -> None:
        """The pending set changed on disk."""
        from paw_tui.tui.dialogs.decision import DecisionModal

        self.pending = pending
        ids = {self.request_id(item) for item in pending}
        if self.open_request is not None and self.open_request not in ids:
            closing = self.open_request
            self.open_request = None
            screen = self.app.screen
            if isinstance(screen, DecisionModal) and screen.request_id == closing:
                screen.dismiss(None)
                self.app.notify(self.DECIDED_ELSEWHERE)
        self.show_badge()
        self.show_next()

    def show_badge(self) -> None:
        """How many requests wait, in the screen's subtitle (the header), so one put off
        with ``escape`` is not forgotten."""
        waiting = sum(len(queue.pending) for queue in self.peers())
        base = str(self.screen.sub_title).split(BADGE)[0]
        self.screen.sub_title = base + (f"{BADGE}{waiting} waiting (a)" if waiting else "")

    def review(self) -> None:
        """Show every queue's pending requests again, the ones set aside included."""
        peers = self.peers()
        if not any(queue.pending for queue in peers):
            self.app.notify(self.NOTHING_PENDING)
            return
        for queue in peers:
            queue.dismissed.clear()
        for queue in peers:
            queue.show_next()

    def show_next(self) -> None:
        from paw_tui.tui.dialogs.decision import DecisionModal

        if self.open_request is not None or isinstance(self.app.screen, DecisionModal):
            return
        for item in self.pending:
            request_id = self.request_id(item)
            if request_id in self.dismissed:
                continue
            self.open_request = request_id
            self.app.push_screen(
                self.modal(item), lambda result, rid=request_id: self._result(rid, result)
            )
            return

    def _result(self, request_id: str, result: bool | None) -> None:
        if self.open_request == request_id:
            self.open_request = None
        self.dismissed.add(request_id)  # not shown again while the decision is written
        if result is not None:
            self.app.run_worker(
                lambda: self._decide(request_id, result),
                thread=True,
                group=self.WORKER_GROUP,
                exit_on_error=False,
            )
        self._show_any()

    def _show_any(self) -> None:
        for queue in self.peers():
            queue.show_next()

    def _decide(self, request_id: str, yes: bool) -> None:
        """In a worker thread: the decision, then back to the UI thread."""
        from paw_tui.core.errors import PawError

        app = self.app
        try:
            told = self.decide(request_id, yes)
        except PawError as exc:
            app.call_from_thread(app.notify, str(exc), severity="error")
            return
        app.call_from_thread(app.notify, told)
        app.call_from_thread(self._show_any)
