"""Cline: the gate on Cline's documented payloads (``tests/data/cline/``: the classic hook
payloads and those of Cline's SDK runtime), and ``paw-tui install cline`` / ``doctor``."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from docpayloads import fixture, fixture_names, installed_states, payload
from exitkit import violation
from gatekit import NO_INTENT, GateResult, gate, paw_state_dir, records, root

from paw_tui.core.clients import cline as setup
from paw_tui.core.clients.commands import hook_script_path, portable_mcp_command

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]  # fixtures

CLIENT = "cline"
TASK = "1767225600123"  # the classic fixtures' taskId
SDK_TASK = "conv_01K3ZQ"  # the SDK runtime fixtures' taskId
SELECT = "mcp__paw__select_active_intent"


def decide(data: object, event: str | None = None) -> GateResult:
    return gate(data, client=CLIENT, event=event)


def answer(result: GateResult) -> dict[str, Any]:
    """Cline's answer: one JSON object, always with exit 0 (Cline reads no exit code)."""
    assert result.code == 0, (result.code, result.out, result.err)
    data: dict[str, Any] = json.loads(result.out)
    assert isinstance(data["cancel"], bool)
    return data


def cancel_reason(result: GateResult) -> str:
    """A deny: ``cancel: true``, the reason as errorMessage (for the person), as context (for
    the model when the task resumes) and on stderr."""
    data = answer(result)
    assert data["cancel"] is True
    reason: str = data["errorMessage"]
    assert data["contextModification"] == reason
    assert result.err == reason + "\n"
    return reason


def refusal(result: GateResult) -> str:
    """A per-call refusal that keeps the run (Cline CLI 3.0.65): ``overrideInput: {}`` (Cline's
    own tools then fail their validation) and the reason as context for the model, followed by
    the governance section on a session's first call; no cancel."""
    data = answer(result)
    assert data["cancel"] is False and data["overrideInput"] == {}, data
    told: str = data["contextModification"]
    return told


def allowed(result: GateResult) -> dict[str, Any]:
    data = answer(result)
    assert data["cancel"] is False, data
    return data


def call(name: str, root: Path, **parameters: object) -> dict[str, Any]:
    """A classic fixture with its tool's parameters replaced."""
    body = payload(CLIENT, name, root)
    if parameters:
        body["preToolUse"]["parameters"] = parameters
    return body


def select(root: Path, intent: str = "INT-001") -> None:
    arguments = json.dumps({"intent_id": intent})
    body = call(
        "pre_tool_use_use_mcp_tool",
        root,
        server_name="paw",
        tool_name="select_active_intent",
        arguments=arguments,
    )
    allowed(decide(body))


# -- the fixtures ------------------------------------------------------------------------------


def test_the_fixtures_are_shaped_like_cline_payloads() -> None:
    names = fixture_names(CLIENT)
    assert len(names) == 14
    for name in names:
        data = fixture(CLIENT, name)
        assert data["source"], name
        body = data["payload"]
        assert isinstance(body["taskId"], str) and body["workspaceRoots"] == ["__ROOT__"]
        for section in ("preToolUse", "postToolUse"):
            if section in body:
                assert set(body[section]) >= {"toolName", "parameters"}, name
                # Cline sends every parameter as a string
                assert all(isinstance(v, str) for v in body[section]["parameters"].values())


# -- the handshake and scope -------------------------------------------------------------------


def test_a_write_before_selection_is_refused_citing_the_rule(root: Path) -> None:
    told = refusal(decide(payload(CLIENT, "pre_tool_use_write_to_file", root)))
    assert told.startswith(NO_INTENT)
    assert "select_active_intent" in told and "INT-001 (JWT Authentication Migration)" in told
    assert "## Governance (paw-tui)" in told  # the session's first call: the mandate too
    again = refusal(decide(payload(CLIENT, "pre_tool_use_write_to_file", root)))
    assert again.startswith(NO_INTENT) and "## Governance (paw-tui)" not in again
    record = records(root)[0]
    assert (record["event"], record["client"], record["session_id"]) == (
        "tool_denied",
        CLIENT,
        TASK,
    )
    assert (record["tool"], record["paths"]) == ("write_to_file", ["src/auth/jwt.py"])


