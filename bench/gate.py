"""Whole-process time of one ``paw-tui gate`` PreToolUse decision against ``python -c pass``
(DESIGN §10: <= 2.5x), interleaved in one run on a normal install (build/bench-venv).

Measured cases: a Write allowed under an active intent (policy cache warm, ledger append,
scope check), a Write denied before any selection, and a read-only tool.

    python bench/gate.py [--runs 40] [--use-current-env]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import clean_env, interleaved, pick_python, report  # noqa: E402

BUDGET = 2.5


def payload(root: str, session: str, tool: str, tool_input: dict[str, object]) -> bytes:
    return json.dumps({
        "session_id": session, "transcript_path": "/dev/null", "cwd": root,
        "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
        "tool_use_id": "toolu_bench",
    }).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--use-current-env", action="store_true")
    options = parser.parse_args()
    python, script = pick_python(options.use_current_env)
    with tempfile.TemporaryDirectory() as base:
        root = os.path.join(base, "ws")
        os.makedirs(os.path.join(root, ".git"))
        env = clean_env(PAW_STATE_DIR=os.path.join(base, "state"), PAW_USER_HOME=os.path.join(base, "home"))
        subprocess.run([script, "init"], cwd=root, env=env, check=True, capture_output=True)
        select = payload(root, "bench", "mcp__paw__select_active_intent", {"intent_id": "INT-001"})
        subprocess.run([script, "gate"], cwd=root, env=env, input=select, check=True, capture_output=True)
        write = payload(root, "bench", "Write", {"file_path": os.path.join(root, "src", "app.py"), "content": "x = 1\n"})
        cases = [
            ("gate: Write allowed", write, 0),
            ("gate: Write before selection", payload(root, "other", "Write", {"file_path": os.path.join(root, "src", "b.py"), "content": ""}), 2),
            ("gate: Read (read-only)", payload(root, "bench", "Read", {"file_path": os.path.join(root, "README.md")}), 0),
        ]
        results = {}
        for label, body, code in cases:
            medians = interleaved(
                {"baseline": [python, "-c", "pass"], "gate": [script, "gate"]},
                options.runs, cwd=root, env=env, stdin=body, expect={"gate": code},
            )
            results[label] = (medians["gate"] * 1000, medians["baseline"] * 1000)
        records = sum(1 for _ in open(os.path.join(root, ".orchestration", "agent_trace.jsonl"), "rb"))
    ok = True
    for label, (gate_ms, base_ms) in results.items():
        print(f"{'python -c pass':<28} median {base_ms:7.1f} ms   ({options.runs} runs, interleaved)")
        ok = report(label, gate_ms, base_ms, BUDGET) and ok
    print(f"ledger records written during the run: {records}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
