"""The installed hook with 2 session records and with 5,000 stale ones, against ``python -c
pass`` (DESIGN §10 and §12: with 5,000 stale session records a decision is within 1.2x of one
with 2).

Both workspaces are made as ``bench/intents_scale.py`` makes them (``init``, five intents,
``install claude-code``; the hook run as Claude Code runs it, ``/bin/sh -c``), with intent
sharing allowed and a one-hour TTL. The crowded one then gets 5,000 sessions that went stale
two days ago, made the way real ones are: half selected an intent through the library (they
hold it, in the holders index) and half only ever started (they hold nothing). Both get the
same live session "bench" holding INT-0001. The figures are taken:

- **before any pruning**: the 2,500 stale holders are still in the holders index;
- **after one new session** has started (its SessionStart prunes: the index forgets every
  stale holder at once, a batch of them is released and the sweep reads a bounded number of
  records), which is the state any workspace is in after its next session.

    python bench/sessions_scale.py [--runs 20] [--use-current-env]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import clean_env, pick_python
from gate import payload
from intents_scale import Workspace, multi_interleaved

STALE = 5000
FLAT_BUDGET = 1.2
GOVERNANCE = "intent_sharing: allow\nsession_ttl: 1h\n"
MAKE_STALE = """
import json, os, sys, time
from paw_tui.core.handshake.selection import select_active_intent
from paw_tui.core.workspace.state import WorkspaceState

root, count = sys.argv[1], int(sys.argv[2])
old = time.time() - 2 * 86400
state = WorkspaceState(root, clock=lambda: old)
for n in range(count // 2):
    select_active_intent(state, f"stale-holder-{n}", "INT-0001")
folder = os.path.join(root, ".orchestration", "sessions")
for n in range(count - count // 2):
    record = {"session_id": f"stale-idle-{n}", "state": "none", "started": old, "last_seen": old}
    with open(os.path.join(folder, f"stale-idle-{n}.json"), "w") as handle:
        json.dump(record, handle)
"""


def crowd(space: Workspace, python: str, count: int) -> None:
    done = subprocess.run(
        [python, "-c", MAKE_STALE, space.root, str(count)],
        env=space.env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"could not make the stale sessions: {done.stderr}")


def session_start(space: Workspace, session: str) -> None:
    event = json.loads(payload(space.root, session, "Read", {}))
    event["hook_event_name"] = "SessionStart"
    event["source"] = "startup"
    for key in ("tool_name", "tool_input"):
        event.pop(key, None)
    command = json.loads(open(os.path.join(space.root, ".claude", "settings.json")).read())
    start = command["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    done = subprocess.run(
        ["/bin/sh", "-c", start],
        cwd=space.root,
        env=space.env,
        input=json.dumps(event).encode(),
        capture_output=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"SessionStart failed: {done.stderr!r}")


def count_files(space: Workspace) -> int:
    folder = os.path.join(space.root, ".orchestration", "sessions")
    return sum(1 for name in os.listdir(folder) if name.endswith(".json"))


def measure(spaces: dict[str, Workspace], python: str, base: str, runs: int, label: str) -> bool:
    print(f"{label} ({runs} interleaved rounds, medians)")
    ok = True
    for case in spaces["2"].cases():
        commands: dict[str, tuple[list[str], dict[str, str], str, bytes, int]] = {
            "baseline": ([python, "-c", "pass"], clean_env(), base, b"", 0)
        }
        for name, space in spaces.items():
            body, code = space.cases()[case]
            commands[name] = (space.argv(), space.env, space.root, body, code)
        medians = multi_interleaved(commands, runs)
        base_ms = medians["baseline"] * 1000
        ratio = medians[str(STALE)] / medians["2"]
        verdict = "OK" if ratio <= FLAT_BUDGET else "OVER"
        cells = "  ".join(
            f"{name}: {medians[name] * 1000:6.1f} ms {medians[name] * 1000 / base_ms:4.2f}x"
            for name in spaces
        )
        print(f"  {case:<28} python -c pass {base_ms:5.1f} ms | {cells}")
        print(f"  {'':<28} {STALE:,} stale / 2 = {ratio:4.2f} (budget {FLAT_BUDGET}: {verdict})")
        ok = ok and ratio <= FLAT_BUDGET
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--use-current-env", action="store_true")
    options = parser.parse_args()
    python, script = pick_python(options.use_current_env)
    with tempfile.TemporaryDirectory() as base:
        spaces = {
            "2": Workspace(base, 5, script, "ws-two"),
            str(STALE): Workspace(base, 5, script, "ws-crowded"),
        }
        for space in spaces.values():
            with open(os.path.join(space.root, ".orchestration", "governance.yaml"), "w") as handle:
                handle.write(GOVERNANCE)
            select = payload(
                space.root, "bench", "mcp__paw__select_active_intent", {"intent_id": "INT-0001"}
            )
            done = space.run(select)
            if done.returncode != 0:
                raise SystemExit(f"selection failed: {done.stderr!r}")
        session_start(spaces["2"], "companion")  # two records: "bench" and "companion"
        started = time.perf_counter()
        crowd(spaces[str(STALE)], python, STALE)
        print(
            f"{STALE:,} stale sessions made in {time.perf_counter() - started:.1f} s "
            f"({count_files(spaces[str(STALE)])} records)"
        )
        ok = measure(spaces, python, base, options.runs, "before any pruning")
        started = time.perf_counter()
        session_start(spaces[str(STALE)], "companion")
        print(
            f"one new session's SessionStart, pruning included: "
            f"{(time.perf_counter() - started) * 1000:.0f} ms "
            f"({count_files(spaces[str(STALE)])} records left)"
        )
        ok = measure(spaces, python, base, options.runs, "after one new session") and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
