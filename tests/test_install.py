"""``paw-tui install claude-code`` and ``paw-tui doctor`` (DESIGN §1, §6)."""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from gatekit import paw_state_dir, root

from paw_tui.core.clients.claude_code import POST_TOOL_MATCHER, paw_tool_rules, pre_tool_matcher
from paw_tui.core.clients.commands import portable_hook_command, portable_mcp_command

if TYPE_CHECKING:
    from conftest import CliResult, RunCli, RunSubprocess, Workspace

# The committed hook command names no machine path: $PAW_TUI_HOOK (this machine's hook script,
# set in settings.local.json) or the paw-tui on the PATH, denying when there is neither.
GATE = portable_hook_command("claude-code")
PRE_TOOL_MATCHER = pre_tool_matcher()
PAW_SERVER = {"command": "sh", "args": portable_mcp_command()[1:]}
EVENTS = ["PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "SessionEnd"]
OURS = {"type": "command", "command": GATE, "timeout": 10}


def settings_path(root: Path) -> Path:
    return root / ".claude" / "settings.json"


def mcp_path(root: Path) -> Path:
    return root / ".mcp.json"


def load(path: Path) -> dict[str, Any]:
    """A JSON file the tests read and edit as a plain tree."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def install(run_cli: RunCli, root: Path, *extra: str) -> CliResult:
    return run_cli("install", "claude-code", *extra, cwd=root)


def test_install_writes_the_five_hooks_and_the_server(root: Path, run_cli: RunCli) -> None:
    result = install(run_cli, root)
    assert result.code == 0, result.err
    assert f"created    {settings_path(root)}\n" in result.out
    assert f"created    {mcp_path(root)}\n" in result.out
    hooks = load(settings_path(root))["hooks"]
    assert list(hooks) == EVENTS
    assert hooks["PreToolUse"] == [{"matcher": PRE_TOOL_MATCHER, "hooks": [OURS]}]
    assert hooks["PostToolUse"] == [{"matcher": POST_TOOL_MATCHER, "hooks": [OURS]}]
    for event in ("SessionStart", "UserPromptSubmit", "SessionEnd"):
        assert hooks[event] == [{"hooks": [OURS]}]
    assert load(mcp_path(root)) == {"mcpServers": {"paw": PAW_SERVER}}


@pytest.mark.parametrize(
    "tool",
    [
        "Write",
        "Edit",
        "MultiEdit",
        "NotebookEdit",
        "Bash",
        "PowerShell",
        "mcp__paw__select_active_intent",
        "mcp__github__create_issue",
        "Workflow",
        "ReadWrite",
        "Readme",
    ],
)
def test_the_pre_tool_matcher_reaches_every_tool_that_may_mutate(tool: str) -> None:
    assert re.search(PRE_TOOL_MATCHER, tool)


@pytest.mark.parametrize(
    "tool", ["Read", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "TodoWrite", "Task"]
)
def test_the_pre_tool_matcher_skips_read_only_tools(tool: str) -> None:
    assert not re.search(PRE_TOOL_MATCHER, tool)


def test_install_is_idempotent(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    first = (settings_path(root).read_bytes(), mcp_path(root).read_bytes())
    result = install(run_cli, root)
    assert result.code == 0
    assert (settings_path(root).read_bytes(), mcp_path(root).read_bytes()) == first
    assert f"unchanged  {settings_path(root)}\n" in result.out
    assert f"unchanged  {mcp_path(root)}\n" in result.out
    assert "created" not in result.out and "updated" not in result.out


USER_SETTINGS: dict[str, Any] = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"]},
    "env": {"FOO": "1"},
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "~/.claude/bash-guard.sh", "timeout": 5}],
            },
        ],
        "PostToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [{"type": "command", "command": "npx prettier --write"}],
            },
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
        "Notification": [
            {"matcher": "", "hooks": [{"type": "command", "command": "say hi"}], "x-note": "kept"}
        ],
    },
    "statusLine": {"type": "command", "command": "echo status"},
}
USER_MCP: dict[str, Any] = {
    "mcpServers": {
        "github": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-github"],
            "env": {"T": "x"},
        },
        "db": {"type": "http", "url": "http://localhost:9000/mcp"},
    },
    "x-owner": "platform-team",
}


def test_install_never_drops_what_the_user_has(root: Path, run_cli: RunCli) -> None:
    settings_path(root).parent.mkdir()
    settings_path(root).write_text(json.dumps(USER_SETTINGS), encoding="utf-8")
    mcp_path(root).write_text(json.dumps(USER_MCP), encoding="utf-8")
    assert install(run_cli, root).code == 0
    settings = load(settings_path(root))
    for key in ("$schema", "env", "statusLine"):
        assert settings[key] == USER_SETTINGS[key]
    assert settings["permissions"] == {
        "allow": [*USER_SETTINGS["permissions"]["allow"], *paw_tool_rules()],
        "deny": USER_SETTINGS["permissions"]["deny"],
    }
    hooks = settings["hooks"]
    user_hooks = USER_SETTINGS["hooks"]
    assert hooks["PreToolUse"] == user_hooks["PreToolUse"] + [
        {"matcher": PRE_TOOL_MATCHER, "hooks": [OURS]}
    ]
    assert hooks["PostToolUse"] == user_hooks["PostToolUse"] + [
        {"matcher": POST_TOOL_MATCHER, "hooks": [OURS]}
    ]
    assert hooks["Stop"] == user_hooks["Stop"]
    assert hooks["Notification"] == user_hooks["Notification"]
    for event in ("SessionStart", "UserPromptSubmit", "SessionEnd"):
        assert hooks[event] == [{"hooks": [OURS]}]
    servers = load(mcp_path(root))
    assert servers["x-owner"] == "platform-team"
    assert servers["mcpServers"]["github"] == USER_MCP["mcpServers"]["github"]
    assert servers["mcpServers"]["db"] == USER_MCP["mcpServers"]["db"]
    assert servers["mcpServers"]["paw"] == PAW_SERVER
    assert list(servers["mcpServers"]) == ["github", "db", "paw"]


def test_install_replaces_an_older_paw_entry_in_place(root: Path, run_cli: RunCli) -> None:
    old_gate = "/opt/old-venv/bin/paw-tui gate --client claude-code"
    before = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard-a"}]},
                {
                    "matcher": "Write|Edit",
                    "hooks": [{"type": "command", "command": old_gate, "timeout": 3}],
                },
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard-b"}]},
                {"matcher": "Edit", "hooks": [{"type": "command", "command": old_gate}]},
            ]
        }
    }
    settings_path(root).parent.mkdir()
    settings_path(root).write_text(json.dumps(before), encoding="utf-8")
    mcp_path(root).write_text(
        json.dumps(
            {"mcpServers": {"paw": {"command": "/opt/old-venv/bin/paw-tui", "args": ["mcp"]}}}
        ),
        encoding="utf-8",
    )
    assert install(run_cli, root).code == 0
    pre = load(settings_path(root))["hooks"]["PreToolUse"]
    assert pre == [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard-a"}]},
        {"matcher": PRE_TOOL_MATCHER, "hooks": [OURS]},
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard-b"}]},
    ]
    assert load(mcp_path(root))["mcpServers"] == {"paw": PAW_SERVER}


def test_install_keeps_other_handlers_that_share_an_entry_with_ours(
    root: Path, run_cli: RunCli
) -> None:
    shared = {
        "matcher": "*",
        "hooks": [
            {"type": "command", "command": "my-audit-log"},
            {"type": "command", "command": "/opt/old/paw-tui gate --client claude-code"},
        ],
    }
    settings_path(root).parent.mkdir()
    settings_path(root).write_text(
        json.dumps({"hooks": {"PreToolUse": [shared]}}), encoding="utf-8"
    )
    assert install(run_cli, root).code == 0
    pre = load(settings_path(root))["hooks"]["PreToolUse"]
    commands = [h["command"] for entry in pre for h in entry["hooks"]]
    assert "my-audit-log" in commands
    assert commands.count(GATE) == 1
    assert not any("/opt/old/paw-tui" in c for c in commands)
    first = install(run_cli, root)
    assert f"unchanged  {settings_path(root)}\n" in first.out


@pytest.mark.parametrize("which", ["settings", "mcp"])
def test_invalid_json_stops_before_writing_anything(
    root: Path, run_cli: RunCli, which: str
) -> None:
    broken = '{\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}\n'
    settings_path(root).parent.mkdir()
    target = settings_path(root) if which == "settings" else mcp_path(root)
    target.write_text(broken, encoding="utf-8")
    other = mcp_path(root) if which == "settings" else settings_path(root)
    result = install(run_cli, root)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith(f"{target}:3: not valid JSON")
    assert "nothing was changed" in result.err
    assert target.read_text(encoding="utf-8") == broken
    assert not other.exists()


def test_a_hooks_value_of_the_wrong_type_is_refused(root: Path, run_cli: RunCli) -> None:
    settings_path(root).parent.mkdir()
    settings_path(root).write_text('{"hooks": []}', encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 2 and "'hooks'" in result.err
    assert settings_path(root).read_text(encoding="utf-8") == '{"hooks": []}'
    assert not mcp_path(root).exists()


def test_dry_run_prints_and_writes_nothing(root: Path, run_cli: RunCli) -> None:
    result = install(run_cli, root, "--dry-run")
    assert result.code == 0
    assert f"# {settings_path(root)} (would create)\n" in result.out
    assert f"# {mcp_path(root)} (would create)\n" in result.out
    assert json.dumps(GATE)[1:-1] in result.out and "mcp --hooked" in result.out
    assert not settings_path(root).exists() and not mcp_path(root).exists()
    assert not (root / ".claude").exists()
    install(run_cli, root)
    again = install(run_cli, root, "--dry-run")
    assert f"# {settings_path(root)} (unchanged)\n" in again.out


def test_install_through_the_process(root: Path, run_subprocess: RunSubprocess) -> None:
    result = run_subprocess("install", "claude-code", cwd=root, script=True)
    assert result.code == 0, result.err
    assert load(settings_path(root))["hooks"]["SessionEnd"] == [{"hooks": [OURS]}]


# -- doctor --------------------------------------------------------------------------------------------


CHECKS = (
    "paw-tui",
    "workspace",
    "orchestration",
    "ledger",
    "claude-code canary",
    "claude-code",
    "mcp",
    "shell",
    "catalogue",
)


def doctor_lines(result: CliResult) -> dict[str, list[str]]:
    """check name -> the statuses it reported (``ok``, ``warn``, ``FAIL``)."""
    found: dict[str, list[str]] = {}
    for line in result.out.splitlines():
        status, rest = line[:4].strip(), line[6:]
        name = next(n for n in CHECKS if rest.startswith(n + " "))
        found.setdefault(name, []).append(status)
    return found


def test_doctor_is_ok_after_a_fresh_install(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    result = run_cli("doctor", cwd=root)
    assert result.code == 0, result.out + result.err
    checks = doctor_lines(result)
    assert checks["claude-code"] == ["ok"]
    assert checks["claude-code canary"] == ["ok"]
    assert checks["mcp"] == ["ok"]
    assert checks["orchestration"] == ["ok"]
    assert "FAIL" not in result.out
    assert "the gate recorded that deny" in result.out
    # The canary ran against a scratch copy: nothing was written into the workspace's ledger.
    assert not (root / ".orchestration" / "agent_trace.jsonl").exists()


def test_doctor_fails_when_the_plain_server_runs_beside_the_gate(
    root: Path, run_cli: RunCli
) -> None:
    install(run_cli, root)
    config = load(mcp_path(root))
    config["mcpServers"]["paw"] = {"command": "paw-tui", "args": ["mcp"]}
    mcp_path(root).write_text(json.dumps(config), encoding="utf-8")
    result = run_cli("doctor", cwd=root)
    assert result.code == 2
    assert doctor_lines(result)["mcp"] == ["FAIL"]
    assert "locked twice" in result.out and "--hooked" in result.out


def test_doctor_fails_when_the_hook_command_does_not_deny(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    settings = load(settings_path(root))
    settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = "true gate --client claude-code"
    settings_path(root).write_text(json.dumps(settings), encoding="utf-8")
    result = run_cli("doctor", cwd=root)
    assert result.code == 2
    assert doctor_lines(result)["claude-code canary"] == ["FAIL"]


def test_doctor_without_an_install_warns(root: Path, run_cli: RunCli) -> None:
    result = run_cli("doctor", cwd=root)
    assert result.code == 0
    checks = doctor_lines(result)
    assert checks["claude-code"] == ["warn"]
    assert "paw-tui install claude-code" in result.out


def test_doctor_fails_on_an_invalid_registry(ws: Workspace, run_cli: RunCli) -> None:
    from gatekit import write_workspace

    root = write_workspace(ws.root, "active_intents:\n  - id: A\n    status: DONE\n")
    result = run_cli("doctor", cwd=root)
    assert result.code == 2
    assert doctor_lines(result)["orchestration"] == ["FAIL"]
    assert ".orchestration/active_intents.yaml:3: unknown status 'DONE'" in result.out


def test_doctor_json(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    data = json.loads(run_cli("doctor", "--json", cwd=root).out)
    assert {item["check"] for item in data} >= {
        "paw-tui",
        "workspace",
        "orchestration",
        "claude-code",
        "claude-code canary",
        "mcp",
    }
    assert all(item["status"] in ("ok", "warn", "FAIL") for item in data)


LANDLOCK = pytest.mark.skipif(
    not __import__("paw_tui.core.confine.boundary", fromlist=["available"]).available(),
    reason="this kernel offers no Landlock",
)


@LANDLOCK
def test_install_wires_the_shell_to_the_kernel_boundary(
    root: Path, run_cli: RunCli, paw_state_dir: Path
) -> None:
    """``settings.local.json`` (machine-specific) gets BASH_ENV and SHLVL; doctor says kernel."""
    from paw_tui.core.confine.boundary import bash_env_path

    local = root / ".claude" / "settings.local.json"
    local.parent.mkdir(parents=True, exist_ok=True)
    local.write_text('{"env": {"KEEP": "1"}, "model": "x"}', encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 0, result.err
    assert f"updated    {local}\n" in result.out
    data = load(local)
    assert data["model"] == "x"
    assert data["env"] == {
        "KEEP": "1",
        "PAW_TUI_HOOK": str(paw_state_dir / "hook"),
        "BASH_ENV": bash_env_path(str(root)),
        "SHLVL": "1",
    }
    assert data["enabledMcpjsonServers"] == ["paw"]
    assert Path(bash_env_path(str(root))).is_file()
    assert "env" not in load(settings_path(root)), "machine paths stay out of the shared file"
    doctor = run_cli("doctor", cwd=root)
    assert doctor_lines(doctor)["shell"] == ["ok"], doctor.out
    assert "kernel boundary" in doctor.out


def test_doctor_says_when_the_shell_is_not_confined(root: Path, run_cli: RunCli) -> None:
    result = run_cli("doctor", cwd=root)
    assert doctor_lines(result)["shell"] == ["warn"], result.out
    assert "gate + drift detection" in result.out


@LANDLOCK
def test_install_refuses_an_env_that_is_not_an_object(root: Path, run_cli: RunCli) -> None:
    local = root / ".claude" / "settings.local.json"
    local.parent.mkdir(parents=True, exist_ok=True)
    local.write_text('{"env": ["BASH_ENV"]}', encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 2
    assert "'env' in" in result.err and "nothing was changed" in result.err
    assert local.read_text(encoding="utf-8") == '{"env": ["BASH_ENV"]}'
    assert not settings_path(root).exists(), "nothing is written when one file cannot be"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_place_of_a_settings_file_is_named_not_waited_on(
    root: Path, run_cli: RunCli
) -> None:
    settings = settings_path(root)
    settings.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(settings)
    done: list[Any] = []
    worker = threading.Thread(target=lambda: done.append(install(run_cli, root)), daemon=True)
    worker.start()
    worker.join(timeout=30)  # generous: a blocking open would wait for ever
    assert done, "install blocked on a FIFO"
    result = done[0]
    assert result.code != 0
    assert "not a regular file" in result.err and str(settings) in result.err
    assert settings.is_fifo()  # left as it was: nothing written
