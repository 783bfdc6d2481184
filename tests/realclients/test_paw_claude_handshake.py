"""paw-tui with the real Claude Code, the whole handshake (issue 10), old and new release.

``paw-tui install claude-code``, then one session whose scripted model tries a write before
selecting, loads and calls select_active_intent (through ToolSearch where the release defers MCP
tools), writes inside and outside the scope, and writes through the shell. What reached the
model, the files and the ledger are checked; ``trace verify`` passes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .install import CLIENTS
from .recipes import shell, tool_search, write_file
from .script import Step, Text, ToolCall
from .session import run_session

pytestmark = pytest.mark.realclient

INTENTS = """\
active_intents:
  - id: INT-001
    name: Source work
    status: IN_PROGRESS
    owned_scope: ["src/**"]
"""
PAW = str(Path(sys.executable).parent / "paw-tui")
SELECT = "mcp__paw__select_active_intent"


def _setup(root: Path, state: Path) -> dict[str, str]:
    env = {"PAW_STATE_DIR": str(state)}
    (root / ".orchestration").mkdir(parents=True)
    (root / ".orchestration" / "active_intents.yaml").write_text(INTENTS, encoding="utf-8")
    (root / "src").mkdir()
    done = subprocess.run(
        [PAW, "install", "claude-code"],
        cwd=root,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return env


def _results(result: object, step: int) -> str:
    return "\n".join(result.request_for_step(step).tool_results())  # type: ignore[attr-defined]


@pytest.mark.parametrize("key", [k for k in CLIENTS if k.startswith("claude-code")])
def test_the_whole_handshake(key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _handshake(key, tmp_path, monkeypatch)


def test_the_whole_handshake_through_the_resident_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same session with the resident gate on (as installed): the first hook call
    starts it without keeping Claude Code waiting on the hook's output, later calls are
    answered by its workers, and every answer is the same."""
    import signal

    monkeypatch.delenv("PAW_RESIDENT_GATE", raising=False)
    monkeypatch.setenv("PAW_RESIDENT_GATE_IDLE", "60")
    key = max(k for k in CLIENTS if k.startswith("claude-code"))
    try:
        _handshake(key, tmp_path, monkeypatch, start_resident=True)
        lock = tmp_path / "paw-state" / "resident" / "lock"
        server = int(lock.read_text().split()[0])
        workers = Path(f"/proc/{server}/task/{server}/children").read_text().split()
        # a worker writes only when it takes a call (its note to the server, the ledger)
        writes = sum(_writes(int(worker)) for worker in workers)
        assert writes > 0, "no call was answered by the resident gate"
    finally:
        lock = tmp_path / "paw-state" / "resident" / "lock"
        if lock.exists():
            os.kill(int(lock.read_text().split()[0]), signal.SIGTERM)


def _start_resident(state: Path, root: Path) -> None:
    import time

    from paw_tui.core.clients import commands

    script = commands.hook_script_path(str(state))
    read: dict[str, object] = {"session_id": "warm", "cwd": str(root), "tool_name": "Read"}
    read |= {"hook_event_name": "PreToolUse", "tool_input": {"file_path": str(root / "x")}}
    subprocess.run(
        [script, "gate", "--client", "claude-code"],
        input=json.dumps(read).encode(),
        cwd=root,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(root)},
        capture_output=True,
        timeout=60,
    )
    deadline = time.monotonic() + 30
    while not (state / "resident" / "gate.sock").exists():
        assert time.monotonic() < deadline, "the resident gate did not start"
        time.sleep(0.05)


def _writes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("syscw:"):
            return int(line.split()[1])
    return 0


def _handshake(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start_resident: bool = False
) -> None:
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "paw-state"))
    root = (tmp_path / "ws").resolve()
    root.mkdir()
    env = _setup(root, tmp_path / "paw-state")
    if start_resident:  # a short scripted session could end before a server started by it
        _start_resident(tmp_path / "paw-state", root)
    deferred = key == "claude-code@2.1.330"
    script: list[Step] = [write_file("claude", root, "src/early.py", "x = 1\n")]
    if deferred:
        script.append(tool_search("claude", f"select:{SELECT}"))
    script += [
        ToolCall(SELECT, {"intent_id": "INT-001"}),
        write_file("claude", root, "src/app.py", "x = 2\n"),
        write_file("claude", root, "docs/notes.md", "no\n"),
        shell("claude", "echo no > docs/shell.md"),
        Text("done"),
    ]
    result = run_session(
        key, root, "Add src/app.py", script, env=env, timeout=120, home=tmp_path / "home"
    )
    assert result.ok, result.describe()
    offset = 1 if deferred else 0
    first = result.first_request()
    # SessionStart's note for the person (systemMessage), as Claude Code reports the hook's answer
    (started,) = [
        e
        for e in result.events
        if e.get("subtype") == "hook_response" and e.get("hook_event") == "SessionStart"
    ]
    notice = json.loads(started["output"])["systemMessage"]
    assert notice.startswith("paw-tui governs this repository: 1 intent(s) can be selected"), notice
    # governance reached the model (SessionStart context) before anything else
    assert first.contains("## Governance (paw-tui)") and first.contains("INT-001")
    early = _results(result, 1)
    assert "You must cite a valid active Intent ID" in early, early
    if deferred:
        assert "ToolSearch" in early  # how to reach the deferred tool, in the deny itself
    selected = _results(result, 2 + offset)
    assert "INT-001" in selected and "Error" not in selected, selected
    assert (root / "src" / "app.py").read_text(encoding="utf-8") == "x = 2\n"
    outside = _results(result, 4 + offset)
    assert "Scope Violation: INT-001 is not authorized to edit docs/notes.md" in outside, outside
    through_shell = _results(result, 5 + offset)
    assert "Scope Violation: INT-001 is not authorized to edit docs/shell.md" in through_shell
    assert not (root / "src" / "early.py").exists()
    assert not (root / "docs").exists()
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    records = [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]
    sessions = {r.get("session_id") for r in records}
    assert sessions == {result.session_id()}, sessions
    events = [(r["event"], r.get("tool"), r.get("paths")) for r in records]
    assert ("intent_selected", SELECT, None) in events
    assert ("mutation", "Write", ["src/app.py"]) in events
    assert ("tool_denied", "Write", ["docs/notes.md"]) in events
    # PostToolUse's mutation carries the lines the write left (step 4 of the README's walk)
    (written,) = [r for r in records if r["event"] == "mutation" and r["tool"] == "Write"]
    assert written.get("ranges") == [{"start_line": 1, "end_line": 1}], written
    # the prompt's UserPromptSubmit brings the governance section too (step 6), and SessionEnd
    # releases the session (step 7)
    assert first.contains("UserPromptSubmit hook additional context: ## Governance (paw-tui)")
    assert events[-1][0] == "session_released", events[-3:]
    verify = subprocess.run(
        [PAW, "trace", "verify"],
        cwd=root,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
