"""VS Code agent mode (the Local harness's agent hooks) against its documented payloads, and
``paw-tui install vscode`` (``.github/hooks/`` and ``.vscode/mcp.json``).

Payloads: ``tests/data/vscode/`` (code.visualstudio.com/docs/agent-customization/hooks and the
hook runner in microsoft/vscode-copilot-chat): ``hook_event_name``, ``session_id``, ``cwd``,
``tool_name``, ``tool_input``, ``tool_use_id``, with VS Code's tool names (``create_file``,
``replace_string_in_file``, ``run_in_terminal``, ``apply_patch``, the docs' ``editFiles`` and
``createFile``) and MCP tools named ``mcp_<server>_<tool>``. VS Code blocks on exit 2 (stderr
to the model); a JSON deny with exit 0 was reported not to block.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from docpayloads import (
    GITHUB_HOOK_EVENTS,
    assert_exit2_deny,
    decide,
    fixture,
    fixture_names,
    github_hook,
    installed_states,
    load,
    payload,
    violation,
)
from gatekit import NO_INTENT, gate_env, paw_state_dir, records, root

from paw_tui.core.clients import vscode as vscode_setup
from paw_tui.core.clients.commands import hook_script_path, portable_mcp_command

if TYPE_CHECKING:
    from conftest import RunCli

CLIENT = "vscode"
SESSION = "9d7b1f04-3c2e-4a58-b6f1-0e8a2c5d7b93"
HOOKS = Path(".github") / "hooks" / "paw-tui.json"
MCP = Path(".vscode") / "mcp.json"
__all__ = ["paw_state_dir", "root"]  # fixtures


def vscode(name: str, root: Path, event: str | None = None, **fields: object) -> Any:
    return decide(CLIENT, payload(CLIENT, name, root, **fields), event)


def assert_vscode_deny(result: Any, startswith: str | None = None) -> str:
    reason = assert_exit2_deny(result)  # the channel VS Code honours
    specific = result.json["hookSpecificOutput"]
    assert specific == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }
    if startswith is not None:
        assert reason.startswith(startswith), reason
    return reason


def assert_allowed(result: Any) -> None:
    # nothing on stdout: a permissionDecision "allow" would skip VS Code's confirmations
    assert (result.code, result.out) == (0, ""), (result.code, result.out, result.err)


def select(root: Path) -> None:
    assert_allowed(vscode("pre_tool_use_mcp_select", root))


# -- the documented payloads ---------------------------------------------------------------------


@pytest.mark.parametrize("name", fixture_names(CLIENT))
def test_every_fixture_names_its_source_and_has_vscode_s_fields(name: str) -> None:
    data = fixture(CLIENT, name)
    assert data["source"] and all(isinstance(s, str) and s for s in data["source"])
    body = data["payload"]
    for key in ("timestamp", "hook_event_name", "session_id", "cwd"):
        assert isinstance(body[key], str), key
    if body["hook_event_name"] in ("PreToolUse", "PostToolUse"):
        assert {"tool_name", "tool_input", "tool_use_id"} <= set(body)


@pytest.mark.parametrize(
    ("name", "tool", "path"),
    [
        ("pre_tool_use_create_file", "create_file", "src/auth/jwt.py"),
        ("pre_tool_use_replace_string", "replace_string_in_file", "docs/x.md"),
        ("pre_tool_use_edit_files", "editFiles", "src/auth/jwt.py"),
        ("pre_tool_use_create_file_docs", "createFile", "src/auth/session.py"),
        ("pre_tool_use_apply_patch", "apply_patch", "src/auth/jwt.py"),
        ("pre_tool_use_run_in_terminal", "run_in_terminal", "docs/notes.md"),
    ],
)
def test_a_change_before_a_selection_is_denied_naming_the_rule(
    root: Path, name: str, tool: str, path: str
) -> None:
    reason = assert_vscode_deny(vscode(name, root), NO_INTENT)
    assert tool in reason
    (record,) = records(root)
    assert (record["event"], record["client"], record["tool"]) == ("tool_denied", CLIENT, tool)
    assert (record["session_id"], record["paths"]) == (SESSION, [path])


def test_the_selection_goes_through_the_paw_server_as_vscode_names_it(root: Path) -> None:
    select(root)
    (record,) = records(root)
    assert record["event"] == "intent_selected"
    assert (record["tool"], record["intent_id"], record["client"]) == (
        "mcp_paw_select_active_intent",
        "INT-001",
        CLIENT,
    )


def test_an_in_scope_write_is_allowed_and_its_mutation_recorded(root: Path) -> None:
    select(root)
    assert_allowed(vscode("pre_tool_use_create_file", root))
    assert_allowed(vscode("pre_tool_use_apply_patch", root))
    target = root / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text("import jwt\n", encoding="utf-8")
    assert vscode("post_tool_use_create_file", root).code == 0
    record = records(root)[-1]
    assert (record["event"], record["tool"], record["paths"], record["intent_id"]) == (
        "mutation",
        "create_file",
        ["src/auth/jwt.py"],
        "INT-001",
    )


def test_out_of_scope_writes_and_shell_writes_are_scope_violations(root: Path) -> None:
    select(root)
    assert assert_vscode_deny(vscode("pre_tool_use_replace_string", root)) == violation(
        "docs/x.md", CLIENT
    )
    assert assert_vscode_deny(vscode("pre_tool_use_run_in_terminal", root)) == violation(
        "docs/notes.md", CLIENT
    )
    patch = "*** Begin Patch\n*** Add File: docs/new.md\n+x\n*** End Patch\n"
    tool_input = {"input": patch, "explanation": "add a doc"}
    denied = vscode("pre_tool_use_apply_patch", root, tool_input=tool_input)
    assert assert_vscode_deny(denied) == violation("docs/new.md", CLIENT)


def test_a_multi_file_edit_is_denied_as_a_whole_when_one_file_is_out_of_scope(
    root: Path,
) -> None:
    select(root)
    result = vscode("pre_tool_use_multi_replace", root)
    assert assert_vscode_deny(result) == violation("docs/x.md", CLIENT)
    assert records(root)[-1]["paths"] == ["src/auth/jwt.py", "docs/x.md"]


def test_a_read_passes_before_a_selection(root: Path) -> None:
    assert_allowed(vscode("pre_tool_use_read_file", root))
    assert records(root) == []


@pytest.mark.parametrize(
    ("name", "event", "code"),
    [
        ("session_start", "session_start", 0),
        ("user_prompt_submit", "prompt", 0),
        ("pre_tool_use_create_file", "pre_tool", 2),
        ("post_tool_use_create_file", "post_tool", 0),
    ],
)
def test_vscode_s_events_agree_with_the_event_each_installed_hook_names(
    root: Path, name: str, event: str, code: int
) -> None:
    """VS Code renames the file's camelCase events (userPromptSubmitted -> UserPromptSubmit)
    and sends its payload to the command that names the gate's --event."""
    result = vscode(name, root, event=event)
    assert result.code == code, result.err
    assert "configured for" not in result.out + result.err


