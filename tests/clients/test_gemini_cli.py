"""Gemini CLI: the gate on Gemini's payloads (recorded from the real 0.61.0 in
``tests/data/gemini-cli/``), and ``paw-tui install gemini-cli`` / ``doctor``."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from docpayloads import installed_states, payload
from gatekit import NO_INTENT, events, paw_state_dir, records, root

from paw_tui.core.clients import commands
from paw_tui.core.clients.gemini_cli import (
    EVENTS,
    HOOK_NAME,
    hook_command,
    post_tool_matcher,
    pre_tool_matcher,
)
from paw_tui.core.clients.gemini_doctor import gemini_expand
from paw_tui.core.handshake.names import READ_ONLY_TOOLS, REQUEST_SCOPE_TOOL
from paw_tui.gate import tools
from paw_tui.gate.main import decide_payload

if TYPE_CHECKING:
    from conftest import RunCli

__all__ = ["paw_state_dir", "root"]  # fixtures

CLIENT = "gemini-cli"
SESSION = "4e51d4e1-d388-4440-92cb-6084069ce3ba"  # the recorded session id
SELECT = "mcp_paw_select_active_intent"


class Result:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.out)
        return data

    def denial(self) -> str:
        """The deny reason, after checking it uses one channel only: Gemini's JSON with exit 0
        (JSON beside an exit 2 would be read as the answer, and stray output would too)."""
        assert self.code == 0, (self.code, self.out, self.err)
        assert self.err == ""
        assert set(self.json) == {"decision", "reason"}, self.out
        assert self.json["decision"] == "deny"
        reason: str = self.json["reason"]
        return reason

    def allowed(self) -> None:
        assert (self.code, self.out) == (0, ""), (self.code, self.out, self.err)

    def context(self, event: str) -> str:
        assert self.code == 0, (self.code, self.out, self.err)
        assert "decision" not in self.json, self.out  # these events never block
        specific = self.json["hookSpecificOutput"]
        assert specific["hookEventName"] == event
        text: str = specific["additionalContext"]
        return text


def gate(data: object, event: str | None = None) -> Result:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode("utf-8")
    answer = decide_payload(raw, client=CLIENT, event_override=event, environ=dict(os.environ))
    return Result(answer.exit_code, answer.stdout, answer.stderr)


def fixture(name: str, root: Path, **fields: object) -> dict[str, Any]:
    return payload(CLIENT, name, root, **fields)


def tool_call(name: str, root: Path, **tool_input: object) -> dict[str, Any]:
    """A recorded BeforeTool payload with its tool_input replaced."""
    return fixture(name, root, tool_input=tool_input)


def select(root: Path, intent_id: str = "INT-001") -> None:
    gate(tool_call("before_tool_mcp_select", root, intent_id=intent_id)).allowed()


# --- the gate on Gemini's payloads ----------------------------------------------------------


def test_a_write_before_selection_is_denied_naming_gemini_s_handshake_tool(root: Path) -> None:
    reason = gate(fixture("before_tool_write_file", root)).denial()
    assert reason.startswith(NO_INTENT), reason
    assert SELECT in reason  # how this client names the tool
    denied = [r for r in records(root) if r["event"] == "tool_denied"]
    assert [(r["tool"], r["paths"], r["session_id"]) for r in denied] == [
        ("write_file", ["src/auth/jwt.py"], SESSION)
    ]


def test_the_handshake_under_gemini_s_mcp_name_selects_the_intent(root: Path) -> None:
    select(root)
    selected = [r for r in records(root) if r["event"] == "intent_selected"]
    assert [(r["tool"], r["intent_id"], r["session_id"]) for r in selected] == [
        (SELECT, "INT-001", SESSION)
    ]
    gate(fixture("before_tool_write_file", root)).allowed()
    gate(fixture("before_tool_replace", root)).allowed()
    after = gate(fixture("after_tool_replace", root))
    assert after.code == 0, after.err
    mutations = [r for r in records(root) if r["event"] == "mutation"]
    assert [(r["tool"], r["paths"], r["session_id"]) for r in mutations] == [
        ("replace", ["src/auth/jwt.py"], SESSION)
    ]


def test_an_unknown_intent_is_refused_through_the_handshake(root: Path) -> None:
    reason = gate(tool_call("before_tool_mcp_select", root, intent_id="INT-404")).denial()
    assert "INT-404" in reason
    assert "intent_selected" not in events(root)


@pytest.mark.parametrize(
    ("name", "tool_input", "outside"),
    [
        ("before_tool_write_file", {"file_path": "docs/x.md", "content": "x"}, "docs/x.md"),
        (
            "before_tool_replace",
            {"file_path": "README.md", "old_string": "a", "new_string": "b"},
            "README.md",
        ),
        ("before_tool_shell", {"command": "echo x > docs/s.md"}, "docs/s.md"),
    ],
    ids=["write_file", "replace", "run_shell_command"],
)
def test_a_write_out_of_scope_is_a_scope_violation(
    root: Path, name: str, tool_input: dict[str, object], outside: str
) -> None:
    select(root)
    reason = gate(fixture(name, root, tool_input=tool_input)).denial()
    assert reason.startswith(f"Scope Violation: INT-001 is not authorized to edit {outside}")
    assert reason.endswith(
        "Request scope expansion. To ask a person for it, call "
        "mcp_paw_request_scope_expansion(pattern, reason)."
    )
    assert "mutation" not in events(root)


def test_a_shell_write_in_scope_is_allowed_and_recorded_after(root: Path) -> None:
    select(root)
    gate(fixture("before_tool_shell", root)).allowed()
    assert gate(fixture("after_tool_shell", root)).code == 0


def test_the_shell_s_dir_path_places_a_relative_write(root: Path) -> None:
    select(root)
    inside = tool_call("before_tool_shell", root, command="echo x > y.txt", dir_path="src/auth")
    gate(inside).allowed()
    outside = tool_call("before_tool_shell", root, command="echo x > y.txt", dir_path="docs")
    assert "docs/y.txt" in gate(outside).denial()
    unreadable = tool_call("before_tool_shell", root, command="echo x > y.txt", dir_path=["docs"])
    assert "the dir_path of run_shell_command is not a path" in gate(unreadable).denial()


def test_reading_needs_no_selection(root: Path) -> None:
    gate(fixture("before_tool_read_file", root)).allowed()
    assert records(root) == []


@pytest.mark.parametrize(
    ("tool", "kind"),
    [
        (SELECT, tools.HANDSHAKE),
        (f"mcp_paw_{REQUEST_SCOPE_TOOL}", tools.SCOPE_REQUEST),
        *[(f"mcp_paw_{name}", tools.READ_ONLY) for name in READ_ONLY_TOOLS],
    ],
)
def test_paw_s_own_tools_are_recognised_under_gemini_s_names(tool: str, kind: str) -> None:
    assert tools.classify(tool) == kind


def test_paw_s_read_only_tools_need_no_selection(root: Path) -> None:
    context = fixture(
        "before_tool_mcp_select",
        root,
        tool_name="mcp_paw_paw_get_context",
        tool_input={"feature_slug": "auth", "agent_name": "coder"},
    )
    gate(context).allowed()


def test_an_mcp_tool_of_another_server_is_mutating_before_a_selection(root: Path) -> None:
    other = fixture("before_tool_mcp_select", root, tool_name="mcp_github_create_issue")
    assert NO_INTENT in gate(other).denial()


def test_session_start_tells_the_model_and_the_person(root: Path) -> None:
    started = gate(fixture("session_start", root))
    context = started.context("SessionStart")
    assert "## Governance (paw-tui)" in context and "INT-001" in context
    assert started.json["systemMessage"].startswith("paw-tui governs this repository")


def test_the_prompt_gets_governance_and_is_never_blocked(root: Path) -> None:
    context = gate(fixture("before_agent", root)).context("BeforeAgent")
    assert "## Governance (paw-tui)" in context


def test_after_agent_is_ignored(root: Path) -> None:
    select(root)
    before = records(root)
    result = gate(fixture("after_agent", root))
    assert (result.code, result.out, result.err) == (0, "", "")
    assert records(root) == before


def test_session_end_releases_the_intent(root: Path) -> None:
    select(root)
    ended = gate(fixture("session_end", root))
    assert (ended.code, ended.out) == (0, "")
    assert events(root)[-1] == "session_released"
    assert NO_INTENT in gate(fixture("before_tool_write_file", root)).denial()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"hook_event_name": None}, "the payload has no hook_event_name"),
        (
            {"hook_event_name": "BeforeEverything"},
            "unknown Gemini CLI hook event 'BeforeEverything'",
        ),
        ({"session_id": ""}, "the payload has no session_id"),
        ({"session_id": 7}, "the payload has no session_id"),
        ({"tool_name": None}, "the payload has no tool_name"),
        ({"tool_input": ["x"]}, "the tool_input of write_file is not an object"),
        ({"tool_input": "{not json"}, "the tool_input of write_file is not valid JSON"),
        (
            {"tool_input": {"content": "x"}},
            "the file_path or path of write_file is not a usable path",
        ),
        ({"cwd": 42}, "the payload's cwd is not a usable path"),
        ({"cwd": "/tmp/a\nb"}, "the payload's cwd holds a control character"),
    ],
)
def test_a_malformed_tool_payload_is_denied_naming_the_problem(
    root: Path, change: dict[str, object], named: str
) -> None:
    data = fixture("before_tool_write_file", root)
    for key, value in change.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    reason = gate(data).denial()
    assert reason.startswith("paw-tui policy: cannot classify this event"), reason
    assert named in reason, reason


def test_a_shell_call_without_a_command_is_denied(root: Path) -> None:
    reason = gate(tool_call("before_tool_shell", root, description="nothing")).denial()
    assert "run_shell_command has no command to run" in reason


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b"\xff\xfe"])
def test_bytes_that_are_not_a_json_object_are_denied_on_gemini_s_channel(raw: bytes) -> None:
    assert gate(raw).denial().startswith("paw-tui policy: the hook payload")


def test_a_hook_configured_for_one_event_refuses_another(root: Path) -> None:
    reason = gate(fixture("after_tool_replace", root), event="pre_tool").denial()
    assert "the payload is a AfterTool event but the hook was configured for pre_tool" in reason


@pytest.mark.parametrize(("name", "event", "hook"), [
    ("before_agent", "prompt", "BeforeAgent"),
    ("session_start", "session_start", "SessionStart"),
])  # fmt: skip
def test_a_broken_prompt_or_start_event_gets_context_not_a_block(
    root: Path, name: str, event: str, hook: str
) -> None:
    broken = fixture(name, root, session_id=None)
    result = gate(broken, event=event)
    context = result.context(hook)
    assert context.startswith("Orchestration state unavailable") and "session_id" in context
    assert result.json["systemMessage"] == context  # the person is told too


def test_broken_state_at_the_prompt_is_said_not_blocked(root: Path) -> None:
    (root / ".orchestration" / "active_intents.yaml").write_text("active_intents: [", "utf-8")
    context = gate(fixture("before_agent", root), event="prompt").context("BeforeAgent")
    assert "active_intents.yaml" in context
    gate(fixture("before_tool_read_file", root)).allowed()  # reading stays possible
    reason = gate(fixture("before_tool_write_file", root)).denial()
    assert reason.startswith("Orchestration state unavailable") and "active_intents.yaml" in reason


# --- the hook command ---------------------------------------------------------------------


def test_the_hook_command_survives_gemini_s_settings_expansion() -> None:
    """Gemini replaces $NAME and ${NAME:-default} in settings before it loads .env."""
    command = hook_command("pre_tool")
    assert "${" not in command
    names = set(re.findall(r"\$(\w+)", command))
    assert names == {commands.HOOK_ENV, "1"}, names
    assert gemini_expand(command, {}) == command
    hook = "/opt/paw state/hook"
    assert gemini_expand(command, {commands.HOOK_ENV: hook}) == command.replace(
        f"${commands.HOOK_ENV}", hook
    )
    assert commands.is_gate_command(command)


def _run_hook(command: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"]}
    return subprocess.run(
        ["bash", "-c", command], input="{}", capture_output=True, text=True, env={**base, **env}
    )


@pytest.mark.parametrize("expanded", [False, True], ids=["by bash", "by gemini first"])
def test_the_hook_command_runs_this_machine_s_paw_tui_and_fails_closed(
    tmp_path: Path, expanded: bool
) -> None:
    stub = tmp_path / "hook"
    stub.write_text('#!/bin/sh\necho "{\\"args\\": \\"$*\\"}"\nexit "${STUB_EXIT:-0}"\n', "utf-8")
    stub.chmod(0o755)
    command = hook_command("pre_tool")
    if expanded:
        command = gemini_expand(command, {commands.HOOK_ENV: str(stub)})
    ran = _run_hook(command, {commands.HOOK_ENV: str(stub)})
    assert ran.returncode == 0 and json.loads(ran.stdout) == {
        "args": "gate --client gemini-cli --event pre_tool"
    }
    crashed = _run_hook(command, {commands.HOOK_ENV: str(stub), "STUB_EXIT": "1"})
    assert crashed.returncode == 2 and "paw-tui policy:" in crashed.stderr
    assert "(exit 1)" in crashed.stderr
    if not expanded:  # no PAW_TUI_HOOK and no paw-tui on the PATH: a deny saying why
        missing = _run_hook(command, {})
        assert missing.returncode == 2 and missing.stdout == ""
        assert "paw-tui install gemini-cli" in missing.stderr


@pytest.mark.parametrize(
    "tool", ["write_file", "replace", "run_shell_command", "save_memory", SELECT,
             "mcp_github_create_issue", "SomethingNew", "read_file_and_write"],
)  # fmt: skip
def test_the_before_tool_matcher_reaches_every_tool_that_may_mutate(tool: str) -> None:
    assert re.search(pre_tool_matcher(), tool)


@pytest.mark.parametrize("tool", ["read_file", "glob", "grep_search", "list_directory"])
def test_the_before_tool_matcher_skips_read_only_tools(tool: str) -> None:
    assert not re.search(pre_tool_matcher(), tool)


def test_the_after_tool_matcher_covers_file_and_shell_tools() -> None:
    matcher = post_tool_matcher()
    assert all(re.search(matcher, t) for t in ("write_file", "replace", "run_shell_command"))
    assert not re.search(matcher, "read_file")


# --- paw-tui install gemini-cli -----------------------------------------------------------


def settings_of(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / ".gemini" / "settings.json").read_text("utf-8"))
    return data


def install(run_cli: RunCli, root: Path, *extra: str) -> Any:
    return run_cli("install", CLIENT, *extra, cwd=root)


def ours(kind: str) -> dict[str, object]:
    return {
        "name": HOOK_NAME,
        "type": "command",
        "command": hook_command(kind),
        "timeout": 10000,
        "env": {"BASH_ENV": ""},
    }


def test_install_writes_the_hooks_the_server_and_this_machine_s_env(
    root: Path, run_cli: RunCli
) -> None:
    result = install(run_cli, root)
    assert result.code == 0, result.err
    states = installed_states(result.out)
    for name in ("settings.json", ".env", ".gitignore"):
        assert states[str(root / ".gemini" / name)] == "created"
    settings = settings_of(root)
    hooks = settings["hooks"]
    assert list(hooks) == list(EVENTS)
    assert hooks["BeforeTool"] == [{"matcher": pre_tool_matcher(), "hooks": [ours("pre_tool")]}]
    assert hooks["AfterTool"] == [{"matcher": post_tool_matcher(), "hooks": [ours("post_tool")]}]
    for event in ("SessionStart", "BeforeAgent", "SessionEnd"):
        assert hooks[event] == [{"hooks": [ours(EVENTS[event])]}]
    mcp = commands.portable_mcp_command()
    assert settings["mcpServers"] == {"paw": {"trust": True, "command": mcp[0], "args": mcp[1:]}}
    text = (root / ".gemini" / "settings.json").read_text("utf-8")
    assert commands.hook_script_path() not in text  # nothing of this machine is committed
    env = (root / ".gemini" / ".env").read_text("utf-8")
    assert f"{commands.HOOK_ENV}={commands.hook_script_path()}\n" in env
    assert "/.env" in (root / ".gemini" / ".gitignore").read_text("utf-8").splitlines()
    assert "TRUST_FOLDER" in result.out and "GEMINI_CLI_TRUST_WORKSPACE=true" in result.out
    assert "not .gemini/.env" in result.out


def test_install_is_idempotent(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    again = install(run_cli, root)
    assert set(installed_states(again.out).values()) == {"unchanged"}, again.out


def test_install_keeps_what_is_not_ours_and_replaces_ours_in_place(
    root: Path, run_cli: RunCli
) -> None:
    gemini = root / ".gemini"
    gemini.mkdir()
    theirs = {"name": "lint", "type": "command", "command": "./lint.sh"}
    old = {"name": "paw", "type": "command", "command": '"$PAW_TUI_HOOK" gate --client gemini-cli'}
    (gemini / "settings.json").write_text(
        "{\n  // the team's settings\n"
        + json.dumps(
            {
                "general": {"vimMode": True},
                "hooks": {
                    "BeforeTool": [
                        {"matcher": "write_file", "hooks": [theirs]},
                        {"matcher": ".*", "hooks": [old, theirs]},
                    ],
                    "AfterAgent": [{"hooks": [theirs]}],
                },
                "mcpServers": {"github": {"command": "gh-mcp"}, "paw": {"timeout": 5000}},
            }
        )[1:],
        "utf-8",
    )
    (gemini / ".env").write_text(
        "GEMINI_API_KEY=abc\nexport PAW_TUI_HOOK=/old/hook\n# keep me\n", "utf-8"
    )
    (gemini / ".gitignore").write_text("tmp/\n", "utf-8")
    result = install(run_cli, root)
    assert result.code == 0, result.err
    settings = settings_of(root)
    assert settings["general"] == {"vimMode": True}
    assert settings["hooks"]["BeforeTool"] == [
        {"matcher": "write_file", "hooks": [theirs]},
        {"matcher": pre_tool_matcher(), "hooks": [ours("pre_tool")]},
        {"matcher": ".*", "hooks": [theirs]},
    ]
    assert settings["hooks"]["AfterAgent"] == [{"hooks": [theirs]}]
    assert settings["mcpServers"]["github"] == {"command": "gh-mcp"}
    assert settings["mcpServers"]["paw"]["timeout"] == 5000  # the person's own field stays
    assert settings["mcpServers"]["paw"]["trust"] is True
    lines = (gemini / ".env").read_text("utf-8").splitlines()
    assert lines[:3] == [
        "GEMINI_API_KEY=abc",
        f"{commands.HOOK_ENV}={commands.hook_script_path()}",
        "# keep me",
    ]
    assert (gemini / ".gitignore").read_text("utf-8") == "tmp/\n/.env\n"
    assert "held // comments: they are not kept" in result.out


def test_install_says_which_env_file_gemini_stops_reading(root: Path, run_cli: RunCli) -> None:
    (root / ".env").write_text("PAW_TEST_API_KEY=abc\nexport PAW_TEST_REGION='eu'\n", "utf-8")
    result = install(run_cli, root)
    assert f"before {root / '.env'}, so Gemini no longer reads " in result.out, result.out
    assert "PAW_TEST_API_KEY, PAW_TEST_REGION from it here" in result.out
    again = install(run_cli, root)  # said once, when .gemini/.env is created
    assert f"before {root / '.env'}" not in again.out
    _code, rows = doctor_rows(run_cli, root)  # doctor keeps saying it while it is true
    assert any("PAW_TEST_API_KEY, PAW_TEST_REGION from it" in d for _s, d in rows), rows
    with (root / ".gemini" / ".env").open("a", encoding="utf-8") as handle:
        handle.write("PAW_TEST_API_KEY=abc\n")
    _code, rows = doctor_rows(run_cli, root)
    assert any(f"not {root / '.env'}: PAW_TEST_REGION from it are" in d for _s, d in rows), rows


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"hooks": [}', "settings.json:1: not valid JSON"),
        ('{"hooks": []}', "'hooks' in"),
        ('{"hooks": {"BeforeTool": {}}}', "'hooks.BeforeTool' in"),
        ('{"mcpServers": []}', "'mcpServers' in"),
        ("[1]", "expected a JSON object"),
    ],
)
def test_a_settings_file_that_cannot_be_merged_stops_everything(
    root: Path, run_cli: RunCli, text: str, says: str
) -> None:
    (root / ".gemini").mkdir()
    (root / ".gemini" / "settings.json").write_text(text, "utf-8")
    result = install(run_cli, root)
    assert result.code != 0
    assert says in result.err and "nothing was changed" in result.err, result.err
    assert (root / ".gemini" / "settings.json").read_text("utf-8") == text
    assert not (root / ".gemini" / ".env").exists()


# --- paw-tui doctor -----------------------------------------------------------------------


def doctor_rows(
    run_cli: RunCli, root: Path, env: dict[str, str] | None = None
) -> tuple[int, list[tuple[str, str]]]:
    result = run_cli("doctor", "--json", cwd=root, env=env)
    checks = (CLIENT, f"{CLIENT} canary")
    rows = [(r["status"], r["detail"]) for r in json.loads(result.out) if r["check"] in checks]
    return result.code, rows


def test_doctor_says_nothing_without_a_gemini_folder(root: Path, run_cli: RunCli) -> None:
    assert doctor_rows(run_cli, root)[1] == []


def test_doctor_after_install_runs_the_canary(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    trusted = Path(os.environ["HOME"]) / ".gemini" / "trustedFolders.json"
    trusted.parent.mkdir(parents=True, exist_ok=True)
    trusted.write_text(json.dumps({str(root): "TRUST_FOLDER"}), "utf-8")
    _code, rows = doctor_rows(run_cli, root)
    assert any(s == "ok" and "the gate recorded that deny" in d for s, d in rows), rows
    assert ("ok", "Gemini CLI trusts this folder") in rows
    assert all(status == "ok" for status, _ in rows), rows


@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"hooksConfig": {"enabled": False}}, "hooksConfig.enabled is false"),
        ({"hooksConfig": {"disabled": [HOOK_NAME]}}, "'paw-tui' is in hooksConfig.disabled"),
        ({"mcp": {"excluded": ["paw"]}}, "the paw MCP server is turned off"),
    ],
)
def test_doctor_fails_when_gemini_s_own_settings_turn_governance_off(
    root: Path, run_cli: RunCli, settings: dict[str, object], says: str
) -> None:
    install(run_cli, root)
    user = Path(os.environ["HOME"]) / ".gemini" / "settings.json"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(json.dumps(settings), "utf-8")
    code, rows = doctor_rows(run_cli, root)
    assert code == 2
    assert any(status == "FAIL" and says in detail for status, detail in rows), rows


def test_doctor_fails_when_the_paw_server_was_disabled_in_gemini(
    root: Path, run_cli: RunCli
) -> None:
    install(run_cli, root)
    enablement = Path(os.environ["HOME"]) / ".gemini" / "mcp-server-enablement.json"
    enablement.parent.mkdir(parents=True, exist_ok=True)
    enablement.write_text(json.dumps({"paw": {"enabled": False}}), "utf-8")
    code, rows = doctor_rows(run_cli, root)
    assert code == 2
    assert any(s == "FAIL" and "'/mcp enable paw'" in d for s, d in rows), rows


def test_doctor_fails_in_a_folder_gemini_does_not_trust(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    trusted = Path(os.environ["HOME"]) / ".gemini" / "trustedFolders.json"
    trusted.parent.mkdir(parents=True, exist_ok=True)
    trusted.write_text(json.dumps({str(root.parent): "DO_NOT_TRUST"}), "utf-8")
    code, rows = doctor_rows(run_cli, root)
    assert code == 2 and any(s == "FAIL" and "not to trust" in d for s, d in rows), rows


def test_doctor_fails_when_the_hook_lets_the_canary_through(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    quiet = root / "quiet-hook"
    quiet.write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n", "utf-8")
    quiet.chmod(0o755)
    env_file = root / ".gemini" / ".env"
    env_file.write_text(f"{commands.HOOK_ENV}={quiet}\n", "utf-8")
    code, rows = doctor_rows(run_cli, root)
    assert code == 2
    assert any(s == "FAIL" and "Gemini CLI would run the tool" in d for s, d in rows), rows


def test_doctor_fails_when_gemini_s_expansion_leaves_the_hook_no_paw_tui(
    root: Path, run_cli: RunCli
) -> None:
    """The shared ``"${PAW_TUI_HOOK:-paw-tui}"`` form, expanded by Gemini before it reads
    .env, always runs the paw-tui on the PATH: with none there, every call is denied."""
    install(run_cli, root)
    settings = settings_of(root)
    shared = commands.portable_hook_command(CLIENT)
    settings["hooks"]["BeforeTool"][0]["hooks"][0]["command"] = shared
    (root / ".gemini" / "settings.json").write_text(json.dumps(settings), "utf-8")
    code, rows = doctor_rows(run_cli, root, env={"PATH": "/usr/bin:/bin"})
    assert code == 2
    assert any(s == "FAIL" and "cannot run paw-tui here" in d for s, d in rows), rows


def test_doctor_fails_without_a_before_tool_gate(root: Path, run_cli: RunCli) -> None:
    install(run_cli, root)
    settings = settings_of(root)
    del settings["hooks"]["BeforeTool"]
    (root / ".gemini" / "settings.json").write_text(json.dumps(settings), "utf-8")
    code, rows = doctor_rows(run_cli, root)
    assert code == 2
    assert (
        "FAIL",
        "no gate hook on BeforeTool in .gemini/settings.json: Gemini's tool calls run unseen",
    ) in rows


@pytest.mark.parametrize("where", ["project", "user", "enablement"])
def test_a_paw_server_turned_off_in_gemini_is_named_in_every_deny(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """Without the server the handshake tool does not exist: the deny and the person's
    session-start notice say how to turn it back on, in Gemini's words."""
    home = tmp_path / "gemini-home"
    (home / ".gemini").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    if where == "project":
        (root / ".gemini").mkdir(exist_ok=True)
        (root / ".gemini" / "settings.json").write_text('{"mcp": {"excluded": ["paw"]}}')
    elif where == "user":
        (home / ".gemini" / "settings.json").write_text('{"mcp": {"allowed": ["other"]}}')
    else:
        (home / ".gemini" / "mcp-server-enablement.json").write_text('{"paw": {"enabled": false}}')
    write = tool_call("before_tool_write_file", root, file_path=str(root / "src/auth/a.py"))
    reason = gate(write).denial()
    assert "The paw MCP server is turned off here" in reason and "/mcp enable paw" in reason
    started = gate(fixture("session_start", root))
    assert "/mcp enable paw" in started.json["systemMessage"]
