"""GitHub Copilot (CLI and cloud agent) against its documented payloads, and its set-up.

Payloads: ``tests/data/copilot/`` (docs.github.com/en/copilot/reference/hooks-reference), in
both dialects: camelCase (``toolArgs`` as JSON text, the older docs, or as an object, the
current ones; the event named by ``--event``) and the PascalCase "VS Code compatible" one.
A deny is exit 2 with the reason on stderr, and Copilot's ``permissionDecision`` on stdout.
"""

from __future__ import annotations

import hashlib
import json
import os
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
from gatekit import NO_INTENT, paw_state_dir, records, root

from paw_tui.core.clients import copilot as copilot_setup
from paw_tui.core.clients.commands import hook_script_path

if TYPE_CHECKING:
    from conftest import RunCli

CLIENT = "copilot"
SESSION = "copilot-5b0e2c7a-41d9-4f3e-8a61-9d2c4e7f1a30"
HOOKS = Path(".github") / "hooks" / "paw-tui.json"
MCP = Path(".github") / "mcp.json"
__all__ = ["paw_state_dir", "root"]  # fixtures


def copilot(name: str, root: Path, event: str | None = "pre_tool", **fields: object) -> Any:
    return decide(CLIENT, payload(CLIENT, name, root, **fields), event)


def assert_copilot_deny(result: Any, startswith: str | None = None) -> str:
    reason = assert_exit2_deny(result)
    body = result.json
    assert body["permissionDecision"] == "deny"
    assert body["permissionDecisionReason"] == reason
    assert body["hookSpecificOutput"]["permissionDecision"] == "deny"  # VS Code's reading
    if startswith is not None:
        assert reason.startswith(startswith), reason
    return reason


def select(root: Path) -> None:
    result = copilot("pre_tool_use_mcp_select", root)
    assert (result.code, result.out, result.err) == (0, "", "")


# -- the documented payloads ---------------------------------------------------------------------


@pytest.mark.parametrize("name", fixture_names(CLIENT))
def test_every_fixture_names_its_source(name: str) -> None:
    data = fixture(CLIENT, name)
    assert data["source"] and all(isinstance(s, str) and s for s in data["source"])
    body = data["payload"]
    assert body.get("sessionId") or body.get("session_id")
    if "hook_event_name" not in body:  # camelCase: the docs' fields, no event name
        assert isinstance(body["timestamp"], int) and body["cwd"] == "__ROOT__"


def test_a_write_before_a_selection_is_denied_naming_the_rule(root: Path) -> None:
    reason = assert_copilot_deny(copilot("pre_tool_use_create_args_text", root), NO_INTENT)
    assert "INT-001 (JWT Authentication Migration)" in reason
    (record,) = records(root)
    assert (record["event"], record["client"], record["tool"]) == ("tool_denied", CLIENT, "create")
    assert (record["session_id"], record["paths"]) == (SESSION, ["src/auth/jwt.py"])


def test_the_selection_goes_through_the_paw_server_as_copilot_names_it(root: Path) -> None:
    select(root)
    (record,) = records(root)
    assert record["event"] == "intent_selected"
    assert (record["intent_id"], record["session_id"], record["client"]) == (
        "INT-001",
        SESSION,
        CLIENT,
    )
    assert record["tool"] == "mcp__paw__select_active_intent"  # paw-select_active_intent


def test_an_in_scope_write_is_allowed_and_its_mutation_recorded(root: Path) -> None:
    select(root)
    allowed = copilot("pre_tool_use_create_args_text", root)
    assert (allowed.code, allowed.out) == (
        0,
        "",
    )  # never "allow": that would skip Copilot's prompts
    target = root / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text("import jwt\n", encoding="utf-8")
    done = copilot("post_tool_use_create", root, event="post_tool")
    assert done.code == 0
    record = records(root)[-1]
    assert (record["event"], record["tool"], record["paths"]) == (
        "mutation",
        "create",
        ["src/auth/jwt.py"],
    )
    assert record["intent_id"] == "INT-001"
    assert record["content_hash"] == "sha256:" + hashlib.sha256(target.read_bytes()).hexdigest()


@pytest.mark.parametrize("as_text", [True, False], ids=["toolArgs-text", "toolArgs-object"])
def test_tool_args_as_text_or_object_are_read_alike(root: Path, as_text: bool) -> None:
    select(root)
    args = {"path": f"{root}/docs/x.md", "old_str": "a", "new_str": "b"}
    reason = assert_copilot_deny(
        copilot(
            "pre_tool_use_edit_args_object",
            root,
            toolArgs=json.dumps(args) if as_text else args,
        )
    )
    assert reason == violation("docs/x.md", CLIENT)
    assert records(root)[-1]["paths"] == ["docs/x.md"]