def test_the_field_spelling_of_vscode_s_docs_is_read_too(root: Path) -> None:
    """The docs write hookEventName / sessionId; the code sends snake_case."""
    body = payload(CLIENT, "pre_tool_use_create_file", root)
    body["hookEventName"] = body.pop("hook_event_name")
    body["sessionId"] = body.pop("session_id")
    assert_vscode_deny(decide(CLIENT, body), NO_INTENT)
    assert records(root)[-1]["session_id"] == SESSION


def test_copilot_cli_running_the_shared_hooks_file_is_recorded_as_copilot(root: Path) -> None:
    """The file install writes is Copilot's format: Copilot CLI runs it, with its payloads."""
    camel = payload("copilot", "pre_tool_use_create_args_text", root)
    result = decide(CLIENT, camel, "pre_tool")
    assert result.code == 2 and result.json["permissionDecision"] == "deny"
    assert records(root)[-1]["client"] == "copilot"


def test_session_start_tells_the_model_and_the_person(root: Path) -> None:
    result = vscode("session_start", root)
    assert result.code == 0
    body = result.json
    specific = body["hookSpecificOutput"]
    assert specific["hookEventName"] == "SessionStart"
    assert "select_active_intent" in specific["additionalContext"]
    assert "paw-tui governs this repository" in body["systemMessage"]  # shown to the person


