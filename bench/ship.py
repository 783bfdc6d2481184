"""``paw-tui trace ship``'s own cost and its throughput (DESIGN §10: ≤ 0.3 ms CPU per record,
the throughput limited by the backend, not by paw-tui; the backend's figure beside it).

1. **CPU per record**: the installed command (a normal install with the ``otel`` extra) ships a
   ledger of N records to an endpoint that accepts at once (a stdlib server in this process,
   whose CPU is not counted). Its CPU (user + system, from ``getrusage``) minus the CPU of
   the same command with nothing to ship (start-up and imports), divided by N. ``python -c
   pass`` and the empty run are the baselines of the same rounds.
2. **Throughput against a real Arize Phoenix** (``--phoenix``; installed into the tests' cache
   on first use): the shipper's records per second until the last batch is accepted, and
   Phoenix's own rate: spans stored per second, from the first request until all are stored.

    python bench/ship.py [--records 20000] [--runs 5] [--phoenix [--phoenix-records 3000]]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
from _harness import clean_env, pick_python
from _records import body
from backends.otlp_sink import otlp_sink

BUDGET_MS = 0.3


def chained_ledger(path: str, count: int) -> None:
    """``count`` records of ``bench/_records.py`` chained as the writer chains them."""
    previous = "sha256:" + hashlib.sha256(b"").hexdigest()
    with open(path, "wb") as handle:
        for seq in range(1, count + 1):
            line = body(seq, previous, "2026-11-27T10:00:00.000Z")
            handle.write(line + b"\n")
            previous = "sha256:" + hashlib.sha256(line).hexdigest()


def workspace(base: str, name: str, count: int) -> str:
    root = os.path.join(base, name)
    os.makedirs(os.path.join(root, ".orchestration"))
    os.makedirs(os.path.join(root, ".git"))
    chained_ledger(os.path.join(root, ".orchestration", "agent_trace.jsonl"), count)
    return root


def run_cpu(argv: list[str], cwd: str, env: dict[str, str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{argv} exited {done.returncode}: {done.stderr}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall, done.stdout


def cpu_per_record(python: str, script: str, records: int, runs: int) -> bool:
    with tempfile.TemporaryDirectory() as base, otlp_sink(keep=False) as sink:
        empty = workspace(base, "empty", 0)
        full_cpu: list[float] = []
        empty_cpu: list[float] = []
        pass_cpu: list[float] = []
        walls: list[float] = []
        for round_number in range(runs):
            env = clean_env(PAW_STATE_DIR=os.path.join(base, f"state{round_number}"))
            root = workspace(base, f"full{round_number}", records)
            ship = [script, "trace", "ship", "--endpoint", sink.url]
            pass_cpu.append(run_cpu([python, "-c", "pass"], base, env)[0])
            empty_cpu.append(run_cpu(ship, empty, env)[0])
            cpu, wall, out = run_cpu(ship, root, env)
            if not out.startswith(f"Shipped {records} record"):
                raise SystemExit(f"unexpected: {out}")
            full_cpu.append(cpu)
            walls.append(wall)
        full, start_up, floor = (statistics.median(x) for x in (full_cpu, empty_cpu, pass_cpu))
        per_record = (full - start_up) / records * 1000
        verdict = "OK" if per_record <= BUDGET_MS else "OVER"
        print(f"CPU per record ({records:,} records, {runs} rounds, medians, CPU = user + system):")
        print(f"  python -c pass                 {floor * 1000:8.1f} ms")
        print(f"  trace ship, nothing to ship    {start_up * 1000:8.1f} ms  (start-up and imports)")
        print(
            f"  trace ship, {records:,} records   {full * 1000:8.1f} ms  "
            f"({statistics.median(walls):.2f} s wall, {records / statistics.median(walls):,.0f} records/s)"
        )
        print(
            f"  the shipper's own cost: {per_record:.3f} ms CPU per record "
            f"(budget {BUDGET_MS} ms: {verdict})"
        )
        return per_record <= BUDGET_MS


def against_phoenix(script: str, records: int) -> None:
    from pathlib import Path

    from backends.phoenix import phoenix_server

    with tempfile.TemporaryDirectory() as base, phoenix_server(Path(base) / "px") as phx:
        root = workspace(base, "ws", records)
        env = clean_env(PAW_STATE_DIR=os.path.join(base, "state"))
        start = time.perf_counter()
        done = subprocess.run(
            [script, "trace", "ship", "--endpoint", phx.url, "--project", "bench"],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
        )
        accepted = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        expected = records + _sessions(root)
        while phx.count("bench") < expected:
            time.sleep(0.25)
        stored = time.perf_counter() - start
        print(f"against Arize Phoenix ({records:,} records, {expected:,} spans):")
        print(f"  {done.stdout.strip()}")
        print(
            f"  paw-tui: every batch accepted after {accepted:.1f} s "
            f"({records / accepted:,.0f} records/s, resends included)"
        )
        print(
            f"  Phoenix: every span stored after {stored:.1f} s "
            f"({expected / stored:,.0f} spans/s: the backend's own rate)"
        )


def _sessions(root: str) -> int:
    import json

    seen = set()
    with open(os.path.join(root, ".orchestration", "agent_trace.jsonl"), "rb") as handle:
        for line in handle:
            seen.add(json.loads(line)["session_id"])
    return len(seen)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--phoenix", action="store_true")
    parser.add_argument("--phoenix-records", type=int, default=3000)
    parser.add_argument("--use-current-env", action="store_true")
    options = parser.parse_args()
    python, script = pick_python(options.use_current_env, extras="otel")
    ok = cpu_per_record(python, script, options.records, options.runs)
    if options.phoenix:
        against_phoenix(script, options.phoenix_records)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
