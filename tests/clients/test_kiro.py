"""Kiro: the gate on Kiro's documented hook payloads (``tests/data/kiro/``), and
``paw-tui install kiro`` / ``doctor``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from docpayloads import fixture, fixture_names, installed_states, payload
from exitkit import assert_allowed, denial, violation
from gatekit import NO_INTENT, GateResult, gate, paw_state_dir, records, root

from paw_tui.core.clients import kiro as setup
from paw_tui.core.clients.commands import portable_mcp_command

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]  # fixtures

CLIENT = "kiro"
SELECT = "mcp__paw__select_active_intent"


def session_of(root: Path) -> str:
    """Kiro sends no session id: the session is the directory Kiro runs in."""
    return f"kiro:{root}"


def decide(data: object, event: str | None = None) -> GateResult:
    return gate(data, client=CLIENT, event=event)


def tool_call(name: str, root: Path, **tool_input: object) -> dict[str, Any]:
    body = payload(CLIENT, name, root)
    body["tool_input"] = {**body["tool_input"], **tool_input}
    return body


def select(root: Path) -> None:
    assert_allowed(decide(payload(CLIENT, "pre_tool_use_mcp_select", root)))


def test_the_fixtures_are_shaped_like_kiro_payloads() -> None:
    names = fixture_names(CLIENT)
    assert len(names) == 8
    for name in names:
        body = fixture(CLIENT, name)["payload"]
        assert set(body) <= {
            "hook_event_name",
            "cwd",
            "prompt",
            "tool_name",
            "tool_input",
            "tool_response",
        }, name
        assert body["cwd"] == "__ROOT__"


# -- the handshake and scope -------------------------------------------------------------------


def test_a_write_before_selection_is_denied_citing_the_rule(root: Path) -> None:
    reason = denial(decide(payload(CLIENT, "pre_tool_use_fs_write", root)))
    assert reason.startswith(NO_INTENT) and "select_active_intent" in reason
    (record,) = records(root)
    assert (record["event"], record["client"], record["tool"], record["paths"]) == (
        "tool_denied",
        CLIENT,
        "fs_write",
        ["src/auth/jwt.py"],
    )
    assert record["session_id"] == session_of(root)


def test_the_handshake_through_kiro_s_mcp_name_selects_the_intent(root: Path) -> None:
    select(root)
    (record,) = records(root)
    assert (record["event"], record["tool"], record["intent_id"]) == (
        "intent_selected",
        SELECT,
        "INT-001",
    )
    assert record["session_id"] == session_of(root)


def test_a_session_id_is_used_when_kiro_sends_one(root: Path) -> None:
    body = payload(CLIENT, "pre_tool_use_mcp_select", root, session_id="kiro-sess-42")
    assert_allowed(decide(body))
    assert records(root)[-1]["session_id"] == "kiro-sess-42"


def test_an_in_scope_write_is_allowed_and_its_result_recorded(root: Path) -> None:
    select(root)
    assert_allowed(decide(payload(CLIENT, "pre_tool_use_fs_write", root)))
    target = root / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text("import jwt\n", encoding="utf-8")
    assert_allowed(decide(payload(CLIENT, "post_tool_use_fs_write", root)))
    record = records(root)[-1]
    assert (record["event"], record["tool"], record["paths"], record["intent_id"]) == (
        "mutation",
        "fs_write",
        ["src/auth/jwt.py"],
        "INT-001",
    )


@pytest.mark.parametrize(
    ("name", "tool_input"),
    [
        ("pre_tool_use_fs_write", {"path": "docs/x.md"}),
        ("pre_tool_use_str_replace", {"path": "docs/x.md"}),
        ("pre_tool_use_execute_bash", {"command": "echo x > docs/x.md"}),
    ],
)
def test_out_of_scope_and_shell_writes_are_scope_violations(
    root: Path, name: str, tool_input: dict[str, str]
) -> None:
    select(root)
    assert denial(decide(tool_call(name, root, **tool_input))) == violation("docs/x.md", CLIENT)


def test_the_windows_shell_is_a_shell_too(root: Path) -> None:
    select(root)
    body = payload(CLIENT, "pre_tool_use_execute_bash", root, tool_name="execute_cmd")
    body["tool_input"] = {"command": "echo x > docs/x.md"}
    assert denial(decide(body)) == violation("docs/x.md", CLIENT)


def test_a_read_is_allowed_before_any_selection(root: Path) -> None:
    assert_allowed(decide(payload(CLIENT, "pre_tool_use_fs_read", root)))


# -- context and events that never block -------------------------------------------------------


@pytest.mark.parametrize("name", ["agent_spawn", "user_prompt_submit"])
def test_spawn_and_prompts_get_governance_on_stdout(root: Path, name: str) -> None:
    result = decide(payload(CLIENT, name, root))
    assert result.code == 0 and "paw-tui" in result.out and result.out.endswith("\n")


def test_v3_event_names_are_read_too(root: Path) -> None:
    result = decide(payload(CLIENT, "agent_spawn", root, hook_event_name="SessionStart"))
    assert result.code == 0 and "paw-tui" in result.out
    body = payload(CLIENT, "pre_tool_use_fs_write", root, hook_event_name="PreToolUse")
    assert denial(decide(body)).startswith(NO_INTENT)


@pytest.mark.parametrize("name", ["stop", "Stop", "PostFileSave", "PermissionRequest"])
def test_events_the_gate_has_nothing_to_say_about_are_quiet(root: Path, name: str) -> None:
    result = decide(payload(CLIENT, "agent_spawn", root, hook_event_name=name))
    assert (result.code, result.out, result.err) == (0, "", "")


def test_a_broken_prompt_event_is_context_not_a_block(root: Path) -> None:
    body = payload(CLIENT, "user_prompt_submit", root, hook_event_name="userPromptSubmit", cwd=None)
    result = decide(body, event="prompt")
    assert result.code == 0 and "Orchestration state unavailable" in result.out
    assert "neither a session_id nor a cwd" in result.out


# -- malformed payloads ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"hook_event_name": None}, "hook_event_name"),
        ({"hook_event_name": "preToolUses"}, "preToolUses"),
        ({"tool_name": None}, "tool_name"),
        ({"tool_input": ["x"]}, "tool_input of fs_write is not an object"),
        ({"tool_input": {"command": "create"}}, "path of fs_write"),
        ({"tool_name": "@paw"}, "@<server>/<tool>"),
        ({"cwd": None}, "neither a session_id nor a cwd"),
        ({"cwd": 7}, "cwd"),
    ],
)
def test_a_malformed_payload_is_denied_naming_the_problem(
    root: Path, change: dict[str, object], named: str
) -> None:
    reason = denial(decide(payload(CLIENT, "pre_tool_use_fs_write", root, **change)))
    assert reason.startswith("paw-tui policy: cannot classify this event"), reason
    assert named in reason


def test_bytes_that_are_not_json_are_denied(root: Path) -> None:
    assert "not valid JSON" in denial(decide(b"not json", event="pre_tool"))


# -- install -----------------------------------------------------------------------------------


def hooks_file(root: Path) -> Path:
    return root / ".kiro" / "hooks" / "paw-tui.json"


def mcp_file(root: Path) -> Path:
    return root / ".kiro" / "settings" / "mcp.json"


def install(run_cli: RunCli, root: Path) -> Any:
    return run_cli("install", CLIENT, cwd=root)


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_install_writes_the_hook_file_and_the_server(root: Path, run_cli: RunCli) -> None:
    result = install(run_cli, root)
    assert result.code == 0, result.err
    states = installed_states(result.out)
    assert states[str(hooks_file(root))] == "created" and states[str(mcp_file(root))] == "created"
    data = load(hooks_file(root))
    assert data["version"] == "v1"
    assert [h["trigger"] for h in data["hooks"]] == list(setup.TRIGGERS)
    for hook in data["hooks"]:
        assert hook["action"]["type"] == "command" and hook["enabled"] is True
        assert f"--event {setup.TRIGGERS[hook['trigger']]};" in hook["action"]["command"]
    pre, post = data["hooks"][2], data["hooks"][3]
    assert pre["matcher"] == ".*"
    assert post["matcher"] == "^(execute_bash|execute_cmd|fs_write|str_replace)$"
    for path in (hooks_file(root), mcp_file(root)):
        assert sys.executable not in path.read_text(encoding="utf-8")
    server = load(mcp_file(root))["mcpServers"]["paw"]
    assert (server["command"], server["args"]) == ("sh", portable_mcp_command()[1:])
    assert "select_active_intent" in server["autoApprove"]
    assert "V3 mode" in result.out and "no session id" in result.out


def test_install_twice_changes_nothing(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    before = (hooks_file(root).read_bytes(), mcp_file(root).read_bytes())
    result = install(run_cli, root)
    assert set(installed_states(result.out).values()) == {"unchanged"}
    assert (hooks_file(root).read_bytes(), mcp_file(root).read_bytes()) == before


def test_install_keeps_what_is_not_ours_and_replaces_ours_in_place(
    root: Path, run_cli: RunCli
) -> None:
    lint = {
        "name": "lint-on-save",
        "trigger": "PostFileSave",
        "matcher": "\\.ts$",
        "action": {"type": "command", "command": "npm run lint"},
    }
    old = {
        "name": "paw",
        "trigger": "PreToolUse",
        "action": {"type": "command", "command": '"${PAW_TUI_HOOK:-paw-tui}" gate --client kiro'},
    }
    remind = {"name": "remind", "trigger": "PreToolUse", "action": {"type": "agent", "prompt": "x"}}
    hooks_file(root).parent.mkdir(parents=True)
    hooks_file(root).write_text(
        json.dumps({"version": "v1", "hooks": [lint, old, remind]}), encoding="utf-8"
    )
    mcp_file(root).parent.mkdir(parents=True)
    mcp_file(root).write_text(
        json.dumps({"mcpServers": {"aws-docs": {"command": "uvx", "args": ["aws-docs"]}}}),
        encoding="utf-8",
    )
    result = install(run_cli, root)
    assert result.code == 0, result.err
    states = installed_states(result.out)
    assert states[str(hooks_file(root))] == "updated" and states[str(mcp_file(root))] == "updated"
    hooks = load(hooks_file(root))["hooks"]
    assert hooks[0] == lint and hooks[-1] == remind
    assert [h["name"] for h in hooks[1:-1]] == [f"paw-tui {t}" for t in setup.TRIGGERS]
    assert load(mcp_file(root))["mcpServers"]["aws-docs"]["command"] == "uvx"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"version": "v1", "hooks": [}', ":1: not valid JSON"),
        ('{"version": "v2", "hooks": []}', "has version 'v2'"),
        ('{"version": "v1", "hooks": {}}', "'hooks'"),
    ],
)
def test_a_broken_hook_file_is_refused(
    root: Path, run_cli: RunCli, content: str, expected: str
) -> None:
    hooks_file(root).parent.mkdir(parents=True)
    hooks_file(root).write_text(content, encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 2 and result.out == ""
    assert str(hooks_file(root)) in result.err and expected in result.err
    assert hooks_file(root).read_text(encoding="utf-8") == content
    assert not mcp_file(root).exists()


def test_doctor_fails_when_the_pre_tool_hook_is_disabled(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    assert "gate hooks present in .kiro/hooks/paw-tui.json" in run_cli("doctor", cwd=root).out
    data = load(hooks_file(root))
    data["hooks"][2]["enabled"] = False
    hooks_file(root).write_text(json.dumps(data), encoding="utf-8")
    result = run_cli("doctor", cwd=root)
    assert "no enabled gate hook on PreToolUse" in result.out and result.code == 2
