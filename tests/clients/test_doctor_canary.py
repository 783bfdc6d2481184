"""``paw-tui doctor``'s canary for Claude Code, Gemini CLI and Codex (issue 19).

Each client's committed pre-tool command is run as that client runs it (its shell, its
environment, its folder) on a write before any selection. Intact, the gate denies it and
records the deny; broken the way a teammate's clone breaks it (the command's first word names
nothing, ``PAW_TUI_HOOK`` unset with no paw-tui on the PATH or pointing nowhere, the venv's
interpreter or its package gone), the command still denies through its fail-closed fallback,
and doctor must say that every call is denied, not that the gate works.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from gatekit import launcher_only_hook, paw_state_dir, root

from paw_tui.core.clients import commands

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]  # fixtures

CLIENTS = ("claude-code", "gemini-cli", "codex")
CONFIG = {
    "claude-code": (".claude/settings.json", "PreToolUse"),
    "gemini-cli": (".gemini/settings.json", "BeforeTool"),
    "codex": (".codex/hooks.json", "PreToolUse"),
}
NO_PAW_PATH = "/usr/bin:/bin"
"""A PATH with a shell and bash but no paw-tui."""
FALLBACK = "the deny came from its fail-closed fallback, not from the gate"


@pytest.fixture(autouse=True)
def _codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))


def install(run_cli: RunCli, root: Path, client: str) -> None:
    result = run_cli("install", client, cwd=root)
    assert result.code == 0, result.err


def set_hook(root: Path, client: str, value: str | None) -> dict[str, str]:
    """``PAW_TUI_HOOK`` where ``client`` reads it on this machine (None: nowhere); the
    variables doctor must run with (Codex: the launch environment)."""
    if client == "claude-code":
        local = root / ".claude" / "settings.local.json"
        data = json.loads(local.read_text("utf-8"))
        data["env"].pop(commands.HOOK_ENV, None)
        if value is not None:
            data["env"][commands.HOOK_ENV] = value
        local.write_text(json.dumps(data), "utf-8")
        return {}
    if client == "gemini-cli":
        env_file = root / ".gemini" / ".env"
        lines = [
            line
            for line in env_file.read_text("utf-8").splitlines()
            if not line.startswith(commands.HOOK_ENV + "=")
        ]
        if value is not None:
            lines.append(f"{commands.HOOK_ENV}={value}")
        env_file.write_text("\n".join(lines) + "\n", "utf-8")
        return {}
    return {commands.HOOK_ENV: value} if value is not None else {}


def edit_command(root: Path, client: str, edit: Any) -> None:
    """Replace our pre-tool command by ``edit(command)`` in the committed file."""
    relative, event = CONFIG[client]
    path = root / relative
    data = json.loads(path.read_text("utf-8"))
    for group in data["hooks"][event]:
        for handler in group["hooks"]:
            if commands.is_gate_command(handler["command"]):
                handler["command"] = edit(handler["command"])
    path.write_text(json.dumps(data), "utf-8")


def canary_rows(
    run_cli: RunCli, root: Path, client: str, env: dict[str, str]
) -> tuple[int, list[tuple[str, str]]]:
    monkey_env = {"PATH": os.environ["PATH"], **env}
    result = run_cli("doctor", "--json", cwd=root, env=monkey_env)
    rows = json.loads(result.out)
    found = [(r["status"], r["detail"]) for r in rows if r["check"] == f"{client} canary"]
    assert len(found) == 1, rows  # one row per installed client
    return result.code, found


@pytest.fixture
def hook_script(paw_state_dir: Path) -> str:
    return str(paw_state_dir / "hook")


@pytest.mark.parametrize("client", CLIENTS)
def test_an_intact_command_is_denied_by_the_gate_itself(
    client: str, root: Path, run_cli: RunCli, hook_script: str
) -> None:
    install(run_cli, root, client)
    env = set_hook(root, client, hook_script)
    code, rows = canary_rows(run_cli, root, client, {**env, "PATH": NO_PAW_PATH})
    assert rows[0][0] == "ok", rows
    assert "the gate recorded that deny" in rows[0][1]
    # the canary ran against a scratch copy: nothing reached the workspace's ledger
    assert not (root / ".orchestration" / "agent_trace.jsonl").exists()
    assert code == 0 or client == "gemini-cli"  # Gemini's folder trust is another row


@pytest.mark.parametrize("client", CLIENTS)
def test_the_paw_tui_on_the_path_is_what_a_clone_without_install_runs(
    client: str, root: Path, run_cli: RunCli
) -> None:
    install(run_cli, root, client)
    env = set_hook(root, client, None)
    path = f"{Path(sys.executable).parent}{os.pathsep}{NO_PAW_PATH}"
    _code, rows = canary_rows(run_cli, root, client, {**env, "PATH": path})
    assert rows[0][0] == "ok", rows


def _first_word_missing(command: str) -> str:
    return "/nonexistent/paw-tui " + command.split(" ", 1)[1]


def _interpreter_gone(tmp_path: Path) -> str:
    """A hook script whose venv was removed: its ``#!`` interpreter no longer exists."""
    script = tmp_path / "gone-venv-hook"
    text = commands.hook_script_text(str(tmp_path / "state-of-a-gone-venv"))
    first, _, rest = text.partition("\n")
    script.write_text(f"#!{tmp_path}/removed-venv/bin/python -IS\n{rest}", "utf-8")
    script.chmod(0o755)
    assert first.startswith("#!")
    return str(script)


