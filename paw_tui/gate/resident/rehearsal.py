"""Take the gate through a few calls of each kind on a scratch workspace before serving.

Python specialises a function's code for what it meets after the function has run a few
times; a child forked from a server that never ran the gate would pay that on every call
(about a millisecond of a write's three). The server rehearses once, before it listens, on a
workspace, state directory and home of its own inside its directory, removed afterwards: the
children then start from code already specialised. Nothing of the rehearsal reaches a call:
its files are gone, and the in-process caches the gate keeps are keyed by path.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping

ROUNDS = 12
"""Enough runs for every function on the common paths to be specialised (3.11 waits 8)."""
CALLS = 1 + 7 * ROUNDS
"""Calls a rehearsal makes."""
INTENTS = """active_intents:
  - id: INT-001
    name: Rehearsal
    status: IN_PROGRESS
    owned_scope: ["src/**", "!src/generated/**"]
"""


def rehearse(directory: str) -> int:
    """Run the rehearsal in ``directory/rehearsal`` (created, then removed); the number of
    calls the gate answered as expected (a failure only costs the speed-up)."""
    base = os.path.join(directory, "rehearsal")
    saved_env = dict(os.environ)
    saved_cwd = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        root = _workspace(base)
        os.environ.update(
            PAW_STATE_DIR=os.path.join(base, "state"),
            PAW_USER_HOME=os.path.join(base, "home"),
            HOME=os.path.join(base, "home"),
            CLAUDE_PROJECT_DIR=root,
        )
        os.chdir(root)
        return _calls(root)
    except Exception:  # a rehearsal that fails only leaves the code unspecialised
        return 0
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        os.fchdir(saved_cwd)
        os.close(saved_cwd)
        shutil.rmtree(base, ignore_errors=True)


def _workspace(base: str) -> str:
    shutil.rmtree(base, ignore_errors=True)
    root = os.path.join(base, "ws")
    for sub in (
        ".git",
        ".orchestration",
        "src",
        os.path.join("..", "home"),
        os.path.join("..", "state"),
    ):
        os.makedirs(os.path.join(root, sub), mode=0o700, exist_ok=True)
    with open(
        os.path.join(root, ".orchestration", "active_intents.yaml"), "w", encoding="utf-8"
    ) as out:
        out.write(INTENTS)
    with open(os.path.join(root, "src", "app.py"), "w", encoding="utf-8") as out:
        out.write("x = 1\n")
    return root


def _calls(root: str) -> int:
    from paw_tui.gate.main import decide_payload

    answered = 0

    def call(
        event: str,
        tool: str,
        tool_input: Mapping[str, object],
        number: int,
        session: str = "rehearsal",
        expect: int = 0,
    ) -> None:
        nonlocal answered
        payload = {
            "session_id": session,
            "transcript_path": os.devnull,
            "cwd": root,
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": f"rehearsal-{number}",
        }
        answer = decide_payload(json.dumps(payload).encode(), client="claude-code")
        answered += answer.exit_code == expect

    call("PreToolUse", "mcp__paw__select_active_intent", {"intent_id": "INT-001"}, 0)
    write = {"file_path": os.path.join(root, "src", "app.py"), "content": "x = 2\n"}
    outside = {"file_path": os.path.join(root, "README.md"), "content": ""}
    shell = {"command": "mkdir -p src && echo x > src/b.py"}
    for number in range(1, ROUNDS + 1):
        call("PreToolUse", "Write", write, number)
        call("PostToolUse", "Write", write, number)
        call("PreToolUse", "Write", outside, number, expect=2)
        call("PreToolUse", "Write", write, number, session="rehearsal-newcomer", expect=2)
        call("PreToolUse", "Read", {"file_path": os.path.join(root, "src", "app.py")}, number)
        call("PreToolUse", "Bash", shell, number)
        call("PostToolUse", "Bash", shell, number)
    return answered
