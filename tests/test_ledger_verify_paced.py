"""``verify(..., pace=...)``: the scan the TUI runs in its own process, in short blocks."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from paw_tui.core.ledger import verify as verify_module
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import verify

BLOCK = 512


@pytest.fixture(autouse=True)
def small_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(verify_module, "PACED_CHUNK", BLOCK)


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    root = tmp_path / "ws"
    (root / ".orchestration").mkdir(parents=True)
    ledger = Ledger.for_workspace(str(root), durable=False)
    for n in range(40):
        ledger.append({"event": "tool_allowed", "session_id": "s", "intent_id": "INT-001",
                       "tool": "Edit", "paths": [f"src/{n}.py"], "decision": "allow"})  # fmt: skip
    return ledger


class Enough(Exception):
    """How the tests' ``pace`` stops a scan."""


class Counting:
    """A ``pace`` that counts its calls and notes whether the collector was left on."""

    def __init__(self, stop_at: int | None = None) -> None:
        self.calls = 0
        self.collecting: set[bool] = set()
        self.stop_at = stop_at

    def __call__(self) -> None:
        self.calls += 1
        self.collecting.add(gc.isenabled())
        if self.calls == self.stop_at:
            raise Enough


def test_a_paced_scan_reads_in_blocks_and_gives_the_same_result(ledger: Ledger) -> None:
    pace = Counting()
    paced = verify(ledger, pace=pace)
    assert paced.ok and paced.records == 40
    assert paced.to_dict() == verify(ledger).to_dict()
    size = os.path.getsize(ledger.path)
    assert pace.calls == -(-size // BLOCK) > 1  # once before each block
    assert pace.collecting == {True}  # the caller's collector is not turned off


def test_a_paced_scan_names_the_same_bad_line(ledger: Ledger) -> None:
    with open(ledger.path, "rb") as handle:
        lines = handle.read().split(b"\n")
    lines[29] = lines[29].replace(b"src/29.py", b"src/XX.py")
    with open(ledger.path, "wb") as handle:
        handle.write(b"\n".join(lines))
    paced = verify(ledger, pace=Counting())
    assert paced.first_bad_line == 30 and not paced.ok
    assert paced.to_dict() == verify(ledger).to_dict()


def test_pace_stops_the_scan_by_raising(ledger: Ledger) -> None:
    pace = Counting(stop_at=3)
    with pytest.raises(Enough):  # it propagates: the caller's way to stop the scan
        verify(ledger, pace=pace)
    assert pace.calls == 3 and gc.isenabled()
