"""Durable decisions per second in one process, at 1, 8 and 32 writer threads (DESIGN §10).

Each writer is a thread with its own session, holding the shared intent, calling
:meth:`paw_tui.gate.api.Governor.decide` for an allowed write in scope: the whole decision
a custom agent loop makes, ending with a durable (``fdatasync``-ed) ``tool_allowed`` record
before ``decide`` returns. Rounds are interleaved (1, 8, 32 writers, then the floor) and
medians reported; the floor is ``write`` + ``fdatasync`` of one line, serially, on a file
next to the ledger: what a design syncing once per decision could reach at most.

For scale, the same run also measures the decision with the ledger append replaced by a
stub returning at once (no record, no lock, no sync) at 1 and 8 writers: the ceiling set by
the rest of the decision, which no ledger design can beat.

Afterwards the ledger must hold exactly the records made (a selection per session and one
record per decision) with a valid chain. Budget: >= 2,000 decisions/s at 8 writers.

Each line also gives the median ``fdatasync`` call as the writing thread sees it, from the
call to its return into Python: beyond the floor's sync time, that is the wait for the GIL,
which the threads deciding their next calls keep through their short system calls. With
several writers it is most of a batch's time (DESIGN §10).

    python bench/decisions.py [--rounds 5] [--decisions 1200]

Run it on a normal install (``pip install /path/to/repo`` in a venv, then that venv's python):
``paw_tui`` is imported from wherever the interpreter finds it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Mapping

from paw_tui.core.ledger import store
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import verify
from paw_tui.gate.api import Governor

WRITERS = (1, 8, 32)
BUDGET_AT_8 = 2_000
INTENTS = """\
active_intents:
  - id: INT-001
    name: Source tree
    status: IN_PROGRESS
    owned_scope: ["src/**"]
