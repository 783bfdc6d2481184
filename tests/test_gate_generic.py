"""The generic gate protocol (DESIGN §6): ``{"event", "session_id", "tool", "paths",
"command", "cwd"}`` in, ``{"decision", "reason", "intent_id", "context"}`` out; exit 0 allow,
2 deny. And ``--client auto`` recognising the client from the payload."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gatekit import (
    INT001_SCOPE,
    MANDATE,
    NO_INTENT,
    GateResult,
    assert_claude_deny,
    claude_payload,
    events,
    gate,
    paw_state_dir,
    records,
    root,
    run_gate,
    write_payload,
)

KEYS = {"decision", "reason", "intent_id", "context"}


def event(root: Path, kind: str = "pre_tool", **fields: object) -> dict[str, object]:
    payload: dict[str, object] = {"event": kind, "session_id": "g-1", "cwd": str(root)}
    payload.update(fields)
    return payload


def answer(result: GateResult) -> dict[str, object]:
    data = result.json
    assert set(data) == KEYS
    assert result.out.endswith("\n") and result.out.count("\n") == 1
    return data


def assert_generic_deny(
    result: GateResult, reason: str | None = None, *, startswith: str | None = None
) -> dict[str, object]:
    assert result.code == 2, (result.out, result.err)
    data = answer(result)
    assert data["decision"] == "deny"
    if reason is not None:
        assert data["reason"] == reason
    if startswith is not None:
        assert str(data["reason"]).startswith(startswith), data["reason"]
    assert result.err == f"{data['reason']}\n"
    return data


def assert_generic_allow(result: GateResult) -> dict[str, object]:
    assert result.code == 0, (result.out, result.err)
    data = answer(result)
    assert data["decision"] == "allow"
    assert data["reason"] is None
    assert result.err == ""
    return data


def select(root: Path, intent_id: str = "INT-001", session: str = "g-1") -> dict[str, object]:
    return assert_generic_allow(
        gate(event(root, tool="select_active_intent", intent_id=intent_id, session_id=session))
    )


def test_pre_tool_before_selection_through_the_process(root: Path) -> None:
    result = run_gate(
        event(root, tool="write_to_file", paths=["src/auth/x.py"]),
        cwd=root,
        args=("--client", "generic"),
    )
    data = assert_generic_deny(result, startswith=NO_INTENT)
    assert data["intent_id"] is None and data["context"] is None
    record = records(root)[-1]
    assert (record["client"], record["tool"], record["paths"]) == (
        "generic",
        "write_to_file",
        ["src/auth/x.py"],
    )


def test_handshake_and_scope_through_the_process(root: Path) -> None:
    selection = run_gate(event(root, tool="select_active_intent", intent_id="INT-001"), cwd=root)
    assert assert_generic_allow(selection)["intent_id"] == "INT-001"
    allowed = run_gate(event(root, tool="write_to_file", paths=["src/auth/x.py"]), cwd=root)
    data = assert_generic_allow(allowed)
    assert (data["intent_id"], data["context"]) == ("INT-001", None)
    denied = run_gate(
        event(root, tool="write_to_file", paths=["src/auth/x.py", "docs/x.md"]), cwd=root
    )
    data = assert_generic_deny(
        denied,
        f"Scope Violation: INT-001 is not authorized to edit docs/x.md. "
        f"Owned scope: {INT001_SCOPE}. Request scope expansion. "
        "To ask a person for it, call request_scope_expansion(pattern, reason).",
    )
    assert data["intent_id"] == "INT-001"


def test_intent_id_may_come_in_tool_input(root: Path) -> None:
    data = assert_generic_allow(
        gate(
            event(root, tool="mcp__paw__select_active_intent", tool_input={"intent_id": "INT-007"})
        )
    )
    assert data["intent_id"] == "INT-007"
    assert events(root) == ["intent_selected"]


def test_a_refused_selection(root: Path) -> None:
    select(root, "INT-001")
    data = assert_generic_deny(
        gate(event(root, tool="select_active_intent", intent_id="INT-007")),
        "Session g-1 is locked to INT-001. Start a new session to work on INT-007.",
    )
    assert data["intent_id"] == "INT-007"


def test_shell_commands(root: Path) -> None:
    assert_generic_deny(
        gate(event(root, tool="execute_command", command="touch src/a.txt")), startswith=NO_INTENT
    )
    assert_generic_allow(gate(event(root, tool="execute_command", command="ls")))  # read-only
    select(root, "INT-007")
    assert_generic_allow(gate(event(root, tool="execute_command", command="echo x > src/a.txt")))
    assert_generic_deny(
        gate(event(root, tool="execute_command", command="echo x > docs/a.md")),
        "Scope Violation: INT-007 is not authorized to edit docs/a.md. Owned scope: src/**. "
        "Request scope expansion. To ask a person for it, call "
        "request_scope_expansion(pattern, reason).",
    )


@pytest.mark.parametrize(
    "tool", ["read_file", "list_files", "search_files", "list_code_definition_names"]
)
def test_generic_read_only_tools(root: Path, tool: str) -> None:
    data = assert_generic_allow(gate(event(root, tool=tool, paths=["src/a.py"])))
    assert data["intent_id"] is None
    assert records(root) == []


def test_session_start_and_prompt_carry_the_governance_section(root: Path) -> None:
    data = assert_generic_allow(gate(event(root, "session_start")))
    assert MANDATE in str(data["context"])
    assert "- INT-001 — JWT Authentication Migration" in str(data["context"])
    select(root, "INT-001")
    data = assert_generic_allow(gate(event(root, "prompt", prompt="Go on")))
    assert "Active intent: INT-001" in str(data["context"])
    assert '<intent_context id="INT-001"' in str(data["context"])


def test_post_tool_and_session_end(root: Path) -> None:
    select(root, "INT-001")
    target = root / "src" / "auth" / "x.py"
    target.parent.mkdir(parents=True)
    target.write_text("one\ntwo\n", encoding="utf-8")
    data = assert_generic_allow(
        gate(event(root, "post_tool", tool="write_to_file", paths=["src/auth/x.py"]))
    )
    assert data["context"] is None
    mutation = records(root)[-1]
    assert (mutation["event"], mutation["paths"], mutation["intent_id"]) == (
        "mutation",
        ["src/auth/x.py"],
        "INT-001",
    )
    assert str(mutation["content_hash"]).startswith("sha256:")
    assert_generic_allow(gate(event(root, "session_end")))
    assert events(root)[-1] == "session_released"


@pytest.mark.parametrize(
    "payload",
    [
        {"event": "pre_tool", "session_id": "g-1", "tool": "write_to_file", "paths": "src/a.py"},
        {"event": "pre_tool", "session_id": "g-1", "tool": "write_to_file", "paths": [""]},
        {"event": "pre_tool", "session_id": "g-1", "tool": "write_to_file", "paths": [7]},
        {"event": "pre_tool", "session_id": "g-1", "tool": "write_to_file", "paths": ["a\u0000b"]},
        {"event": "pre_tool", "session_id": "g-1", "paths": ["src/a.py"]},
        {"event": "pre_tool", "tool": "write_to_file"},
        {"event": "pre_tool", "session_id": "g-1", "tool": 5},
        {"event": "pre_tool", "session_id": "g-1", "tool": "x", "command": ["ls"]},
        {"event": "pre_tool", "session_id": "g-1", "tool": "x", "tool_input": []},
        {"event": "teleport", "session_id": "g-1", "tool": "x"},
    ],
)
def test_malformed_generic_payloads_are_denied(root: Path, payload: dict[str, object]) -> None:
    payload = dict(payload, cwd=str(root))
    assert_generic_deny(gate(payload, client="generic"))


def test_not_json_with_the_generic_client(root: Path) -> None:
    data = assert_generic_deny(run_gate(b"{", cwd=root, args=("--client", "generic")))
    assert "not valid JSON" in str(data["reason"])


def test_event_override(root: Path) -> None:
    payload = {
        "session_id": "g-1",
        "tool": "write_to_file",
        "paths": ["src/a.py"],
        "cwd": str(root),
    }
    assert_generic_deny(
        run_gate(payload, cwd=root, args=("--client", "generic", "--event", "pre_tool")),
        startswith=NO_INTENT,
    )


# -- --client auto -------------------------------------------------------------------------------------


def test_auto_recognises_a_generic_payload(root: Path) -> None:
    result = run_gate(
        event(root, tool="write_to_file", paths=["src/a.py"]), cwd=root, args=("--client", "auto")
    )
    assert_generic_deny(result, startswith=NO_INTENT)


def test_auto_is_the_default_and_recognises_claude_code(root: Path) -> None:
    result = run_gate(claude_payload("pre_tool_use_write", root), cwd=root)
    assert_claude_deny(result, startswith=NO_INTENT)
    assert "decision" not in result.json


def test_a_claude_payload_with_both_keys_is_claude_code(root: Path) -> None:
    payload = write_payload(root, "src/a.py")
    payload["event"] = "pre_tool"
    assert_claude_deny(gate(payload), startswith=NO_INTENT)


def test_forcing_claude_code_on_a_generic_payload_denies_in_claude_form(root: Path) -> None:
    result = gate(event(root, tool="write_to_file", paths=["src/a.py"]), client="claude-code")
    reason = assert_claude_deny(result)
    assert "hook_event_name" in reason


def test_forcing_generic_on_a_claude_payload_denies_in_generic_form(root: Path) -> None:
    result = gate(write_payload(root, "src/a.py"), client="generic")
    assert_generic_deny(result)


def test_an_unrecognisable_payload_is_a_claude_code_deny(root: Path) -> None:
    result = gate({"hello": "world"})
    assert_claude_deny(result)
    assert json.loads(result.out)["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
