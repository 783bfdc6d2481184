"""A selection through the installed hook with intent claims on, against a local bare remote
(DESIGN §10: ≤ 150 ms), beside the same selection with claims off and ``python -c pass``.

Two workspaces made as ``bench/intents_scale.py`` makes them (``init``, five intents,
``install claude-code``, the hook run as Claude Code runs it), each a git clone of its own
bare repository; one has ``claims: {remote: origin}``. Every round a new session selects
INT-0001 in each (intent sharing is allowed locally, and the claim ref is deleted between
rounds, untimed), so every timed selection really pushes a claim.

    python bench/claims.py [--runs 20] [--use-current-env]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import clean_env, pick_python
from gate import payload
from intents_scale import Workspace

BUDGET_MS = 150.0


def clone(base: str, name: str, script: str, governance: str) -> tuple[Workspace, str]:
    bare = os.path.join(base, f"{name}.git")
    subprocess.run(["git", "init", "--quiet", "--bare", bare], check=True)
    space = Workspace(base, 5, script, name)
    subprocess.run(["git", "init", "--quiet"], cwd=space.root, check=True)
    subprocess.run(["git", "remote", "add", "origin", bare], cwd=space.root, check=True)
    with open(os.path.join(space.root, ".orchestration", "governance.yaml"), "w") as handle:
        handle.write(governance)
    return space, bare


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--use-current-env", action="store_true")
    options = parser.parse_args()
    python, script = pick_python(options.use_current_env)
    times: dict[str, list[float]] = {"python -c pass": [], "claims off": [], "claims on": []}
    with tempfile.TemporaryDirectory() as base:
        sharing = "intent_sharing: allow\n"
        off, _ = clone(base, "off", script, sharing)
        on, bare = clone(base, "on", script, sharing + "claims:\n  remote: origin\n")
        for round_number in range(options.runs + 1):
            session = f"bench-{round_number}"
            for name, space in (("claims off", off), ("claims on", on)):
                select = payload(
                    space.root, session, "mcp__paw__select_active_intent", {"intent_id": "INT-0001"}
                )
                start = time.perf_counter()
                done = space.run(select)
                elapsed = time.perf_counter() - start
                if done.returncode != 0:
                    raise SystemExit(f"{name}: the selection failed: {done.stderr!r}")
                if round_number:
                    times[name].append(elapsed)
            start = time.perf_counter()
            subprocess.run([python, "-c", "pass"], env=clean_env(), check=True)
            if round_number:
                times["python -c pass"].append(time.perf_counter() - start)
            refs = subprocess.run(
                ["git", "for-each-ref", "--format=%(refname)", "refs/paw/"],
                cwd=bare,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            if refs != ["refs/paw/claims/INT-0001"]:
                raise SystemExit(f"the claim was not pushed: {refs}")
            subprocess.run(["git", "update-ref", "-d", refs[0]], cwd=bare, check=True)
    medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
    print(f"a selection through the installed hook, {options.runs} rounds, medians (wall):")
    for name, value in medians.items():
        print(f"  {name:<16} {value:7.1f} ms")
    on_ms = medians["claims on"]
    verdict = "OK" if on_ms <= BUDGET_MS else "OVER"
    print(
        f"  claims cost {on_ms - medians['claims off']:.1f} ms; a selection with claims on "
        f"{on_ms:.1f} ms (budget {BUDGET_MS:.0f} ms: {verdict})"
    )
    return 0 if on_ms <= BUDGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
