"""DESIGN §10: 8 processes appending 500 records each at once -> 4,000 records, gapless seq,
a valid chain, nothing lost. Separate interpreters, default lock timeout, durable writes."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from paw_tui.core.ledger.io import EMPTY_HASH
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import verify as verify_ledger

# The source tree under test, first on the children's sys.path (python -c puts the cwd
# there), whatever copy of the package the interpreter may also have installed.
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WRITERS = 8
PER_WRITER = 500

WRITER = textwrap.dedent(
    """
    import os, sys, time
    from paw_tui.core.ledger.store import Ledger
    root, go, writer, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    ledger = Ledger.for_workspace(root)
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.001)
    for n in range(count):
        ledger.append({"event": "tool_allowed", "session_id": writer, "intent_id": "INT-001",
                       "tool": "Edit", "paths": [f"src/{writer}/{n}.py"], "decision": "allow",
                       "n": n})
    print("done", len(ledger.warnings), flush=True)
    """
)

pytestmark = pytest.mark.slow  # many processes at once


def test_eight_processes_append_500_each_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "state"))
    root = tmp_path / "ws"
    (root / ".orchestration").mkdir(parents=True)
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(root), str(go), f"w{index}", str(PER_WRITER)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO_ROOT,
        )
        for index in range(WRITERS)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready"
        go.write_text("")  # all start at once
        deadline = time.monotonic() + 120
        for proc in procs:
            out, err = proc.communicate(timeout=max(deadline - time.monotonic(), 1))
            assert proc.returncode == 0, err
            assert out.strip() == "done 0", out + err
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()

    ledger = Ledger.for_workspace(str(root))
    with open(ledger.path, "rb") as handle:
        data = handle.read()
    assert data.endswith(b"\n")
    lines = data[:-1].split(b"\n")
    assert len(lines) == WRITERS * PER_WRITER
    prev, seen = EMPTY_HASH, set()
    for number, line in enumerate(lines, 1):
        record = json.loads(line)
        assert record["seq"] == number
        assert record["prev"] == prev
        prev = "sha256:" + hashlib.sha256(line).hexdigest()
        seen.add((record["session_id"], record["n"]))
    assert len(seen) == WRITERS * PER_WRITER, "every record of every writer is there once"
    for writer in range(WRITERS):  # each writer's own records stay in its order
        mine = [
            json.loads(line)["n"] for line in lines if f'"session_id":"w{writer}"'.encode() in line
        ]
        assert mine == list(range(PER_WRITER))
    result = verify_ledger(ledger)
    assert result.ok and result.records == 4000 and result.head_status == "ok"
    assert not any(name.endswith(".tmp") for name in os.listdir(os.path.dirname(ledger.head_path)))
