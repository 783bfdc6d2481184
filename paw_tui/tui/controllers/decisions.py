"""Queues of requests that wait for a person: one modal at a time, in arrival order.

Intent selections (:mod:`.approvals`) and scope requests (:mod:`.scope_requests`) share this
behaviour (DESIGN §11). Requests pending at start-up are shown too (they are files, so a
restart of the TUI loses none). ``escape`` leaves a request pending and hides it for this
session of the TUI (``a`` brings the hidden ones back); a request decided elsewhere (the CLI,
another TUI, a session that ended) closes its modal. Decisions go through the core, with
their ledger records, in a worker thread. The queues of one screen take turns: a modal never
opens over another request's.

A request never takes the focus from a text field or from a person typing
(:mod:`paw_tui.tui.attention`): it is announced (the header's count, a notification) and
waits until the field is left and the keys stop, or until ``a`` asks for it.
"""

from __future__ import annotations

from typing import Generic, TypeVar

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import App
    from textual.screen import Screen
    from textual.timer import Timer

    from paw_tui.tui.attention import Attention
    from paw_tui.tui.controllers.request_facts import RequestFacts
    from paw_tui.tui.dialogs.decision import DecisionModal

Item = TypeVar("Item")
RETRY = 0.25
"""Seconds between looks, while a request waits, at whether the person is still busy."""


class DecisionQueue(Generic[Item]):
    """Which pending request is on screen, which were set aside, and what comes next.

    ``group`` is the list of the screen's queues (this one joins it): they take turns, and
    ``a`` reviews them all. ``changed`` is called whenever the number waiting may have moved.
    """

    NOTHING_PENDING = "Nothing awaits a decision: no intent selection or scope request is pending."
    DECIDED_ELSEWHERE = "That request was decided elsewhere."
    WORKER_GROUP = "decisions"
    WAITS_TITLE = "A request waits for you"

    def __init__(
        self,
        screen: Screen[None],
        root: str,
        *,
        attention: Attention,
        clock: Callable[[], float],
        group: list[DecisionQueue[object]],
        changed: Callable[[], None],
    ) -> None:
        self.screen = screen
        self.root = root
        self.attention = attention
        self.clock = clock
        self.group = group
        self.changed = changed
        self.pending: list[Item] = []
        self.dismissed: set[str] = set()
        self.announced: set[str] = set()
        self.open_request: str | None = None
        self._retry: Timer | None = None
        group.append(self)  # type: ignore[arg-type]

    # -- what a kind of request says ---------------------------------------------------------
    def request_id(self, item: Item) -> str:
        raise NotImplementedError

    def facts(self, item: Item) -> RequestFacts:
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

    def update(self, pending: list[Item]) -> None:
        """The pending set changed on disk."""
        from paw_tui.tui.dialogs.decision import DecisionModal

        self.pending = pending
        ids = {self.request_id(item) for item in pending}
        self.announced &= ids
        if self.open_request is not None and self.open_request not in ids:
            closing = self.open_request
            self.open_request = None
            screen = self.app.screen
            if isinstance(screen, DecisionModal) and screen.request_id == closing:
                screen.dismiss(None)
                self.app.notify(self.DECIDED_ELSEWHERE)
        self.changed()
        self.show_next()

    def review(self) -> None:
        """Show every queue's pending requests again, the ones set aside included: the
        person asked (``a``), so neither a field nor typing holds them back."""
        if not any(queue.pending for queue in self.group):
            self.app.notify(self.NOTHING_PENDING)
            return
        for queue in self.group:
            queue.dismissed.clear()
        for queue in self.group:
            queue.show_next(asked=True)

    def _next(self) -> Item | None:
        for item in self.pending:
            if self.request_id(item) not in self.dismissed:
                return item
        return None

    def show_next(self, *, asked: bool = False) -> None:
        from paw_tui.tui.dialogs.decision import DecisionModal

        if self.open_request is not None or isinstance(self.app.screen, DecisionModal):
            return
        item = self._next()
        if item is None:
            return
        if not asked and self.attention.busy(self.app):
            self._announce(item)
            if self._retry is None:
                self._retry = self.app.set_timer(RETRY, self._look_again)
            return
        request_id = self.request_id(item)
        self.open_request = request_id
        self.app.push_screen(
            self.modal(item), lambda result, rid=request_id: self._result(rid, result)
        )

    def _look_again(self) -> None:
        self._retry = None
        self._show_any()

    def _announce(self, item: Item) -> None:
        """Tell the person, once, that a request waits for them."""
        from paw_tui.core.support.printable import printable

        request_id = self.request_id(item)
        if request_id in self.announced:
            return
        self.announced.add(request_id)
        facts = self.facts(item)
        self.app.notify(
            f"Session {printable(facts.session_id)} asks about {printable(facts.intent_id)}: "
            "it waits until you leave the field, or press a.",
            title=self.WAITS_TITLE,
            severity="warning",
            timeout=8,
            markup=False,
        )

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
        for queue in self.group:
            queue.show_next()

    def _decide(self, request_id: str, yes: bool) -> None:
        """In a worker thread: the decision, then back to the UI thread."""
        from paw_tui.core.errors import PawError
        from paw_tui.tui.dialogs.act_failed import report_failure

        app = self.app
        try:
            told = self.decide(request_id, yes)
        except PawError as exc:
            app.call_from_thread(report_failure, app, str(exc))
            return
        app.call_from_thread(app.notify, told, markup=False)  # it names the agent's session
        app.call_from_thread(self._show_any)
