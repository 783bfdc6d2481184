"""Sessions at any count (DESIGN §12, issue 20): stale and ended session records are pruned a
bounded amount at a time, and no decision reads every session record, stale holders included.

Stale holders are made the way real ones are: selections through the library at a time more
than the TTL ago (intent sharing allowed, so any number may hold one intent).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from gatekit import (
    Clock,
    assert_allow,
    claude_payload,
    events,
    gate,
    records,
    select,
    select_payload,
    write_payload,
    write_workspace,
)
from test_handshake import _session_reads

from paw_tui.core.handshake import pruning
from paw_tui.core.handshake import sessions as sessions_store
from paw_tui.core.handshake.selection import SELECTED

DAY = 86400.0
SHARING = "intent_sharing: allow\nsession_ttl: 1h\n"


@pytest.fixture
def shared(ws):  # type: ignore[no-untyped-def]
    return write_workspace(ws.root, governance=SHARING)


def _stale_holders(root: Path, count: int, prefix: str = "old") -> list[str]:
    clock = Clock(time.time() - 2 * DAY)
    made = []
    for n in range(count):
        session = f"{prefix}-{n}"
        assert select(root, session, "INT-001", clock).outcome == SELECTED
        made.append(session)
    return made


def _session_start(root: Path, session: str) -> dict[str, object]:
    return claude_payload("session_start_startup", root, session=session)


def _index(root: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(
        (root / ".orchestration" / "sessions" / ".holders").read_text("utf-8")
    )
    return data


def _session_files(root: Path) -> list[str]:
    return sorted(p.stem for p in (root / ".orchestration" / "sessions").glob("*.json"))


def test_a_decision_opens_no_stale_holder(shared: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _stale_holders(shared, 300)
    assert select(shared, "live", "INT-001").outcome == SELECTED
    opened = _session_reads(monkeypatch)
    result = gate(write_payload(shared, "src/a.py", session="newcomer"))
    assert result.denied
    # the newcomer's own (absent) record and the one live holder, never the 300 stale ones
    assert sorted(Path(p).name for p in opened) == ["live.json", "newcomer.json"]


def test_the_index_says_when_each_holder_was_last_seen(shared: Path) -> None:
    (old,) = _stale_holders(shared, 1)
    index = _index(shared)
    assert index["v"] == 2
    assert index["holders"] == {old: "INT-001"}
    seen = index["seen"]
    assert isinstance(seen, dict)
    record = json.loads((shared / ".orchestration" / "sessions" / f"{old}.json").read_text())
    assert seen[old] == record["last_seen"]


def test_a_new_session_releases_stale_holders_a_bounded_batch_at_a_time(shared: Path) -> None:
    made = _stale_holders(shared, pruning.RELEASES_PER_CALL * 2 + 5)
    assert select(shared, "live", "INT-001").outcome == SELECTED
    gate(_session_start(shared, "new-1"))
    # the index forgot every stale holder at once; the releases go a batch at a time
    assert _index(shared)["holders"] == {"live": "INT-001"}
    released = [r for r in records(shared) if r["event"] == "session_released"]
    assert len(released) == pruning.RELEASES_PER_CALL
    assert {r["reason"] for r in released} == {pruning.STALE_REASON}
    for n in range(2, 5):
        gate(_session_start(shared, f"new-{n}"))
    released = [r for r in records(shared) if r["event"] == "session_released"]
    assert sorted(str(r["session_id"]) for r in released) == sorted(made)  # each exactly once
    assert _session_files(shared) == ["live", "new-1", "new-2", "new-3", "new-4"]
    assert sessions_store.held_intents(str(shared), time.time(), 3600) == {"INT-001": "live"}


def test_a_live_holder_is_never_pruned(shared: Path) -> None:
    _stale_holders(shared, 3)
    assert select(shared, "live", "INT-002").outcome == SELECTED
    gate(_session_start(shared, "new"))
    assert "live" in _session_files(shared)
    assert _index(shared)["holders"] == {"live": "INT-002"}


def test_a_release_that_cannot_be_recorded_leaves_the_record(shared: Path) -> None:
    made = _stale_holders(shared, 3)
    ledger = shared / ".orchestration" / "agent_trace.jsonl"
    kept = ledger.read_bytes()
    ledger.unlink()
    ledger.mkdir()  # the ledger cannot be appended
    gate(_session_start(shared, "new-1"))
    assert set(made) <= set(_session_files(shared))
    ledger.rmdir()
    ledger.write_bytes(kept)
    gate(_session_start(shared, "new-2"))
    assert not set(made) & set(_session_files(shared))
    assert events(shared).count("session_released") == 3


def test_idle_records_that_hold_nothing_are_removed_without_a_record(shared: Path) -> None:
    folder = shared / ".orchestration" / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(50):
        record = {"session_id": f"idle-{n}", "state": "none", "started": 1.0, "last_seen": 1.0}
        (folder / f"idle-{n}.json").write_text(json.dumps(record), encoding="utf-8")
    gate(_session_start(shared, "new"))
    assert _session_files(shared) == ["new"]
    assert "session_released" not in events(shared)


def test_the_sweep_reads_a_bounded_number_of_records_per_call(
    shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pruning, "READS_PER_CALL", 40)
    gate(_session_start(shared, "first"))  # the index exists (a missing one is rebuilt once)
    folder = shared / ".orchestration" / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(100):
        record = {"session_id": f"idle-{n}", "state": "none", "started": 1.0, "last_seen": 1.0}
        (folder / f"idle-{n}.json").write_text(json.dumps(record), encoding="utf-8")
    opened = _session_reads(monkeypatch)
    gate(_session_start(shared, "new-1"))
    assert len([p for p in opened if "/idle-" in p]) <= 40
    for n in range(2, 6):
        gate(_session_start(shared, f"new-{n}"))
    assert not [name for name in _session_files(shared) if name.startswith("idle-")]
    assert (folder / pruning.PRUNE_MARKER).exists()  # the sweep finished


def test_a_version_1_index_is_still_believed(shared: Path) -> None:
    assert select(shared, "holder", "INT-002").outcome == SELECTED
    index = shared / ".orchestration" / "sessions" / ".holders"
    index.write_text(json.dumps({"v": 1, "holders": {"holder": "INT-002"}}), encoding="utf-8")
    held = sessions_store.held_intents(str(shared), time.time(), 3600)
    assert held == {"INT-002": "holder"}


def test_an_index_ahead_of_its_record_is_checked_against_the_record(shared: Path) -> None:
    """The index is written before the record: if the record's write failed, the index says
    live while the record is stale; the record is then read and wins."""
    assert select(shared, "holder", "INT-002").outcome == SELECTED
    path = shared / ".orchestration" / "sessions" / "holder.json"
    data = json.loads(path.read_text("utf-8"))
    data["last_seen"] = time.time() - 2 * DAY
    path.write_text(json.dumps(data), encoding="utf-8")
    assert sessions_store.held_intents(str(shared), time.time(), 3600) == {}
    assert_allow(gate(select_payload(shared, "INT-002", session="other")))


def test_a_selection_of_a_stale_holders_intent_succeeds(shared: Path) -> None:
    write_workspace(shared, governance="session_ttl: 1h\n")  # no sharing: one holder at a time
    clock = Clock(time.time() - 2 * DAY)
    assert select(shared, "gone", "INT-001", clock).outcome == SELECTED
    assert select(shared, "next", "INT-001").outcome == SELECTED
    assert os.path.exists(shared / ".orchestration" / "sessions" / "gone.json")


def test_pruning_never_waits_long_for_a_busy_state_lock(shared: Path) -> None:
    """Pruning is optional work: with the state lock held elsewhere it gives up at once and
    leaves the stale records for a later call (the event itself is not held up)."""
    from paw_tui.core.workspace.state import WorkspaceState

    made = _stale_holders(shared, 3)
    with sessions_store.state_lock(str(shared)):
        done = pruning.prune_stale_sessions(WorkspaceState(str(shared)), time.time(), 3600)
    assert done.unfinished and not done.released
    assert set(made) <= set(_session_files(shared))
    done = pruning.prune_stale_sessions(WorkspaceState(str(shared)), time.time(), 3600)
    assert sorted(s.session_id for s in done.released) == sorted(made)
