"""The gate with real Claude Code payloads (DESIGN §5, §6, §7; hooks.md §1).

Protocol tests run the installed ``paw-tui gate`` as a process (stdin JSON; stdout, stderr
and the exit code checked); the many policy cases call ``decide_payload`` in process, which
is the same code path after the bytes are read.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gatekit import (
    INT001_SCOPE,
    MANDATE,
    NO_INTENT,
    assert_allow,
    assert_claude_deny,
    bash_payload,
    claude_payload,
    events,
    gate,
    paw_state_dir,
    records,
    root,
    run_gate,
    scope_violation,
    select_payload,
    session_file,
    write_payload,
    write_workspace,
)

if TYPE_CHECKING:
    from conftest import Workspace


def protected(path: str) -> str:
    """The deny reason of a protected path (DESIGN §2): never an invitation to ask for scope."""
    return f"{path} is protected: agents never write it."


def violation(intent_id: str, path: str, scope: str) -> str:
    return scope_violation(intent_id, path, scope)


def selected(root: Path, intent_id: str, session: str = "s-alpha") -> Path:
    assert_allow(gate(select_payload(root, intent_id, session=session)))
    return root


# -- the protocol, through the real process -----------------------------------------------------------


def test_fixtures_are_shaped_like_claude_code_payloads() -> None:
    from gatekit import DATA

    names = sorted(p.stem for p in DATA.glob("*.json"))
    assert len(names) == 14
    for name in names:
        payload = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
        for key in ("session_id", "transcript_path", "cwd", "hook_event_name"):
            assert isinstance(payload[key], str), (name, key)
        if payload["hook_event_name"] in ("PreToolUse", "PostToolUse"):
            assert {"tool_name", "tool_input", "tool_use_id", "permission_mode"} <= set(payload), (
                name
            )
        if payload["hook_event_name"] == "PostToolUse":
            assert isinstance(payload["tool_response"], dict) and "duration_ms" in payload
        if payload["hook_event_name"] == "SessionStart":
            assert payload["source"] in ("startup", "resume")


def test_deny_before_selection_is_claude_code_json_exit_2_and_stderr(root: Path) -> None:
    result = run_gate(claude_payload("pre_tool_use_write", root), cwd=root)
    reason = assert_claude_deny(result, startswith=NO_INTENT)
    assert "select_active_intent" in reason
    assert "INT-001 (JWT Authentication Migration)" in reason
    (record,) = records(root)
    assert record["event"] == "tool_denied"
    assert record["tool"] == "Write"
    assert record["client"] == "claude-code"
    assert record["paths"] == ["src/auth/jwt.py"]  # root-relative, even before any selection
    assert "intent_id" not in record
    assert record["reason"] == reason


def test_handshake_then_allowed_write_prints_nothing(root: Path) -> None:
    result = run_gate(claude_payload("pre_tool_use_select_active_intent", root), cwd=root)
    assert_allow(result)
    assert result.err == ""
    result = run_gate(claude_payload("pre_tool_use_write", root), cwd=root)
    assert_allow(result)
    selected_record, allowed = records(root)
    assert selected_record["event"] == "intent_selected"
    assert selected_record["session_id"] == "9f3c2a51-7d4e-4b8a-a1c6-2e5f0d8b7c13"
    assert allowed["event"] == "tool_allowed"
    assert (allowed["intent_id"], allowed["paths"], allowed["decision"]) == (
        "INT-001",
        ["src/auth/jwt.py"],
        "allow",
    )


def test_out_of_scope_write_through_the_process(root: Path) -> None:
    run_gate(claude_payload("pre_tool_use_select_active_intent", root), cwd=root)
    payload = claude_payload(
        "pre_tool_use_write", root, tool_input={"file_path": f"{root}/docs/x.md"}
    )
    assert_claude_deny(run_gate(payload, cwd=root), violation("INT-001", "docs/x.md", INT001_SCOPE))


def test_refused_selection_is_a_deny_carrying_the_refusal(root: Path) -> None:
    from gatekit import AVAILABLE

    payload = claude_payload(
        "pre_tool_use_select_active_intent", root, tool_input={"intent_id": "INT-404"}
    )
    assert_claude_deny(
        run_gate(payload, cwd=root), f"Unknown intent 'INT-404'. Available intents: {AVAILABLE}."
    )
    assert events(root) == ["selection_refused"]


def test_session_start_injects_the_mandate_and_selectable_intents(root: Path) -> None:
    result = run_gate(claude_payload("session_start_startup", root), cwd=root)
    assert result.code == 0
    data = result.json
    assert set(data) == {"hookSpecificOutput", "systemMessage"}
    # the person is told too, not only the model
    assert str(data["systemMessage"]).startswith(
        "paw-tui governs this repository: 4 intent(s) can be selected "
        "(INT-001, INT-002, INT-006, INT-007); the agent selects one before it changes any file."
    )
    specific = data["hookSpecificOutput"]
    assert isinstance(specific, dict)
    assert set(specific) == {"hookEventName", "additionalContext"}
    assert specific["hookEventName"] == "SessionStart"
    context = specific["additionalContext"]
    assert MANDATE in context
    assert (
        "- INT-001 — JWT Authentication Migration: Move the API from Basic Auth to JWT." in context
    )
    assert "- INT-002 — Documentation Refresh" in context
    for not_selectable in ("INT-003", "INT-004", "INT-005"):
        assert not_selectable not in context
    assert "<intent_context" not in context
    assert "ToolSearch" in context  # how this client reaches a deferred MCP tool
    assert records(root) == []  # context is not a decision


def test_session_start_warns_the_person_when_the_paw_server_was_declined(root: Path) -> None:
    """Declining "New MCP server found: paw" disables the handshake: the person hears it at
    session start, and every deny tells the model why it cannot select."""
    local = root / ".claude" / "settings.local.json"
    local.parent.mkdir(exist_ok=True)
    local.write_text('{"disabledMcpjsonServers": ["paw"]}', encoding="utf-8")
    started = run_gate(claude_payload("session_start_startup", root), cwd=root)
    notice = str(started.json["systemMessage"])
    assert "the paw MCP server is turned off here" in notice and "/mcp, then paw" in notice
    denied = gate(write_payload(root, "src/auth/a.py"))
    assert denied.denied
    assert "The paw MCP server is turned off here" in (denied.reason or "")
    assert "/mcp, then paw, then Enable" in (denied.reason or "")


def test_user_prompt_submit_after_selection_carries_the_intent_context(root: Path) -> None:
    run_gate(claude_payload("pre_tool_use_select_active_intent", root), cwd=root)
    result = run_gate(claude_payload("user_prompt_submit", root), cwd=root)
    assert result.code == 0
    specific = result.json["hookSpecificOutput"]
    assert isinstance(specific, dict)
    assert specific["hookEventName"] == "UserPromptSubmit"
    context = specific["additionalContext"]
    assert "Active intent: INT-001 — JWT Authentication Migration (IN_PROGRESS)." in context
    assert MANDATE not in context
    assert '<intent_context id="INT-001" status="IN_PROGRESS">' in context
    assert "<pattern>src/auth/**</pattern>" in context
    assert "<constraint>Must not use external auth providers</constraint>" in context
    assert context.rstrip().endswith("</intent_context>")
    assert "permissionDecision" not in result.out


def test_session_start_resume_reinjects_the_active_intent(root: Path) -> None:
    run_gate(claude_payload("pre_tool_use_select_active_intent", root), cwd=root)
    result = run_gate(claude_payload("session_start_resume", root), cwd=root)
    assert result.code == 0
    assert '<intent_context id="INT-001"' in (result.context or "")


def test_broken_yaml_is_context_on_session_start_and_a_deny_on_pre_tool(ws: Workspace) -> None:
    root = write_workspace(ws.root, "active_intents:\n  - id: [\n")
    for name in ("session_start_startup", "user_prompt_submit"):
        result = run_gate(claude_payload(name, root), cwd=root)
        assert result.code == 0, result.err
        assert "Orchestration state unavailable: .orchestration/active_intents.yaml:" in (
            result.context or ""
        )
    reason = assert_claude_deny(run_gate(claude_payload("pre_tool_use_write", root), cwd=root))
    assert reason.startswith("Orchestration state unavailable: .orchestration/active_intents.yaml:")


def test_session_end_releases_the_session(root: Path) -> None:
    run_gate(claude_payload("pre_tool_use_select_active_intent", root), cwd=root)
    sid = "9f3c2a51-7d4e-4b8a-a1c6-2e5f0d8b7c13"
    assert session_file(root, sid).exists()
    result = run_gate(claude_payload("session_end", root), cwd=root)
    assert (result.code, result.out) == (0, "")
    assert not session_file(root, sid).exists()
    record = records(root)[-1]
    assert (record["event"], record["session_id"], record["intent_id"]) == (
        "session_released",
        sid,
        "INT-001",
    )
    # The intent is free for another session now.
    assert_allow(gate(select_payload(root, "INT-001", session="s-next")))


def test_post_tool_use_write_records_the_mutation(root: Path) -> None:
    run_gate(claude_payload("pre_tool_use_select_active_intent", root), cwd=root)
    payload = claude_payload("post_tool_use_write", root)
    tool_input = payload["tool_input"]
    assert isinstance(tool_input, dict)
    content = tool_input["content"]
    target = root / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text(content, encoding="utf-8")
    result = run_gate(payload, cwd=root)
    assert (result.code, result.out) == (0, "")
    record = records(root)[-1]
    assert record["event"] == "mutation"
    assert record["tool"] == "Write"
    assert record["paths"] == ["src/auth/jwt.py"]
    assert record["intent_id"] == "INT-001"
    assert record["content_hash"] == "sha256:" + hashlib.sha256(target.read_bytes()).hexdigest()
    assert record["ranges"] == [{"start_line": 1, "end_line": 5}]
    intent_map = (root / ".orchestration" / "intent_map.md").read_text(encoding="utf-8")
    assert "## INT-001: JWT Authentication Migration" in intent_map
    assert "`src/auth/jwt.py`" in intent_map
    assert hashlib.sha256(target.read_bytes()).hexdigest()[:12] in intent_map


def test_post_tool_use_edit_records_the_lines_new_string_occupies(root: Path) -> None:
    selected(root, "INT-001", session="9f3c2a51-7d4e-4b8a-a1c6-2e5f0d8b7c13")
    payload = claude_payload("post_tool_use_edit", root)
    target = root / "src" / "auth" / "basic.py"
    target.parent.mkdir(parents=True)
    tool_response, tool_input = payload["tool_response"], payload["tool_input"]
    assert isinstance(tool_response, dict) and isinstance(tool_input, dict)
    original = tool_response["originalFile"]
    edited = original.replace(tool_input["old_string"], tool_input["new_string"])
    target.write_text(edited, encoding="utf-8")
    result = run_gate(payload, cwd=root)
    assert (result.code, result.out) == (0, "")
    record = records(root)[-1]
    assert (record["event"], record["tool"], record["paths"]) == (
        "mutation",
        "Edit",
        ["src/auth/basic.py"],
    )
    assert record["content_hash"] == "sha256:" + hashlib.sha256(edited.encode()).hexdigest()
    assert record["ranges"] == [{"start_line": 4, "end_line": 5}]


def test_intent_map_says_whether_a_file_changed_since(root: Path) -> None:
    selected(root, "INT-001")
    target = root / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text("a\n", encoding="utf-8")
    gate(
        claude_payload(
            "post_tool_use_write", root, session="s-alpha", tool_input={"content": "a\n"}
        )
    )
    intent_map = (root / ".orchestration" / "intent_map.md").read_text(encoding="utf-8")
    (row,) = [line for line in intent_map.splitlines() if line.startswith("| `src/auth/jwt.py` |")]
    assert row.endswith("| no |"), row


def test_the_context_block_lists_touched_files_and_whether_they_changed(root: Path) -> None:
    selected(root, "INT-001")
    target = root / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text("a\n", encoding="utf-8")
    gate(
        claude_payload(
            "post_tool_use_write", root, session="s-alpha", tool_input={"content": "a\n"}
        )
    )
    digest = "sha256:" + hashlib.sha256(b"a\n").hexdigest()
    context = gate(claude_payload("user_prompt_submit", root, session="s-alpha")).context or ""
    assert f'<file path="src/auth/jwt.py" hash="{digest}" changed_since="no" />' in context
    target.write_text("b\n", encoding="utf-8")
    context = gate(claude_payload("user_prompt_submit", root, session="s-alpha")).context or ""
    assert f'<file path="src/auth/jwt.py" hash="{digest}" changed_since="yes" />' in context
    assert 'event="mutation"' in context


# -- handshake tool names -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tool_name",
    ["mcp__paw__select_active_intent", "mcp__other__select_active_intent", "select_active_intent"],
)
def test_any_server_s_select_active_intent_is_the_handshake(root: Path, tool_name: str) -> None:
    assert_allow(gate(select_payload(root, "INT-007", tool_name=tool_name)))
    (record,) = records(root)
    assert (record["event"], record["session_id"], record["intent_id"]) == (
        "intent_selected",
        "s-alpha",
        "INT-007",
    )
    assert_allow(gate(write_payload(root, "src/x.py")))


@pytest.mark.parametrize(
    "tool_name",
    [
        "mcp__paw__paw_get_context",
        "mcp__paw__list_intents",
        "mcp__paw__check_scope",
        "mcp__paw__get_handoff_context",
        "mcp__other__list_intents",
    ],
)
def test_the_server_s_other_tools_are_read_only(root: Path, tool_name: str) -> None:
    payload = claude_payload(
        "pre_tool_use_unknown_mcp",
        root,
        session="s-alpha",
        tool_name=tool_name,
        replace_input={"feature_slug": "x", "agent_name": "y"},
    )
    assert_allow(gate(payload))
    assert records(root) == []


# -- read-only and unknown tools ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tool_name", ["Read", "Glob", "Grep", "LS", "WebFetch", "TodoWrite", "Task"]
)
def test_read_only_tools_pass_without_a_record(root: Path, tool_name: str) -> None:
    assert_allow(
        gate(claude_payload("pre_tool_use_read", root, session="s-alpha", tool_name=tool_name))
    )
    assert records(root) == []


def test_read_through_the_process(root: Path) -> None:
    assert_allow(run_gate(claude_payload("pre_tool_use_read", root), cwd=root))
    assert records(root) == []


def test_log_reads_records_read_only_tools(ws: Workspace) -> None:
    root = write_workspace(ws.root, governance="log_reads: true\n")
    assert_allow(gate(claude_payload("pre_tool_use_read", root, session="s-alpha")))
    (record,) = records(root)
    assert (record["event"], record["tool"], record["decision"]) == (
        "tool_allowed",
        "Read",
        "allow",
    )
    assert record["paths"] == ["src/auth/basic.py"]


def test_unknown_tools_need_an_intent(root: Path) -> None:
    payload = claude_payload("pre_tool_use_unknown_mcp", root, session="s-alpha")
    reason = assert_claude_deny(gate(payload), startswith=NO_INTENT)
    assert "mcp__github__create_issue" in reason
    selected(root, "INT-001")
    assert_allow(gate(payload))
    record = records(root)[-1]
    assert (record["event"], record["tool"], record["intent_id"]) == (
        "tool_allowed",
        "mcp__github__create_issue",
        "INT-001",
    )
    assert "paths" not in record


@pytest.mark.parametrize("tool_name", ["Workflow", "Monitor", "SomeFutureTool"])
def test_non_mcp_unknown_tools_are_mutating(root: Path, tool_name: str) -> None:
    payload = claude_payload(
        "pre_tool_use_unknown_mcp", root, session="s-alpha", tool_name=tool_name
    )
    assert_claude_deny(gate(payload), startswith=NO_INTENT)


def test_governance_can_reclassify_tools(ws: Workspace) -> None:
    root = write_workspace(
        ws.root, governance="tools:\n  read_only: [mcp__github__create_issue]\n  mutating: [Task]\n"
    )
    assert_allow(gate(claude_payload("pre_tool_use_unknown_mcp", root, session="s-alpha")))
    assert_claude_deny(
        gate(claude_payload("pre_tool_use_read", root, session="s-alpha", tool_name="Task")),
        startswith=NO_INTENT,
    )


# -- every file tool ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fixture", "path"),
    [
        ("pre_tool_use_write", "src/auth/jwt.py"),
        ("pre_tool_use_edit", "src/auth/basic.py"),
        ("pre_tool_use_multiedit", "src/auth/basic.py"),
        ("pre_tool_use_notebookedit", "src/auth/analysis.ipynb"),
    ],
)
def test_file_tools_before_and_after_selection(root: Path, fixture: str, path: str) -> None:
    payload = claude_payload(fixture, root, session="s-alpha")
    assert_claude_deny(gate(payload), startswith=NO_INTENT)
    assert records(root)[-1]["paths"] == [path]
    selected(root, "INT-001")
    assert_allow(gate(payload))
    assert records(root)[-1]["paths"] == [path]
    selected(root, "INT-002", session="s-docs")
    docs = claude_payload(fixture, root, session="s-docs")
    assert_claude_deny(gate(docs), violation("INT-002", path, "*.md"))


# -- scope ------------------------------------------------------------------------------------------------


def test_in_scope_allowed_out_of_scope_denied(root: Path) -> None:
    selected(root, "INT-001")
    assert_allow(gate(write_payload(root, "src/auth/a.py")))
    assert_allow(gate(write_payload(root, "tests/auth/test_a.py")))
    assert_claude_deny(
        gate(write_payload(root, "src/auth/legacy/old.py")),
        violation("INT-001", "src/auth/legacy/old.py", INT001_SCOPE),
    )
    assert_claude_deny(
        gate(write_payload(root, "src/other.py")),
        violation("INT-001", "src/other.py", INT001_SCOPE),
    )
    denied = records(root)[-1]
    assert (denied["event"], denied["intent_id"], denied["paths"]) == (
        "tool_denied",
        "INT-001",
        ["src/other.py"],
    )


def test_scope_is_anchored_at_the_root(root: Path) -> None:
    selected(root, "INT-002")
    assert_allow(gate(write_payload(root, "README.md")))
    assert_claude_deny(
        gate(write_payload(root, "docs/x.md")), violation("INT-002", "docs/x.md", "*.md")
    )


PROTECTED = [
    ".orchestration/x",
    ".orchestration/active_intents.yaml",
    ".orchestration/sessions/s-alpha.json",
    ".paw/instructions/a.md",
    ".git/config",
    ".GIT/config",
    ".Orchestration/x",
    ".paw/Instructions/a.md",
    "vendor/lib/.git/hooks/pre-commit",
]


@pytest.mark.parametrize("path", PROTECTED)
def test_protected_paths_are_denied_even_under_everything(root: Path, path: str) -> None:
    selected(root, "INT-006")
    # denied as protected: no scope request could ever open it
    assert_claude_deny(gate(write_payload(root, path)), protected(path))
    assert records(root)[-1]["paths"] == [path]


@pytest.mark.parametrize(
    "path",
    [".paw/work/auth/WorkflowContext.md", ".gitignore", ".github/workflows/ci.yml", "src/a.py"],
)
def test_near_misses_of_protected_paths_are_allowed(root: Path, path: str) -> None:
    selected(root, "INT-006")
    assert_allow(gate(write_payload(root, path)))


def test_a_git_file_is_protected_too(root: Path) -> None:
    (root / ".git").write_text("gitdir: ../elsewhere\n", encoding="utf-8")
    selected(root, "INT-006")
    assert_claude_deny(gate(write_payload(root, ".git")), protected(".git"))


def test_governance_protected_adds_paths_case_insensitively(ws: Workspace) -> None:
    root = write_workspace(ws.root, governance="protected: ['secrets/**']\n")
    selected(root, "INT-006")
    assert_claude_deny(gate(write_payload(root, "secrets/key.pem")), protected("secrets/key.pem"))
    assert_claude_deny(gate(write_payload(root, "Secrets/key.pem")), protected("Secrets/key.pem"))
    assert_claude_deny(gate(write_payload(root, ".git/config")), protected(".git/config"))


def test_path_escapes_with_dot_dot(root: Path) -> None:
    selected(root, "INT-006")
    outside = os.path.realpath(root.parent / "outside.txt")
    assert_claude_deny(
        gate(write_payload(root, f"{root}/../outside.txt")), violation("INT-006", outside, "**")
    )
    assert records(root)[-1]["paths"] == [outside]  # absolute when outside the root


def test_absolute_paths_outside_the_root(root: Path) -> None:
    selected(root, "INT-006")
    assert_claude_deny(
        gate(write_payload(root, "/etc/passwd")), violation("INT-006", "/etc/passwd", "**")
    )


def test_home_relative_paths_are_expanded(root: Path) -> None:
    selected(root, "INT-006")
    home = os.path.realpath(os.environ["HOME"])
    assert_claude_deny(
        gate(write_payload(root, "~/notes.txt")), violation("INT-006", f"{home}/notes.txt", "**")
    )


def test_a_symlink_pointing_outside(root: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "link").symlink_to(elsewhere, target_is_directory=True)
    (root / "dangling").symlink_to(elsewhere / "new.txt")
    selected(root, "INT-006")
    real = os.path.realpath(elsewhere)
    assert_claude_deny(
        gate(write_payload(root, "link/x.py")), violation("INT-006", f"{real}/x.py", "**")
    )
    assert_claude_deny(
        gate(write_payload(root, "dangling")), violation("INT-006", f"{real}/new.txt", "**")
    )


def test_a_symlink_inside_the_root_is_judged_by_its_target(root: Path) -> None:
    (root / "src" / "auth").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "src" / "auth" / "docs_link").symlink_to("../../docs", target_is_directory=True)
    selected(root, "INT-001")
    assert_claude_deny(
        gate(write_payload(root, "src/auth/docs_link/x.md")),
        violation("INT-001", "docs/x.md", INT001_SCOPE),
    )
    # Symlinks are followed before "..": src/auth/docs_link/.. is the root, not src/auth.
    assert_claude_deny(
        gate(write_payload(root, "src/auth/docs_link/../x.py")),
        violation("INT-001", "x.py", INT001_SCOPE),
    )


def test_windows_backslashes_are_normalised(root: Path) -> None:
    selected(root, "INT-001")
    assert_allow(gate(write_payload(root, f"{root}\\src\\auth\\x.py")))
    assert records(root)[-1]["paths"] == ["src/auth/x.py"]
    assert_claude_deny(
        gate(write_payload(root, "src\\auth\\..\\..\\docs\\x.md")),
        violation("INT-001", "docs/x.md", INT001_SCOPE),
    )
    outside = os.path.realpath(root.parent / "outside.txt")
    assert_claude_deny(
        gate(write_payload(root, "..\\outside.txt")), violation("INT-001", outside, INT001_SCOPE)
    )


def test_relative_paths_resolve_against_the_event_cwd(root: Path) -> None:
    (root / "src").mkdir()
    selected(root, "INT-001")
    payload = claude_payload(
        "pre_tool_use_write",
        root,
        session="s-alpha",
        cwd=root / "src",
        replace_input={"file_path": "auth/x.py", "content": "x"},
    )
    assert_allow(gate(payload))
    assert records(root)[-1]["paths"] == ["src/auth/x.py"]


# -- shell commands --------------------------------------------------------------------------------------


def test_shell_commands_are_denied_before_selection(root: Path) -> None:
    for command in ("echo x > src/a.py", "rm -rf src", "make build", "python script.py"):
        assert_claude_deny(gate(bash_payload(root, command)), startswith=NO_INTENT)


def test_provably_read_only_commands_run_before_selection(root: Path) -> None:
    """Looking around before choosing an intent, as the mandate asks (DESIGN §6)."""
    for command in ("ls", "git status", "cat README.md | head -5", "grep -rn TODO src"):
        assert_allow(gate(bash_payload(root, command)))
    assert records(root) == []  # read-only: not recorded


def test_the_fixture_bash_command_through_the_process(root: Path) -> None:
    gate(select_payload(root, "INT-007", session="9f3c2a51-7d4e-4b8a-a1c6-2e5f0d8b7c13"))
    result = run_gate(claude_payload("pre_tool_use_bash", root), cwd=root)
    assert_claude_deny(result, violation("INT-007", "docs/a.md", "src/**"))


@pytest.mark.parametrize(
    ("command", "denied_path"),
    [
        ("echo x > docs/a.md", "docs/a.md"),
        ("cat a.txt | tee -a notes.txt", "notes.txt"),
        ("cd docs && touch a.md", "docs/a.md"),
        ("cp src/a.py backup/a.py", "backup/a.py"),
        ("mv README.md src/README.md", "README.md"),
        ("rm -rf .git", ".git"),
        ("sed -i 's/a/b/' setup.cfg", "setup.cfg"),
        ("mkdir -p build/out", "build/out"),
        ("echo ok\necho x >> CHANGELOG.md", "CHANGELOG.md"),
    ],
)
def test_visible_shell_write_targets_are_scope_checked(
    root: Path, command: str, denied_path: str
) -> None:
    selected(root, "INT-007")
    expected = (
        protected(denied_path)
        if denied_path.startswith(".git")
        else violation("INT-007", denied_path, "src/**")
    )
    assert_claude_deny(gate(bash_payload(root, command)), expected)
    assert records(root)[-1]["tool"] == "Bash"


@pytest.mark.parametrize(
    "command",
    [
        "ls -la",
        "pytest -q 2>&1 | tail -5",
        "echo x > src/a.txt",
        "cd src && echo x > b.txt",
        "make build > /dev/null 2>&1",
        'python -c \'open("docs/x", "w")\'',
    ],
)
def test_shell_commands_without_out_of_scope_targets_are_allowed(root: Path, command: str) -> None:
    selected(root, "INT-007")
    assert_allow(gate(bash_payload(root, command)))
    record = records(root)[-1]
    assert (record["event"], record["tool"], record["intent_id"]) == (
        "tool_allowed",
        "Bash",
        "INT-007",
    )


def test_shell_targets_are_recorded_root_relative(root: Path) -> None:
    selected(root, "INT-007")
    assert_allow(gate(bash_payload(root, "echo x > src/a.txt && cp src/a.txt src/b.txt")))
    assert records(root)[-1]["paths"] == ["src/a.txt", "src/b.txt"]


# -- the ledger ----------------------------------------------------------------------------------------------


def test_every_record_carries_root_relative_paths(root: Path) -> None:
    gate(write_payload(root, "src/auth/a.py"))  # denied before selection
    gate(
        claude_payload("pre_tool_use_notebookedit", root, session="s-alpha")
    )  # denied before selection
    selected(root, "INT-001")
    gate(write_payload(root, "src/auth/a.py"))
    gate(write_payload(root, f"{root}\\tests\\auth\\t.py"))
    gate(write_payload(root, "docs/x.md"))
    with_paths = [r for r in records(root) if "paths" in r]
    assert [r["paths"] for r in with_paths] == [
        ["src/auth/a.py"],
        ["src/auth/analysis.ipynb"],
        ["src/auth/a.py"],
        ["tests/auth/t.py"],
        ["docs/x.md"],
    ]
    for record in records(root):
        assert record["v"] == 1
        prev = record["prev"]
        assert isinstance(prev, str)
        assert prev.startswith("sha256:")
        assert None not in record.values()


def test_the_ledger_chain_verifies_after_a_session(root: Path) -> None:
    from paw_tui.core.ledger.store import Ledger

    gate(claude_payload("session_start_startup", root, session="s-alpha"))
    gate(write_payload(root, "src/auth/a.py"))
    selected(root, "INT-002")
    gate(write_payload(root, "README.md"))
    gate(claude_payload("session_end", root, session="s-alpha"))
    assert events(root) == [
        "tool_denied",
        "intent_selected",
        "intent_status_changed",
        "tool_allowed",
        "session_released",
    ]
    assert [r["seq"] for r in records(root)] == [1, 2, 3, 4, 5]
    from paw_tui.core.ledger.verify import verify as verify_ledger

    result = verify_ledger(Ledger.for_workspace(str(root)))
    assert result.ok, result.message


def test_workspace_found_from_claude_project_dir(root: Path, sandbox: Path) -> None:
    payload = write_payload(root, "src/a.py")
    payload["cwd"] = str(sandbox)  # a cwd outside any workspace
    reason = assert_claude_deny(
        run_gate(payload, cwd=sandbox, env={"CLAUDE_PROJECT_DIR": str(root)}), startswith=NO_INTENT
    )
    assert reason
    assert records(root)[-1]["event"] == "tool_denied"


# -- more PostToolUse ---------------------------------------------------------------------------------------


def _post(
    root: Path, tool: str, tool_input: dict[str, object], session: str = "s-alpha"
) -> dict[str, object]:
    payload = claude_payload(
        "post_tool_use_write", root, session=session, tool_name=tool, replace_input=tool_input
    )
    assert gate(payload).code == 0
    return records(root)[-1]


def test_post_tool_use_multiedit_and_replace_all_ranges(root: Path) -> None:
    selected(root, "INT-001")
    target = root / "src" / "auth" / "basic.py"
    target.parent.mkdir(parents=True)
    target.write_text(
        "import jwt\n\nx = verify_jwt(a)\ny = 1\nz = verify_jwt(b)\n", encoding="utf-8"
    )
    record = _post(
        root,
        "MultiEdit",
        {
            "file_path": str(target),
            "edits": [
                {"old_string": "import base64", "new_string": "import jwt", "replace_all": False},
                {"old_string": "basic_auth(", "new_string": "verify_jwt(", "replace_all": True},
            ],
        },
    )
    assert record["event"] == "mutation" and record["paths"] == ["src/auth/basic.py"]
    assert record["ranges"] == [
        {"start_line": 1, "end_line": 1},
        {"start_line": 3, "end_line": 3},
        {"start_line": 5, "end_line": 5},
    ]
    record = _post(
        root,
        "Edit",
        {
            "file_path": str(target),
            "old_string": "basic_auth(",
            "new_string": "verify_jwt(",
            "replace_all": True,
        },
    )
    assert record["ranges"] == [{"start_line": 3, "end_line": 3}, {"start_line": 5, "end_line": 5}]


def test_post_tool_use_notebook_and_shell(root: Path) -> None:
    selected(root, "INT-007")
    notebook = root / "src" / "n.ipynb"
    notebook.parent.mkdir(parents=True)
    notebook.write_text("{}", encoding="utf-8")
    record = _post(
        root, "NotebookEdit", {"notebook_path": str(notebook), "new_source": "x", "cell_id": "c1"}
    )
    assert record["paths"] == ["src/n.ipynb"]
    assert record["content_hash"] == "sha256:" + hashlib.sha256(b"{}").hexdigest()
    assert "ranges" not in record
    (root / "src" / "out.txt").write_text("hi\n", encoding="utf-8")
    payload = claude_payload(
        "post_tool_use_write",
        root,
        session="s-alpha",
        tool_name="Bash",
        replace_input={"command": "echo hi > src/out.txt && rm -f src/gone.txt"},
    )
    assert gate(payload).code == 0
    made, removed = records(root)[-2:]
    assert (made["event"], made["tool"], made["paths"]) == ("mutation", "Bash", ["src/out.txt"])
    assert made["content_hash"] == "sha256:" + hashlib.sha256(b"hi\n").hexdigest()
    assert (removed["paths"], removed.get("content_hash")) == (["src/gone.txt"], None)
    assert removed["reason"] == "the file no longer exists"


def test_a_shell_write_is_recorded_from_where_its_command_started(root: Path) -> None:
    """Claude Code's PostToolUse carries the directory a Bash command left behind (it tracks
    ``cd``; seen with 2.1.197 and 2.1.330): ``cd src && echo hi > b.txt`` is still recorded as
    ``src/b.txt``, read from where the command started, not as ``src/src/b.txt``."""
    selected(root, "INT-007")
    pre = bash_payload(root, "cd src && echo hi > b.txt", session="s-alpha")
    pre["tool_use_id"] = "toolu_cd_then_write"
    assert_allow(gate(pre))
    (root / "src").mkdir()
    (root / "src" / "b.txt").write_text("hi\n", encoding="utf-8")
    post = dict(pre, hook_event_name="PostToolUse", cwd=str(root / "src"))
    post["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False}
    assert gate(post).code == 0
    record = records(root)[-1]
    assert (record["event"], record["tool"], record["paths"]) == (
        "mutation",
        "Bash",
        ["src/b.txt"],
    )
    assert record["content_hash"] == "sha256:" + hashlib.sha256(b"hi\n").hexdigest()
    # the next call starts where that one ended, and is read from there
    pre = bash_payload(root, "echo more > c.txt", session="s-alpha", cwd=root / "src")
    pre["tool_use_id"] = "toolu_from_src"
    assert_allow(gate(pre))
    (root / "src" / "c.txt").write_text("more\n", encoding="utf-8")
    assert gate(dict(pre, hook_event_name="PostToolUse")).code == 0
    assert records(root)[-1]["paths"] == ["src/c.txt"]


def test_post_tool_use_of_read_only_and_handshake_tools_records_nothing(root: Path) -> None:
    selected(root, "INT-001")
    before = len(records(root))
    for tool in ("Read", "mcp__paw__select_active_intent", "mcp__paw__list_intents"):
        payload = claude_payload(
            "post_tool_use_write",
            root,
            session="s-alpha",
            tool_name=tool,
            replace_input={"file_path": f"{root}/src/auth/a.py", "intent_id": "INT-001"},
        )
        assert gate(payload).code == 0
    assert len(records(root)) == before


def test_the_workspace_option_of_the_gate(root: Path, sandbox: Path) -> None:
    payload = write_payload(root, "src/a.py")
    payload["cwd"] = str(sandbox)
    assert_claude_deny(
        run_gate(payload, cwd=sandbox, args=("--workspace", str(root))), startswith=NO_INTENT
    )
    assert records(root)[-1]["paths"] == ["src/a.py"]


def test_governance_shell_tools_are_scope_checked(ws: Workspace) -> None:
    root = write_workspace(ws.root, governance="tools:\n  shell: [mcp__box__run]\n")
    selected(root, "INT-007")
    payload = claude_payload(
        "pre_tool_use_unknown_mcp",
        root,
        session="s-alpha",
        tool_name="mcp__box__run",
        replace_input={"command": "echo x > docs/a.md"},
    )
    assert_claude_deny(gate(payload), violation("INT-007", "docs/a.md", "src/**"))


def test_a_command_bash_would_refuse_is_denied(root: Path) -> None:
    selected(root, "INT-007")
    reason = assert_claude_deny(gate(bash_payload(root, "echo 'unterminated")))
    assert reason.startswith("paw-tui policy: the command cannot be parsed (")
