"""``trace verify`` throughput on a 1,000,000-record signed ledger (DESIGN §10: >= 250,000/s).

The ledger is built once, with this machine's kind of records (a quarter mutations, a
quarter denials, half allowed calls, across 50 intents), chained, signed with a workspace
key (HMAC over the previous MAC and the record, as the writer does) and with its head saved
outside the workspace; it is cached under ``/tmp/paw-bench-verify/`` and reused while the
record format is unchanged (``--rebuild`` forces a new one).

Measured in the same run, interleaved, medians:

- ``verify()`` in process (keyed MAC included), in records/s;
- the hash-only floor: the same file read in the same blocks, split into lines, and each
  line's SHA-256 hex computed (hashlib), nothing else: what any chain check must at least do;
- the whole ``paw-tui trace verify`` process next to this interpreter, records per wall second
  (start-up included).

    python bench/verify.py [--records 1000000] [--runs 5] [--rebuild]

Run it on a normal install (``pip install /path/to/repo`` in a venv, then that venv's python):
``paw_tui`` is imported from wherever the interpreter finds it.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator

from _records import body, write_synced

from paw_tui.core.ledger.io import EMPTY_HASH, format_ts
from paw_tui.core.ledger.records import encode_record, sign_line
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import CHUNK, verify
from paw_tui.core.workspace.secret import load_key

BUDGET = 250_000
CACHE = "/tmp/paw-bench-verify"
FORMAT_TAG = "v1"  # bump when the records' bytes change


def build(root: str, state: str, count: int) -> Ledger:
    os.makedirs(os.path.join(root, ".orchestration"))
    os.makedirs(os.path.join(root, ".git"))
    ledger = Ledger.for_workspace(root, state_dir=state)
    mac = load_key(root, create=True, state_base=state)
    assert mac is not None
    last = [EMPTY_HASH]

    def chain() -> Iterator[bytes]:
        prev, prev_mac = EMPTY_HASH, ""
        base = time.time() - count / 10
        for seq in range(1, count + 1):
            raw = body(seq, prev, format_ts(base + seq / 10))
            if seq <= 8:  # the template is the writer's own encoding
                assert raw == encode_record(json.loads(raw))
            line, prev_mac = sign_line(raw, prev_mac, mac)
            prev = last[0] = "sha256:" + hashlib.sha256(line).hexdigest()
            yield line

    size = write_synced(ledger.path, chain())
    heads = ledger.heads
    heads.write(0, 1, count, last[0], size, format_ts(time.time()))
    return ledger


def cached(count: int, rebuild: bool) -> Ledger:
    directory = os.path.join(CACHE, f"{count}-{FORMAT_TAG}")
    root, state = os.path.join(directory, "ws"), os.path.join(directory, "state")
    done = os.path.join(directory, "complete")
    if rebuild or not os.path.exists(done):
        shutil.rmtree(directory, ignore_errors=True)
        start = time.perf_counter()
        ledger = build(root, state, count)
        open(done, "w").close()
        print(f"built {count:,} signed records in {time.perf_counter() - start:.1f} s")
    else:
        ledger = Ledger.for_workspace(root, state_dir=state)
    print(f"ledger {ledger.path}: {os.path.getsize(ledger.path) / 1e6:.0f} MB")
    return ledger


def hash_floor(path: str) -> tuple[float, int]:
    """Seconds to read, split and hash every line (the least a chain check does); lines."""
    lines = 0
    hasher = hashlib.sha256
    collecting = gc.isenabled()
    gc.disable()
    start = time.perf_counter()
    with open(path, "rb", buffering=0) as handle:
        carry = b""
        while True:
            data = handle.read(CHUNK)
            if not data:
                break
            buf = carry + data if carry else data
            cut = buf.rfind(b"\n")
            carry = buf[cut + 1 :]
            for raw in buf[:cut].split(b"\n"):
                hasher(raw).hexdigest()
                lines += 1
    elapsed = time.perf_counter() - start
    if collecting:
        gc.enable()
    return elapsed, lines


def in_process(ledger: Ledger, count: int) -> tuple[float, float]:
    """Wall and CPU seconds of one ``verify``."""
    start, start_cpu = time.perf_counter(), time.process_time()
    result = verify(ledger)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    if not result.ok or result.records != count or result.mac_status != "ok":
        raise SystemExit(f"verify did not pass: {result.message} ({result.records} records)")
    return elapsed, cpu


def whole_process(ledger: Ledger, state: str) -> float:
    script = os.path.join(os.path.dirname(sys.executable), "paw-tui")
    env = dict(os.environ, PAW_STATE_DIR=state)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    done = subprocess.run(
        [script, "trace", "verify"],
        cwd=ledger.workspace_root,
        env=env,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"paw-tui trace verify exited {done.returncode}: {done.stdout}{done.stderr}"
        )
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    import paw_tui

    print(f"paw_tui from {os.path.dirname(paw_tui.__file__)}")
    ledger = cached(args.records, args.rebuild)
    state = str(ledger.state_base)
    count = args.records
    times: dict[str, list[float]] = {"verify": [], "floor": [], "cli": [], "cpu": []}
    in_process(ledger, count)  # warm the page cache
    for _ in range(args.runs):
        times["floor"].append(hash_floor(ledger.path)[0])
        wall, cpu = in_process(ledger, count)
        times["verify"].append(wall)
        times["cpu"].append(cpu)
        times["cli"].append(whole_process(ledger, state))
    rate = {name: count / statistics.median(values) for name, values in times.items()}
    print(f"\nmedians of {args.runs} interleaved runs on {count:,} records")
    print(f"  hash-only floor (read, split, sha256 hex)  {rate['floor']:10,.0f} records/s")
    for name, label in (("verify", "verify() in process, MAC included"),
                        ("cli", "paw-tui trace verify, whole process")):  # fmt: skip
        print(
            f"  {label:41s}  {rate[name]:10,.0f} records/s   {rate[name] / rate['floor']:5.2f}x "
            f"the floor   {rate[name] / BUDGET:5.2f}x the budget of {BUDGET:,}"
        )
    print(
        f"  verify() in process, records per CPU second                {rate['cpu']:10,.0f} "
        "records/s"
    )
    return 0 if rate["cli"] >= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
