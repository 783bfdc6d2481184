"""Drift snapshots whose PostToolUse never came are removed after a day; the directory is
looked through at most once every ``PRUNE_EVERY`` seconds, not on every shell call."""

from __future__ import annotations

import os
import time
from pathlib import Path

from gatekit import bash_payload, gate, paw_state_dir, root, select

from paw_tui.gate import shell_watch

__all__ = ["paw_state_dir", "root"]


def shell_call(root: Path, call: str) -> None:
    payload = bash_payload(root, "ls src")
    payload["tool_use_id"] = call
    assert gate(payload).code == 0


def test_stale_snapshots_go_and_the_directory_is_not_scanned_on_every_call(root: Path) -> None:
    select(root, "s-alpha", "INT-001")
    shell_call(root, "first")
    directory = Path(shell_watch.snapshot_path(str(root), "s-alpha", "x")).parent
    stale = directory / "s-gone.call.snap"
    stale.write_bytes(b"old")
    day_ago = time.time() - shell_watch.STALE_SECONDS - 60
    os.utime(stale, (day_ago, day_ago))
    shell_call(root, "second")
    assert stale.exists()  # looked through at the first call: not again so soon
    marker = directory / shell_watch.PRUNED_MARKER
    long_ago = time.time() - shell_watch.PRUNE_EVERY - 1
    os.utime(marker, (long_ago, long_ago))
    shell_call(root, "third")
    assert not stale.exists()
    assert {p.name for p in directory.glob("*.snap")} >= {"s-alpha.third.snap"}
