"""The one thread that watches the workspace for the TUI.

It follows the ledger (appended lines, truncation, replacement), the intents, governance and
session files, the approval requests and the scope requests, and tells the main screen
through messages (:mod:`paw_tui.tui.messages`). It never touches a widget: all it shares with
the UI thread is the trace index, which it only reads (:meth:`TraceIndex.poll`), and the
messages it posts.

Where the operating system tells of file changes (inotify, kqueue, ReadDirectoryChangesW,
through the ``watchfiles`` library), the thread sleeps until ``.orchestration/`` changes and
reports an append within a few milliseconds; a slow look at everything still runs, in case a
notification is lost (network file systems). Without ``watchfiles``, or when the directory
cannot be watched, it polls: the ledger every :data:`TICK`, the rest every
:data:`STATE_EVERY` ticks.
"""

from __future__ import annotations

import os
import threading
import time

from paw_tui.core.ledger.line_index import APPENDED, MISSING, RESET
from paw_tui.core.workspace import layout
from paw_tui.tui.controllers.approvals import PendingApproval
from paw_tui.tui.controllers.scope_requests import PendingScopeRequest, ScopeRequestsChanged
from paw_tui.tui.messages import (
    ApprovalsChanged,
    IntentsChanged,
    LedgerGrew,
    LedgerHealthChanged,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from textual.message import Message

    from paw_tui.core.ledger.line_index import TraceIndex

TICK = 0.1
"""Seconds between looks at the ledger when polling."""
STATE_EVERY = 3
"""Ticks between looks at the intents, sessions and requests when polling."""
SAFETY_LOOK = 2.0
"""Seconds between looks at everything while notifications drive the thread."""
STATE_MIN_GAP = 0.2
"""Seconds between two readings of the intents and sessions: the gate touches a session file
on every call, and a busy agent must not make the TUI reload its policy each time."""
NOTIFY_STEP_MS = 3
"""How long a burst of changes may pause before it is reported (the notification latency)."""
NOTIFY_DEBOUNCE_MS = 20
"""The longest a burst of changes is gathered before it is reported."""
HEALTH_EVERY = 2.0
"""Seconds between looks at whether the ledger can be appended: the mark a failed append
leaves is outside the workspace, where no notification reaches."""
HEALTH_LOCK_WAIT = 0.2
"""How long that look waits for the ledger's lock (the watcher has other work)."""
RETRY_EVERY = 50
"""Ticks between checks, when polling for want of ``.orchestration/``, whether it exists."""
POLL_ENV = "PAW_TUI_POLL"
"""Set to 1 to poll even where notifications are available."""

LEDGER = "ledger"
STATE = "state"
APPROVALS = "approvals"
SCOPE = "scope"
EVERYTHING = frozenset((LEDGER, STATE, APPROVALS, SCOPE))


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


class _Kinds:
    """Which of the things the TUI shows a changed path belongs to."""

    def __init__(self, root: str) -> None:
        def native(relative: str) -> str:
            return os.path.normcase(layout.at(root, relative))

        self.ledger = native(layout.LEDGER)
        self.state_files = {native(layout.INTENTS), native(layout.GOVERNANCE)}
        self.prefixes = (
            (native(layout.SESSIONS), STATE),
            (native(layout.APPROVALS), APPROVALS),
            (native(layout.SCOPE_REQUESTS), SCOPE),
        )
        self.ignored = native(layout.CACHE)
        self.orchestration = native(layout.ORCHESTRATION)

    def of(self, path: str) -> Iterable[str]:
        path = os.path.normcase(path)
        if path.startswith(self.ledger):  # the ledger and its head file
            return (LEDGER,)
        if path in self.state_files:
            return (STATE,)
        for prefix, kind in self.prefixes:
            if path == prefix or path.startswith(prefix + os.sep):
                return (kind,)
        if path == self.ignored or path.startswith(self.ignored + os.sep):
            return ()  # locks and caches the gate rewrites on every call
        return EVERYTHING  # a directory made, moved or removed: look at everything


class _WakeOrStop:
    """What the notification loop checks between steps: a wake-up, or the worker's end."""

    def __init__(self, wake: threading.Event, cancelled: Callable[[], bool]) -> None:
        self.wake = wake
        self.cancelled = cancelled

    def is_set(self) -> bool:
        return self.wake.is_set() or self.cancelled()


class _NotifySource:
    """Changes under ``.orchestration/`` as the operating system reports them."""

    def __init__(self, directory: str, kinds: _Kinds) -> None:
        # watchfiles' own loop object: its public generator ends on the first wake-up, and
        # this thread is woken whenever the UI changed something itself.
        from watchfiles._rust_notify import RustNotify

        self.kinds = kinds
        self.notify = RustNotify([directory], False, False, 0, True, True)

    def wait(self, seconds: float, stop: _WakeOrStop) -> set[str] | None:
        """The kinds that changed; an empty set when woken or stopped, None on time-out."""
        result = self.notify.watch(NOTIFY_DEBOUNCE_MS, NOTIFY_STEP_MS, int(seconds * 1000), stop)
        if result == "timeout":
            return None
        if isinstance(result, str):
            return set()
        found: set[str] = set()
        for _change, path in result:
            found.update(self.kinds.of(path))
        return found

    def close(self) -> None:
        self.notify.close()


def open_notify_source(root: str) -> _NotifySource | None:
    """A notification source for the workspace, or None where polling must do."""
    if os.environ.get(POLL_ENV) == "1":
        return None
    kinds = _Kinds(root)
    if not os.path.isdir(kinds.orchestration):
        return None
    try:
        return _NotifySource(kinds.orchestration, kinds)
    except Exception:  # no watchfiles, no inotify watches left, an unsupported file system
        return None


class ReadyEvent(threading.Event):
    """Set by the trace pane once it has adopted its first scan; setting it wakes the watcher
    so the lines appended meanwhile are read at once."""

    def __init__(self, wake: threading.Event) -> None:
        super().__init__()
        self._wake = wake

    def set(self) -> None:
        super().set()
        self._wake.set()


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
        notify: bool | None = None,
    ) -> None:
        self.root = root
        self.index = index
        self.post = post
        self.watch_approvals = watch_approvals
        self.notify = notify  # None: notifications where available
        self.wake = threading.Event()
        self.ledger_ready = ReadyEvent(self.wake)
        self.mode = "starting"  # then "notify" or "poll", for the bench and the tests
        self._state_key: object = ()  # never equal to a real key: the first look reports
        self._state_at = 0.0
        self._approvals_key: object = ()
        self._posted_approvals: tuple[str, ...] | None = None
        self._scope_key: object = ()
        self._posted_scope: tuple[str, ...] | None = None
        self._health_at = float("-inf")
        self._posted_health: tuple[bool, str] | None = None

    def nudge(self) -> None:
        """Look again now (after the UI itself changed the state)."""
        self._state_key = ()
        self._state_at = 0.0
        self.wake.set()

    def run(self, cancelled: Callable[[], bool]) -> None:
        while not cancelled():
            source = open_notify_source(self.root) if self.notify is not False else None
            if source is None:
                self.mode = "poll"
                orchestration = layout.at(self.root, layout.ORCHESTRATION)
                # without the directory there is nothing to watch yet: look for it now and then
                retry = self.notify is not False and not os.path.isdir(orchestration)
                self._poll(cancelled, retry and os.environ.get(POLL_ENV) != "1")
                continue
            self.mode = "notify"
            try:
                self._follow(source, cancelled)
            finally:
                source.close()

    # -- the two ways of learning of changes -------------------------------------------------
    def _follow(self, source: _NotifySource, cancelled: Callable[[], bool]) -> None:
        stop = _WakeOrStop(self.wake, cancelled)
        dirty = set(EVERYTHING)
        while not cancelled():
            dirty = self.look(dirty)
            # a kind left dirty (the intents read a moment ago) is looked at again soon;
            # the ledger waits for its first scan, whose adoption wakes this thread
            wait = STATE_MIN_GAP if dirty - {LEDGER} else SAFETY_LOOK
            try:
                changed = source.wait(wait, stop)
            except Exception:  # the notifications stopped (a watch limit, the disk gone)
                self.notify = False  # poll from now on
                return
            if self.wake.is_set():
                self.wake.clear()
                changed = set(EVERYTHING)
            dirty |= EVERYTHING if changed is None else changed

    def _poll(self, cancelled: Callable[[], bool], retry: bool) -> None:
        """Polls until cancelled, or (``retry``) until ``.orchestration/`` exists."""
        orchestration = layout.at(self.root, layout.ORCHESTRATION)
        tick = 0
        while not cancelled():
            woken = self.wake.is_set()
            self.wake.clear()
            state = tick % STATE_EVERY == 0 or woken
            self.look({LEDGER} | ({STATE, APPROVALS, SCOPE} if state else set()))
            tick += 1
            if retry and tick % RETRY_EVERY == 0 and os.path.isdir(orchestration):
                return  # the directory appeared (``paw-tui init``): try notifications
            self.wake.wait(TICK)

    # -- looking -----------------------------------------------------------------------------
    def look(self, kinds: set[str]) -> set[str]:
        """Look at ``kinds``; returns those that could not be looked at yet."""
        left: set[str] = set()
        if LEDGER in kinds:
            if self.ledger_ready.is_set():
                update = self.index.poll()
                if update.kind in (APPENDED, RESET, MISSING):
                    self.post(LedgerGrew(update))
            else:
                left.add(LEDGER)
        if STATE in kinds:
            if time.monotonic() - self._state_at >= STATE_MIN_GAP:
                self._state_at = time.monotonic()
                self._look_at_state()
            else:
                left.add(STATE)
        if self.watch_approvals:
            if APPROVALS in kinds:
                self._look_at_approvals()
            if SCOPE in kinds:
                self._look_at_scope_requests()
        if time.monotonic() - self._health_at >= HEALTH_EVERY:  # after the news, never before
            self._look_at_health()
        return left

    def _look_at_health(self) -> None:
        from paw_tui.core.ledger.health import ledger_health

        self._health_at = time.monotonic()
        try:
            health = ledger_health(self.root, lock_wait=HEALTH_LOCK_WAIT)
        except OSError:  # no state directory to read the mark from: nothing to say
            return
        key = (health.denying, health.message() if health.denying else "")
        if key != self._posted_health:
            self._posted_health = key
            self.post(LedgerHealthChanged(health))

    def look_at_state(self) -> None:
        """Everything but the ledger, now."""
        self._state_at = time.monotonic()
        self._look_at_state()
        if self.watch_approvals:
            self._look_at_approvals()
            self._look_at_scope_requests()

    def _look_at_state(self) -> None:
        root = self.root
        key = (
            _stat_key(layout.at(root, layout.INTENTS)),
            _stat_key(layout.at(root, layout.GOVERNANCE)),
            _dir_key(layout.at(root, layout.SESSIONS)),
        )
        if key != self._state_key:
            self._state_key = key
            self.post(self._intents())

    def _look_at_approvals(self) -> None:
        approvals = _dir_key(layout.at(self.root, layout.APPROVALS))
        if approvals != self._approvals_key:
            self._approvals_key = approvals
            self._report_approvals()

    def _look_at_scope_requests(self) -> None:
        scope = _dir_key(layout.at(self.root, layout.SCOPE_REQUESTS))
        if scope != self._scope_key:
            self._scope_key = scope
            self._report_scope_requests()

    def _intents(self) -> IntentsChanged:
        from paw_tui.core.handshake.sessions import PENDING_APPROVAL, holding_sessions
        from paw_tui.core.policy.compiled import load_policy

        policy = load_policy(self.root)
        held: dict[str, str] = {}
        awaiting: set[str] = set()
        if policy.valid:
            now, ttl = time.time(), policy.governance.session_ttl
            live = [s for s in holding_sessions(self.root) if s.is_live(now, ttl)]
            # an approved holder is named before one that only awaits approval
            for session in sorted(live, key=lambda s: s.state == PENDING_APPROVAL):
                intent = session.intent_id
                if intent is not None and intent not in held:
                    held[intent] = session.session_id
                    if session.state == PENDING_APPROVAL:
                        awaiting.add(intent)
        return IntentsChanged(policy, held, frozenset(awaiting))

    def _report_approvals(self) -> None:
        pending = PendingApproval.read_all(self.root)
        ids = tuple(item.request.id for item in pending)
        if ids == self._posted_approvals:
            return
        self._posted_approvals = ids
        self.post(ApprovalsChanged(pending))

    def _report_scope_requests(self) -> None:
        pending = PendingScopeRequest.read_all(self.root)
        ids = tuple(item.request.id for item in pending)
        if ids == self._posted_scope:
            return
        self._posted_scope = ids
        self.post(ScopeRequestsChanged(pending))
