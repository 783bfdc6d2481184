"""paw-tui with the real Codex CLI, the whole handshake (issue 10).

``paw-tui install codex`` writes the project's hooks and MCP server and, in the session's
``CODEX_HOME``, the project's trust and each hook's trusted hash; the harness then does **not**
trust anything itself (``trust_hooks=False``), so the session proves Codex accepts what install
recorded. One ``codex exec`` session's scripted model writes before selecting, finds
select_active_intent with ``tool_search`` (Codex defers MCP tools) and calls it in the
``mcp__paw`` namespace, writes inside the scope with ``apply_patch``, outside it, through the
shell, with a patch sent through the shell and with a patch mixing both. What reached the model,
the files and the ledger are checked; ``trace verify`` passes.

Also: where paw-tui cannot run, Codex runs nothing (the hooks exit 2 and Codex blocks the
prompt); ``doctor`` fails exactly where ``codex app-server`` reports a hook untrusted or
modified; the payload fixtures of the adapter's tests still have the shape Codex sends.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .clients import CodexDriver
from .codex_trust import list_codex_hooks
from .install import ensure_client
from .recipes import shell, tool_search, write_file
from .script import ModelRequest, Step, Text, ToolCall, Turn
from .session import SessionResult, run_session
from .test_paw_claude_handshake import INTENTS, PAW, SELECT

pytestmark = pytest.mark.realclient

KEY = "codex@0.169.0"
BLOCKED = "Command blocked by PreToolUse hook: "


@dataclass
class InstallingDriver(CodexDriver):
    """The harness's offline user config (without trusting the project), then ``paw-tui
    install codex`` into it, as a person would run it."""

    paw_env: dict[str, str] = field(default_factory=dict)
    installs: list[subprocess.CompletedProcess[str]] = field(default_factory=list)

    def setup(self, home: Path, workspace: Path, mock_url: str, trust: bool) -> None:
        super().setup(home, workspace, mock_url, trust=False)
        env = {**os.environ, **self.paw_env, "CODEX_HOME": str(self.codex_home(home))}
        for _ in range(2):  # the second run must change nothing
            done = subprocess.run(
                [PAW, "install", "codex"], cwd=workspace, env=env, capture_output=True, text=True
            )
            self.installs.append(done)


def installed_session(
    root: Path, prompt: str, script: list[Step], env: dict[str, str], home: Path, timeout: int
) -> tuple[SessionResult, InstallingDriver]:
    """One ``codex exec`` session after ``paw-tui install codex`` into its fresh ``CODEX_HOME``
    (twice, as a person would run it); Codex trusts only what that install recorded."""
    driver = InstallingDriver(paw_env=env)
    result = run_session(
        KEY, root, prompt, script, env=env, timeout=timeout, home=home, driver=driver,
        trust_hooks=False,
    )  # fmt: skip
    return result, driver


def _select_from_search(request: ModelRequest) -> Turn:
    """Call select_active_intent in the namespace tool_search returned it under."""
    for result in request.tool_results():
        try:
            namespace = json.loads(result)
        except ValueError:
            continue
        for member in namespace.get("tools", []) if isinstance(namespace, dict) else []:
            if member.get("name") == "select_active_intent":
                return ToolCall(
                    "select_active_intent", {"intent_id": "INT-001"}, namespace=namespace["name"]
                )
    return Text("tool_search did not find select_active_intent")


def _patch_through_shell(relative: str) -> ToolCall:
    body = f"*** Begin Patch\n*** Add File: {relative}\n+no\n*** End Patch\n"
    return shell("codex", f"apply_patch <<'EOF'\n{body}EOF\n")


def _mixed_patch() -> ToolCall:
    body = (
        "*** Begin Patch\n*** Add File: src/ok.py\n+ok = 1\n"
        "*** Add File: docs/bad.md\n+no\n*** End Patch\n"
    )
    return ToolCall("apply_patch", {"input": body}, kind="custom")


def _results(result: Any, step: int) -> str:
    return "\n".join(result.request_for_step(step).tool_results())


def test_the_whole_handshake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "paw-state"
    monkeypatch.setenv("PAW_STATE_DIR", str(state))
    root = (tmp_path / "ws").resolve()
    (root / ".orchestration").mkdir(parents=True)
    (root / ".orchestration" / "active_intents.yaml").write_text(INTENTS, encoding="utf-8")
    (root / "src").mkdir()
    # what install's step asks the person to export (Codex's config cannot hold it)
    env = {"PAW_STATE_DIR": str(state), "PAW_TUI_HOOK": str(state / "hook")}
    script: list[Step] = [
        write_file("codex", root, "src/early.py", "x = 1\n"),
        tool_search("codex", "select_active_intent"),
        _select_from_search,
        write_file("codex", root, "src/app.py", "x = 2\n"),
        write_file("codex", root, "docs/notes.md", "no\n"),
        shell("codex", "echo no > docs/shell.md"),
        _patch_through_shell("docs/heredoc.md"),
        _mixed_patch(),
        Text("done"),
    ]
    home = tmp_path / "home"
    result, driver = installed_session(root, "Add src/app.py", script, env, home, 120)
    first, second = driver.installs
    assert first.returncode == 0, first.stderr
    assert "created" in first.stdout and "export PAW_TUI_HOOK=" in first.stdout
    assert second.returncode == 0 and "created" not in second.stdout, second.stdout
    assert "updated" not in second.stdout
    assert result.ok, result.describe()

    # governance reached the model (SessionStart context, a developer message) first
    assert result.first_request().contains("## Governance (paw-tui)")
    assert result.first_request().contains("INT-001")
    early = _results(result, 1)
    assert BLOCKED in early and "You must cite a valid active Intent ID" in early, early
    assert "tool_search" in early  # how to reach the deferred tool, in the deny itself
    assert "select_active_intent" in _results(result, 2)
    selected = _results(result, 3)
    assert "INT-001" in selected and "rror" not in selected, selected
    assert (root / "src" / "app.py").read_text(encoding="utf-8") == "x = 2\n"
    for step, target in ((5, "docs/notes.md"), (6, "docs/shell.md"), (7, "docs/heredoc.md")):
        told = _results(result, step)
        assert f"{BLOCKED}Scope Violation: INT-001 is not authorized to edit {target}" in told
    mixed = _results(result, 8)
    assert "Scope Violation: INT-001 is not authorized to edit docs/bad.md" in mixed, mixed
    assert not (root / "src" / "early.py").exists()
    assert not (root / "src" / "ok.py").exists()  # the patch is denied as a whole
    assert not (root / "docs").exists()

    ledger = root / ".orchestration" / "agent_trace.jsonl"
    records = [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]
    assert {r.get("session_id") for r in records} == {result.session_id()}
    events = [(r["event"], r.get("tool"), r.get("paths")) for r in records]
    assert ("tool_denied", "apply_patch", ["src/early.py"]) in events
    assert ("intent_selected", SELECT, None) in events
    assert ("mutation", "apply_patch", ["src/app.py"]) in events
    # PostToolUse's mutation carries the lines the patch left in the file
    (patched,) = [r for r in records if r["event"] == "mutation" and r["tool"] == "apply_patch"]
    assert patched.get("ranges") == [{"start_line": 1, "end_line": 1}], patched
    assert ("tool_denied", "apply_patch", ["docs/notes.md"]) in events
    assert events[-1][0] == "session_released"  # SessionEnd, once, at the end
    verify = subprocess.run(
        [PAW, "trace", "verify"],
        cwd=root,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    # Codex itself sees every hook install wrote as trusted (install computed Codex's hashes)
    hooks = list_codex_hooks(home / ".codex", root)
    assert len(hooks) == 5 and {h["trustStatus"] for h in hooks} == {"trusted"}, hooks


def _workspace(tmp_path: Path) -> Path:
    root = (tmp_path / "ws").resolve()
    (root / ".orchestration").mkdir(parents=True)
    (root / ".orchestration" / "active_intents.yaml").write_text(INTENTS, encoding="utf-8")
    return root


def test_without_paw_tui_codex_runs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone where paw-tui cannot run (no PAW_TUI_HOOK, no paw-tui on the PATH): the hooks
    exit 2, and Codex blocks the prompt itself; no tool runs unseen."""
    state = tmp_path / "paw-state"
    monkeypatch.setenv("PAW_STATE_DIR", str(state))
    root = _workspace(tmp_path)
    script: list[Step] = [write_file("codex", root, "src/a.py", "x\n"), Text("done")]
    env = {"PAW_STATE_DIR": str(state)}
    result, driver = installed_session(root, "Add src/a.py", script, env, tmp_path / "home", 60)
    assert driver.installs[0].returncode == 0, driver.installs[0].stderr
    assert result.exit_code == 0 and not result.timed_out, result.describe()
    assert result.scripted == []  # the prompt never reached the model
    assert not (root / "src").exists()


