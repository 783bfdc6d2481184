"""The TUI on a 1,000,000-record ledger (DESIGN §10, issue 12 item 7): time to first paint
(the newest record painted in the trace view, from the start of the app's process), the peak
RSS of the app's process and of its process tree (the app plus the chain verification it
starts), and whether the whole ledger was indexed in the background (every older record
reachable).

Two baselines, measured in the same invocation and interleaved with the big ledger: the same
app on a 1,000-record ledger, and the smallest Textual app (``tui_child.py --hello``: what
any Textual app costs on this machine now). Medians over ``--runs`` rounds, wall time and CPU
time (the machine is shared: CPU time moves less with its load). Budgets: first paint <= 0.7 s,
peak RSS <= 64 MB.

    python bench/tui_big_ledger.py [--records 1000000] [--runs 5] [--use-current-env]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
from _harness import clean_env, pick_python

CHILD = os.path.join(BENCH, "tui_child.py")
APPENDER_MARK = "bench-appender"  # as tui_child.py marks its appender
FIRST_PAINT_BUDGET = 0.7
RSS_BUDGET_MB = 64.0


def make_workspace(base: str, records: int) -> str:
    from ledger import INTENTS, build

    root = os.path.join(base, f"ws-{records}")
    os.makedirs(os.path.join(root, ".orchestration"))
    os.makedirs(os.path.join(root, ".git"))
    intents = ["active_intents:"] + [
        f"  - id: {i}\n    name: Intent {i}\n    status: IN_PROGRESS\n    owned_scope: ['src/**']"
        for i in INTENTS
    ]
    with open(os.path.join(root, ".orchestration", "active_intents.yaml"), "w") as handle:
        handle.write("\n".join(intents) + "\n")
    build(os.path.join(root, ".orchestration", "agent_trace.jsonl"), records)
    return root


def newest_seq(root: str) -> int:
    """The ``seq`` of the ledger's last record (runs that append move it on)."""
    path = os.path.join(root, ".orchestration", "agent_trace.jsonl")
    with open(path, "rb") as handle:
        handle.seek(max(0, os.path.getsize(path) - 65536))
        last = handle.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    seq = json.loads(last)["seq"]
    assert isinstance(seq, int)
    return seq


def _memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of ``pid`` in KB: PSS shares each page among the processes mapping it, so
    a sum over a tree counts shared pages once (and a child between fork and exec not as a
    second copy of its parent)."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().rstrip(b"\0")
    except OSError:
        return b""


def _is_appender(pid: int, app: int) -> bool:
    """The bench's appender, once it runs (its mark), or on its way (a fork of the bench's
    app process that has not exec'd yet: the same command line as the app, whose memory it
    shares, counted again). The app itself starts no copy of itself."""
    line = _cmdline(pid)
    return line.endswith(APPENDER_MARK.encode()) or (pid != app and line == _cmdline(app))


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc), less the bench's own appender."""
    found = [pid]
    for parent in found:
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as handle:
                    children = (int(child) for child in handle.read().split())
                    found.extend(child for child in children if not _is_appender(child, pid))
            except OSError:
                continue
    return found


