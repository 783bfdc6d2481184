"""The gate's worst case over a corpus of hostile inputs (DESIGN §6 "A decision in bounded
time", §10: a hostile command is decided in < 3 s), against ``python -c pass`` in the same run.

A client that times its hook out runs the tool (Claude Code after 10 s), so every input here
must be answered, and denied, well before that. Each input is a PreToolUse payload run
through the installed hook as Claude Code runs it (``/bin/sh -c`` with the committed hook
command, ``PAW_TUI_HOOK`` naming this machine's hook script), answered by the resident gate,
and by the same hook deciding in its own process (``PAW_RESIDENT_GATE=off``); the runs are
interleaved with the baseline. Classes:

- glob vs a long name: ``rm -rf .git; touch src/auth/*a*a*a*a*a*a*a*a*a*a*c`` (the stalling
  case of issue 17) and its kin, against a 200-character name;
- granted pattern vs a long path: a Write under a scope holding ``src/*a*a...*c``;
- deep braces: unclosed nesting, 50,000 ``{``, 2,000 closed levels;
- huge expansions: ``{rm,-rf,.git}{,}...`` (12,288 words), ``{1..100000000}``, 2^20 words;
- a big tree: globs over 10,000 files and over a directory of ten links to itself;
- long commands: 20 MB of ``a;``, 1,000,000 pipes, 200,000 options of ``kitty @`` and
  ``docker run -v``;
- big input: JSON nested 100,000 deep, 200,000 path-like strings, a 60 MB command.

Printed: each input's median wall time and exit code (2 is the only right one), then per
class the worst case for both ways of running the hook, with the baseline's median and the
verdict against the 3 s budget.

    python bench/hostile.py [--runs 3] [--use-current-env]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _harness import REPO, clean_env, install_hook, pick_python, wait_for_server

BUDGET_SECONDS = 3.0  # DESIGN §10: a hostile command is decided in < 3 s
STARS = "*a" * 10 + "*c"
GRANTED = "src/" + STARS

INTENTS = f"""active_intents:
  - id: INT-001
    name: Auth
    status: IN_PROGRESS
    owned_scope: ["src/auth/**", "{GRANTED}"]