def test_doctor_fails_exactly_where_codex_skips_a_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``doctor``'s trust rows against what ``codex app-server`` itself reports."""
    from paw_tui.core.clients import codex

    binary = ensure_client(KEY)  # skips without node and npm
    root = _workspace(tmp_path)
    home = (tmp_path / "home" / ".codex").resolve()
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "paw-state"))
    done = subprocess.run(
        [PAW, "install", "codex"], cwd=root, env=dict(os.environ), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    # exported, as the install's step says (without it the canary fails: every call denied)
    monkeypatch.setenv("PAW_TUI_HOOK", str(tmp_path / "paw-state" / "hook"))

    def fails() -> list[str]:
        return [d for s, _, d in codex.doctor(str(root)) if s == "FAIL"]

    def statuses() -> dict[str, str]:
        listed = list_codex_hooks(home, root, binary=binary)
        return {h["key"].split(":")[-3]: h["trustStatus"] for h in listed}

    assert set(statuses().values()) == {"trusted"} and fails() == []
    hooks_file = root / ".codex" / "hooks.json"
    hooks = json.loads(hooks_file.read_text(encoding="utf-8"))
    hooks["hooks"]["PostToolUse"][0]["hooks"][0]["timeout"] = 11
    hooks_file.write_text(json.dumps(hooks), encoding="utf-8")
    assert statuses()["post_tool_use"] == "modified"
    assert [f for f in fails() if "PostToolUse gate hook" in f], fails()
    config = home / "config.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace('"trusted"', '"untrusted"'), encoding="utf-8"
    )
    assert statuses() == {}  # an untrusted project's hooks are not even listed
    assert [f for f in fails() if "Codex ignores .codex/ here" in f], fails()


