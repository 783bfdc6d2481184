"""Benchmark of the audit ledger against DESIGN §10.

Builds a 1,000,000-record ledger (and a 10,000-record one) in a temporary directory by
writing correctly chained lines directly, then measures:

(a) ``tail(20)`` and ``recent_for_intent`` on 10k and on 1M records: budget <= 50 ms each
    and flat (the 1M/10k ratio should be ~1, since reads are bounded from the end);
(b) ``append`` latency on the 1M ledger (durable, i.e. with fdatasync, and without);
(c) ``verify`` throughput in records/s: budget >= 100,000.

Run: ``python bench/ledger.py [--records N] [--keep]``. Exits 1 when a budget is missed.
Use a normal byte-compiled install (not ``PYTHONDONTWRITEBYTECODE=1``), as DESIGN §10 says.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from paw_tui.core.ledger import EMPTY_HASH, Ledger

TAIL_BUDGET_MS = 50.0
VERIFY_BUDGET = 100_000
INTENTS = [f"INT-{n:03d}" for n in range(1, 51)]
TOOLS = ["Edit", "Write", "Bash", "MultiEdit"]


def _line(seq: int, prev: str, ts: str) -> bytes:
    """A realistic record: mostly tool decisions and mutations across 50 intents."""
    intent = INTENTS[(seq * 7) % len(INTENTS)]
    session = f"5e2c{seq // 1000:04x}-8d0f-4a55-9c7b-3f1a2b4c5d6e"
    kind = seq % 4
    if kind == 0:
        body = {
            "event": "mutation", "session_id": session, "intent_id": intent,
            "client": "claude-code", "tool": TOOLS[seq % 2], "paths": [f"src/mod{seq % 97}/file{seq % 13}.py"],
            "content_hash": "sha256:" + hashlib.sha256(str(seq).encode()).hexdigest(),
            "ranges": [{"start_line": seq % 50 + 1, "end_line": seq % 50 + 12}],
        }  # fmt: skip
    elif kind == 3:
        body = {
            "event": "tool_denied", "session_id": session, "intent_id": intent, "client": "claude-code",
            "tool": "Write", "paths": ["../outside.txt"], "decision": "deny",
            "reason": f"Scope Violation: {intent} is not authorized to edit ../outside.txt.",
        }  # fmt: skip
    else:
        body = {
            "event": "tool_allowed", "session_id": session, "intent_id": intent, "client": "claude-code",
            "tool": TOOLS[seq % 4], "paths": [f"src/mod{seq % 97}/file{seq % 13}.py"], "decision": "allow",
        }  # fmt: skip
    record = {"v": 1, "seq": seq, "ts": ts, **body, "prev": prev}
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()


def build(path: str, count: int) -> None:
    prev = EMPTY_HASH
    base = time.time() - count
    out = []
    with open(path, "wb") as handle:
        for seq in range(1, count + 1):
            t = base + seq
            ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(int(t))) + ".000Z"
            line = _line(seq, prev, ts)
            prev = "sha256:" + hashlib.sha256(line).hexdigest()
            out.append(line)
            if len(out) >= 10_000:
                handle.write(b"\n".join(out) + b"\n")
                out = []
        if out:
            handle.write(b"\n".join(out) + b"\n")


def _time_ms(fn: object, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def _workspace(root: str, name: str, count: int) -> Ledger:
    workspace = os.path.join(root, name)
    os.makedirs(os.path.join(workspace, ".orchestration"))
    ledger = Ledger.for_workspace(workspace, state_dir=os.path.join(root, "state"))
    start = time.perf_counter()
    build(ledger.path, count)
    size = os.path.getsize(ledger.path)
    print(f"built {count:,} records ({size / 1e6:.0f} MB) in {time.perf_counter() - start:.1f} s")
    return ledger


def _whole_process_ms(code: str, repeat: int = 7) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="paw-ledger-bench-")
    os.environ["PAW_STATE_DIR"] = os.path.join(root, "state")
    failures = []
    try:
        small = _workspace(root, "small", 10_000)
        big = _workspace(root, "big", args.records)

        print("\n(a) bounded reads from the end (median of 30, in process)")
        rows = []
        for label, call in (
            ("tail(20)", lambda ledger: ledger.tail(20)),
            ("recent_for_intent(frequent)", lambda ledger: ledger.recent_for_intent("INT-007")),
            ("recent_for_intent(absent: reads the whole 1 MiB budget)", lambda ledger: ledger.recent_for_intent("INT-999")),
        ):
            small_ms = _time_ms(lambda: call(small), 30)
            big_ms = _time_ms(lambda: call(big), 30)
            ratio = big_ms / small_ms if small_ms else float("inf")
            rows.append((label, small_ms, big_ms, ratio))
            print(f"  {label:58s} 10k {small_ms:7.2f} ms   1M {big_ms:7.2f} ms   ratio {ratio:4.2f}")
            if big_ms > TAIL_BUDGET_MS:
                failures.append(f"{label} took {big_ms:.1f} ms > {TAIL_BUDGET_MS} ms")
        found = big.recent_for_intent("INT-007")
        print(f"  recent_for_intent(INT-007) found {len(found.records)} records reading {found.bytes_read:,} bytes")

        code = (
            "from paw_tui.core.ledger import Ledger; "
            f"Ledger.for_workspace({os.path.dirname(os.path.dirname(big.path))!r}).tail(20)"
        )
        baseline = _whole_process_ms("pass")
        whole = _whole_process_ms(code)
        print(f"  whole process: python -c pass {baseline:.1f} ms; import + tail(20) on 1M {whole:.1f} ms ({whole / baseline:.2f}x)")

        print("\n(b) append on the 1M ledger (median of 200)")
        for durable in (True, False):
            ledger = Ledger(big.path, workspace_root=big.workspace_root, state_dir=os.path.join(root, "state"), durable=durable)
            record = {"event": "tool_allowed", "session_id": "bench", "intent_id": "INT-001", "client": "generic",
                      "tool": "Edit", "paths": ["src/a.py"], "decision": "allow"}  # fmt: skip
            ms = _time_ms(lambda: ledger.append(record), 200)
            print(f"  append durable={durable!s:5s} {ms:6.3f} ms")
        ledger = Ledger(big.path, workspace_root=big.workspace_root, state_dir=os.path.join(root, "state"))
        mutation = {"event": "mutation", "session_id": "bench", "intent_id": "INT-001", "client": "generic",
                    "tool": "Write", "paths": ["src/a.py"], "content_hash": "sha256:" + "0" * 64,
                    "ranges": [{"start_line": 1, "end_line": 3}]}  # fmt: skip
        ms = _time_ms(lambda: ledger.append(mutation), 200)
        print(f"  append mutation (+ intent index) durable=True {ms:6.3f} ms")

        print("\n(c) verify")
        best = 0.0
        for _ in range(2):
            start = time.perf_counter()
            result = big.verify()
            elapsed = time.perf_counter() - start
            best = max(best, result.records / elapsed)
        print(f"  {result.records:,} records in {result.records / best:.2f} s: {best:,.0f} records/s "
              f"(budget {VERIFY_BUDGET:,}; {best / VERIFY_BUDGET:.2f}x) ok={result.ok} head={result.head_status}")
        if not result.ok:
            failures.append(f"verify failed: {result.message}")
        if best < VERIFY_BUDGET:
            failures.append(f"verify {best:,.0f} records/s < {VERIFY_BUDGET:,}")
    finally:
        if args.keep:
            print(f"\nkept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
