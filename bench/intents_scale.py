"""The installed hook with 5, 500, 2,000 and 5,000 intents, against ``python -c pass``
(DESIGN §10: within 1.2x between 5 and 2,000 intents; the first call after a YAML edit under
1 s at 5,000 intents; a file too large for the hook's budget refused up front).

Each workspace gets ``paw-tui init``, a generated ``active_intents.yaml`` (statuses in turn:
IN_PROGRESS, PENDING, COMPLETED, BLOCKED, ABANDONED; four patterns each, one of them a glob)
and ``paw-tui install claude-code``; the hook runs as Claude Code runs it: ``/bin/sh -c`` with
the PreToolUse command from ``.claude/settings.json`` and the environment from
``.claude/settings.local.json``. Every command of a case (the baseline and the hook at each
size) runs in turn in each round, so all figures come from the same minutes of a noisy machine.

    python bench/intents_scale.py [--runs 20] [--edits 5] [--use-current-env]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import clean_env, pick_python
from gate import payload  # the PreToolUse payload bench/gate.py sends

SIZES = (5, 500, 2000, 5000)
FLAT_BUDGET = 1.2
EDIT_BUDGET_S = 1.0
STATUSES = ("IN_PROGRESS", "PENDING", "COMPLETED", "BLOCKED", "ABANDONED")


def intents_yaml(count: int) -> str:
    parts = ["active_intents:\n"]
    for number in range(1, count + 1):
        parts.append(
            f"  - id: INT-{number:04d}\n"
            f"    name: Feature {number} work\n"
            f"    status: {STATUSES[(number - 1) % len(STATUSES)]}\n"
            f"    description: Feature {number}.\n"
            f'    owned_scope: ["src/f{number}/**", "tests/f{number}/**", '
            f'"!src/f{number}/gen/**", "docs/f{number}/*.md"]\n'
        )
    return "".join(parts)


class Workspace:
    """One workspace with ``count`` intents and the hook ``install claude-code`` wrote."""

    def __init__(self, base: str, count: int, script: str, name: str | None = None) -> None:
        self.count = count
        name = name or f"ws{count}"
        self.root = os.path.join(base, name)
        os.makedirs(os.path.join(self.root, ".git"))
        # each call decided in the hook's own process (as before the resident gate): the
        # scaling is the gate's own work, which bench/gate.py measures through the server too
        self.env = clean_env(
            PAW_STATE_DIR=os.path.join(base, f"state-{name}"),
            PAW_USER_HOME=os.path.join(base, f"home-{name}"),
            PAW_RESIDENT_GATE="off",
        )
        for step in (["init"], ["install", "claude-code"]):
            subprocess.run(
                [script, *step], cwd=self.root, env=self.env, check=True, capture_output=True
            )
        self.intents_path = os.path.join(self.root, ".orchestration", "active_intents.yaml")
        with open(self.intents_path, "w", encoding="utf-8") as handle:
            handle.write(intents_yaml(count))
        claude = os.path.join(self.root, ".claude")
        with open(os.path.join(claude, "settings.json"), encoding="utf-8") as handle:
            hooks = json.load(handle)["hooks"]["PreToolUse"]
        self.command = str(hooks[0]["hooks"][0]["command"])
        with open(os.path.join(claude, "settings.local.json"), encoding="utf-8") as handle:
            self.env.update(json.load(handle).get("env", {}))
        self.env["CLAUDE_PROJECT_DIR"] = self.root
        os.makedirs(os.path.join(self.root, "src", "f1"))
        with open(os.path.join(self.root, "src", "f1", "a.py"), "w", encoding="utf-8") as handle:
            handle.write("x = 1\n")  # what the PostToolUse case says was written

    def argv(self) -> list[str]:
        return ["/bin/sh", "-c", self.command]

    def run(self, body: bytes) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            self.argv(), cwd=self.root, env=self.env, input=body, capture_output=True
        )

    def cases(self) -> dict[str, tuple[bytes, int]]:
        root = self.root
        return {
            "Write allowed": (
                payload(
                    root,
                    "bench",
                    "Write",
                    {"file_path": os.path.join(root, "src", "f1", "a.py"), "content": "x = 1\n"},
                ),
                0,
            ),
            "Write before selection": (
                payload(
                    root,
                    "other",
                    "Write",
                    {"file_path": os.path.join(root, "src", "f1", "b.py"), "content": ""},
                ),
                2,
            ),
            "Read (read-only)": (
                payload(root, "bench", "Read", {"file_path": os.path.join(root, "README.md")}),
                0,
            ),
            # the mutation record, then intent_map.md rebuilt (issue 12: flat in intents too)
            "Write recorded (PostToolUse)": (
                post_tool(
                    payload(
                        root,
                        "bench",
                        "Write",
                        {
                            "file_path": os.path.join(root, "src", "f1", "a.py"),
                            "content": "x = 1\n",
                        },
                    )
                ),
                0,
            ),
            "Bash allowed": (
                payload(
                    root, "bench", "Bash", {"command": "mkdir -p src/f1 && echo x > src/f1/b.py"}
                ),
                0,
            ),
        }


def post_tool(body: bytes) -> bytes:
    """The PostToolUse event of a PreToolUse payload, as Claude Code sends it."""
    event = json.loads(body)
    event["hook_event_name"] = "PostToolUse"
    event["tool_response"] = {"filePath": event["tool_input"]["file_path"], "success": True}
    return json.dumps(event).encode()


def multi_interleaved(
    commands: dict[str, tuple[list[str], dict[str, str], str, bytes, int]], runs: int
) -> dict[str, float]:
    """Median seconds per command; each is (argv, env, cwd, stdin, expected exit)."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_number in range(runs + 1):
        for name, (argv, env, cwd, body, code) in commands.items():
            start = time.perf_counter()
            done = subprocess.run(argv, cwd=cwd, env=env, input=body, capture_output=True)
            elapsed = time.perf_counter() - start
            if done.returncode != code:
                raise SystemExit(
                    f"{name} exited {done.returncode}: {done.stdout!r} {done.stderr!r}"
                )
            if round_number:
                times[name].append(elapsed)
    return {name: statistics.median(values) for name, values in times.items()}


