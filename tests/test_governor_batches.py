"""The Governor's batches (issue 12): calls from many threads are decided by one leader,
their records written unsynced and made durable by one sync of the ledger for the batch.
No call may return before a sync that covers its own record; a failed sync denies every
tool call in the batch; nothing is lost or reordered in the chain."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from gatekit import records, root

from paw_tui.core.ledger import store
from paw_tui.core.ledger.io import LedgerError
from paw_tui.core.ledger.verify import verify
from paw_tui.gate import api
from paw_tui.gate.api import Governor

__all__ = ["root"]


def write(session: str, path: str) -> dict[str, object]:
    return {"event": "pre_tool", "session_id": session, "tool": "write_file", "paths": [path]}


def select(governor: Governor, session: str) -> None:
    verdict = governor.decide(
        {"event": "pre_tool", "session_id": session, "tool": "select_active_intent",
         "intent_id": "INT-006"}
    )  # fmt: skip
    assert verdict.allow, verdict


class SyncWatch:
    """Wraps ``sync_file``: how far the ledger was synced (its size just before each sync,
    noted once the sync returned), and how many syncs there were."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.synced = 0
        self.calls = 0
        self.lock = threading.Lock()
        real = store.sync_file

        def watched(path: str, identity: tuple[int, int]) -> None:
            size = os.path.getsize(path)
            real(path, identity)
            with self.lock:
                self.calls += 1
                self.synced = max(self.synced, size)

        monkeypatch.setattr(store, "sync_file", watched)


def end_of(ledger: Path, needle: str) -> int:
    data = ledger.read_bytes()
    return data.index(needle.encode()) + data[data.index(needle.encode()) :].index(b"\n") + 1


def test_no_call_returns_before_a_sync_covers_its_record(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    governor = Governor(str(root))
    select(governor, "loop")  # one session, as one agent loop with eight workers
    watch = SyncWatch(monkeypatch)
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    problems: list[str] = []

    def work(worker: str) -> None:
        for i in range(40):
            path = f"src/{worker}/f{i}.py"
            verdict = governor.decide(write("loop", path))
            with watch.lock:
                synced = watch.synced
            if not verdict.allow:
                problems.append(f"{path}: {verdict.reason}")
            elif end_of(ledger, f'"{path}"') > synced:
                problems.append(f"{path} returned before its record was synced")

    threads = [threading.Thread(target=work, args=(f"w{n}",)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert problems == []
    allowed = [r for r in records(root) if r["event"] == "tool_allowed"]
    assert len(allowed) == 8 * 40
    assert watch.calls <= 8 * 40
    assert verify(store.Ledger.for_workspace(str(root))).ok


def test_one_caller_gets_one_sync_per_call(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    governor = Governor(str(root))
    select(governor, "solo")
    watch = SyncWatch(monkeypatch)
    for i in range(5):
        assert governor.decide(write("solo", f"src/f{i}.py")).allow
    assert watch.calls == 5


def test_a_failed_sync_denies_the_tool_calls_it_covered(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    governor = Governor(str(root))
    select(governor, "s")

    def failing(path: str, identity: tuple[int, int]) -> None:
        raise LedgerError(f"Cannot sync the audit ledger {path}: the disk went away.")

    monkeypatch.setattr(store, "sync_file", failing)
    verdict = governor.decide(write("s", "src/a.py"))
    assert not verdict.allow
    assert "the disk went away" in (verdict.reason or "")
    assert (verdict.reason or "").endswith("denying (fail closed).")


def test_a_ledger_replaced_before_its_sync_is_a_deny(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The records were written to a file that is no longer the ledger: syncing the new
    file would vouch for nothing."""
    governor = Governor(str(root))
    select(governor, "s")
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    real = store.sync_file

    def swapped(path: str, identity: tuple[int, int]) -> None:
        os.replace(ledger, ledger.with_suffix(".moved"))
        ledger.write_bytes(b"")
        real(path, identity)

    monkeypatch.setattr(store, "sync_file", swapped)
    verdict = governor.decide(write("s", "src/a.py"))
    assert not verdict.allow and "replaced after records were written" in (verdict.reason or "")


def test_a_decision_that_raises_fails_alone(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    governor = Governor(str(root))
    select(governor, "s")
    real = Governor._decide

    def flaky(self: Governor, event: object) -> tuple[api.Verdict, object]:
        if "boom" in str(getattr(event, "tool_input", "")):
            raise RuntimeError("boom")
        return real(self, event)

    monkeypatch.setattr(Governor, "_decide", flaky)
    bad = governor.decide({**write("s", "src/boom.py"), "tool_input": {"boom": 1}})
    assert not bad.allow and "RuntimeError: boom" in (bad.reason or "")
    assert governor.decide(write("s", "src/fine.py")).allow


def test_a_ledger_replaced_mid_batch_is_two_files_each_synced(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two calls of one batch that wrote to the ledger before and after it was replaced
    wrote to two files: both are synced (or their calls denied), not only the last."""
    synced: list[tuple[str, tuple[int, int]]] = []
    monkeypatch.setattr(store, "sync_file", lambda path, identity: synced.append((path, identity)))
    path = str(root / "ledger")
    failures = api._sync({(path, (1, 10)), (path, (1, 11))})
    assert failures == {} and sorted(synced) == [(path, (1, 10)), (path, (1, 11))]
