"""Cursor against its documented payloads (``.cursor/hooks.json``), and its set-up.

Payloads: ``tests/data/cursor/`` (cursor.com/docs/hooks, mirrored in
mehmetbaykar/cursor-docs-skill). A deny is ``{"permission": "deny", "user_message",
"agent_message"}`` and exit 2 with the reason on stderr; with ``failClosed`` Cursor blocks a
call on empty output, so an allow is ``{"permission": "allow"}``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from docpayloads import (
    assert_exit2_deny,
    decide,
    fixture,
    fixture_names,
    installed_states,
    load,
    payload,
    violation,
)
from gatekit import NO_INTENT, paw_state_dir, records, root

from paw_tui.core.clients import cursor as cursor_setup
from paw_tui.core.clients._hooks_json import hook_command
from paw_tui.core.clients.commands import hook_script_path, portable_mcp_command

if TYPE_CHECKING:
    from conftest import RunCli

CLIENT = "cursor"
SESSION = "conv-6f1c2a9e-3b7d-4e21-9c55-0d8a1f4b7e20"
HOOKS = Path(".cursor") / "hooks.json"
MCP = Path(".cursor") / "mcp.json"
ALLOW = {"permission": "allow"}
__all__ = ["paw_state_dir", "root"]  # fixtures


def cursor(name: str, root: Path, event: str | None = None, **fields: object) -> Any:
    return decide(CLIENT, payload(CLIENT, name, root, **fields), event)


def assert_cursor_deny(result: Any, startswith: str | None = None) -> str:
    reason = assert_exit2_deny(result)
    assert result.json == {"permission": "deny", "user_message": reason, "agent_message": reason}
    if startswith is not None:
        assert reason.startswith(startswith), reason
    return reason


def assert_allowed(result: Any) -> None:
    assert (result.code, result.json) == (0, ALLOW), (result.code, result.out, result.err)


def select(root: Path) -> None:
    assert_allowed(cursor("pre_tool_use_mcp_select", root))


@pytest.mark.parametrize("name", fixture_names(CLIENT))
def test_every_fixture_names_its_source_and_carries_cursor_s_fields(name: str) -> None:
    data = fixture(CLIENT, name)
    assert data["source"] and all(isinstance(s, str) and s for s in data["source"])
    body = data["payload"]
    assert body["conversation_id"] == SESSION and body["workspace_roots"] == ["__ROOT__"]
    assert isinstance(body["hook_event_name"], str)


@pytest.mark.parametrize(
    ("name", "tool", "path"),
    [
        ("pre_tool_use_write", "Write", "src/auth/jwt.py"),
        ("pre_tool_use_delete", "Delete", "src/auth/old.py"),
        ("before_shell_execution", "Shell", "src/auth/jwt.py"),
    ],
)
def test_a_change_before_a_selection_is_denied_naming_the_rule(
    root: Path, name: str, tool: str, path: str
) -> None:
    reason = assert_cursor_deny(cursor(name, root), NO_INTENT)
    assert "INT-001 (JWT Authentication Migration)" in reason
    (record,) = records(root)
    assert (record["event"], record["client"], record["tool"]) == ("tool_denied", CLIENT, tool)
    assert (record["session_id"], record["paths"]) == (SESSION, [path])


def test_the_selection_goes_through_the_paw_server_as_cursor_names_it(root: Path) -> None:
    select(root)  # MCP:select_active_intent: preToolUse does not say which server
    (record,) = records(root)
    assert (record["event"], record["intent_id"], record["session_id"]) == (
        "intent_selected",
        "INT-001",
        SESSION,
    )
    assert record["tool"] == "mcp__cursor__select_active_intent"


def test_before_mcp_execution_names_the_server(root: Path) -> None:
    assert_allowed(cursor("before_mcp_execution", root))
    assert records(root)[-1]["tool"] == "mcp__paw__select_active_intent"


def test_an_in_scope_write_is_allowed_and_its_mutation_recorded(root: Path) -> None:
    select(root)
    assert_allowed(cursor("pre_tool_use_write", root))
    assert_allowed(cursor("before_shell_execution", root))  # sed -i on src/auth/jwt.py
    target = root / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text("import jwt\n", encoding="utf-8")
    result = cursor("post_tool_use_write", root)
    assert result.code == 0
    record = records(root)[-1]
    assert (record["event"], record["tool"], record["paths"], record["intent_id"]) == (
        "mutation",
        "Write",
        ["src/auth/jwt.py"],
        "INT-001",
    )
    assert record["content_hash"] == "sha256:" + hashlib.sha256(target.read_bytes()).hexdigest()


def test_after_file_edit_records_the_mutation_too(root: Path) -> None:
    select(root)
    target = root / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text("b\n", encoding="utf-8")
    assert cursor("after_file_edit", root).code == 0
    record = records(root)[-1]
    assert (record["event"], record["tool"], record["paths"]) == (
        "mutation",
        "Write",
        ["src/auth/jwt.py"],
    )


def test_out_of_scope_writes_and_shell_writes_are_scope_violations(root: Path) -> None:
    select(root)
    write = {"file_path": f"{root}/docs/x.md", "contents": "x"}
    assert assert_cursor_deny(cursor("pre_tool_use_write", root, tool_input=write)) == violation(
        "docs/x.md", CLIENT
    )
    shell = {"command": "echo x > docs/notes.md", "working_directory": str(root)}
    assert assert_cursor_deny(cursor("pre_tool_use_shell", root, tool_input=shell)) == violation(
        "docs/notes.md", CLIENT
    )
    moved = {"command": "echo x > notes.md", "working_directory": f"{root}/docs"}
    assert assert_cursor_deny(cursor("pre_tool_use_shell", root, tool_input=moved)) == violation(
        "docs/notes.md", CLIENT
    )  # a relative write is placed where the shell runs


def test_the_other_spelling_of_write_s_input_is_read_too(root: Path) -> None:
    select(root)
    spelled = {"path": f"{root}/docs/x.md", "content": "x"}
    assert assert_cursor_deny(cursor("pre_tool_use_write", root, tool_input=spelled)) == violation(
        "docs/x.md", CLIENT
    )


def test_a_read_passes_before_a_selection(root: Path) -> None:
    assert_allowed(cursor("pre_tool_use_read", root))
    assert records(root) == []


def test_session_start_injects_context_and_a_prompt_is_never_blocked(root: Path) -> None:
    result = cursor("session_start", root)
    assert result.code == 0 and "select_active_intent" in result.json["additional_context"]
    prompt = cursor("before_submit_prompt", root)
    assert (prompt.code, prompt.json) == (0, {"continue": True})
    assert cursor("session_end", root).code == 0


def test_an_event_the_gate_does_not_govern_is_ignored(root: Path) -> None:
    result = cursor("session_end", root, hook_event_name="afterAgentResponse")
    assert (result.code, result.out) == (0, "")


@pytest.mark.parametrize(
    ("name", "fields", "problem"),
    [
        ("pre_tool_use_no_tool_name", {}, "no tool_name (some Cursor builds omit it)"),
        ("pre_tool_use_write", {"tool_input": "{\"file_path\": "}, "the tool_input of Write is not valid JSON"),
        ("pre_tool_use_write", {"tool_input": {"contents": "x"}}, "the file_path or path of Write is not a usable path"),
        ("pre_tool_use_write", {"conversation_id": None}, "no conversation_id"),
        ("pre_tool_use_write", {"hook_event_name": "beforeFileEdit"}, "unknown Cursor hook event 'beforeFileEdit'"),
        ("pre_tool_use_write", {"cwd": None, "workspace_roots": "/"}, "workspace_roots is not a list of paths"),
        ("before_shell_execution", {"command": None}, "Shell has no command to run"),
        ("before_mcp_execution", {"tool_input": "[1]"}, "the tool_input of select_active_intent is not an object"),
    ],
)  # fmt: skip
def test_a_malformed_payload_is_denied_naming_the_problem(
    root: Path, name: str, fields: dict[str, object], problem: str
) -> None:
    reason = assert_cursor_deny(decide(CLIENT, payload(CLIENT, name, root, **fields)))
    assert problem in reason, reason


def test_the_event_the_hook_was_installed_for_must_match_the_payload(root: Path) -> None:
    reason = assert_cursor_deny(cursor("post_tool_use_write", root, event="pre_tool"))
    assert "a postToolUse event but the hook was configured for pre_tool" in reason


# -- paw-tui install cursor ----------------------------------------------------------------------


def install(run_cli: RunCli, root: Path) -> Any:
    return run_cli("install", CLIENT, cwd=root)


EVENTS = {
    "sessionStart": "session_start",
    "beforeSubmitPrompt": "prompt",
    "preToolUse": "pre_tool",
    "postToolUse": "post_tool",
    "sessionEnd": "session_end",
}


def ours(kind: str) -> dict[str, object]:
    entry: dict[str, object] = {"command": hook_command(CLIENT, kind), "timeout": 10}
    if kind == "pre_tool":
        entry["failClosed"] = True
    return entry


def test_install_creates_the_hooks_and_the_server(root: Path, run_cli: RunCli) -> None:
    result = install(run_cli, root)
    assert result.code == 0, result.err
    states = installed_states(result.out)
    assert (states[str(root / HOOKS)], states[str(root / MCP)]) == ("created", "created")
    assert load(root / HOOKS) == {
        "version": 1,
        "hooks": {event: [ours(kind)] for event, kind in EVENTS.items()},
    }
    assert load(root / MCP) == {
        "mcpServers": {"paw": {"command": "sh", "args": portable_mcp_command()[1:]}}
    }
    committed = (root / HOOKS).read_text() + (root / MCP).read_text()
    assert sys.executable not in committed and hook_script_path() not in committed
    assert "trust the workspace" in result.out


def test_install_twice_changes_nothing(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    before = {p: (root / p).read_bytes() for p in (HOOKS, MCP)}
    result = install(run_cli, root)
    assert set(installed_states(result.out).values()) == {"unchanged"}
    assert {p: (root / p).read_bytes() for p in (HOOKS, MCP)} == before


def test_install_keeps_every_foreign_entry(root: Path, run_cli: RunCli) -> None:
    (root / HOOKS).parent.mkdir()
    audit = {"command": ".cursor/hooks/audit.sh", "matcher": "Shell"}
    stop = {"command": ".cursor/hooks/stop.sh", "loop_limit": 3}
    old = {"command": "/opt/venv/bin/paw-tui gate --client cursor", "timeout": 3}
    (root / HOOKS).write_text(
        json.dumps({"version": 1, "hooks": {"preToolUse": [audit, old], "stop": [stop]}})
    )
    (root / MCP).write_text(json.dumps({"mcpServers": {"db": {"command": "db-mcp"}}}))
    result = install(run_cli, root)
    assert installed_states(result.out)[str(root / HOOKS)] == "updated"
    hooks = load(root / HOOKS)["hooks"]
    assert hooks["preToolUse"] == [audit, ours("pre_tool")]  # the old one replaced in place
    assert hooks["stop"] == [stop]
    assert list(load(root / MCP)["mcpServers"]) == ["db", "paw"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{\n  "version": 1,\n  "hooks": {"preToolUse": [,]}\n}\n', ":3: not valid JSON"),
        ('{"version": 2, "hooks": {}}', "has version 2"),
        ('{"version": 1, "hooks": []}', "'hooks'"),
    ],
)
def test_install_refuses_a_file_it_cannot_read(
    root: Path, run_cli: RunCli, text: str, problem: str
) -> None:
    (root / HOOKS).parent.mkdir()
    (root / HOOKS).write_text(text, encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 2
    assert str(root / HOOKS) in result.err and problem in result.err
    assert (root / HOOKS).read_text(encoding="utf-8") == text
    assert not (root / MCP).exists()


def test_doctor_fails_when_the_pre_tool_hook_fails_open(root: Path, run_cli: RunCli) -> None:
    assert cursor_setup.doctor(str(root)) == []  # Cursor is not used here
    install(run_cli, root)
    assert ("ok", CLIENT, f"gate hooks present in {HOOKS}") in cursor_setup.doctor(str(root))
    data = load(root / HOOKS)
    del data["hooks"]["preToolUse"][0]["failClosed"]
    (root / HOOKS).write_text(json.dumps(data))
    assert any(s == "FAIL" and "failClosed" in d for s, _, d in cursor_setup.doctor(str(root)))