def run_hello(python: str, env: dict[str, str]) -> dict[str, Any]:
    """The baseline: the smallest Textual app to its first paint."""
    done = subprocess.run(
        [python, CHILD, "--hello"], capture_output=True, text=True, env=env, timeout=300
    )
    if done.returncode != 0:
        raise SystemExit(f"the baseline app failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run_child(
    python: str, root: str, env: dict[str, str], appends: int = 0, gap: float = 0.08
) -> dict[str, Any]:
    """One run of the app (``tui_child.py``), with the peak summed RSS and PSS of its process
    tree sampled every 10 ms from here (Linux; elsewhere only the app's own peak is known)."""
    process = subprocess.Popen(
        [python, CHILD, root, str(newest_seq(root)), str(appends), str(gap)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    peak = [0, 0]  # summed RSS, summed PSS

    def sample() -> None:
        while process.poll() is None:
            sizes = [_memory_kb(pid) for pid in _tree(process.pid)]
            peak[0] = max(peak[0], sum(rss for rss, _pss in sizes))
            peak[1] = max(peak[1], sum(pss for _rss, pss in sizes))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = process.communicate(timeout=600)
    sampler.join()
    if process.returncode != 0:
        raise SystemExit(f"the app failed:\n{err}")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    result["tree_peak_rss_mb"] = max(peak[0] / 1024, result["self_peak_rss_mb"])
    result["tree_peak_pss_mb"] = peak[1] / 1024
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--use-current-env", action="store_true")
    options = parser.parse_args()
    python, _script = pick_python(options.use_current_env)
    with tempfile.TemporaryDirectory() as base:
        env = clean_env(
            PAW_STATE_DIR=os.path.join(base, "state"), PAW_USER_HOME=os.path.join(base, "home")
        )
        small_root = make_workspace(base, 1000)
        start = time.time()
        big_root = make_workspace(base, options.records)
        size_mb = os.path.getsize(os.path.join(big_root, ".orchestration", "agent_trace.jsonl"))
        print(
            f"built {options.records:,} records ({size_mb / 1e6:.0f} MB) in "
            f"{time.time() - start:.1f} s"
        )
        runs: dict[str, list[dict[str, Any]]] = {"small": [], "big": []}
        hellos: list[dict[str, Any]] = []
        loads: list[float] = []
        run_child(python, small_root, env)  # warm-up: byte code, page cache
        run_hello(python, env)
        for _ in range(options.runs):
            if hasattr(os, "getloadavg"):
                loads.append(os.getloadavg()[0])
            hellos.append(run_hello(python, env))
            runs["small"].append(run_child(python, small_root, env))
            # a few appends keep the app open while the background index is built
            runs["big"].append(run_child(python, big_root, env, appends=20, gap=0.1))
    figures = {}
    for name, results in runs.items():
        figures[name] = {
            "first_paint": statistics.median(r["first_paint"] for r in results),
            "first_paint_cpu": statistics.median(r["first_paint_cpu"] for r in results),
            "self_rss": max(r["self_peak_rss_mb"] for r in results),
            "tree_rss": max(r["tree_peak_rss_mb"] for r in results),
            "tree_pss": max(r["tree_peak_pss_mb"] for r in results),
            "indexed": all(r["fully_indexed"] for r in results),
            "indexed_after": statistics.median(r["indexed_after"] or 0.0 for r in results),
        }
    small, big = figures["small"], figures["big"]
    hello_wall = statistics.median(r["first_paint"] for r in hellos)
    hello_cpu = statistics.median(r["first_paint_cpu"] for r in hellos)
    if loads:  # the machine is shared: say how busy it was
        print(
            f"load average (1 min) during the runs: {min(loads):.1f} to {max(loads):.1f} "
            f"on {os.cpu_count()} CPUs"
        )
    print(
        f"{'baseline':>18}: the smallest Textual app paints in {hello_wall:.2f} s "
        f"({hello_cpu:.2f} s CPU)"
    )
    for label, figure in (("1,000 records", small), (f"{options.records:,} records", big)):
        print(
            f"{label:>18}: first paint {figure['first_paint']:.2f} s (median of {options.runs}; "
            f"{figure['first_paint_cpu']:.2f} s CPU, "
            f"{figure['first_paint'] / hello_wall:.2f}x the baseline app), "
            f"peak RSS app {figure['self_rss']:.0f} MB, app + verifier {figure['tree_rss']:.0f} MB "
            f"(PSS {figure['tree_pss']:.0f} MB), "
            f"every record indexed {figure['indexed_after']:.1f} s after start"
        )
    print(
        f"big/small: first paint {big['first_paint'] / small['first_paint']:.2f}x, "
        f"app RSS {big['self_rss'] / small['self_rss']:.2f}x"
    )
    checks = [
        (f"first paint <= {FIRST_PAINT_BUDGET} s", big["first_paint"] <= FIRST_PAINT_BUDGET),
        (f"app peak RSS <= {RSS_BUDGET_MB:.0f} MB", big["self_rss"] <= RSS_BUDGET_MB),
        (f"tree peak RSS <= {RSS_BUDGET_MB:.0f} MB", big["tree_rss"] <= RSS_BUDGET_MB),
        ("whole ledger indexed in the background", bool(big["indexed"])),
    ]
    ok = True
    for name, passed in checks:
        print(f"  {name}: {'OK' if passed else 'OVER'}")
        ok = ok and passed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
