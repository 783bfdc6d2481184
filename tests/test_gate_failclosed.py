"""The gate fails closed (DESIGN §6, §7): anything it cannot read, load, record or decide
denies every tool not known to be read-only, and says why; events that cannot block never
exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from gatekit import (
    NO_INTENT,
    assert_allow,
    assert_claude_deny,
    claude_payload,
    gate,
    paw_state_dir,
    records,
    root,
    run_gate,
    select_payload,
    write_payload,
    write_workspace,
)

from paw_tui.core.policy.compiled import policy_cache_path

if TYPE_CHECKING:
    from conftest import Workspace
    from gatekit import GateResult

# -- payloads the gate cannot trust -----------------------------------------------------------------


def test_not_json_through_the_process(root: Path) -> None:
    reason = assert_claude_deny(run_gate(b"this is not json", cwd=root))
    assert "not valid JSON" in reason and "fail closed" in reason


def test_empty_stdin_through_the_process(root: Path) -> None:
    assert_claude_deny(run_gate(b"", cwd=root))


def test_json_array_through_the_process(root: Path) -> None:
    reason = assert_claude_deny(run_gate(b'[{"hook_event_name": "PreToolUse"}]', cwd=root))
    assert "not a JSON object" in reason


def test_missing_session_id_through_the_process(root: Path) -> None:
    payload = claude_payload("pre_tool_use_write", root)
    del payload["session_id"]
    reason = assert_claude_deny(run_gate(payload, cwd=root))
    assert "session_id" in reason
    assert records(root) == []


def _without(payload: dict[str, object], key: str) -> dict[str, object]:
    payload = dict(payload)
    del payload[key]
    return payload


@pytest.mark.parametrize(
    "case",
    [
        "invalid utf-8",
        "json array",
        "json string",
        "null",
        "no session_id",
        "blank session_id",
        "session_id not a string",
        "no tool_name",
        "tool_name not a string",
        "no hook_event_name",
        "unknown hook event",
        "tool_input not an object",
        "cwd with NUL",
        "Write without file_path",
        "Write with a non-string file_path",
        "Write with an empty file_path",
        "Write with a NUL byte",
        "Edit without file_path",
        "MultiEdit with a list file_path",
        "NotebookEdit without notebook_path",
        "NotebookEdit with file_path instead",
    ],
)
def test_malformed_pre_tool_payloads_are_denied(root: Path, case: str) -> None:
    write = claude_payload("pre_tool_use_write", root, session="s-alpha")
    raw: object = {
        "invalid utf-8": b'{"session_id": "\xff"}',
        "json array": [write],
        "json string": "PreToolUse",
        "null": None,
        "no session_id": _without(write, "session_id"),
        "blank session_id": dict(write, session_id="  "),
        "session_id not a string": dict(write, session_id=42),
        "no tool_name": _without(write, "tool_name"),
        "tool_name not a string": dict(write, tool_name=["Write"]),
        "no hook_event_name": _without(write, "hook_event_name"),
        "unknown hook event": dict(write, hook_event_name="PreToolUseV2"),
        "tool_input not an object": dict(write, tool_input="file_path=/x"),
        "cwd with NUL": dict(write, cwd=f"{root}\u0000"),
        "Write without file_path": dict(write, tool_input={"content": "x"}),
        "Write with a non-string file_path": dict(
            write, tool_input={"file_path": 123, "content": "x"}
        ),
        "Write with an empty file_path": dict(write, tool_input={"file_path": "", "content": "x"}),
        "Write with a NUL byte": dict(
            write, tool_input={"file_path": f"{root}/src/a\u0000.py", "content": "x"}
        ),
        "Edit without file_path": claude_payload(
            "pre_tool_use_edit",
            root,
            session="s-alpha",
            replace_input={"old_string": "a", "new_string": "b"},
        ),
        "MultiEdit with a list file_path": claude_payload(
            "pre_tool_use_multiedit",
            root,
            session="s-alpha",
            tool_input={"file_path": [f"{root}/a.py"]},
        ),
        "NotebookEdit without notebook_path": claude_payload(
            "pre_tool_use_notebookedit", root, session="s-alpha", replace_input={"new_source": "x"}
        ),
        "NotebookEdit with file_path instead": claude_payload(
            "pre_tool_use_notebookedit",
            root,
            session="s-alpha",
            replace_input={"file_path": f"{root}/n.ipynb"},
        ),
    }[case]
    # Even a session that may write in-scope gets a deny for a payload it cannot trust.
    assert_allow(gate(select_payload(root, "INT-006")))
    reason = assert_claude_deny(gate(raw))
    assert "fail closed" in reason or "denying" in reason, reason


def test_a_nul_byte_in_a_path_is_denied_through_the_process(root: Path) -> None:
    gate(select_payload(root, "INT-006", session="9f3c2a51-7d4e-4b8a-a1c6-2e5f0d8b7c13"))
    payload = claude_payload(
        "pre_tool_use_write", root, tool_input={"file_path": f"{root}/src/a\u0000.py"}
    )
    reason = assert_claude_deny(run_gate(payload, cwd=root))
    assert "control character" in reason and "\\x00" in reason


def test_a_bad_command_line_still_blocks(root: Path) -> None:
    result = run_gate(write_payload(root, "src/a.py"), cwd=root, args=("--client", "bogus"))
    reason = assert_claude_deny(_stderr_last_line(result))
    assert "misconfigured" in reason


def _stderr_last_line(result: GateResult) -> GateResult:
    """The usage line precedes the reason on stderr; keep the reason for assert_claude_deny."""
    from gatekit import GateResult

    assert result.err.startswith("usage: paw-tui gate")
    specific = result.json["hookSpecificOutput"]
    assert isinstance(specific, dict)
    reason = specific["permissionDecisionReason"]
    assert "paw-tui gate: unknown client 'bogus'" in result.err
    return GateResult(result.code, result.out, reason + "\n")


def test_events_claude_code_sends_that_the_gate_ignores(root: Path) -> None:
    payload = claude_payload("session_end", root, hook_event_name="Stop")
    payload["stop_hook_active"] = False
    result = run_gate(payload, cwd=root)
    assert (result.code, result.out) == (0, "")


# -- non-blocking events never exit 2 -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["session_start_startup", "user_prompt_submit"])
def test_malformed_context_events_answer_with_context(root: Path, name: str) -> None:
    payload = _without(claude_payload(name, root), "session_id")
    result = gate(payload)
    assert result.code == 0
    assert "Orchestration state unavailable" in (result.context or "")


@pytest.mark.parametrize("name", ["post_tool_use_write", "session_end"])
def test_malformed_post_and_end_events_exit_0(root: Path, name: str) -> None:
    result = gate(_without(claude_payload(name, root), "session_id"))
    assert (result.code, result.out) == (0, "")


def test_post_tool_use_on_broken_state_exits_0(ws: Workspace) -> None:
    root = write_workspace(ws.root, "active_intents: [\n")
    result = run_gate(claude_payload("post_tool_use_write", root), cwd=root)
    assert result.code == 0


# -- state that cannot be used -----------------------------------------------------------------------------


def test_corrupt_yaml_denies_mutating_and_allows_read_only(ws: Workspace) -> None:
    root = write_workspace(ws.root, b"active_intents:\n  - id: A\n    status: \xff\n")
    reason = assert_claude_deny(gate(write_payload(root, "src/a.py")))
    assert reason.startswith("Orchestration state unavailable: .orchestration/active_intents.yaml")
    assert_allow(gate(claude_payload("pre_tool_use_read", root, session="s-alpha")))


def test_a_ledger_that_cannot_be_appended_denies_naming_the_reason(root: Path) -> None:
    assert_allow(gate(select_payload(root, "INT-001")))
    assert_allow(gate(write_payload(root, "src/auth/a.py")))
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    ledger.unlink()
    ledger.mkdir()
    reason = assert_claude_deny(gate(write_payload(root, "src/auth/a.py")))
    assert "Cannot append to the audit ledger" in reason
    assert "agent_trace.jsonl" in reason
    assert "fail closed" in reason
    # The handshake is recorded too, so it is denied as well; reads need no record.
    assert_claude_deny(gate(select_payload(root, "INT-001", session="s-beta")))
    assert_allow(gate(claude_payload("pre_tool_use_read", root, session="s-alpha")))


def test_a_ledger_failure_through_the_process(root: Path) -> None:
    (root / ".orchestration" / "agent_trace.jsonl").mkdir()
    reason = assert_claude_deny(run_gate(claude_payload("pre_tool_use_write", root), cwd=root))
    assert "Cannot append to the audit ledger" in reason


def test_a_ledger_failure_on_session_start_is_not_a_block(root: Path) -> None:
    (root / ".orchestration" / "agent_trace.jsonl").mkdir()
    result = gate(claude_payload("session_start_startup", root))
    assert result.code == 0


def test_an_internal_error_denies_mutating_and_allows_read_only(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import paw_tui.gate.decide as decide_module

    def explode(facts: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(decide_module, "pre_tool", explode)
    reason = assert_claude_deny(gate(write_payload(root, "src/a.py")))
    assert "internal error" in reason and "RuntimeError: boom" in reason
    assert "fail closed" in reason
    read = gate(claude_payload("pre_tool_use_read", root, session="s-alpha"))
    assert (read.code, read.out) == (0, "")
    assert "boom" in read.err
    assert_claude_deny(gate(select_payload(root, "INT-001")))


def test_an_internal_error_on_session_start_is_context_not_a_block(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import paw_tui.gate.apply as apply_module

    def explode(state: object, facts: object, session: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(apply_module, "_session_context", explode)
    result = gate(claude_payload("user_prompt_submit", root))
    assert result.code == 0
    assert "boom" in (result.context or "")


def test_no_workspace_at_all_denies(sandbox: Path) -> None:
    payload = claude_payload("pre_tool_use_write", sandbox)
    reason = assert_claude_deny(run_gate(payload, cwd=sandbox))
    assert reason.startswith("Orchestration state unavailable: no paw-tui workspace was found")
    assert not (sandbox / ".orchestration").exists()


def test_no_workspace_allows_read_only_and_informs_on_session_start(sandbox: Path) -> None:
    assert gate(claude_payload("pre_tool_use_read", sandbox)).code == 0
    start = gate(claude_payload("session_start_startup", sandbox))
    assert start.code == 0
    assert "no paw-tui workspace" in (start.context or "")


def test_a_workspace_without_intents_denies_everything_mutating(ws: Workspace) -> None:
    root = write_workspace(ws.root, None)
    reason = assert_claude_deny(gate(write_payload(root, "src/a.py")))
    assert reason.startswith(NO_INTENT)
    assert "ask a human" in reason
    assert_claude_deny(
        gate(select_payload(root, "INT-001")), "Unknown intent 'INT-001'. Available intents: none."
    )


def test_a_corrupt_session_record_holds_no_intent(root: Path) -> None:
    assert_allow(gate(select_payload(root, "INT-001")))
    (root / ".orchestration" / "sessions" / "s-alpha.json").write_text(
        "{not json", encoding="utf-8"
    )
    assert_claude_deny(gate(write_payload(root, "src/auth/a.py")), startswith=NO_INTENT)


def test_a_corrupt_policy_cache_is_rebuilt(root: Path) -> None:
    assert_allow(gate(select_payload(root, "INT-001")))
    cache = Path(policy_cache_path(str(root)))
    assert cache.exists()
    cache.write_text(json.dumps({"format": 1, "key": "nope"}), encoding="utf-8")
    assert_allow(gate(write_payload(root, "src/auth/a.py")))
    cache.write_text("{torn", encoding="utf-8")
    assert_claude_deny(
        gate(write_payload(root, "docs/a.md")), startswith="Scope Violation: INT-001"
    )