def first_call_after_edit(space: Workspace, edits: int) -> list[float]:
    """Seconds of the first hook call after each of ``edits`` edits of the YAML."""
    body, code = space.cases()["Write allowed"]
    seconds = []
    for number in range(edits):
        with open(space.intents_path, "a", encoding="utf-8") as handle:
            handle.write(f"# edit {number} {time.time()}\n")  # new bytes, new key
        start = time.perf_counter()
        done = space.run(body)
        seconds.append(time.perf_counter() - start)
        if done.returncode != code:
            raise SystemExit(f"after an edit: exit {done.returncode}: {done.stderr!r}")
    return seconds


def too_large(base: str, script: str) -> tuple[str, float]:
    """The answer to a Write when the intents file is over the limit, and its seconds."""
    space = Workspace(base, 0, script)
    with open(space.intents_path, "w", encoding="utf-8") as handle:
        handle.write(intents_yaml(8000))  # about 1.4 MB
    body, _ = space.cases()["Write allowed"]
    start = time.perf_counter()
    done = space.run(body)
    elapsed = time.perf_counter() - start
    if done.returncode != 2:
        raise SystemExit(f"an oversized intents file was not refused: {done.returncode}")
    answer = json.loads(done.stdout)
    return str(answer["hookSpecificOutput"]["permissionDecisionReason"]), elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--use-current-env", action="store_true")
    options = parser.parse_args()
    python, script = pick_python(options.use_current_env)
    ok = True
    with tempfile.TemporaryDirectory() as base:
        spaces = {count: Workspace(base, count, script) for count in SIZES}
        for space in spaces.values():
            # warm the cache and hold INT-0001 for the session "bench"
            select = payload(
                space.root, "bench", "mcp__paw__select_active_intent", {"intent_id": "INT-0001"}
            )
            done = space.run(select)
            if done.returncode != 0:
                raise SystemExit(f"selection failed with {space.count} intents: {done.stderr!r}")
        print(
            f"hook as Claude Code runs it (/bin/sh -c), {options.runs} interleaved rounds, medians"
        )
        for case in spaces[SIZES[0]].cases():
            commands: dict[str, tuple[list[str], dict[str, str], str, bytes, int]] = {
                "baseline": ([python, "-c", "pass"], clean_env(), base, b"", 0)
            }
            for count, space in spaces.items():
                body, code = space.cases()[case]
                commands[str(count)] = (space.argv(), space.env, space.root, body, code)
            medians = multi_interleaved(commands, options.runs)
            base_ms = medians["baseline"] * 1000
            flat = medians[str(2000)] / medians[str(5)]
            cells = "  ".join(
                f"{count}: {medians[str(count)] * 1000:6.1f} ms {medians[str(count)] * 1000 / base_ms:4.2f}x"
                for count in SIZES
            )
            verdict = "OK" if flat <= FLAT_BUDGET else "OVER"
            print(f"  {case:<24} python -c pass {base_ms:5.1f} ms | {cells}")
            print(
                f"  {'':<24} 2,000 / 5 intents = {flat:4.2f} (budget {FLAT_BUDGET}: {verdict});"
                f" 5,000 / 5 = {medians[str(5000)] / medians[str(5)]:4.2f}"
            )
            ok = ok and flat <= FLAT_BUDGET
        print(f"first call after a YAML edit ({options.edits} edits each, median / worst):")
        for count, space in spaces.items():
            seconds = first_call_after_edit(space, options.edits)
            median, worst = statistics.median(seconds), max(seconds)
            line = f"  {count:>5} intents: {median * 1000:7.1f} ms / {worst * 1000:7.1f} ms"
            if count == 5000:
                verdict = "OK" if worst < EDIT_BUDGET_S else "OVER"
                line += f"  (budget < {EDIT_BUDGET_S:.0f} s: {verdict})"
                ok = ok and worst < EDIT_BUDGET_S
            print(line)
        reason, refused_in = too_large(base, script)
        print(
            f"an 8,000-intent file (over the limit): denied in {refused_in * 1000:.0f} ms: {reason}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
