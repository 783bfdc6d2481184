"""How soon an appended ledger record is on the TUI's screen (DESIGN §10, issue 11 item 6):
from just before another process appends it (as the gate does) to the first paint of its
line in the trace view, median and worst.

Two ledgers: a quiet one of 1,000 records, and one of 1,000,000 records where the appends
start at the first paint, while the app indexes the older records and verifies the chain in
the background. The app follows the ledger through file-change notifications (``notify``);
the baseline, interleaved in the same run, is the same app polling (``PAW_TUI_POLL=1``).
Targets for notify: median < 50 ms, worst < 150 ms, background work included.

    python bench/tui_latency.py [--records 1000000] [--runs 3] [--appends 30] [--use-current-env]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from typing import Any

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
from _harness import clean_env, pick_python
from tui_big_ledger import make_workspace, run_child

MEDIAN_BUDGET_MS = 50.0
WORST_BUDGET_MS = 150.0


def summary(results: list[dict[str, Any]]) -> dict[str, float]:
    latencies = [v for r in results for v in r["latencies"] if v is not None]
    missing = sum(1 for r in results for v in r["latencies"] if v is None)
    ordered = sorted(latencies)
    return {
        "median_ms": statistics.median(ordered) * 1000,
        "p95_ms": ordered[int(0.95 * (len(ordered) - 1))] * 1000,
        "worst_ms": ordered[-1] * 1000,
        "count": len(ordered),
        "missing": missing,
        "indexing": statistics.mean(r["background_share"]["indexing"] for r in results),
        "verifying": statistics.mean(r["background_share"]["verifying"] for r in results),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--appends", type=int, default=30)
    parser.add_argument("--gap", type=float, default=0.05, help="mean seconds between appends")
    parser.add_argument("--use-current-env", action="store_true")
    options = parser.parse_args()
    python, _script = pick_python(options.use_current_env)
    with tempfile.TemporaryDirectory() as base:
        env = clean_env(
            PAW_STATE_DIR=os.path.join(base, "state"), PAW_USER_HOME=os.path.join(base, "home")
        )
        poll_env = {**env, "PAW_TUI_POLL": "1"}
        small_root = make_workspace(base, 1000)
        start = time.time()
        big_root = make_workspace(base, options.records)
        print(f"built {options.records:,} records in {time.time() - start:.1f} s")
        cases = {
            ("quiet 1,000", "notify"): (small_root, env),
            ("quiet 1,000", "poll"): (small_root, poll_env),
            (f"{options.records:,}, background", "notify"): (big_root, env),
            (f"{options.records:,}, background", "poll"): (big_root, poll_env),
        }
        results: dict[tuple[str, str], list[dict[str, Any]]] = {case: [] for case in cases}
        run_child(python, small_root, env)  # warm-up: byte code, page cache
        for _ in range(options.runs):
            for case, (root, case_env) in cases.items():
                result = run_child(python, root, case_env, options.appends, options.gap)
                if result["mode"] != case[1]:
                    raise SystemExit(f"{case}: the app ran in {result['mode']} mode")
                results[case].append(result)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    print(
        f"load average at the end: {load[0]:.1f} (1 min), {load[1]:.1f} (5 min), {os.cpu_count()} CPUs"
    )
    ok = True
    for ledger in dict.fromkeys(name for name, _mode in cases):
        notify = summary(results[(ledger, "notify")])
        poll = summary(results[(ledger, "poll")])
        print(f"{ledger} ({notify['count']:.0f} appends a mode, {options.runs} runs):")
        for mode, figure in (("notify", notify), ("poll (baseline)", poll)):
            print(
                f"  {mode:<16} median {figure['median_ms']:6.1f} ms  p95 {figure['p95_ms']:6.1f} ms"
                f"  worst {figure['worst_ms']:6.1f} ms  (not shown: {figure['missing']:.0f}; "
                f"appended while indexing {figure['indexing']:.0%}, verifying {figure['verifying']:.0%})"
            )
        print(
            f"  notify/poll: median {notify['median_ms'] / poll['median_ms']:.2f}x, "
            f"worst {notify['worst_ms'] / poll['worst_ms']:.2f}x"
        )
        passed = (
            notify["median_ms"] < MEDIAN_BUDGET_MS
            and notify["worst_ms"] < WORST_BUDGET_MS
            and not notify["missing"]
        )
        print(
            f"  notify median < {MEDIAN_BUDGET_MS:.0f} ms and worst < {WORST_BUDGET_MS:.0f} ms: "
            f"{'OK' if passed else 'OVER'}"
        )
        ok = ok and passed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