def test_an_out_of_scope_write_and_a_shell_write_are_scope_violations(root: Path) -> None:
    select(root)
    assert assert_copilot_deny(copilot("pre_tool_use_edit_args_object", root)) == violation(
        "docs/x.md", CLIENT
    )
    assert assert_copilot_deny(copilot("pre_tool_use_bash", root)) == violation(
        "docs/notes.md", CLIENT
    )
    assert records(root)[-1]["tool"] == "bash"


def test_a_read_passes_before_a_selection(root: Path) -> None:
    result = copilot("pre_tool_use_view", root)
    assert (result.code, result.out) == (0, "")
    assert records(root) == []


def test_the_pascal_case_dialect_is_read_with_copilot_s_arguments(root: Path) -> None:
    """PascalCase payloads name Copilot's edit as Claude Code's Edit, with Copilot's path."""
    reason = assert_copilot_deny(copilot("pascal_pre_tool_use_edit", root, event=None), NO_INTENT)
    assert "edit" in reason
    record = records(root)[-1]
    assert (record["tool"], record["paths"], record["client"]) == (
        "edit",
        ["src/auth/jwt.py"],
        CLIENT,
    )


def test_a_patch_reported_as_edit_is_checked_file_by_file(root: Path) -> None:
    select(root)
    patch = "*** Begin Patch\n*** Update File: src/auth/jwt.py\n@@\n-a\n+b\n*** Add File: docs/y.md\n+y\n*** End Patch\n"
    result = copilot("pascal_pre_tool_use_edit", root, event=None, tool_input={"input": patch})
    assert assert_copilot_deny(result) == violation("docs/y.md", CLIENT)  # denied as a whole
    assert records(root)[-1]["tool"] == "apply_patch"


def test_the_prompt_gives_the_model_the_governance_context_once(root: Path) -> None:
    """Copilot CLI injects sessionStart's context and userPromptSubmitted's (observed with
    1.0.102): the mandate goes with the prompt only, or the model reads it twice."""
    start = copilot("session_start", root, event="session_start")
    assert start.code == 0 and "additionalContext" not in (start.out or "{}")
    result = copilot("user_prompt_submitted", root, event="prompt")
    body = result.json
    assert "select_active_intent" in body["additionalContext"]
    assert body["hookSpecificOutput"] == {
        "hookEventName": "UserPromptSubmit",
        "additionalContext": body["additionalContext"],
    }
    assert records(root) == []


def test_a_prompt_and_the_session_end_never_block(root: Path) -> None:
    select(root)
    assert copilot("user_prompt_submitted", root, event="prompt").code == 0
    assert copilot("session_end", root, event="session_end").code == 0
    assert records(root)[-1]["event"] == "session_released"


def test_events_the_gate_does_not_govern_are_ignored(root: Path) -> None:
    result = copilot("pascal_pre_tool_use_edit", root, event=None, hook_event_name="Stop")
    assert (result.code, result.out, result.err) == (0, "", "")


# -- payloads that cannot be trusted are denied, naming the problem ------------------------------


@pytest.mark.parametrize(
    ("name", "fields", "event", "problem"),
    [
        ("pre_tool_use_create_args_text", {}, None, "names no event"),
        ("pre_tool_use_create_args_text", {"toolArgs": "{not json"}, "pre_tool", "toolArgs of create is not valid JSON"),
        ("pre_tool_use_create_args_text", {"toolArgs": ["a"]}, "pre_tool", "toolArgs of create is not an object"),
        ("pre_tool_use_create_args_text", {"toolArgs": {"file_text": "x"}}, "pre_tool", "the path of create is not a usable path"),
        ("pre_tool_use_create_args_text", {"toolName": None}, "pre_tool", "no tool name"),
        ("pre_tool_use_create_args_text", {"sessionId": None}, "pre_tool", "no session id"),
        ("pre_tool_use_create_args_text", {"sessionId": "  "}, "pre_tool", "no session id"),
        ("pre_tool_use_create_args_text", {"cwd": 7}, "pre_tool", "cwd is not a usable path"),
        ("pascal_pre_tool_use_edit", {"hook_event_name": "BeforeEverything"}, None, "unknown hook event 'BeforeEverything'"),
        ("pascal_pre_tool_use_edit", {}, "session_start", "configured for session_start"),
        ("pre_tool_use_bash", {"toolArgs": {"command": ""}}, "pre_tool", "bash has no command to run"),
    ],
)  # fmt: skip
def test_a_malformed_payload_is_denied_naming_the_problem(
    root: Path, name: str, fields: dict[str, object], event: str | None, problem: str
) -> None:
    result = copilot(name, root, event=event, **fields)
    if event == "session_start":  # a session event is never blocked: context says why
        assert result.code == 0 and problem in result.json["additionalContext"]
        return
    reason = assert_copilot_deny(result)
    assert problem in reason, reason


def test_bytes_that_are_not_json_are_denied(root: Path) -> None:
    reason = assert_copilot_deny(decide(CLIENT, b"{toolName: bash", "pre_tool"))
    assert "not valid JSON" in reason


# -- paw-tui install copilot ---------------------------------------------------------------------


