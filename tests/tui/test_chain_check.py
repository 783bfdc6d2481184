"""The trace pane's chain check, run in the TUI's process in short blocks: its verdict
reaches the status line, it stands aside for the live tail, and it can be called off."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paw_tui.core.ledger import verify as verify_module
from paw_tui.tui import chain_check
from paw_tui.tui.app import PawApp
from paw_tui.tui.chain_check import check_chain
from paw_tui.tui.widgets.trace_pane import TracePane

from .pilot_wait import until
from .test_app import SIZE, text_of

BLOCK = 256


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verify_module, "PACED_CHUNK", BLOCK)
    monkeypatch.setattr(chain_check, "LIVE_PAUSE", 0.0)


def ledger_path(root: Path) -> Path:
    return root / ".orchestration" / "agent_trace.jsonl"


def tamper(root: Path, line: int) -> None:
    """Change one byte of ``line`` (1-based), keeping the file's size and inode."""
    path = ledger_path(root)
    data = bytearray(path.read_bytes())
    starts = [0] + [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    at = data.index(b'"session_id":"', starts[line - 1]) + len('"session_id":"')
    data[at] = ord("X") if data[at] != ord("X") else ord("Y")
    with open(path, "r+b") as handle:
        handle.write(data)


def test_the_check_is_paced_block_by_block(workspace: Path) -> None:
    asked = {"stopped": 0, "wait": 0}

    def stopped() -> bool:
        asked["stopped"] += 1
        return False

    def wait() -> bool:
        asked["wait"] += 1
        return True  # a record on its way to the screen: the check stands aside each block

    assert check_chain(str(workspace), stopped, wait) == ("verified", True)
    blocks = -(-os.path.getsize(ledger_path(workspace)) // BLOCK)
    assert blocks > 1 and asked == {"stopped": blocks, "wait": blocks}


def test_the_check_can_be_called_off(workspace: Path) -> None:
    asked = []

    def stopped() -> bool:
        asked.append(True)
        return len(asked) == 2

    assert check_chain(str(workspace), stopped, lambda: False) is None
    assert len(asked) == 2  # nothing read after it was called off


def test_a_broken_chain_is_named(workspace: Path) -> None:
    tamper(workspace, 2)
    assert check_chain(str(workspace), lambda: False, lambda: False) == (
        "broken at line 2",
        False,
    )


@pytest.mark.anyio
async def test_a_new_check_shows_its_verdict(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = app.query_one(TracePane)
        await until(pilot, lambda: "chain: verified" in text_of(app, "#trace-status"))
        assert not pane.has_class("-broken")
        tamper(workspace, 3)
        app.main.action_verify_chain()  # "trace: Verify chain" in the command palette
        await until(pilot, lambda: "chain: broken at line 3" in text_of(app, "#trace-status"))
        assert pane.has_class("-broken") and not pane.chain_ok