def test_a_denied_foreign_mcp_tool_ends_the_run(root: Path) -> None:
    """Cline runs an MCP tool whatever input a hook gives it: only a cancel stops one."""
    body = payload(CLIENT, "tool_call_mcp_select", root)
    body["tool_call"]["name"] = "github__create_issue"
    body["preToolUse"]["toolName"] = "github__create_issue"
    data = answer(decide(body))
    assert data["cancel"] is True and "overrideInput" not in data
    assert data["errorMessage"].startswith(NO_INTENT)


def test_the_handshake_through_use_mcp_tool_selects_the_intent(root: Path) -> None:
    allowed(decide(payload(CLIENT, "pre_tool_use_use_mcp_tool", root)))
    (record,) = records(root)
    assert (record["event"], record["intent_id"], record["session_id"]) == (
        "intent_selected",
        "INT-001",
        TASK,
    )
    assert record["tool"] == SELECT
    allowed(decide(payload(CLIENT, "pre_tool_use_write_to_file", root)))
    assert records(root)[-1]["event"] == "tool_allowed"


def test_the_handshake_under_the_sdk_runtime_s_mcp_name(root: Path) -> None:
    allowed(decide(payload(CLIENT, "tool_call_mcp_select", root)))
    (record,) = records(root)
    assert (record["event"], record["tool"], record["session_id"]) == (
        "intent_selected",
        SELECT,
        SDK_TASK,
    )
    allowed(decide(payload(CLIENT, "tool_call_editor", root)))


def test_an_in_scope_write_is_allowed_and_its_result_recorded(root: Path) -> None:
    select(root)
    allowed(decide(payload(CLIENT, "pre_tool_use_write_to_file", root)))
    target = root / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text("import jwt\n", encoding="utf-8")
    assert answer(decide(payload(CLIENT, "post_tool_use_write_to_file", root))) == {"cancel": False}
    record = records(root)[-1]
    assert (record["event"], record["tool"], record["paths"], record["intent_id"]) == (
        "mutation",
        "write_to_file",
        ["src/auth/jwt.py"],
        "INT-001",
    )


@pytest.mark.parametrize(
    ("name", "parameters"),
    [
        ("pre_tool_use_write_to_file", {"path": "docs/x.md", "content": "x"}),
        ("pre_tool_use_replace_in_file", {"path": "docs/x.md", "diff": "x"}),
        ("pre_tool_use_execute_command", {"command": "echo x > docs/x.md"}),
    ],
)
def test_out_of_scope_and_shell_writes_are_scope_violations(
    root: Path, name: str, parameters: dict[str, str]
) -> None:
    select(root)
    assert refusal(decide(call(name, root, **parameters))).startswith(
        violation("docs/x.md", CLIENT)
    )


def test_the_sdk_runtime_s_tools_are_read_through_their_typed_input(root: Path) -> None:
    allowed(decide(payload(CLIENT, "tool_call_mcp_select", root)))
    editor = payload(CLIENT, "tool_call_editor", root)
    editor["tool_call"]["input"]["path"] = str(root / "docs" / "x.md")
    assert refusal(decide(editor)).startswith(violation("docs/x.md", CLIENT))
    commands = payload(CLIENT, "tool_call_run_commands", root)
    commands["tool_call"]["input"] = {"commands": ["ls", "echo x > docs/x.md"]}
    assert refusal(decide(commands)).startswith(violation("docs/x.md", CLIENT))


