"""The TUI's one watcher thread (DESIGN §11, issue 11 item 6): file-change notifications
where the OS gives them, polling otherwise, the same messages either way."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from paw_tui.core.ledger.line_index import TraceIndex, scan_tail
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.workspace import layout
from paw_tui.tui.controllers.scope_requests import ScopeRequestsChanged
from paw_tui.tui.messages import IntentsChanged, LedgerGrew
from paw_tui.tui.watcher import WorkspaceWatcher

from .conftest import claude, gate

MODES = ["notify", "poll"]


class Running:
    """A watcher on its own thread, and what it posted."""

    def __init__(self, root: Path, notify: bool | None) -> None:
        self.index = TraceIndex(layout.at(str(root), layout.LEDGER))
        self.index.adopt(scan_tail(self.index.path))
        self.posted: list[object] = []
        self.lock = threading.Lock()
        self.polls = 0
        real_poll = self.index.poll

        def counting_poll():  # type: ignore[no-untyped-def]
            self.polls += 1
            return real_poll()

        self.index.poll = counting_poll  # type: ignore[method-assign]
        self.watcher = WorkspaceWatcher(str(root), self.index, self.post, notify=notify)
        self.stop = False
        self.thread = threading.Thread(target=self.watcher.run, args=(lambda: self.stop,))

    def post(self, message: object) -> None:
        with self.lock:
            self.posted.append(message)
        if isinstance(message, LedgerGrew):
            self.index.apply(message.update)  # as the trace pane does on the UI thread

    def of(self, kind: type) -> list[object]:
        with self.lock:
            return [m for m in self.posted if isinstance(m, kind)]

    def until(self, condition: Callable[[], object], seconds: float = 10.0) -> None:
        """Wait for ``condition`` (bounded generously: a bound, never a measurement)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():
                return
            time.sleep(0.01)
        assert condition(), "condition never held"


@pytest.fixture(params=MODES)
def running(request: pytest.FixtureRequest, workspace: Path) -> Iterator[Running]:
    if request.param == "notify":
        pytest.importorskip("watchfiles")
    watched = Running(workspace, notify=request.param == "notify")
    watched.thread.start()
    watched.watcher.ledger_ready.set()
    watched.until(lambda: watched.watcher.mode == request.param)
    yield watched
    watched.stop = True
    watched.thread.join(10)
    assert not watched.thread.is_alive()


def test_the_first_look_reports_the_state(running: Running) -> None:
    running.until(lambda: running.of(IntentsChanged))
    running.until(lambda: running.of(ScopeRequestsChanged))
    [scope] = running.of(ScopeRequestsChanged)
    assert isinstance(scope, ScopeRequestsChanged) and scope.pending == []


def test_an_append_is_reported(running: Running, workspace: Path) -> None:
    before = len(running.index)
    Ledger.for_workspace(str(workspace)).append(
        {"event": "tool_allowed", "session_id": "w", "decision": "allow"}
    )
    running.until(lambda: len(running.index) == before + 1)
    newest = running.index.record(len(running.index) - 1)
    assert newest is not None and newest["session_id"] == "w"


def test_an_intents_edit_and_a_scope_request_are_reported(
    running: Running, workspace: Path
) -> None:
    running.until(lambda: running.of(IntentsChanged))
    intents = workspace / ".orchestration" / "active_intents.yaml"
    intents.write_text(intents.read_text().replace("Rate limiting", "Rate limits"))
    running.until(
        lambda: any(
            isinstance(m, IntentsChanged)
            and (i := m.policy.intent("INT-003"))
            and i.name == "Rate limits"
            for m in running.of(IntentsChanged)
        )
    )
    asked = claude(
        workspace,
        "s1",
        "PreToolUse",
        tool_name="mcp__paw__request_scope_expansion",
        tool_input={"pattern": "docs/**", "reason": "r"},
    )
    assert gate(workspace, asked) == 0
    running.until(
        lambda: any(
            isinstance(m, ScopeRequestsChanged)
            and [p.request.pattern for p in m.pending] == ["docs/**"]
            for m in running.of(ScopeRequestsChanged)
        )
    )


def test_notifications_leave_a_quiet_workspace_alone(workspace: Path) -> None:
    """With notifications the ledger is read when it changes, not on a clock: a quiet second
    costs at most the occasional safety look (polling reads it every tenth of a second), and
    the gate's lock and cache writes wake nothing."""
    pytest.importorskip("watchfiles")
    watched = Running(workspace, notify=True)
    watched.thread.start()
    try:
        watched.watcher.ledger_ready.set()
        watched.until(lambda: watched.watcher.mode == "notify" and watched.polls >= 1)
        watched.until(lambda: watched.of(IntentsChanged))
        time.sleep(0.3)  # let the first looks settle
        settled = watched.polls
        cache = workspace / ".orchestration" / ".cache"
        cache.mkdir(exist_ok=True)
        for n in range(20):
            (cache / "state.lock").write_text(str(n))
        time.sleep(1.0)
        assert watched.polls - settled <= 1
        before = len(watched.index)
        (workspace / ".orchestration" / "agent_trace.jsonl").open("a").write(
            json.dumps({"seq": 0, "event": "x"}) + "\n"
        )
        watched.until(lambda: len(watched.index) == before + 1)
    finally:
        watched.stop = True
        watched.thread.join(10)


def test_notifications_that_fail_fall_back_to_polling(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("watchfiles")
    from paw_tui.tui import watcher as watcher_module

    def broken(self: object, seconds: float, stop: object) -> set[str] | None:
        raise RuntimeError("inotify watch limit reached")

    monkeypatch.setattr(watcher_module._NotifySource, "wait", broken)
    watched = Running(workspace, notify=None)
    watched.thread.start()
    try:
        watched.watcher.ledger_ready.set()
        watched.until(lambda: watched.watcher.mode == "poll")
        before = len(watched.index)
        Ledger.for_workspace(str(workspace)).append({"event": "tool_allowed", "session_id": "p"})
        watched.until(lambda: len(watched.index) == before + 1)
    finally:
        watched.stop = True
        watched.thread.join(10)
    assert not watched.thread.is_alive()
