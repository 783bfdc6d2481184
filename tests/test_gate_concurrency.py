"""8 gate processes deciding 500 PreToolUse events each, at once (DESIGN §7, §10): every
decision is recorded exactly once, ``seq`` is gapless and the chain verifies.

Each worker is a Python process that imports ``paw_tui.gate.main`` and calls
``decide_payload`` 500 times (the gate's whole decision, minus the interpreter start), so
the test stays fast while the appends really race across processes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from gatekit import (
    assert_allow,
    gate,
    gate_env,
    paw_state_dir,
    records,
    root,
    select_payload,
)

from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import verify as verify_ledger

pytestmark = pytest.mark.slow  # many processes at once

WORKERS = 8
EVENTS = 500

WORKER = textwrap.dedent(
    """
    import json, os, sys, time
    root, worker, count, barrier = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    from paw_tui.gate.main import decide_payload
    print("ready", flush=True)
    while not os.path.exists(barrier):
        time.sleep(0.001)
    bad = []
    for i in range(count):
        payload = {
            "session_id": "s-load", "transcript_path": "/tmp/t.jsonl", "cwd": root,
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Write",
            "tool_input": {"file_path": f"{root}/src/auth/w{worker}/f{i}.py", "content": "x"},
            "tool_use_id": f"toolu_{worker}_{i}",
        }
        answer = decide_payload(json.dumps(payload).encode())
        if answer.exit_code != 0 or answer.stdout:
            bad.append([i, answer.exit_code, answer.stdout, answer.stderr])
    print(json.dumps(bad), flush=True)
    """
)


def test_eight_processes_500_events_each(root: Path, tmp_path: Path) -> None:
    assert_allow(gate(select_payload(root, "INT-001", session="s-load")))
    setup = len(records(root))
    assert setup == 1
    script = tmp_path / "worker.py"
    script.write_text(WORKER, encoding="utf-8")
    barrier = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), str(root), str(n), str(EVENTS), str(barrier)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=gate_env(),
            cwd=str(root),
        )
        for n in range(WORKERS)
    ]
    for proc in procs:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
    barrier.write_text("go")
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert json.loads(out) == [], out[:2000]

    lines = (root / ".orchestration" / "agent_trace.jsonl").read_bytes().split(b"\n")
    assert lines[-1] == b""  # every record ends with a newline, none is torn
    all_records = [json.loads(line) for line in lines[:-1]]
    assert len(all_records) == WORKERS * EVENTS + setup
    assert [r["seq"] for r in all_records] == list(range(1, WORKERS * EVENTS + setup + 1))
    allowed = [r for r in all_records if r["event"] == "tool_allowed"]
    assert len(allowed) == WORKERS * EVENTS
    seen = Counter(r["paths"][0] for r in allowed)
    expected = {f"src/auth/w{w}/f{i}.py" for w in range(WORKERS) for i in range(EVENTS)}
    assert set(seen) == expected  # nothing lost
    assert set(seen.values()) == {1}  # nothing doubled
    assert all(r["intent_id"] == "INT-001" and r["session_id"] == "s-load" for r in allowed)
    result = verify_ledger(Ledger.for_workspace(str(root)))
    assert result.ok, result.message
    assert result.records == WORKERS * EVENTS + setup
    assert result.last_seq == WORKERS * EVENTS + setup