def test_run_commands_sent_only_as_parameters_is_read_too(root: Path) -> None:
    allowed(decide(payload(CLIENT, "tool_call_mcp_select", root)))
    body = payload(CLIENT, "tool_call_run_commands", root, tool_call=None)
    body["preToolUse"]["parameters"]["commands"] = json.dumps(["cd docs", "touch x.md"])
    # each command runs on its own: the cd does not carry over, so x.md is the root's
    assert refusal(decide(body)).startswith(violation("x.md", CLIENT))


def test_a_read_tool_is_allowed_before_any_selection(root: Path) -> None:
    allowed(decide(payload(CLIENT, "pre_tool_use_read_file", root)))


# -- events that never block -------------------------------------------------------------------


def test_a_prompt_injects_governance_and_never_cancels(root: Path) -> None:
    data = allowed(decide(payload(CLIENT, "user_prompt_submit", root)))
    assert "paw-tui" in data["contextModification"]


def test_a_broken_prompt_is_answered_with_context_not_a_cancel(root: Path) -> None:
    body = payload(CLIENT, "user_prompt_submit", root, taskId=None)
    data = allowed(decide(body, event="prompt"))
    assert "Orchestration state unavailable" in data["contextModification"]
    assert "taskId" in data["contextModification"]


@pytest.mark.parametrize("name", ["TaskStart", "TaskResume", "agent_start", "PreCompact"])
def test_events_the_gate_has_nothing_to_say_about_are_quiet(root: Path, name: str) -> None:
    """TaskStart's answer is dropped by Cline (it runs detached): the governance section
    goes with the first tool call's answer instead."""
    result = decide(payload(CLIENT, "task_start", root, hookName=name))
    assert (result.code, result.out) == (0, "")


@pytest.mark.parametrize("name", ["TaskComplete", "agent_end", "TaskCancel", "SessionShutdown"])
def test_the_end_of_a_task_releases_the_session(root: Path, name: str) -> None:
    select(root)
    allowed(decide(payload(CLIENT, "task_start", root, hookName=name, taskId=TASK)))
    assert records(root)[-1]["event"] == "session_released"


def test_the_end_of_a_sub_agent_releases_nothing(root: Path) -> None:
    select(root)
    body = payload(CLIENT, "task_start", root, hookName="agent_end", taskId=TASK)
    body["parent_agent_id"] = "agent_1"
    assert (decide(body).out, records(root)[-1]["event"]) == ("", "intent_selected")


# -- malformed payloads ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"taskId": None}, "taskId"),
        ({"hookName": None}, "hookName"),
        ({"hookName": "PreToolUseX"}, "PreToolUseX"),
        ({"preToolUse": None}, "preToolUse"),
        ({"preToolUse": {"parameters": {}}}, "preToolUse.toolName"),
        ({"preToolUse": {"toolName": "write_to_file", "parameters": []}}, "parameters"),
        ({"preToolUse": {"toolName": "write_to_file", "parameters": {}}}, "path"),
        ({"workspaceRoots": "/tmp"}, "workspaceRoots"),
    ],
)
def test_a_malformed_tool_payload_is_a_cancel_naming_the_problem(
    root: Path, change: dict[str, object], named: str
) -> None:
    body = payload(CLIENT, "pre_tool_use_write_to_file", root, **change)
    reason = cancel_reason(decide(body))
    assert reason.startswith("paw-tui policy: cannot classify this event"), reason
    assert named in reason


@pytest.mark.parametrize(
    ("parameters", "named"),
    [
        ({"tool_name": "select_active_intent", "arguments": "{}"}, "server_name"),
        ({"server_name": "paw", "arguments": "{}"}, "tool_name"),
        ({"server_name": "paw", "tool_name": "x", "arguments": "{not json"}, "not valid JSON"),
        ({"server_name": "paw", "tool_name": "x", "arguments": "[1]"}, "not an object"),
    ],
)
def test_a_malformed_mcp_call_is_a_cancel_naming_the_problem(
    root: Path, parameters: dict[str, str], named: str
) -> None:
    reason = cancel_reason(decide(call("pre_tool_use_use_mcp_tool", root, **parameters)))
    assert named in reason