def test_a_prompt_is_never_blocked(root: Path) -> None:
    result = vscode("user_prompt_submit", root)
    assert result.code == 0
    assert result.json["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"


@pytest.mark.parametrize(
    ("name", "fields", "problem"),
    [
        ("pre_tool_use_create_file", {"tool_input": {"content": "x"}}, "the filePath of create_file is not a usable path"),
        ("pre_tool_use_create_file", {"tool_input": "{\"filePath\": "}, "tool_input of create_file is not valid JSON"),
        ("pre_tool_use_create_file", {"tool_input": 3}, "tool_input of create_file is not an object"),
        ("pre_tool_use_create_file", {"tool_name": ""}, "no tool name"),
        ("pre_tool_use_create_file", {"session_id": None}, "no session id"),
        ("pre_tool_use_create_file", {"hook_event_name": "PreToolCall"}, "unknown hook event 'PreToolCall'"),
        ("pre_tool_use_run_in_terminal", {"tool_input": {"command": 5}}, "run_in_terminal has no command to run"),
        ("pre_tool_use_edit_files", {"tool_input": {"files": ["ok.py", ""]}}, "the files[1] of editFiles is not a usable path"),
    ],
)  # fmt: skip
def test_a_malformed_payload_is_denied_naming_the_problem(
    root: Path, name: str, fields: dict[str, object], problem: str
) -> None:
    reason = assert_vscode_deny(decide(CLIENT, payload(CLIENT, name, root, **fields)))
    assert problem in reason, reason


def test_a_payload_from_outside_any_workspace_is_denied_saying_so(root: Path) -> None:
    """VS Code gives the hook's directory as cwd (the workspace folder unless the entry says
    otherwise); with none, and no workspace around the gate, a change is denied, saying why."""
    reason = assert_vscode_deny(vscode("pre_tool_use_create_file", root, cwd=None))
    assert reason.startswith("Orchestration state unavailable: no paw-tui workspace was found")


# -- paw-tui install vscode ----------------------------------------------------------------------


def install(run_cli: RunCli, root: Path, client: str = CLIENT) -> Any:
    return run_cli("install", client, cwd=root)


PAW_SERVER = {
    "type": "stdio",
    "env": {"PAW_WORKSPACE_PATH": "${workspaceFolder}"},
    "command": "sh",
    "args": portable_mcp_command()[1:],
}


def test_install_creates_the_hooks_and_the_mcp_server(root: Path, run_cli: RunCli) -> None:
    result = install(run_cli, root)
    assert result.code == 0, result.err
    states = installed_states(result.out)
    assert (states[str(root / HOOKS)], states[str(root / MCP)]) == ("created", "created")
    assert load(root / HOOKS) == {
        "version": 1,
        "hooks": {event: [github_hook(CLIENT, kind)] for event, kind in GITHUB_HOOK_EVENTS.items()},
    }
    assert load(root / MCP) == {"servers": {"paw": PAW_SERVER}}
    committed = (root / HOOKS).read_text() + (root / MCP).read_text()
    assert sys.executable not in committed and hook_script_path() not in committed
    for step in ("Yes, I trust the authors", "'Trust'", "Allow in this Workspace"):
        assert step in result.out


def test_the_hook_command_answers_vscode_s_payloads(root: Path, run_cli: RunCli) -> None:
    """The installed command names this adapter and the event each hook answers."""
    install(run_cli, root)
    command = load(root / HOOKS)["hooks"]["preToolUse"][0]["bash"]
    assert "gate --client vscode --event pre_tool;" in command
    assert command.startswith('"${PAW_TUI_HOOK:-paw-tui}"')


def run_hook(command: str, body: object, cwd: Path, env: dict[str, str]) -> Any:
    return subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(body).encode(),
        capture_output=True,
        cwd=cwd,
        env=gate_env(env),
        timeout=60,
    )


def test_the_committed_command_governs_through_this_machine_s_hook_script(
    root: Path, run_cli: RunCli
) -> None:
    install(run_cli, root)
    command = load(root / HOOKS)["hooks"]["preToolUse"][0]["bash"]
    body = payload(CLIENT, "pre_tool_use_create_file", root)
    done = run_hook(command, body, root, {"PAW_TUI_HOOK": hook_script_path()})
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode().startswith(NO_INTENT)
    assert records(root)[-1]["client"] == CLIENT


