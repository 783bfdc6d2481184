"""Benchmark of the audit ledger against DESIGN §10.

Builds a 1,000,000-record ledger (and a 10,000-record one) in a temporary directory by
writing correctly chained lines directly (not through ``append``), then measures:

(a) ``tail(20)`` and ``recent_for_intent`` on 10k and on 1M records, in process: budget
    <= 50 ms and flat (the 1M/10k ratio ~1: reads are bounded from the end); and the whole
    ``paw-tui trace tail -n 20`` process on the 1M ledger against ``python -c pass``,
    interleaved, on a normal install (build/bench-venv, see ``_harness``);
(b) ``append`` latency on the 1M ledger (durable, i.e. with fdatasync, and not);
(c) ``verify`` throughput in records/s on these unsigned records (every line parsed): budget
    >= 250,000 (bench/verify.py measures the signed case, with its hash-only floor).

    python bench/ledger.py [--records N] [--runs 15] [--use-current-env] [--keep]

In-process figures run this checkout's code. Exits 1 when a budget is missed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(BENCH), BENCH]  # this checkout, whatever is installed
from _harness import clean_env, interleaved, pick_python
from _records import INTENTS as INTENTS  # tui_big_ledger.py reads it from here
from _records import body as record_bytes
from _records import write_synced

from paw_tui.core.ledger.io import EMPTY_HASH
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import verify as verify_ledger

TAIL_BUDGET_MS = 50.0
VERIFY_BUDGET = 250_000


def _line(seq: int, prev: str, ts: str) -> bytes:
    """A record of one of three shapes across 50 intents (see ``_records``)."""
    return record_bytes(seq, prev, ts)


def _line_slow(seq: int, prev: str, ts: str) -> bytes:
    """The same record through json.dumps, to prove the templates produce valid lines."""
    return json.dumps(json.loads(_line(seq, prev, ts)), separators=(",", ":")).encode()


def build(path: str, count: int) -> None:
    write_synced(path, _chain(count))


def _chain(count: int) -> Iterator[bytes]:
    prev = EMPTY_HASH
    base = int(time.time()) - count
    stamp_second, stamp = -1, ""
    for seq in range(1, count + 1):
        second = base + seq // 10
        if second != stamp_second:
            stamp_second = second
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        ts = f"{stamp}.{seq % 10 * 100:03d}Z"
        line = _line(seq, prev, ts)
        if seq <= 8:
            assert line == _line_slow(seq, prev, ts)
        prev = "sha256:" + hashlib.sha256(line).hexdigest()
        yield line


def _time_ms(fn: Callable[..., object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def _workspace(root: str, name: str, count: int) -> Ledger:
    workspace = os.path.join(root, name)
    os.makedirs(os.path.join(workspace, ".orchestration"))
    os.makedirs(os.path.join(workspace, ".git"))  # a workspace root for the CLI
    ledger = Ledger.for_workspace(workspace, state_dir=os.path.join(root, "state"))
    start = time.perf_counter()
    build(ledger.path, count)
    size = os.path.getsize(ledger.path)
    print(f"built {count:,} records ({size / 1e6:.0f} MB) in {time.perf_counter() - start:.1f} s")
    return ledger


def _reads(small: Ledger, big: Ledger, failures: list[str]) -> None:
    print("\n(a) bounded reads from the end (median of 30, in process)")
    cases = {
        "tail(20)": lambda ledger: ledger.tail(20),
        "recent_for_intent(frequent intent)": lambda ledger: ledger.recent_for_intent("INT-007"),
        "recent_for_intent(absent: whole 1 MiB budget)": (
            lambda ledger: ledger.recent_for_intent("INT-999")
        ),
    }
    for label, call in cases.items():
        small_ms = _time_ms(lambda call=call: call(small), 30)
        big_ms = _time_ms(lambda call=call: call(big), 30)
        ratio = big_ms / small_ms if small_ms else float("inf")
        print(f"  {label:46s} 10k {small_ms:6.2f} ms   1M {big_ms:6.2f} ms   ratio {ratio:4.2f}")
        if big_ms > TAIL_BUDGET_MS:
            failures.append(f"{label} took {big_ms:.1f} ms > {TAIL_BUDGET_MS} ms")
    found = big.recent_for_intent("INT-007")
    print(f"  recent_for_intent found {len(found.records)} records in {found.bytes_read:,} bytes")


def _whole_process(big: Ledger, runs: int, use_current_env: bool, state: str) -> None:
    env = clean_env(PAW_STATE_DIR=state)
    if use_current_env:  # this checkout's code, byte-compiled on the first run
        python, command = sys.executable, [sys.executable, "-m", "paw_tui"]
        env["PYTHONPATH"] = os.path.dirname(BENCH)
    else:
        python, script = pick_python(False)
        command = [script]
    medians = interleaved(
        {"baseline": [python, "-c", "pass"], "tail": [*command, "trace", "tail", "-n", "20"]},
        runs,
        cwd=big.workspace_root,
        env=env,
    )
    base, tail = medians["baseline"] * 1000, medians["tail"] * 1000
    print(
        f"  whole process, {runs} interleaved runs: python -c pass {base:.1f} ms; "
        f"paw-tui trace tail -n 20 on 1M {tail:.1f} ms ({tail / base:.2f}x)"
    )


def _select(small: Ledger, big: Ledger, failures: list[str]) -> None:
    """select_active_intent as the gate runs it, with the intent context block it returns
    (ledger history and touched files); a fresh session each time (intent sharing allowed)."""
    from paw_tui.core.handshake.selection import select_active_intent
    from paw_tui.core.intents.view import intent_context_block
    from paw_tui.core.workspace.state import WorkspaceState

    print("\n(a2) select_active_intent + intent context block (median of 30, in process)")
    timings = {}
    for name, ledger in (("10k", small), ("1M", big)):
        root = ledger.workspace_root
        intents = "active_intents:\n" + "".join(
            f"  - id: {i}\n    name: Intent {i}\n    status: IN_PROGRESS\n    owned_scope: ['src/**']\n"
            for i in INTENTS
        )
        with open(os.path.join(root, ".orchestration", "active_intents.yaml"), "w") as handle:
            handle.write(intents)
        with open(os.path.join(root, ".orchestration", "governance.yaml"), "w") as handle:
            handle.write("intent_sharing: allow\n")
        counter = iter(range(10**9))

        def select(root: str = root, counter: Iterator[int] = counter) -> None:
            state = WorkspaceState(root)
            selection = select_active_intent(
                state, f"bench-{next(counter)}", "INT-007", client="bench"
            )
            assert selection.intent is not None, selection.message
            intent_context_block(state, selection.intent)

        select()  # warm the policy cache
        timings[name] = _time_ms(select, 30)
    ratio = timings["1M"] / timings["10k"]
    print(
        f"  {'select_active_intent(INT-007)':46s} 10k {timings['10k']:6.2f} ms   1M {timings['1M']:6.2f} ms   ratio {ratio:4.2f}"
    )
    if timings["1M"] > TAIL_BUDGET_MS:
        failures.append(f"select_active_intent took {timings['1M']:.1f} ms > {TAIL_BUDGET_MS} ms")


def _appends(big: Ledger, state: str) -> None:
    print("\n(b) append on the 1M ledger (median of 200)")
    record = {
        "event": "tool_allowed", "session_id": "bench", "intent_id": "INT-001",
        "client": "generic", "tool": "Edit", "paths": ["src/a.py"], "decision": "allow",
    }  # fmt: skip
    mutation = {
        "event": "mutation", "session_id": "bench", "intent_id": "INT-001", "client": "generic",
        "tool": "Write", "paths": ["src/a.py"], "content_hash": "sha256:" + "0" * 64,
        "ranges": [{"start_line": 1, "end_line": 3}],
    }  # fmt: skip
    for label, body, durable in (
        ("tool_allowed, durable (fdatasync)", record, True),
        ("tool_allowed, not durable", record, False),
        ("mutation (+ intent index), durable", mutation, True),
    ):
        ledger = Ledger(
            big.path, workspace_root=big.workspace_root, state_dir=state, durable=durable
        )
        ms = _time_ms(lambda ledger=ledger, body=body: ledger.append(body), 200)
        print(f"  {label:40s} {ms:6.3f} ms")


def _verify(big: Ledger, failures: list[str]) -> None:
    print("\n(c) verify (best of 3)")
    best, best_cpu = 0.0, 0.0
    for _ in range(3):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = verify_ledger(big)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        best, best_cpu = max(best, result.records / elapsed), max(best_cpu, result.records / cpu)
    print(
        f"  {result.records:,} records in {result.records / best:.2f} s: {best:,.0f} records/s "
        f"({best / VERIFY_BUDGET:.2f}x the budget of {VERIFY_BUDGET:,}); per CPU second "
        f"{best_cpu:,.0f}; ok={result.ok} head={result.head_status}"
    )
    if not result.ok:
        failures.append(f"verify failed: {result.message}")
    if best < VERIFY_BUDGET:
        failures.append(f"verify {best:,.0f} records/s < {VERIFY_BUDGET:,}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=15, help="whole-process runs")
    parser.add_argument("--use-current-env", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="paw-ledger-bench-")
    state = os.path.join(root, "state")
    os.environ["PAW_STATE_DIR"] = state
    failures: list[str] = []
    try:
        small = _workspace(root, "small", 10_000)
        big = _workspace(root, "big", args.records)
        _reads(small, big, failures)
        _select(small, big, failures)
        _whole_process(big, args.runs, args.use_current_env, state)
        _appends(big, state)
        _verify(big, failures)
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