def test_run_commands_without_a_command_is_a_cancel(root: Path) -> None:
    body = payload(CLIENT, "tool_call_run_commands", root)
    body["tool_call"]["input"] = {"commands": []}
    assert "run_commands has no command to run" in cancel_reason(decide(body))


def test_bytes_that_are_not_json_are_a_cancel(root: Path) -> None:
    assert "not valid JSON" in cancel_reason(decide(b"{oops", event="pre_tool"))


def test_a_hook_file_answers_as_its_own_event_only(root: Path) -> None:
    body = payload(CLIENT, "post_tool_use_write_to_file", root)
    reason = cancel_reason(decide(body, event="pre_tool"))
    assert "a PostToolUse event but the hook was configured for pre_tool" in reason
    # the other way round nothing can be blocked any more: it is only reported
    result = decide(payload(CLIENT, "pre_tool_use_write_to_file", root), event="post_tool")
    assert (result.code, result.out) == (0, "") and "ignored a malformed" in result.err


# -- install -----------------------------------------------------------------------------------


def hooks_dir(root: Path) -> Path:
    return root / ".clinerules" / "hooks"


def mcp_settings(home: Path) -> Path:
    return home / ".cline" / "data" / "settings" / "cline_mcp_settings.json"


def install(run_cli: RunCli, root: Path, *extra: str) -> Any:
    return run_cli("install", CLIENT, *extra, cwd=root)


def test_install_writes_one_executable_file_per_hook_and_the_server(
    root: Path, run_cli: RunCli, user_home: Path
) -> None:
    result = install(run_cli, root)
    assert result.code == 0, result.err
    states = installed_states(result.out)
    for hook in setup.HOOKS:
        path = hooks_dir(root) / hook
        assert states[str(path)] == "created"
        assert path.stat().st_mode & stat.S_IXUSR
        text = path.read_text(encoding="utf-8")
        assert text.startswith("#!/bin/sh\n") and f"--event {setup.HOOKS[hook]}" in text
        # portable: nothing of this machine in a committed file
        assert sys.executable not in text and str(user_home) not in text
    assert states[str(mcp_settings(user_home))] == "created"
    server = json.loads(mcp_settings(user_home).read_text(encoding="utf-8"))["mcpServers"]["paw"]
    assert (server["command"], server["args"]) == ("sh", portable_mcp_command()[1:])
    assert "select_active_intent" in server["autoApprove"] and server["disabled"] is False
    assert "Enable Hooks" in result.out and "hooks_enabled" not in result.out
    assert "ends the run" in result.out


def test_install_twice_changes_nothing(root: Path, run_cli: RunCli, user_home: Path) -> None:
    install(run_cli, root)
    before = {p: p.read_bytes() for p in [*hooks_dir(root).iterdir(), mcp_settings(user_home)]}
    result = install(run_cli, root)
    assert result.code == 0
    assert set(installed_states(result.out).values()) == {"unchanged"}
    assert {p: p.read_bytes() for p in before} == before