def test_on_a_clone_without_paw_tui_the_command_denies_saying_why(
    root: Path, run_cli: RunCli, tmp_path: Path
) -> None:
    install(run_cli, root)
    command = load(root / HOOKS)["hooks"]["preToolUse"][0]["bash"]
    body = payload(CLIENT, "pre_tool_use_create_file", root)
    bare = {"PAW_TUI_HOOK": "", "PATH": str(tmp_path / "empty-bin")}
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(body).encode(),
        capture_output=True,
        cwd=root,
        env=bare,
        timeout=60,
    )
    assert done.returncode == 2  # VS Code blocks on 2; 127 would let the tool run
    assert b"install vscode" in done.stderr


def test_install_twice_changes_nothing(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    before = {p: (root / p).read_bytes() for p in (HOOKS, MCP)}
    result = install(run_cli, root)
    assert set(installed_states(result.out).values()) == {"unchanged"}
    assert {p: (root / p).read_bytes() for p in (HOOKS, MCP)} == before


def test_install_keeps_the_user_s_servers_inputs_and_hooks(root: Path, run_cli: RunCli) -> None:
    (root / MCP).parent.mkdir()
    mine: dict[str, Any] = {
        "inputs": [
            {"type": "promptString", "id": "key", "description": "API key", "password": True}
        ],
        "servers": {"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp"}},
    }
    (root / MCP).write_text(json.dumps(mine), encoding="utf-8")
    (root / HOOKS).parent.mkdir(parents=True)
    fmt = {"type": "command", "bash": "npx prettier --write .", "timeoutSec": 30}
    (root / HOOKS).write_text(json.dumps({"version": 1, "hooks": {"postToolUse": [fmt]}}))
    result = install(run_cli, root)
    assert installed_states(result.out)[str(root / MCP)] == "updated"
    data = load(root / MCP)
    assert data["inputs"] == mine["inputs"]
    assert data["servers"] == {**mine["servers"], "paw": PAW_SERVER}
    assert load(root / HOOKS)["hooks"]["postToolUse"] == [fmt, github_hook(CLIENT, "post_tool")]


def test_install_vscode_takes_over_copilot_s_entries_in_place(root: Path, run_cli: RunCli) -> None:
    """One hooks file serves both; VS Code's entries record each client under its name."""
    assert install(run_cli, root, "copilot").code == 0
    result = install(run_cli, root)
    assert installed_states(result.out)[str(root / HOOKS)] == "updated"
    hooks = load(root / HOOKS)["hooks"]
    assert hooks == {
        event: [github_hook(CLIENT, kind)] for event, kind in GITHUB_HOOK_EVENTS.items()
    }


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{\n  // the team\'s servers\n  "servers": {}\n}\n', "holds comments"),
        ('{\n  "servers": {},\n}\n', ":3: not valid JSON"),
        ('{"servers": []}', "'servers'"),
    ],
)
def test_install_refuses_an_mcp_file_it_would_damage(
    root: Path, run_cli: RunCli, text: str, problem: str
) -> None:
    (root / MCP).parent.mkdir()
    (root / MCP).write_text(text, encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 2
    assert str(root / MCP) in result.err and problem in result.err
    assert (root / MCP).read_text(encoding="utf-8") == text
    assert not (root / HOOKS).exists()  # nothing at all was written


def test_doctor_fails_when_the_workspace_switches_hooks_off(root: Path, run_cli: RunCli) -> None:
    assert vscode_setup.doctor(str(root)) == []  # not set up: nothing to say
    install(run_cli, root)
    rows = vscode_setup.doctor(str(root))
    assert ("ok", CLIENT, f"the paw MCP server is configured in {MCP}") in rows
    assert not [r for r in rows if r[0] == "FAIL"]
    (root / ".vscode" / "settings.json").write_text('{"chat.useHooks": false}\n')
    assert any(s == "FAIL" and "chat.useHooks" in d for s, _, d in vscode_setup.doctor(str(root)))
    locations = {"chat.hookFilesLocations": {".github/hooks": False}}
    (root / ".vscode" / "settings.json").write_text(json.dumps(locations))
    assert any(
        s == "FAIL" and "turns .github/hooks off" in d for s, _, d in vscode_setup.doctor(str(root))
    )
