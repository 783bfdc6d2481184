"""What the real Claude Code, Gemini CLI and Codex showed paw-tui getting wrong (issue 19).

- Claude Code (2.1.197 and 2.1.330): a session's first shell call, a read-only ``ls`` before
  any selection, must run under the kernel boundary (it failed: no spec for a session without
  an intent, so the shell could not even write the file Claude Code tracks its working
  directory in); and an in-scope Bash write after a ``cd`` must leave its ``mutation`` record
  (Claude Code's PostToolUse names the directory the command *ended* in, so the write was
  recorded under a path that does not exist).
- Gemini CLI: ``write_file`` and ``replace`` mutations carry their line ranges (relative paths
  and all), and the Agent Trace export attributes them.
- All three: with the committed hook's paw-tui gone (the package removed from the venv the
  hook script runs), ``doctor``'s canary fails, saying the deny comes from the fail-closed
  fallback, and the real client indeed decides nothing through the gate: its session leaves
  no record at all.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from gatekit import launcher_only_hook

from paw_tui.core.confine import boundary

from . import pawkit
from .install import CLIENTS
from .recipes import shell, tool_search
from .script import Step, Text, ToolCall
from .session import SessionResult, run_session
from .test_paw_claude_handshake import INTENTS, PAW, SELECT
from .test_paw_codex import InstallingDriver

pytestmark = pytest.mark.realclient

GEMINI = "gemini-cli@0.61.0"
CODEX = "codex@0.169.0"


def _workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, str]]:
    state = tmp_path / "paw-state"
    monkeypatch.setenv("PAW_STATE_DIR", str(state))
    root = (tmp_path / "ws").resolve()
    (root / ".orchestration").mkdir(parents=True)
    (root / ".orchestration" / "active_intents.yaml").write_text(INTENTS, encoding="utf-8")
    (root / "src").mkdir()
    (root / "src" / "keep.py").write_text("keep = 1\n", encoding="utf-8")
    return root, {"PAW_STATE_DIR": str(state)}


def _install(root: Path, client: str, env: dict[str, str]) -> None:
    done = subprocess.run(
        [PAW, "install", client],
        cwd=root,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def _records(root: Path) -> list[dict[str, Any]]:
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    if not ledger.exists():
        return []
    return [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]


def _results(result: SessionResult, step: int) -> str:
    return "\n".join(result.request_for_step(step).tool_results())


@pytest.mark.parametrize("key", [k for k in CLIENTS if k.startswith("claude-code")])
def test_claude_code_first_shell_call_and_shell_mutations(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, env = _workspace(tmp_path, monkeypatch)
    _install(root, "claude-code", env)
    deferred = key == "claude-code@2.1.330"
    script: list[Step] = [shell("claude", "ls")]
    if deferred:
        script.append(tool_search("claude", f"select:{SELECT}"))
    script += [
        ToolCall(SELECT, {"intent_id": "INT-001"}),
        shell("claude", "echo one > src/one.txt"),
        shell("claude", "cd src && echo two > two.txt"),
        shell("claude", "echo three > three.txt"),  # Claude Code carries the cd over
        Text("done"),
    ]
    result = run_session(key, root, "look, then work", script, env=env, timeout=120,
                         home=tmp_path / "home")  # fmt: skip
    assert result.ok, result.describe()
    listed = _results(result, 1)
    assert "keep.py" not in listed and "src" in listed, listed  # ls of the root ran
    assert "paw-tui confine" not in listed and "Permission denied" not in listed, listed
    assert "Exit code" not in listed, listed
    offset = 1 if deferred else 0
    for step in (3, 4, 5):
        told = _results(result, step + offset)
        assert "Scope Violation" not in told and "Error" not in told, told
    assert (root / "src" / "two.txt").read_text(encoding="utf-8") == "two\n"
    assert (root / "src" / "three.txt").read_text(encoding="utf-8") == "three\n"
    mutations = [r for r in _records(root) if r["event"] == "mutation"]
    assert [(r["tool"], r["paths"]) for r in mutations] == [
        ("Bash", ["src/one.txt"]),
        ("Bash", ["src/two.txt"]),
        ("Bash", ["src/three.txt"]),
    ]
    assert all(r.get("content_hash") and r["intent_id"] == "INT-001" for r in mutations)
    if boundary.available():
        shells = [r for r in _records(root) if r["event"] == "tool_allowed" and r["tool"] == "Bash"]
        assert {r.get("protection") for r in shells} == {"kernel boundary"}


def test_gemini_file_tools_record_their_line_ranges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, env = _workspace(tmp_path, monkeypatch)
    _install(root, "gemini-cli", env)
    script: list[Step] = [
        ToolCall("mcp_paw_select_active_intent", {"intent_id": "INT-001"}),
        ToolCall("write_file", {"file_path": "src/app.py", "content": "a = 1\nb = 2\nc = 3\n"}),
        ToolCall(
            "replace",
            {
                "file_path": "src/app.py",
                "old_string": "b = 2",
                "new_string": "b = 20\nb2 = 21",
                "instruction": "split b",
            },
        ),
        Text("done"),
    ]
    result = run_session(GEMINI, root, "write src/app.py", script, env=env, timeout=120,
                         home=tmp_path / "home")  # fmt: skip
    assert result.ok, result.describe()
    written = (root / "src" / "app.py").read_text(encoding="utf-8")
    assert written == "a = 1\nb = 20\nb2 = 21\nc = 3\n"
    mutations = [r for r in _records(root) if r["event"] == "mutation"]
    assert [(r["tool"], r["paths"], r.get("ranges")) for r in mutations] == [
        ("write_file", ["src/app.py"], [{"start_line": 1, "end_line": 3}]),
        ("replace", ["src/app.py"], [{"start_line": 2, "end_line": 3}]),
    ]
    export = subprocess.run(
        [PAW, "trace", "export", "--format", "agent-trace"],
        cwd=root,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    assert export.returncode == 0, export.stderr
    traces = [json.loads(line) for line in export.stdout.splitlines()]
    assert [t["files"][0]["conversations"][0]["ranges"] for t in traces] == [
        [{"start_line": 1, "end_line": 3}],
        [{"start_line": 2, "end_line": 3}],
    ]


FALLBACK = "the deny came from its fail-closed fallback, not from the gate"


@pytest.mark.parametrize("client", ["claude-code", "gemini-cli", "codex"])
def test_doctor_says_what_the_client_does_when_the_hook_s_paw_tui_is_gone(
    client: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, env = _workspace(tmp_path, monkeypatch)
    broken = launcher_only_hook(tmp_path / "gone")
    driver = None
    if client == "codex":
        monkeypatch.setenv("CODEX_HOME", str((tmp_path / "home" / ".codex").resolve()))
        env["PAW_TUI_HOOK"] = broken  # exported, as the install asks
        driver = InstallingDriver(paw_env=env)
        driver.setup(tmp_path / "home", root, "http://127.0.0.1:9/", trust=False)
    else:
        _install(root, client, env)
        if client == "claude-code":
            local = root / ".claude" / "settings.local.json"
            data = json.loads(local.read_text(encoding="utf-8"))
            data["env"]["PAW_TUI_HOOK"] = broken
            local.write_text(json.dumps(data), encoding="utf-8")
        else:
            with open(root / ".gemini" / ".env", "a", encoding="utf-8") as handle:
                handle.write(f"PAW_TUI_HOOK={broken}\n")
    status, detail = pawkit.canary_row(root, env, client)
    assert status == "FAIL" and FALLBACK in detail, detail
    kind = {"claude-code": "claude", "gemini-cli": "gemini", "codex": "codex"}[client]
    key = {"claude-code": max(k for k in CLIENTS if k.startswith("claude")), "gemini-cli": GEMINI,
           "codex": CODEX}[client]  # fmt: skip
    script: list[Step] = [shell(kind, "echo x > src/x.txt"), Text("done")]
    result = run_session(key, root, "write src/x.txt", script, env=env, timeout=90,
                         home=tmp_path / "home", driver=driver,
                         trust_hooks=client != "codex")  # fmt: skip
    assert not result.timed_out, result.describe()
    # what doctor said: nothing is decided by the gate, every call is denied
    assert not (root / "src" / "x.txt").exists()
    assert _records(root) == []