def test_install_keeps_other_hooks_and_servers_and_updates_its_own(
    root: Path, run_cli: RunCli, user_home: Path
) -> None:
    hooks_dir(root).mkdir(parents=True)
    theirs = hooks_dir(root) / "TaskStart"
    theirs.write_text("#!/bin/sh\necho '{\"cancel\": false}'\n", encoding="utf-8")
    older = hooks_dir(root) / "PreToolUse"
    older.write_text('#!/bin/sh\n"${PAW_TUI_HOOK:-paw-tui}" gate --client cline\n', "utf-8")
    mcp_settings(user_home).parent.mkdir(parents=True)
    user = {
        "mcpServers": {
            "github": {"command": "npx", "args": ["-y", "gh-mcp"], "autoApprove": []},
            "paw": {"command": "old", "timeout": 120},
        }
    }
    mcp_settings(user_home).write_text(json.dumps(user), encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 0, result.err
    states = installed_states(result.out)
    assert states[str(older)] == "updated" and states[str(mcp_settings(user_home))] == "updated"
    assert theirs.read_text(encoding="utf-8").startswith("#!/bin/sh\necho")
    assert older.read_text(encoding="utf-8") == setup.hook_script("PreToolUse")
    servers = json.loads(mcp_settings(user_home).read_text(encoding="utf-8"))["mcpServers"]
    assert servers["github"] == user["mcpServers"]["github"]
    assert servers["paw"]["timeout"] == 120 and servers["paw"]["command"] == "sh"


def test_a_hook_file_that_is_not_ours_is_never_overwritten(root: Path, run_cli: RunCli) -> None:
    hooks_dir(root).mkdir(parents=True)
    theirs = hooks_dir(root) / "PreToolUse"
    theirs.write_text("#!/bin/sh\n./lint.sh\n", encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 2 and result.out == ""
    assert str(theirs) in result.err and "nothing was changed" in result.err
    assert theirs.read_text(encoding="utf-8") == "#!/bin/sh\n./lint.sh\n"
    assert sorted(p.name for p in hooks_dir(root).iterdir()) == ["PreToolUse"]


def test_a_broken_mcp_settings_file_is_refused(
    root: Path, run_cli: RunCli, user_home: Path
) -> None:
    mcp_settings(user_home).parent.mkdir(parents=True)
    mcp_settings(user_home).write_text('{"mcpServers": {,}}', encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 2
    assert result.err.startswith(f"{mcp_settings(user_home)}:1: not valid JSON")
    assert not hooks_dir(root).exists()
    assert mcp_settings(user_home).read_text(encoding="utf-8") == '{"mcpServers": {,}}'


def test_doctor_reports_the_set_up(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    result = run_cli("doctor", cwd=root)
    assert "gate hooks present in .clinerules/hooks" in result.out
    (hooks_dir(root) / "PreToolUse").chmod(0o644)
    result = run_cli("doctor", cwd=root)
    assert "PreToolUse is not executable: Cline skips it" in result.out
    assert result.code == 2


# -- the installed hook file, run as Cline runs it ---------------------------------------------


def run_hook(root: Path, hook: str, body: dict[str, Any], env: dict[str, str]) -> GateResult:
    proc = subprocess.run(
        [str(hooks_dir(root) / hook)],
        input=json.dumps(body).encode("utf-8"),
        capture_output=True,
        cwd=str(root),
        env=env,
        timeout=60,
    )
    return GateResult(proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def hook_env(**extra: str) -> dict[str, str]:
    from gatekit import gate_env

    return gate_env({"PATH": "/usr/bin:/bin", **extra})


def test_the_installed_pre_tool_file_refuses_a_write_before_selection(
    root: Path, run_cli: RunCli
) -> None:
    install(run_cli, root)
    body = payload(CLIENT, "pre_tool_use_write_to_file", root)
    result = run_hook(root, "PreToolUse", body, hook_env(PAW_TUI_HOOK=hook_script_path()))
    assert len(result.out.strip().splitlines()) == 1  # Cline runs the tool on two answers
    assert refusal(result).startswith(NO_INTENT)


def test_the_installed_pre_tool_file_cancels_when_paw_tui_cannot_run(
    root: Path, run_cli: RunCli
) -> None:
    install(run_cli, root)
    body = payload(CLIENT, "pre_tool_use_write_to_file", root)
    missing = str(root / "no-such-paw-tui")
    result = run_hook(root, "PreToolUse", body, hook_env(PAW_TUI_HOOK=missing))
    assert result.code == 0
    (line,) = result.out.strip().splitlines()
    last = json.loads(line)
    assert last["cancel"] is True
    assert last["errorMessage"].startswith("paw-tui policy: the paw-tui gate could not answer")
    assert "could not run here" in result.err
    assert records(root) == [] and os.path.exists(missing) is False