FIXTURES = Path(__file__).resolve().parent.parent / "data" / "codex"


def _fixture_shape(name: str) -> tuple[list[str], list[str]]:
    data = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))["payload"]
    return sorted(data), sorted(data.get("tool_input") or {})


def test_the_fixtures_have_the_shape_codex_sends(tmp_path: Path) -> None:
    """The adapter's tests read ``tests/data/codex/``: each file must still have the fields
    (and tool_input fields) this Codex release sends for that event and tool."""
    from .probes import Probes, wire_codex
    from .recipes import mcp_echo

    root = _workspace(tmp_path)
    probes = Probes(tmp_path / "probe-logs")
    events = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd")
    wire_codex(root, probes, events=events)
    script: list[Step] = [
        write_file("codex", root, "a.txt", "x\n"),
        shell("codex", "echo hi"),
        mcp_echo("codex", "hi"),
        Text("done"),
    ]
    result = run_session(KEY, root, "Probe.", script, timeout=60, home=tmp_path / "home")
    assert result.ok, result.describe()
    tools = {"apply_patch": "apply_patch", "Bash": "bash", "mcp__probe__probe_echo": "mcp_select"}
    seen = set()
    for call in probes.hook_calls():
        event, sent = call["event"], call["payload"]
        name = {
            "SessionStart": "session_start",
            "UserPromptSubmit": "user_prompt_submit",
            "Stop": "stop",
            "SessionEnd": "session_end",
        }.get(event)
        if name is None:
            prefix = "pre_tool_use" if event == "PreToolUse" else "post_tool_use"
            name = f"{prefix}_{tools[sent['tool_name']]}"
        seen.add(name)
        shape = (sorted(sent), sorted(sent.get("tool_input") or {}))
        if name.endswith("mcp_select"):
            shape = (shape[0], ["intent_id"])  # paw's tool takes intent_id, the probe's text
        assert shape == _fixture_shape(name), (name, shape)
    assert seen == {path.stem for path in FIXTURES.glob("*.json")} - {
        "pre_tool_use_bash_apply_patch"  # the same Bash payload, a heredoc command
    }


def _feed_shell(chars: str) -> Any:
    """A dynamic step: type ``chars`` into the process the previous exec_command left running."""
    import re

    def step(request: ModelRequest) -> Turn:
        found = re.search(r"session ID (\d+)", "\n".join(request.tool_results()))
        if found is None:
            return Text("no running process")
        return ToolCall("write_stdin", {"session_id": int(found.group(1)), "chars": chars})

    return step


def test_an_interactive_shell_cannot_write_out_of_scope(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "paw-state"
    monkeypatch.setenv("PAW_STATE_DIR", str(state))
    root = _workspace(tmp_path)
    env = {"PAW_STATE_DIR": str(state), "PAW_TUI_HOOK": str(state / "hook")}
    script: list[Step] = [
        ToolCall("select_active_intent", {"intent_id": "INT-001"}, namespace="mcp__paw"),
        ToolCall("exec_command", {"cmd": "bash", "tty": True, "yield_time_ms": 500}),
        _feed_shell("mkdir -p docs && echo x > docs/escape.md\nexit\n"),
        Text("done"),
    ]
    result, _driver = installed_session(root, "Work.", script, env, tmp_path / "home", 60)
    assert result.ok, result.describe()
    assert "INT-001" in _results(result, 1)
    # Codex shows hooks no write_stdin: the shell that would read it is denied up front.
    assert "reads from its input" in _results(result, 2)
    assert not (root / "docs" / "escape.md").exists()
