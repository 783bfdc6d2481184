"""Windsurf: the gate on Cascade's documented hook payloads (``tests/data/windsurf/``), and
``paw-tui install windsurf`` / ``doctor``.

Cascade runs a hook in the workspace root and sends no cwd for file events, so these tests run
the gate from the workspace root, as Cascade would.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from docpayloads import fixture, fixture_names, installed_states, payload
from exitkit import assert_allowed, denial, violation
from gatekit import NO_INTENT, GateResult, gate, paw_state_dir, records, root

from paw_tui.core.clients import windsurf as setup
from paw_tui.core.clients.commands import portable_hook_command, portable_mcp_command

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]  # fixtures

CLIENT = "windsurf"
TRAJECTORY = "traj-4b1e9c"
SELECT = "mcp__paw__select_active_intent"


@pytest.fixture
def workspace(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The workspace, as the hook's working directory (Cascade's default)."""
    monkeypatch.chdir(root)
    return root


def decide(data: object, event: str | None = None) -> GateResult:
    return gate(data, client=CLIENT, event=event)


def with_info(name: str, root: Path, **info: object) -> dict[str, Any]:
    body = payload(CLIENT, name, root)
    body["tool_info"] = {**body["tool_info"], **info}
    return body


def select(root: Path) -> None:
    assert_allowed(decide(payload(CLIENT, "pre_mcp_tool_use", root)))


def test_the_fixtures_are_shaped_like_cascade_payloads() -> None:
    names = fixture_names(CLIENT)
    assert len(names) == 7
    for name in names:
        body = fixture(CLIENT, name)["payload"]
        assert body["agent_action_name"] == name
        assert {"trajectory_id", "execution_id", "timestamp", "tool_info"} <= set(body)


# -- the handshake and scope -------------------------------------------------------------------


def test_a_write_before_selection_is_denied_citing_the_rule(workspace: Path) -> None:
    reason = denial(decide(payload(CLIENT, "pre_write_code", workspace)))
    assert reason.startswith(NO_INTENT) and "select_active_intent" in reason
    (record,) = records(workspace)
    assert (record["event"], record["client"], record["session_id"], record["paths"]) == (
        "tool_denied",
        CLIENT,
        TRAJECTORY,
        ["src/auth/jwt.py"],
    )


def test_the_handshake_through_pre_mcp_tool_use_selects_the_intent(workspace: Path) -> None:
    select(workspace)
    (record,) = records(workspace)
    assert (record["event"], record["tool"], record["intent_id"], record["session_id"]) == (
        "intent_selected",
        SELECT,
        "INT-001",
        TRAJECTORY,
    )


def test_an_in_scope_write_is_allowed_and_its_result_recorded(workspace: Path) -> None:
    select(workspace)
    assert_allowed(decide(payload(CLIENT, "pre_write_code", workspace)))
    target = workspace / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text("import jwt\n", encoding="utf-8")
    assert_allowed(decide(payload(CLIENT, "post_write_code", workspace)))
    record = records(workspace)[-1]
    assert (record["event"], record["tool"], record["paths"], record["intent_id"]) == (
        "mutation",
        "pre_write_code",
        ["src/auth/jwt.py"],
        "INT-001",
    )


def test_an_out_of_scope_write_is_a_scope_violation(workspace: Path) -> None:
    select(workspace)
    body = with_info("pre_write_code", workspace, file_path=str(workspace / "docs" / "x.md"))
    assert denial(decide(body)) == violation("docs/x.md", CLIENT)


def test_a_shell_write_through_command_line_is_a_scope_violation(workspace: Path) -> None:
    select(workspace)
    body = with_info("pre_run_command", workspace, command_line="echo x > docs/x.md")
    assert denial(decide(body)) == violation("docs/x.md", CLIENT)
    # the command's own cwd places a relative write
    body = with_info(
        "pre_run_command", workspace, command_line="touch x.md", cwd=str(workspace / "docs")
    )
    assert denial(decide(body)) == violation("docs/x.md", CLIENT)


def test_a_command_before_selection_is_denied(workspace: Path) -> None:
    assert denial(decide(payload(CLIENT, "pre_run_command", workspace))).startswith(NO_INTENT)


def test_reads_and_prompts_are_never_blocked(workspace: Path) -> None:
    assert_allowed(decide(payload(CLIENT, "pre_read_code", workspace)))
    assert_allowed(decide(payload(CLIENT, "pre_user_prompt", workspace)))


@pytest.mark.parametrize("name", ["post_read_code", "post_cascade_response", "post_setup_worktree"])
def test_events_the_gate_has_nothing_to_say_about_are_quiet(workspace: Path, name: str) -> None:
    body = payload(CLIENT, "pre_user_prompt", workspace, agent_action_name=name)
    assert (decide(body).code, decide(body).out, decide(body).err) == (0, "", "")


