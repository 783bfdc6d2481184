"""paw-tui with the real Gemini CLI, the whole handshake (issue 10).

``paw-tui install gemini-cli``, then one session whose scripted model tries a write before
selecting, calls select_active_intent through paw's MCP server (Gemini names it
``mcp_paw_select_active_intent``), writes inside the scope with the file tool and the shell,
and outside it with both. What reached the model and the person, the files and the ledger are
checked; ``trace verify`` passes. Nothing but ``.gemini/.env`` tells Gemini where this
machine's paw-tui is, and where the kernel offers Landlock the shell runs confined.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from paw_tui.core.confine import boundary

from .recipes import shell, write_file
from .script import Step, Text, ToolCall
from .session import SessionResult, run_session

pytestmark = pytest.mark.realclient

KEY = "gemini-cli@0.61.0"
INTENTS = """\
active_intents:
  - id: INT-001
    name: Source work
    status: IN_PROGRESS
    owned_scope: ["src/**"]
"""
PAW = str(Path(sys.executable).parent / "paw-tui")
SELECT = "mcp_paw_select_active_intent"
# a write the gate's command parser cannot see: only the kernel boundary stops it
PYTHON_WRITE = "python3 -c \"import os; os.makedirs('docs'); open('docs/py.txt', 'w')\""


def _install(root: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    (root / ".orchestration").mkdir(parents=True)
    (root / ".orchestration" / "active_intents.yaml").write_text(INTENTS, encoding="utf-8")
    (root / "src").mkdir()
    done = subprocess.run(
        [PAW, "install", "gemini-cli"],
        cwd=root,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done


def _results(result: SessionResult, step: int) -> str:
    return "\n".join(result.request_for_step(step).tool_results())


def _records(root: Path) -> list[dict[str, object]]:
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    return [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]


def test_the_whole_handshake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "paw-state"
    monkeypatch.setenv("PAW_STATE_DIR", str(state))
    root = (tmp_path / "ws").resolve()
    root.mkdir()
    env = {"PAW_STATE_DIR": str(state)}
    installed = _install(root, env)
    # no paw-tui on Gemini's PATH: only .gemini/.env (PAW_TUI_HOOK) says where it is
    env["PATH"] = os.pathsep.join(
        d for d in os.environ["PATH"].split(os.pathsep) if not (Path(d) / "paw-tui").exists()
    )
    assert "TRUST_FOLDER" in installed.stdout  # the folder-trust step, spelled out
    script: list[Step] = [
        write_file("gemini", root, "src/early.py", "x = 1\n"),
        ToolCall(SELECT, {"intent_id": "INT-001"}),
        write_file("gemini", root, "src/app.py", "x = 2\n"),
        write_file("gemini", root, "docs/notes.md", "no\n"),
        shell("gemini", "echo no > docs/shell.md"),
        shell("gemini", "echo yes > src/shell.txt"),
        shell("gemini", PYTHON_WRITE),
        Text("done"),
    ]
    result = run_session(
        KEY, root, "Add src/app.py", script, env=env, timeout=120, home=tmp_path / "home"
    )
    assert result.ok, result.describe()
    first = result.first_request()
    # governance reached the model (SessionStart context) and the person (systemMessage)
    assert first.contains("## Governance (paw-tui)") and first.contains("INT-001")
    assert "paw-tui governs this repository" in result.stderr, result.stderr[-2000:]
    early = _results(result, 1)
    assert "Tool execution blocked: You must cite a valid active Intent ID" in early, early
    assert SELECT in early  # how to reach the handshake tool in this client
    selected = _results(result, 2)
    assert "INT-001" in selected and "error" not in json.loads(selected)["response"], selected
    assert (root / "src" / "app.py").read_text(encoding="utf-8") == "x = 2\n"
    outside = _results(result, 4)
    assert "Scope Violation: INT-001 is not authorized to edit docs/notes.md" in outside, outside
    through_shell = _results(result, 5)
    assert "Scope Violation: INT-001 is not authorized to edit docs/shell.md" in through_shell
    assert (root / "src" / "shell.txt").read_text(encoding="utf-8") == "yes\n", _results(result, 6)
    if boundary.available():  # .gemini/.env's BASH_ENV confines what the parser cannot see
        assert "PermissionError" in _results(result, 7), _results(result, 7)
    assert not (root / "src" / "early.py").exists()
    assert not (root / "docs").exists()
    records = _records(root)
    session = result.session_id()
    assert session and {r.get("session_id") for r in records} == {session}
    events = [(r["event"], r.get("tool"), r.get("paths")) for r in records]
    assert ("intent_selected", SELECT, None) in events
    assert ("mutation", "write_file", ["src/app.py"]) in events
    assert ("tool_denied", "write_file", ["src/early.py"]) in events
    assert ("tool_denied", "write_file", ["docs/notes.md"]) in events
    assert ("tool_denied", "run_shell_command", ["docs/shell.md"]) in events, events
    assert events[-1][0] == "session_released", events[-3:]  # SessionEnd, at the end
    verify = subprocess.run(
        [PAW, "trace", "verify"],
        cwd=root,
        env={**os.environ, "PAW_STATE_DIR": str(state)},
        capture_output=True,
        text=True,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