BROKEN = ("first word missing", "hook unset", "hook nowhere", "interpreter gone", "package gone")


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("broken", BROKEN)
def test_a_deny_from_the_fallback_is_not_taken_for_the_gate_s(
    client: str, broken: str, root: Path, run_cli: RunCli, hook_script: str, tmp_path: Path
) -> None:
    install(run_cli, root, client)
    if broken == "first word missing":
        env = set_hook(root, client, hook_script)
        edit_command(root, client, _first_word_missing)
    elif broken == "hook unset":
        env = set_hook(root, client, None)
    elif broken == "hook nowhere":
        env = set_hook(root, client, str(tmp_path / "nowhere" / "hook"))
    elif broken == "interpreter gone":
        env = set_hook(root, client, _interpreter_gone(tmp_path))
    else:
        env = set_hook(root, client, launcher_only_hook(tmp_path / "package-gone"))
    code, rows = canary_rows(run_cli, root, client, {**env, "PATH": NO_PAW_PATH})
    assert code == 2
    status, detail = rows[0]
    assert status == "FAIL" and FALLBACK in detail, rows
    assert "every tool call is denied" in detail


@pytest.mark.parametrize("client", CLIENTS)
def test_a_command_that_lets_the_tool_run_fails(
    client: str, root: Path, run_cli: RunCli, hook_script: str
) -> None:
    install(run_cli, root, client)
    env = set_hook(root, client, hook_script)
    edit_command(root, client, lambda _command: f"cat >/dev/null; : gate --client {client}; exit 0")
    code, rows = canary_rows(run_cli, root, client, env)
    assert code == 2
    assert rows[0][0] == "FAIL" and "would run the tool" in rows[0][1], rows


@pytest.mark.parametrize("client", CLIENTS)
def test_a_forged_deny_without_a_decision_fails(
    client: str, root: Path, run_cli: RunCli, hook_script: str
) -> None:
    """A command that prints the gate's own deny without asking the gate (a stale wrapper
    that blocks everything) is the fallback's case too: no decision was recorded."""
    install(run_cli, root, client)
    env = set_hook(root, client, hook_script)
    deny = {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}}
    if client == "gemini-cli":
        deny = {"decision": "deny", "reason": "x"}  # type: ignore[dict-item]
    code = 0 if client == "gemini-cli" else 2
    forged = f"cat >/dev/null; : gate --client {client}; echo '{json.dumps(deny)}'; exit {code}"
    edit_command(root, client, lambda _command: forged)
    code, rows = canary_rows(run_cli, root, client, env)
    assert code == 2
    assert rows[0][0] == "FAIL" and FALLBACK in rows[0][1], rows
