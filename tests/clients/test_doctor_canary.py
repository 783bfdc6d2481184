"""``paw-tui doctor``'s canary for every client with a committed pre-tool hook (issue 19):
Claude Code, Gemini CLI, Codex, Copilot CLI, Cline, Qwen Code, and opencode's plugin.

Each client's committed pre-tool command is run as that client runs it (its shell, its
environment, its folder; Cline's hook file by its ``#!`` line; opencode's plugin loaded in
node) on a write before any selection. Intact, the gate denies it and records the deny; broken
the way a teammate's clone breaks it (the command's first word names nothing, ``PAW_TUI_HOOK``
unset with no paw-tui on the PATH or pointing nowhere, the venv's interpreter or its package
gone), the command still denies through its fail-closed fallback, and doctor must say that
every call is denied, not that the gate works.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gatekit import launcher_only_hook, paw_state_dir, root

from paw_tui.core.clients import commands

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]  # fixtures

CLIENTS = ("claude-code", "gemini-cli", "codex", "copilot", "cline", "qwen-code", "opencode")
CONFIG = {
    "claude-code": (".claude/settings.json", "PreToolUse"),
    "gemini-cli": (".gemini/settings.json", "BeforeTool"),
    "codex": (".codex/hooks.json", "PreToolUse"),
    "qwen-code": (".qwen/settings.json", "PreToolUse"),
    "copilot": (".github/hooks/paw-tui.json", "preToolUse"),
}
"""Where a client's committed pre-tool command is (a JSON file, its event)."""
ENV_FILES = {"gemini-cli": ".gemini/.env", "qwen-code": ".qwen/.env"}
"""Clients that read this machine's ``PAW_TUI_HOOK`` from a dotenv file of their own."""
CLINE_HOOK = ".clinerules/hooks/PreToolUse"
OPENCODE_PLUGIN = ".opencode/plugin/paw-tui.js"
OPENCODE_LOCAL = ".opencode/paw-tui.hook"
COMMANDS = tuple(c for c in CLIENTS if c != "opencode")
"""The clients whose hook is a command (opencode's is a plugin: it has no first word)."""
OTHER_ROWS_FAIL = {"gemini-cli", "copilot", "cline"}
"""Clients whose other rows fail in a bare test home (folder trust, the MCP settings)."""
Edit = Callable[[str], str]
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="opencode's canary needs node")


def clients(*names: str) -> list[object]:
    """``names`` as parameters, opencode's skipped without node."""
    return [pytest.param(n, marks=needs_node) if n == "opencode" else n for n in names]


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
    if client in ENV_FILES:
        env_file = root / ENV_FILES[client]
        lines = [
            line
            for line in env_file.read_text("utf-8").splitlines()
            if not line.startswith(commands.HOOK_ENV + "=")
        ]
        if value is not None:
            lines.append(f"{commands.HOOK_ENV}={value}")
        env_file.write_text("\n".join(lines) + "\n", "utf-8")
        return {}
    if client == "opencode":  # the plugin reads the file install wrote
        local = root / OPENCODE_LOCAL
        local.unlink()
        if value is not None:
            local.write_text(value + "\n", "utf-8")
        return {}
    return {commands.HOOK_ENV: value} if value is not None else {}  # the launch environment


def edit_command(root: Path, client: str, edit: Edit) -> None:
    """Replace our pre-tool command by ``edit(command)`` in the committed file (Cline's: the
    command inside the PreToolUse file)."""
    if client == "cline":
        path = root / CLINE_HOOK
        text = path.read_text("utf-8")
        line = next(line for line in text.splitlines() if line.startswith("out=$( "))
        command = line.removeprefix("out=$( ").removesuffix(" )")
        path.write_text(text.replace(command, edit(command)), "utf-8")
        return
    relative, event = CONFIG[client]
    path = root / relative
    data = json.loads(path.read_text("utf-8"))
    for group in data["hooks"][event]:
        handlers = [group] if client == "copilot" else group["hooks"]
        field = "bash" if client == "copilot" else "command"
        for handler in handlers:
            if commands.is_gate_command(handler[field]):
                handler[field] = edit(handler[field])
    path.write_text(json.dumps(data), "utf-8")


def replace_hook(root: Path, client: str, body: str) -> None:
    """Replace the whole pre-tool hook by a shell ``body`` that still names our gate, so doctor
    takes it for ours (opencode: by a plugin whose ``tool.execute.before`` runs ``body``)."""
    if client == "opencode":
        plugin = (
            "// paw-tui\n"
            "export const PawTui = async () => ({\n"
            f'  "tool.execute.before": async (input, output) => {{ {body} }},\n'
            "});\n"
        )
        (root / OPENCODE_PLUGIN).write_text(plugin, "utf-8")
    elif client == "cline":
        (root / CLINE_HOOK).write_text(f"#!/bin/sh\n: gate --client cline\n{body}\n", "utf-8")
    else:
        edit_command(root, client, lambda _command: f": gate --client {client}; {body}")


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


@pytest.mark.parametrize("client", clients(*CLIENTS))
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
    assert code == 0 or client in OTHER_ROWS_FAIL


@pytest.mark.parametrize("client", clients(*CLIENTS))
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
BROKEN_CASES = [
    pytest.param(client, broken, marks=needs_node) if client == "opencode" else (client, broken)
    for client in CLIENTS
    for broken in BROKEN
    if not (client == "opencode" and broken == "first word missing")
]


@pytest.mark.parametrize(("client", "broken"), BROKEN_CASES)
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


@pytest.mark.parametrize("client", clients(*CLIENTS))
def test_a_command_that_lets_the_tool_run_fails(
    client: str, root: Path, run_cli: RunCli, hook_script: str
) -> None:
    install(run_cli, root, client)
    env = set_hook(root, client, hook_script)
    body = "return;" if client == "opencode" else "cat >/dev/null; exit 0"
    replace_hook(root, client, body)
    code, rows = canary_rows(run_cli, root, client, env)
    assert code == 2
    assert rows[0][0] == "FAIL" and "would run the tool" in rows[0][1], rows


FORGED = {
    "claude-code": (
        {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}},
        2,
    ),
    "codex": (
        {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}},
        2,
    ),
    "gemini-cli": ({"decision": "deny", "reason": "x"}, 0),
    "qwen-code": (
        {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "x"}},
        0,
    ),
    "copilot": ({"permissionDecision": "deny", "permissionDecisionReason": "x"}, 2),
    "cline": ({"cancel": False, "overrideInput": {}, "contextModification": "x"}, 0),
}
"""What each client's gate prints for a deny, and its exit code."""


@pytest.mark.parametrize("client", clients(*CLIENTS))
def test_a_forged_deny_without_a_decision_fails(
    client: str, root: Path, run_cli: RunCli, hook_script: str
) -> None:
    """A command that prints the gate's own deny without asking the gate (a stale wrapper
    that blocks everything) is the fallback's case too: no decision was recorded."""
    install(run_cli, root, client)
    env = set_hook(root, client, hook_script)
    if client == "opencode":
        replace_hook(root, client, 'throw new Error("You must cite a valid active Intent ID.");')
    else:
        deny, exit_code = FORGED[client]
        replace_hook(root, client, f"cat >/dev/null; echo '{json.dumps(deny)}'; exit {exit_code}")
    code, rows = canary_rows(run_cli, root, client, env)
    assert code == 2
    assert rows[0][0] == "FAIL" and FALLBACK in rows[0][1], rows