"""


class SyncCounter:
    """Wraps the ledger's fdatasync to count syncs (records per sync shows the batching) and
    time each call up to its return into Python (the GIL taken back)."""

    def __init__(self) -> None:
        self.real = store._datasync
        self.calls = 0
        self.seconds: list[float] = []

    def __call__(self, fd: int) -> None:
        self.calls += 1
        start = time.perf_counter()
        self.real(fd)
        self.seconds.append(time.perf_counter() - start)


def workspace(base: str) -> str:
    root = os.path.join(base, "ws")
    os.makedirs(os.path.join(root, ".orchestration"))
    os.makedirs(os.path.join(root, ".git"))
    with open(os.path.join(root, ".orchestration", "active_intents.yaml"), "w") as handle:
        handle.write(INTENTS)
    with open(os.path.join(root, ".orchestration", "governance.yaml"), "w") as handle:
        handle.write("intent_sharing: allow\n")
    return root


def one_round(governor: Governor, tag: str, writers: int, total: int) -> tuple[float, int]:
    """Decisions/s for ``writers`` threads making ``total`` decisions; the records made."""
    per = max(total // writers, 1)
    for n in range(writers):
        verdict = governor.decide({
            "event": "pre_tool", "session_id": f"{tag}-{n}", "tool": "select_active_intent",
            "intent_id": "INT-001",
        })  # fmt: skip
        assert verdict.allow, verdict
    start_gate = threading.Barrier(writers + 1)
    failures: list[str] = []

    def work(n: int) -> None:
        start_gate.wait()
        for i in range(per):
            verdict = governor.decide({
                "event": "pre_tool", "session_id": f"{tag}-{n}", "tool": "write_file",
                "paths": [f"src/{tag}/w{n}/f{i}.py"],
            })  # fmt: skip
            if not verdict.allow:
                failures.append(str(verdict.reason))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    start_gate.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    if failures:
        raise SystemExit(f"{len(failures)} decisions denied, e.g. {failures[0]}")
    return writers * per / elapsed, writers + writers * per


def without_ledger(governor: Governor, tag: str, writers: int, total: int) -> float:
    """Decisions/s with ``Ledger.append`` stubbed out (nothing is recorded)."""
    real = Ledger.append

    def stub(self: Ledger, record: Mapping[str, object]) -> dict[str, object]:
        return {**record, "seq": 0}

    Ledger.append = stub  # type: ignore[method-assign]
    try:
        return one_round(governor, tag, writers, total)[0]
    finally:
        Ledger.append = real  # type: ignore[method-assign]


def sync_floor(directory: str, count: int) -> float:
    """Serial ``write`` + ``fdatasync`` of one ledger-sized line per second."""
    path = os.path.join(directory, "floor.bin")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    line = b"x" * 400 + b"\n"
    try:
        start = time.perf_counter()
        for _ in range(count):
            os.write(fd, line)
            store._datasync(fd)
        return count / (time.perf_counter() - start)
    finally:
        os.close(fd)
        os.unlink(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--decisions", type=int, default=1200, help="per round and writer count")
    args = parser.parse_args()
    import paw_tui

    print(f"paw_tui from {os.path.dirname(paw_tui.__file__)}")
    base = tempfile.mkdtemp(prefix="paw-decisions-bench-")
    os.environ["PAW_STATE_DIR"] = os.path.join(base, "state")
    counter = SyncCounter()
    store._datasync = counter
    try:
        root = workspace(base)
        governor = Governor(root)
        rates: dict[object, list[float]] = {n: [] for n in (*WRITERS, "floor", "stub 1", "stub 8")}
        syncs: dict[int, list[float]] = {n: [] for n in WRITERS}
        sync_call: dict[int, list[float]] = {n: [] for n in WRITERS}
        made = 0
        one_round(governor, "warm", 2, 100)  # caches, imports, the key
        made += 2 + 100
        for round_number in range(args.rounds):
            for writers in WRITERS:
                before, timed = counter.calls, len(counter.seconds)
                rate, records = one_round(
                    governor, f"r{round_number}w{writers}", writers, args.decisions
                )
                made += records
                rates[writers].append(rate)
                syncs[writers].append(records / max(counter.calls - before, 1))
                sync_call[writers].extend(counter.seconds[timed:])
            rates["floor"].append(sync_floor(os.path.dirname(root), 300))
            for writers in (1, 8):
                tag = f"r{round_number}s{writers}"
                rates[f"stub {writers}"].append(
                    without_ledger(governor, tag, writers, args.decisions)
                )
        floor = statistics.median(rates["floor"])
        print(f"\nmedians of {args.rounds} interleaved rounds, {args.decisions} decisions each")
        print(
            f"  fdatasync floor (serial write+fdatasync)  {floor:8,.0f} /s   "
            f"({1000 / floor:.2f} ms a sync)"
        )
        single = statistics.median(rates[1])
        for writers in WRITERS:
            rate = statistics.median(rates[writers])
            print(
                f"  {writers:2d} writer{'s' if writers > 1 else ' '} durable decisions "
                f"{rate:8,.0f} /s   {rate / floor:5.2f}x the floor   {rate / single:5.2f}x one "
                f"writer   {statistics.median(syncs[writers]):5.1f} records per fdatasync   "
                f"{statistics.median(sync_call[writers]) * 1000:5.2f} ms a sync call"
            )
        for writers in (1, 8):
            rate = statistics.median(rates[f"stub {writers}"])
            print(
                f"  {writers:2d} writer{'s' if writers > 1 else ' '} with no ledger append   "
                f"{rate:8,.0f} /s   (the ceiling of the rest of the decision)"
            )
        at_8 = statistics.median(rates[8])
        verdict = "OK" if at_8 >= BUDGET_AT_8 else "UNDER"
        print(f"  budget at 8 writers: >= {BUDGET_AT_8:,}/s: {verdict}")
        result = verify(Ledger.for_workspace(root))
        print(f"\nledger: {result.message} (expected {made:,} records)")
        if not result.ok or result.records != made:
            print("FAIL: records lost or the chain is broken")
            return 1
        return 0 if at_8 >= BUDGET_AT_8 else 1
    finally:
        store._datasync = counter.real
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