def install(run_cli: RunCli, root: Path, client: str = CLIENT) -> Any:
    return run_cli("install", client, cwd=root)


def test_install_creates_the_hooks_file_and_the_server(root: Path, run_cli: RunCli) -> None:
    result = install(run_cli, root)
    assert result.code == 0, result.err
    states = installed_states(result.out)
    assert states[str(root / HOOKS)] == "created"
    assert states[str(root / MCP)] == "created"
    data = load(root / HOOKS)
    assert data == {
        "version": 1,
        "hooks": {event: [github_hook(CLIENT, kind)] for event, kind in GITHUB_HOOK_EVENTS.items()},
    }
    paw = load(root / MCP)["mcpServers"]["paw"]
    assert (paw["type"], paw["tools"], paw["command"]) == ("local", ["*"], "sh")
    committed = (root / HOOKS).read_text() + (root / MCP).read_text()
    assert sys.executable not in committed and hook_script_path() not in committed
    trusted = load(Path(os.environ["HOME"]) / ".copilot" / "config.json")["trustedFolders"]
    assert trusted == [str(root)] and "trusted folders" in result.out


def test_install_twice_changes_nothing(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    before = {p: (root / p).read_bytes() for p in (HOOKS, MCP)}
    result = install(run_cli, root)
    assert result.code == 0
    assert set(installed_states(result.out).values()) == {"unchanged"}
    assert {p: (root / p).read_bytes() for p in (HOOKS, MCP)} == before


def test_install_keeps_every_foreign_entry(root: Path, run_cli: RunCli) -> None:
    (root / HOOKS).parent.mkdir(parents=True)
    guard = {"type": "command", "bash": "./scripts/guard.sh", "timeoutSec": 5}
    old = {"type": "command", "bash": "paw-tui gate --client copilot", "timeoutSec": 3}
    stop = {"type": "command", "bash": "./scripts/report.sh"}
    (root / HOOKS).write_text(
        json.dumps(
            {
                "version": 1,
                "x-team": "infra",
                "hooks": {"preToolUse": [guard, old], "agentStop": [stop]},
            }
        ),
        encoding="utf-8",
    )
    (root / MCP).write_text(
        json.dumps({"mcpServers": {"db": {"type": "local", "command": "db-mcp", "tools": ["*"]}}}),
        encoding="utf-8",
    )
    result = install(run_cli, root)
    assert installed_states(result.out)[str(root / HOOKS)] == "updated"
    data = load(root / HOOKS)
    assert data["x-team"] == "infra"
    assert data["hooks"]["preToolUse"] == [
        guard,
        github_hook(CLIENT, "pre_tool"),
    ]  # old one replaced
    assert data["hooks"]["agentStop"] == [stop]
    assert list(load(root / MCP)["mcpServers"]) == ["db", "paw"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{\n  "version": 1,\n  "hooks": {"preToolUse": [,]}\n}\n', ":3: not valid JSON"),
        ('{"version": 2, "hooks": {}}', "has version 2"),
        ('{"version": 1, "hooks": {"preToolUse": {}}}', "'hooks.preToolUse'"),
        ("[1, 2]", "expected a JSON object"),
    ],
)
def test_install_refuses_a_file_it_cannot_read(
    root: Path, run_cli: RunCli, text: str, problem: str
) -> None:
    (root / HOOKS).parent.mkdir(parents=True)
    (root / HOOKS).write_text(text, encoding="utf-8")
    result = install(run_cli, root)
    assert result.code == 2
    assert str(root / HOOKS) in result.err and problem in result.err
    assert (root / HOOKS).read_text(encoding="utf-8") == text
    assert not (root / MCP).exists()  # nothing at all was written


def test_install_copilot_keeps_the_vscode_entries_that_serve_both(
    root: Path, run_cli: RunCli
) -> None:
    assert install(run_cli, root, "vscode").code == 0
    before = (root / HOOKS).read_bytes()
    result = install(run_cli, root)
    assert result.code == 0
    assert installed_states(result.out)[str(root / HOOKS)] == "unchanged"
    assert (root / HOOKS).read_bytes() == before


def test_doctor_reports_the_set_up(root: Path, run_cli: RunCli) -> None:
    assert copilot_setup.doctor(str(root)) == []  # not set up: nothing to say
    install(run_cli, root)
    rows = copilot_setup.doctor(str(root))
    assert ("ok", CLIENT, f"gate hooks present in {HOOKS}") in rows
    assert ("ok", CLIENT, f"the paw MCP server is configured in {MCP}") in rows
    data = load(root / HOOKS)
    data["hooks"]["preToolUse"] = []
    (root / HOOKS).write_text(json.dumps(data), encoding="utf-8")
    assert any(s == "FAIL" and "preToolUse" in d for s, _, d in copilot_setup.doctor(str(root)))
    (root / MCP).unlink()
    assert copilot_setup.doctor(str(root)) == []  # nothing of Copilot's is left