"""


def payload(root: str, tool: str, tool_input: object) -> bytes:
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "/dev/null",
            "cwd": root,
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": "toolu_hostile",
        }
    ).encode()


def bash(root: str, command: str) -> bytes:
    return payload(root, "Bash", {"command": command})


def nested(root: str, depth: int) -> bytes:
    head = payload(root, "Write", {"file_path": "x"})
    inner = '{"a":' * depth + "1" + "}" * depth
    return head.replace(b'{"file_path": "x"}', ('{"file_path": "x", "n": ' + inner + "}").encode())


def corpus(root: str) -> dict[str, list[tuple[str, bytes]]]:
    return {
        "glob vs a long name": [
            (
                "rm -rf .git; touch src/auth/" + STARS,
                bash(root, f"rm -rf .git; touch src/auth/{STARS}"),
            ),
            ("touch docs/" + STARS, bash(root, f"touch docs/{STARS}")),
            ("touch src/auth/(?*a)x12c .git/x", bash(root, f"touch src/auth/{'?*a' * 12}c .git/x")),
        ],
        "granted pattern vs a long path": [
            (
                "Write src/a{3000}c.x",
                payload(root, "Write", {"file_path": "src/" + "a" * 3000 + "c.x", "content": ""}),
            ),
        ],
        "deep braces": [
            ("{a, x4000 unclosed", bash(root, "touch src/auth/" + "{a," * 4000)),
            ("{ x50000", bash(root, "touch src/auth/" + "{" * 50_000)),
            (
                "{a,{a,...}} 2000 deep",
                bash(root, "touch src/auth/" + "{a," * 2000 + "b" + "}" * 2000),
            ),
        ],
        "huge expansions": [
            ("{rm,-rf,.git}{,}x12", bash(root, "{rm,-rf,.git}" + "{,}" * 12)),
            ("{1..100000000}", bash(root, "touch src/auth/{1..100000000}")),
            ("{a,b}x20", bash(root, "touch src/auth/" + "{a,b}" * 20)),
        ],
        "a big tree": [
            ("rm -f big/*/*", bash(root, "rm -f big/*/* .git/x")),
            ("touch big/*/*/x", bash(root, "touch big/*/*/x .git/x")),
            ("rm src/auth/loop/*x6", bash(root, "rm -f src/auth/loop/" + "/".join("*" * 6))),
        ],
        "long commands": [
            ("a; x10,000,000 (20 MB)", bash(root, "a;" * 10_000_000)),
            ("a | x1,000,000", bash(root, "a | " * 1_000_000 + "a")),
            # the programs read as servers and engines walk their own options
            ("kitty @ --to x x200,000", bash(root, "kitty @ " + "--to x " * 200_000 + "launch")),
            ("docker run -v x200,000", bash(root, "docker run " + "-v ./x:/y " * 200_000 + "a")),
        ],
        "big input": [
            ("JSON 100,000 deep", nested(root, 100_000)),
            (
                "200,000 path-like strings",
                payload(root, "mcp__x__y", {"p": [f"/tmp/{i}/x" for i in range(200_000)]}),
            ),
            ("60 MB command", bash(root, "echo " + "a" * 60_000_000 + " > .git/x")),
        ],
    }


def make_tree(root: str) -> None:
    for sub in (".git", ".orchestration", "src/auth/loop", "docs"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    with open(os.path.join(root, ".orchestration", "active_intents.yaml"), "w") as out:
        out.write(INTENTS)
    for directory in ("src/auth", "docs"):
        with open(os.path.join(root, directory, "a" * 200), "w") as out:
            out.write("x\n")
    for index in range(10):
        os.symlink(".", os.path.join(root, "src", "auth", "loop", f"l{index}"))
    for outer in range(100):
        directory = os.path.join(root, "big", f"d{outer}")
        os.makedirs(directory)
        for inner in range(100):
            open(os.path.join(directory, f"f{inner}"), "w").close()


def timed(
    command: list[str], body: bytes | None, cwd: str, env: dict[str, str]
) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, input=body, capture_output=True, timeout=120)
    return time.perf_counter() - start, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--use-current-env", action="store_true")
    options = parser.parse_args()
    python, script = pick_python(options.use_current_env)
    os.makedirs(os.path.join(REPO, "build"), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as base:
        root = os.path.join(base, "ws")
        make_tree(root)
        env = clean_env(
            PAW_STATE_DIR=os.path.join(base, "state"), PAW_USER_HOME=os.path.join(base, "home")
        )
        env["CLAUDE_PROJECT_DIR"] = root
        select = payload(root, "mcp__paw__select_active_intent", {"intent_id": "INT-001"})
        subprocess.run([script, "gate"], cwd=root, env=env, input=select, check=True)
        script_path, command = install_hook(python, os.path.join(base, "hook-state"))
        env = dict(env, PAW_TUI_HOOK=script_path)
        ways = {
            "resident": ["/bin/sh", "-c", command],
            "own process": ["/bin/sh", "-c", "export PAW_RESIDENT_GATE=off; " + command],
        }
        subprocess.run(ways["resident"], cwd=root, env=env, input=bash(root, "ls"), check=True)
        lock = os.path.join(os.path.dirname(script_path), "resident", "lock")
        server = wait_for_server(lock)
        baseline: list[float] = []
        rows: list[tuple[str, str, dict[str, float], dict[str, set[int]]]] = []
        for group, inputs in corpus(root).items():
            for label, body in inputs:
                walls: dict[str, list[float]] = {way: [] for way in ways}
                codes: dict[str, set[int]] = {way: set() for way in ways}
                for _ in range(options.runs):
                    baseline.append(timed([python, "-c", "pass"], None, root, env)[0])
                    for way, hook in ways.items():
                        wall, code = timed(hook, body, root, env)
                        walls[way].append(wall)
                        codes[way].add(code)
                medians = {way: statistics.median(values) for way, values in walls.items()}
                rows.append((group, label, medians, codes))
                shown = "  ".join(
                    f"{way} {medians[way]:6.2f} s exit {'/'.join(map(str, sorted(codes[way])))}"
                    for way in ways
                )
                print(f"  {label[:44]:<44} {shown}", flush=True)
        os.kill(server, signal.SIGTERM)
    base_ms = statistics.median(baseline) * 1000
    print(f"\npython -c pass: median {base_ms:.1f} ms ({len(baseline)} runs, interleaved)")
    ok = True
    for group in dict.fromkeys(row[0] for row in rows):
        members = [row for row in rows if row[0] == group]
        parts = []
        for way in ways:
            worst = max(members, key=lambda row: row[2][way])
            seconds = worst[2][way]
            denied = all(row[3][way] == {2} for row in members)
            verdict = "OK" if seconds < BUDGET_SECONDS and denied else "OVER"
            if not denied:
                verdict = "NOT DENIED"
            ok = ok and verdict == "OK"
            parts.append(
                f"{way}: worst {seconds:5.2f} s ({seconds * 1000 / base_ms:6.1f}x python -c pass,"
                f" {worst[1][:24]}) {verdict}"
            )
        print(f"{group:<32} " + "\n" + "\n".join(f"    {part}" for part in parts))
    print(f"budget: every hostile input denied in < {BUDGET_SECONDS:g} s: {'OK' if ok else 'OVER'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