# -- malformed payloads ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "change", "named"),
    [
        ("pre_write_code", {"trajectory_id": None}, "trajectory_id"),
        ("pre_write_code", {"agent_action_name": None}, "agent_action_name"),
        ("pre_write_code", {"agent_action_name": "pre_write_codes"}, "pre_write_codes"),
        ("pre_write_code", {"tool_info": "x"}, "tool_info"),
        ("pre_write_code", {"tool_info": {"edits": []}}, "file_path of pre_write_code"),
        ("pre_run_command", {"tool_info": {"command": "ls"}}, "pre_run_command has no command"),
        ("pre_mcp_tool_use", {"tool_info": {"mcp_tool_name": "x"}}, "mcp_server_name"),
        (
            "pre_mcp_tool_use",
            {"tool_info": {"mcp_server_name": "s", "mcp_tool_name": "t", "mcp_tool_arguments": 3}},
            "mcp_tool_arguments of t is not an object",
        ),
    ],
)
def test_a_malformed_payload_is_denied_naming_the_problem(
    workspace: Path, name: str, change: dict[str, object], named: str
) -> None:
    reason = denial(decide(payload(CLIENT, name, workspace, **change)))
    assert reason.startswith("paw-tui policy: cannot classify this event"), reason
    assert named in reason


def test_bytes_that_are_not_json_are_denied(workspace: Path) -> None:
    assert "not valid JSON" in denial(decide(b"\xff", event="pre_tool"))


def test_a_broken_prompt_event_is_never_a_block(workspace: Path) -> None:
    body = payload(CLIENT, "pre_user_prompt", workspace, trajectory_id=None)
    result = decide(body, event="prompt")
    assert (result.code, result.out) == (0, "")
    assert "Orchestration state unavailable" in result.err


# -- install -----------------------------------------------------------------------------------


def hooks_file(root: Path) -> Path:
    return root / ".windsurf" / "hooks.json"


def mcp_config(home: Path) -> Path:
    return home / ".codeium" / "windsurf" / "mcp_config.json"


def install(run_cli: RunCli, root: Path) -> Any:
    return run_cli("install", CLIENT, cwd=root)


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_install_writes_the_hooks_and_the_server(
    root: Path, run_cli: RunCli, user_home: Path
) -> None:
    result = install(run_cli, root)
    assert result.code == 0, result.err
    states = installed_states(result.out)
    assert states[str(hooks_file(root))] == "created"
    assert states[str(mcp_config(user_home))] == "created"
    hooks = load(hooks_file(root))["hooks"]
    assert list(hooks) == list(setup.EVENTS)
    for event, kind in setup.EVENTS.items():
        (entry,) = hooks[event]
        assert entry["command"] == portable_hook_command(CLIENT).replace(
            f"--client {CLIENT};", f"--client {CLIENT} --event {kind};"
        )
        assert entry["show_output"] is event.startswith("pre_")
    text = hooks_file(root).read_text(encoding="utf-8")
    assert sys.executable not in text and str(user_home) not in text
    server = load(mcp_config(user_home))["mcpServers"]["paw"]
    assert (server["command"], server["args"]) == ("sh", portable_mcp_command()[1:])
    assert "MCP panel" in result.out


def test_install_twice_changes_nothing(root: Path, run_cli: RunCli, user_home: Path) -> None:
    install(run_cli, root)
    before = (hooks_file(root).read_bytes(), mcp_config(user_home).read_bytes())
    result = install(run_cli, root)
    assert set(installed_states(result.out).values()) == {"unchanged"}
    assert (hooks_file(root).read_bytes(), mcp_config(user_home).read_bytes()) == before


def test_install_keeps_what_is_not_ours(root: Path, run_cli: RunCli, user_home: Path) -> None:
    hooks_file(root).parent.mkdir()
    logger = {"command": "python3 log.py", "show_output": False}
    ours_old = {"command": '"${PAW_TUI_HOOK:-paw-tui}" gate --client windsurf'}
    user = {
        "hooks": {
            "pre_write_code": [logger, ours_old],
            "post_cascade_response": [logger],
        },
        "x-team": "platform",
    }
    hooks_file(root).write_text(json.dumps(user), encoding="utf-8")
    mcp_config(user_home).parent.mkdir(parents=True)
    mcp_config(user_home).write_text(
        json.dumps({"mcpServers": {"github": {"serverUrl": "https://x"}}}), encoding="utf-8"
    )
    result = install(run_cli, root)
    assert result.code == 0, result.err
    states = installed_states(result.out)
    assert states[str(hooks_file(root))] == "updated"
    assert states[str(mcp_config(user_home))] == "updated"
    data = load(hooks_file(root))
    assert data["x-team"] == "platform"
    assert data["hooks"]["post_cascade_response"] == [logger]
    first, second = data["hooks"]["pre_write_code"]
    assert first == logger and "--event pre_tool" in second["command"]
    assert load(mcp_config(user_home))["mcpServers"]["github"] == {"serverUrl": "https://x"}


@pytest.mark.parametrize(
    ("content", "expected"),
    [('{\n  "hooks": {,}\n}\n', ":2: not valid JSON"), ('{"hooks": []}', "'hooks'")],
)
def test_a_broken_hooks_file_is_refused(
    root: Path, run_cli: RunCli, user_home: Path, content: str, expected: str
) -> None:
    hooks_file(root).parent.mkdir()
    hooks_file(root).write_text(content, encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 2 and result.out == ""
    assert str(hooks_file(root)) in result.err and expected in result.err
    assert hooks_file(root).read_text(encoding="utf-8") == content
    assert not mcp_config(user_home).exists()


def test_doctor_reports_the_set_up_and_a_missing_blocking_hook(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    assert "gate hooks present in .windsurf/hooks.json" in run_cli("doctor", cwd=root).out
    data = load(hooks_file(root))
    del data["hooks"]["pre_run_command"]
    hooks_file(root).write_text(json.dumps(data), encoding="utf-8")
    result = run_cli("doctor", cwd=root)
    assert "no gate hook on pre_run_command" in result.out and result.code == 2
