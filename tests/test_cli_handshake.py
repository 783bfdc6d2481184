"""The handshake commands through ``paw_tui.cli.main`` (and a few as real processes):
``intents select``, ``check``, ``sessions``, ``approvals``, ``prompt`` and ``trace``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gatekit import (
    AVAILABLE,
    MANDATE,
    NO_INTENT,
    REPO,
    age_session,
    assert_allow,
    assert_claude_deny,
    claude_payload,
    events,
    gate,
    intents_file,
    paw_state_dir,
    records,
    root,
    select,
    select_payload,
    session_file,
    write_payload,
    write_workspace,
)

from paw_tui.core.handshake import approvals as approvals_store
from paw_tui.core.policy.compiled import load_policy

if TYPE_CHECKING:
    from conftest import RunCli, RunSubprocess, Workspace

# -- intents select ------------------------------------------------------------------------------------


def test_select_prints_the_intent_context_block(root: Path, run_cli: RunCli) -> None:
    result = run_cli("intents", "select", "INT-002", "--session", "cli-1", cwd=root)
    assert result.code == 0, result.err
    assert result.err == ""
    assert result.out.startswith(
        '<intent_context id="INT-002" status="IN_PROGRESS">\n<name>Documentation Refresh</name>\n'
    )
    assert "<description>Rewrite the root-level documents.</description>" in result.out
    assert "<pattern>*.md</pattern>" in result.out
    assert result.out.endswith("</intent_context>\n")
    intent = load_policy(str(root)).intent("INT-002")
    assert intent is not None and intent.status == "IN_PROGRESS"
    selected, changed = records(root)
    assert (selected["event"], selected["client"], selected["session_id"]) == (
        "intent_selected",
        "cli",
        "cli-1",
    )
    assert changed["event"] == "intent_status_changed"
    # The block carries the history of this intent, the selection first.
    again = run_cli("intents", "select", "INT-002", "--session", "cli-1", cwd=root)
    assert again.code == 0
    assert 'event="intent_selected" session_id="cli-1"' in again.out


def test_select_unknown_intent(root: Path, run_cli: RunCli) -> None:
    result = run_cli("intents", "select", "INT-404", "--session", "cli-1", cwd=root)
    assert (result.code, result.out) == (2, "")
    assert result.err == f"Unknown intent 'INT-404'. Available intents: {AVAILABLE}.\n"


def test_select_lock_and_holder_messages(root: Path, run_cli: RunCli) -> None:
    assert run_cli("intents", "select", "INT-001", "--session", "cli-1", cwd=root).code == 0
    locked = run_cli("intents", "select", "INT-007", "--session", "cli-1", cwd=root)
    assert locked.code == 2
    assert (
        locked.err
        == "Session cli-1 is locked to INT-001. Start a new session to work on INT-007.\n"
    )
    held = run_cli("intents", "select", "INT-001", "--session", "cli-2", cwd=root)
    assert held.code == 2 and "cli-1" in held.err


@pytest.mark.parametrize(
    ("intent_id", "words"),
    [("INT-003", "BLOCKED"), ("INT-004", "no longer active"), ("INT-005", "no longer active")],
)
def test_select_refuses_by_status(root: Path, run_cli: RunCli, intent_id: str, words: str) -> None:
    result = run_cli("intents", "select", intent_id, "--session", "cli-1", cwd=root)
    assert result.code == 2 and words in result.err and intent_id in result.err


def test_select_with_approval_required(ws: Workspace, run_cli: RunCli) -> None:
    root = write_workspace(ws.root, governance="approval: required\n")
    result = run_cli("intents", "select", "INT-002", "--session", "cli-1", cwd=root)
    assert (result.code, result.out) == (0, "Intent selection INT-002 awaits human approval.\n")


def test_select_without_a_workspace(sandbox: Path, run_cli: RunCli) -> None:
    result = run_cli("intents", "select", "INT-001", "--session", "cli-1", cwd=sandbox)
    assert result.code == 2
    assert "No paw-tui workspace found" in result.err


# -- check -------------------------------------------------------------------------------------------------


def test_check_before_selection(root: Path, run_cli: RunCli) -> None:
    result = run_cli("check", "src/auth/a.py", "--session", "cli-1", cwd=root)
    assert result.code == 2
    assert result.out.startswith(f"deny  (every path)  {NO_INTENT}")
    data = json.loads(
        run_cli("check", "src/auth/a.py", "--session", "cli-1", "--json", cwd=root).out
    )
    assert (
        data["allowed"] is False and data["reason"].startswith(NO_INTENT) and data["results"] == []
    )


def test_check_names_the_deciding_pattern(root: Path, run_cli: RunCli) -> None:
    select(root, "cli-1", "INT-001")
    result = run_cli(
        "check",
        "src/auth/a.py",
        "docs/x.md",
        "src/auth/legacy/x.py",
        ".git/config",
        "--session",
        "cli-1",
        cwd=root,
    )
    assert result.code == 2
    assert result.out.splitlines() == [
        "allow  src/auth/a.py  allowed  #0 'src/auth/**'",
        "deny   docs/x.md  out_of_scope  (no pattern)",
        "deny   src/auth/legacy/x.py  excluded  #2 '!src/auth/legacy/**'",
        "deny   .git/config  protected  '.git/**'",
    ]
    ok = run_cli("check", "src/auth/a.py", "tests/auth/b.py", "--session", "cli-1", cwd=root)
    assert ok.code == 0
    assert ok.out.splitlines()[1] == "allow  tests/auth/b.py  allowed  #1 'tests/auth/**'"
    # It decides; it records nothing.
    assert events(root) == ["intent_selected"]


def test_check_json_and_intent(root: Path, run_cli: RunCli) -> None:
    result = run_cli("check", "README.md", "docs/a.md", "--intent", "INT-002", "--json", cwd=root)
    assert result.code == 2
    data = json.loads(result.out)
    assert (data["allowed"], data["intent_id"]) == (False, "INT-002")
    first, second = data["results"]
    assert (first["allowed"], first["kind"], first["index"], first["pattern"]) == (
        True,
        "allowed",
        0,
        "*.md",
    )
    assert second["message"] == (
        "Scope Violation: INT-002 is not authorized to edit docs/a.md. Owned scope: *.md. Request scope expansion."
    )
    unknown = run_cli("check", "a", "--intent", "INT-404", cwd=root)
    assert unknown.code == 2 and unknown.err.startswith("Unknown intent 'INT-404'. Known intents: ")
    assert unknown.err.endswith("INT-007 (Source Tree). Did you mean INT-004?\n")


def test_check_relative_to_the_current_directory(root: Path, run_cli: RunCli) -> None:
    (root / "src" / "auth").mkdir(parents=True)
    result = run_cli(
        "check", "x.py", "../../docs/y.md", "--intent", "INT-001", cwd=root / "src" / "auth"
    )
    assert result.out.splitlines() == [
        "allow  src/auth/x.py  allowed  #0 'src/auth/**'",
        "deny   docs/y.md  out_of_scope  (no pattern)",
    ]


# -- sessions ----------------------------------------------------------------------------------------------


def test_sessions_list_and_release(root: Path, run_cli: RunCli) -> None:
    assert run_cli("sessions", "list", cwd=root).out == "No sessions.\n"
    gate(select_payload(root, "INT-001", session="claude-1"))
    select(root, "cli-2", "INT-007")
    listing = run_cli("sessions", "list", cwd=root)
    assert listing.code == 0
    lines = listing.out.splitlines()
    assert lines[0].split() == ["SESSION", "INTENT", "STATE", "LIVE", "CLIENT", "LAST", "SEEN"]
    assert lines[1].split()[:5] == ["claude-1", "INT-001", "active", "yes", "claude-code"]
    assert lines[2].split()[:4] == ["cli-2", "INT-007", "active", "yes"]
    data = json.loads(run_cli("sessions", "list", "--json", cwd=root).out)
    assert [(s["session_id"], s["intent_id"], s["state"], s["live"]) for s in data] == [
        ("claude-1", "INT-001", "active", True),
        ("cli-2", "INT-007", "active", True),
    ]
    released = run_cli("sessions", "release", "claude-1", cwd=root)
    assert (released.code, released.out) == (0, "Released session claude-1 (it held INT-001).\n")
    assert not session_file(root, "claude-1").exists()
    record = records(root)[-1]
    assert (record["event"], record["session_id"], record["intent_id"]) == (
        "session_released",
        "claude-1",
        "INT-001",
    )
    # The released session must select again before it may write.
    assert_claude_deny(
        gate(write_payload(root, "src/auth/a.py", session="claude-1")), startswith=NO_INTENT
    )


def test_sessions_release_unknown(root: Path, run_cli: RunCli) -> None:
    result = run_cli("sessions", "release", "ghost", cwd=root)
    assert (result.code, result.err) == (2, "No session 'ghost'.\n")


def test_sessions_list_shows_expired_sessions(root: Path, run_cli: RunCli) -> None:
    select(root, "old-1", "INT-001")
    age_session(root, "old-1", 9 * 3600)
    lines = run_cli("sessions", "list", cwd=root).out.splitlines()
    assert lines[1].split()[:4] == ["old-1", "INT-001", "active", "expired"]
    # An expired holder does not hold: another session may select its intent.
    assert run_cli("intents", "select", "INT-001", "--session", "new-1", cwd=root).code == 0


# -- approvals ----------------------------------------------------------------------------------------------


@pytest.fixture
def approval_root(ws: Workspace) -> Path:
    return write_workspace(ws.root, governance="approval: required\n")


def pending_id(root: Path) -> str:
    (request,) = approvals_store.pending_requests(str(root))
    return request.id


def test_approvals_list_and_approve_by_id(approval_root: Path, run_cli: RunCli) -> None:
    root = approval_root
    assert run_cli("approvals", "list", cwd=root).out == "No pending approval requests.\n"
    assert_allow(gate(select_payload(root, "INT-002", session="claude-1")))
    request_id = pending_id(root)
    lines = run_cli("approvals", "list", cwd=root).out.splitlines()
    assert lines[0].split() == ["REQUEST", "STATE", "SESSION", "INTENT", "NAME", "REQUESTED"]
    assert lines[1].split()[:6] == [
        request_id,
        "pending",
        "claude-1",
        "INT-002",
        "Documentation",
        "Refresh",
    ]
    assert_claude_deny(
        gate(write_payload(root, "README.md", session="claude-1")),
        "Intent selection INT-002 awaits human approval.",
    )
    result = run_cli("approvals", "approve", request_id, "--by", "alice", cwd=root)
    assert (result.code, result.out) == (
        0,
        f"Approved {request_id}: session claude-1, intent INT-002.\n",
    )
    intent = load_policy(str(root)).intent("INT-002")
    assert intent is not None and intent.status == "IN_PROGRESS"
    granted = [r for r in records(root) if r["event"] == "approval_granted"]
    assert len(granted) == 1 and granted[0]["reason"] == "by alice"
    assert_allow(gate(write_payload(root, "README.md", session="claude-1")))
    assert run_cli("approvals", "list", cwd=root).out == "No pending approval requests.\n"
    history = json.loads(run_cli("approvals", "list", "--all", "--json", cwd=root).out)
    assert [(r["id"], r["state"], r["decided_by"]) for r in history] == [
        (request_id, "approved", "alice")
    ]
    again = run_cli("approvals", "approve", request_id, cwd=root)
    assert again.code == 2 and "already approved" in again.err


def test_approve_by_session(approval_root: Path, run_cli: RunCli) -> None:
    root = approval_root
    gate(select_payload(root, "INT-001", session="claude-1"))
    result = run_cli("approvals", "approve", "--session", "claude-1", cwd=root)
    assert result.code == 0 and "session claude-1, intent INT-001" in result.out
    assert_allow(gate(write_payload(root, "src/auth/a.py", session="claude-1")))


def test_reject_frees_the_intent(approval_root: Path, run_cli: RunCli) -> None:
    root = approval_root
    gate(select_payload(root, "INT-002", session="claude-1"))
    assert_claude_deny(gate(select_payload(root, "INT-002", session="claude-2")))
    result = run_cli("approvals", "reject", "--session", "claude-1", cwd=root)
    assert result.code == 0 and result.out.startswith("Rejected ")
    assert events(root)[-1] == "approval_rejected"
    intent = load_policy(str(root)).intent("INT-002")
    assert intent is not None and intent.status == "PENDING"
    assert_claude_deny(
        gate(write_payload(root, "README.md", session="claude-1")), startswith=NO_INTENT
    )
    assert_allow(gate(select_payload(root, "INT-002", session="claude-2")))


def test_approvals_usage_errors(approval_root: Path, run_cli: RunCli) -> None:
    root = approval_root
    gate(select_payload(root, "INT-002", session="claude-1"))
    both = run_cli("approvals", "approve", pending_id(root), "--session", "claude-1", cwd=root)
    assert both.code == 2 and "either a request id or --session" in both.err
    neither = run_cli("approvals", "reject", cwd=root)
    assert neither.code == 2
    nobody = run_cli("approvals", "approve", "--session", "ghost", cwd=root)
    assert (nobody.code, nobody.err) == (2, "Session ghost has no pending approval request.\n")
    missing = run_cli("approvals", "approve", "apr-0000000000000-000000", cwd=root)
    assert missing.code == 2 and "No approval request" in missing.err


# -- prompt ---------------------------------------------------------------------------------------------------


def test_prompt_before_selection(root: Path, run_cli: RunCli) -> None:
    result = run_cli("prompt", "--session", "cli-1", cwd=root)
    assert result.code == 0
    assert result.out.startswith("## Governance (paw-tui)\n\n" + MANDATE + "\n")
    assert (
        "- INT-001 — JWT Authentication Migration: Move the API from Basic Auth to JWT.\n"
        in result.out
    )
    assert "- INT-007 — Source Tree\n" in result.out
    assert "INT-003" not in result.out
    assert "<intent_context" not in result.out


def test_prompt_after_selection(root: Path, run_cli: RunCli) -> None:
    select(root, "cli-1", "INT-001")
    out = run_cli("prompt", "--session", "cli-1", cwd=root).out
    assert MANDATE not in out
    assert "Active intent: INT-001 — JWT Authentication Migration (IN_PROGRESS).\n" in out
    assert "src/auth/**, tests/auth/**, !src/auth/legacy/**" in out
    assert "Constraints:\n- Must not use external auth providers\n" in out
    assert '\n\n<intent_context id="INT-001" status="IN_PROGRESS">\n' in out
    assert out.endswith("</intent_context>\n")
    # Another session sees the intent as taken.
    other = run_cli("prompt", "--session", "cli-2", cwd=root).out
    assert "- INT-001 " not in other and "- INT-002 — Documentation Refresh" in other


def test_prompt_while_waiting_for_approval(ws: Workspace, run_cli: RunCli) -> None:
    root = write_workspace(ws.root, governance="approval: required\n")
    select(root, "cli-1", "INT-002")
    out = run_cli("prompt", "--session", "cli-1", cwd=root).out
    assert "Requested intent: INT-002 — Documentation Refresh." in out
    assert "Intent selection INT-002 awaits human approval." in out
    assert "<intent_context" not in out


def test_prompt_on_broken_state_and_without_intents(ws: Workspace, run_cli: RunCli) -> None:
    root = write_workspace(ws.root, "active_intents:\n  - id: A\n    status: DONE\n")
    broken = run_cli("prompt", "--session", "cli-1", cwd=root)
    assert broken.code == 0
    assert (
        "Orchestration state unavailable: .orchestration/active_intents.yaml:3: unknown status 'DONE'"
        in broken.out
    )
    intents_file(root).write_text("active_intents: []\n", encoding="utf-8")
    empty = run_cli("prompt", "--session", "cli-1", cwd=root).out
    assert MANDATE in empty and "No intents are defined" in empty


def test_prompt_with_agent_layers(root: Path, run_cli: RunCli) -> None:
    instructions = root / ".paw" / "instructions"
    instructions.mkdir(parents=True, exist_ok=True)
    (instructions / "Reviewer-instructions.md").write_text("Be terse.\n", encoding="utf-8")
    out = run_cli("prompt", "--session", "cli-1", "--agent", "Reviewer", cwd=root).out
    assert out.index(MANDATE) < out.index(
        "<workspace_instructions>\nBe terse.\n</workspace_instructions>"
    )


# -- trace ----------------------------------------------------------------------------------------------------


def some_history(root: Path) -> None:
    gate(write_payload(root, "src/auth/a.py", session="claude-1"))  # 1 tool_denied
    gate(select_payload(root, "INT-001", session="claude-1"))  # 2 intent_selected
    gate(write_payload(root, "src/auth/a.py", session="claude-1"))  # 3 tool_allowed
    gate(write_payload(root, "docs/x.md", session="claude-1"))  # 4 tool_denied


def test_trace_tail_show_and_filters(root: Path, run_cli: RunCli) -> None:
    some_history(root)
    lines = run_cli("trace", "tail", cwd=root).out.splitlines()
    assert [line.split()[0] for line in lines] == ["#1", "#2", "#3", "#4"]
    assert lines[2].split()[3:] == [
        "tool_allowed",
        "allow",
        "INT-001",
        "claude-1",
        "Write",
        "src/auth/a.py",
    ]
    assert "— Scope Violation: INT-001 is not authorized to edit docs/x.md." in lines[3]
    assert [
        line.split()[0] for line in run_cli("trace", "tail", "-n", "2", cwd=root).out.splitlines()
    ] == ["#3", "#4"]
    denied = run_cli("trace", "tail", "--decision", "deny", "--json", cwd=root).out.splitlines()
    assert [json.loads(line)["seq"] for line in denied] == [1, 4]
    shown = json.loads(run_cli("trace", "show", "2", cwd=root).out)
    assert (shown["seq"], shown["event"], shown["intent_id"]) == (2, "intent_selected", "INT-001")
    missing = run_cli("trace", "show", "99", cwd=root)
    assert missing.code == 2 and "No record with seq 99" in missing.err


def test_trace_verify_and_tampering(root: Path, run_cli: RunCli) -> None:
    some_history(root)
    ok = run_cli("trace", "verify", cwd=root)
    assert ok.code == 0 and "is intact: 4 records" in ok.out
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    lines = ledger.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"claude-1"', b'"claude-X"')
    ledger.write_bytes(b"\n".join(lines))
    bad = run_cli("trace", "verify", cwd=root)
    assert bad.code == 2
    assert bad.out.startswith(f"Line 2 of {ledger}")


def test_trace_export_has_one_record_per_mutation(root: Path, run_cli: RunCli) -> None:
    gate(select_payload(root, "INT-001", session="claude-1"))
    target = root / "src" / "auth" / "jwt.py"
    target.parent.mkdir(parents=True)
    target.write_text("a\nb\n", encoding="utf-8")
    gate(
        claude_payload(
            "post_tool_use_write", root, session="claude-1", tool_input={"content": "a\nb\n"}
        )
    )
    out = run_cli("trace", "export", "--format", "agent-trace", cwd=root).out
    (line,) = out.splitlines()
    record = json.loads(line)
    assert record["version"] == "0.1.0"
    assert record["files"][0]["path"] == "src/auth/jwt.py"


# -- as real processes ------------------------------------------------------------------------------------------


def env_for(paw_state_dir: Path) -> dict[str, str]:
    return {"PAW_STATE_DIR": str(paw_state_dir), "PYTHONPATH": REPO}


def test_select_list_release_verify_as_processes(
    root: Path, run_subprocess: RunSubprocess, paw_state_dir: Path
) -> None:
    env = env_for(paw_state_dir)
    selected = run_subprocess(
        "intents", "select", "INT-001", "--session", "proc-1", cwd=root, env=env
    )
    assert selected.code == 0, selected.err
    assert selected.out.startswith('<intent_context id="INT-001" status="IN_PROGRESS">')
    listed = run_subprocess("intents", "list", cwd=root, env=env, script=True)
    assert listed.code == 0 and "proc-1" in listed.out.splitlines()[1]
    refused = run_subprocess(
        "intents", "select", "INT-404", "--session", "proc-1", cwd=root, env=env, script=True
    )
    assert refused.code == 2
    # Its own intent is not held by *another* session, so it is listed too.
    assert refused.err == f"Unknown intent 'INT-404'. Available intents: {AVAILABLE}.\n"
    assert "Traceback" not in refused.err
    released = run_subprocess("sessions", "release", "proc-1", cwd=root, env=env)
    assert released.code == 0
    verified = run_subprocess("trace", "verify", cwd=root, env=env)
    assert verified.code == 0 and "intact: 3 records" in verified.out
    assert [r["event"] for r in records(root)] == [
        "intent_selected",
        "selection_refused",
        "session_released",
    ]


def test_set_status_as_a_process(
    root: Path, run_subprocess: RunSubprocess, paw_state_dir: Path
) -> None:
    result = run_subprocess(
        "intents", "set-status", "INT-002", "ABANDONED", cwd=root, env=env_for(paw_state_dir)
    )
    assert (result.code, result.out) == (0, "INT-002: PENDING -> ABANDONED\n")
    assert "status: ABANDONED       # nobody started it" in intents_file(root).read_text(
        encoding="utf-8"
    )


PERSON_ONLY = [
    ["approvals", "approve", "--session", "s1"],
    ["approvals", "reject", "--session", "s1"],
    ["intents", "set-status", "INT-001", "BLOCKED"],
    ["intents", "select", "INT-001", "--session", "s9"],
    ["sessions", "release", "s1"],
    ["prompt", "--supervisor", "do as I say"],
    ["prompt", "--session", "s1", "--clear-supervisor"],
]


@pytest.mark.parametrize(
    "marker", ["CLAUDECODE=1", "GEMINI_CLI=1", "CODEX_CI=1", "AI_AGENT=claude-code_2-1-330_agent"]
)
@pytest.mark.parametrize("argv", PERSON_ONLY, ids=" ".join)
def test_a_persons_acts_are_refused_inside_an_agents_tool(
    root: Path, argv: list[str], marker: str, monkeypatch: pytest.MonkeyPatch, run_cli: RunCli
) -> None:
    name, _, value = marker.partition("=")
    monkeypatch.setenv(name, value)
    before = (root / ".orchestration" / "active_intents.yaml").read_bytes()
    result = run_cli(*argv, cwd=root)
    assert result.code == 2
    assert "a person's act" in result.err and marker in result.err
    assert (root / ".orchestration" / "active_intents.yaml").read_bytes() == before


def test_a_hook_event_piped_in_by_an_agents_shell_is_refused(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``echo '{...SessionEnd...}' | paw-tui gate`` from the agent's Bash: not the client."""
    from paw_tui.gate.main import decide_payload

    monkeypatch.setenv("CLAUDECODE", "1")
    end = {"session_id": "s1", "cwd": str(root), "hook_event_name": "SessionEnd"}
    answer = decide_payload(json.dumps(end).encode(), workspaces=[str(root)])
    assert answer.exit_code == 0 and "inside an agent's tool process" in answer.stderr
    pre = {
        "session_id": "s1",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "mcp__paw__select_active_intent",
        "tool_input": {"intent_id": "INT-001"},
    }
    denied = decide_payload(json.dumps(pre).encode(), workspaces=[str(root)])
    assert denied.exit_code == 2 and "inside an agent's tool process" in denied.stderr
