"""Whether the ledger can be appended now, and whether the gate has been denying because it
could not (the API ``doctor``, ``trace verify`` and the TUI's banner read; DESIGN §7)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gatekit import assert_claude_deny, gate, paw_state_dir, root, select_payload, write_payload

from paw_tui.core.ledger.health import ledger_health
from paw_tui.core.ledger.io import LedgerError
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.support.locking import FileLock

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]


def ledger_path(root: Path) -> Path:
    return root / ".orchestration" / "agent_trace.jsonl"


def test_a_workspace_that_never_recorded_can_be_appended_and_the_probe_writes_nothing(
    tmp_path: Path,
) -> None:
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    health = ledger_health(str(fresh))
    assert health.appendable and not health.denying and health.failure is None
    assert list(fresh.iterdir()) == []


def test_a_ledger_replaced_by_a_directory_is_named(root: Path) -> None:
    ledger_path(root).mkdir()
    health = ledger_health(str(root))
    assert not health.appendable and health.denying
    assert health.problem == f"{ledger_path(root)}: it is a directory."
    assert health.message().startswith("The audit ledger cannot be appended: ")
    assert "Every mutating tool is denied" in health.message()


def test_a_lock_held_past_the_wait_is_named(root: Path) -> None:
    assert_claude_deny(gate(write_payload(root, "src/a.py")))  # a record: the lock file exists
    lock = FileLock(Ledger.for_workspace(str(root)).lock_path, timeout=1)
    with lock:
        health = ledger_health(str(root), lock_wait=0.05)
    assert not health.appendable
    assert "is held by another process (waited 0.05 s)" in str(health.problem)
    assert ledger_health(str(root), lock_wait=0.05).appendable


def test_the_gate_s_failed_append_is_seen_until_a_record_is_written_again(root: Path) -> None:
    ledger_path(root).mkdir()
    reason = assert_claude_deny(gate(select_payload(root, "INT-001")))
    assert "Cannot append to the audit ledger" in reason
    ledger_path(root).rmdir()
    health = ledger_health(str(root))
    assert health.appendable  # the probe sees nothing wrong any more...
    assert health.failure is not None and health.denying  # ...but nothing was recorded since
    assert health.failure.reason.endswith("it is a directory.")
    assert "failed at" in health.message()
    gate(select_payload(root, "INT-001"))  # a record is written: the marker no longer stands
    assert not ledger_health(str(root)).denying


def test_a_lock_timeout_while_appending_is_remembered(root: Path) -> None:
    """A failure the probe cannot see after the fact: the lock was held past the timeout."""
    ledger = Ledger.for_workspace(str(root), lock_timeout=0.05)
    ledger.append({"event": "tool_allowed"})
    with (
        FileLock(ledger.lock_path, timeout=1),
        pytest.raises(LedgerError, match="could not be taken"),
    ):
        ledger.append({"event": "tool_denied"})
    health = ledger_health(str(root))
    assert health.appendable and health.denying
    assert health.failure is not None and health.failure.event == "tool_denied"
    assert health.to_dict()["last_failure"]["event"] == "tool_denied"  # type: ignore[index]


def test_doctor_and_verify_do_not_call_an_intact_ledger_ok_when_it_cannot_be_appended(
    root: Path, run_cli: RunCli
) -> None:
    assert_claude_deny(gate(write_payload(root, "src/a.py")))  # one intact record
    with FileLock(Ledger.for_workspace(str(root)).lock_path, timeout=1):
        doctor = run_cli("doctor", cwd=root)
        verify = run_cli("trace", "verify", cwd=root)
    assert doctor.code == 2
    rows = [line for line in doctor.out.splitlines() if line.split()[:2] == ["FAIL", "ledger"]]
    assert len(rows) == 1 and "The audit ledger cannot be appended: its lock" in rows[0]
    assert "is held by another process" in rows[0]
    assert verify.code == 2
    intact, but = verify.out.splitlines()
    assert intact.startswith(f"The ledger {ledger_path(root)} is intact: 1 record")
    assert but.startswith("But: The audit ledger cannot be appended: its lock")
    after = run_cli("doctor", cwd=root)
    assert "ok    ledger       it can be appended now" in after.out


def test_verify_json_carries_the_append_health(root: Path, run_cli: RunCli) -> None:
    import json

    ledger_path(root).mkdir()
    done = run_cli("trace", "verify", "--json", cwd=root)
    assert done.code == 2
    data = json.loads(done.out)
    assert data["append"]["appendable"] is False and data["append"]["denying"] is True
