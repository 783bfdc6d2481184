"""Crash open: make the gate fail so the client runs the tool anyway.

Every client lets a tool run when its hook exits 1 (or times out). Whatever the payload
(deep, huge, wrongly typed), the gate answers a deny with exit 2 and a reason that reads as
policy: never exit 1, never a traceback. Run through the installed hook command
(``python -I -S .../paw_tui/gate/launch.py --client claude-code``), as the client runs it.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from .kit import (
    SESSION,
    GateResult,
    assert_denied,
    assert_deny_shape,
    claude_payload,
    gate,
    launch,
    reads_as_policy,
    selected,
    write_payload,
)


def nested_json(depth: int, leaf: str) -> str:
    """``{"a": {"a": ... leaf ...}}`` as JSON text (json.dumps would recurse too deep)."""
    return '{"a": ' * depth + json.dumps(leaf) + "}" * depth


def assert_policy_deny(result: GateResult) -> str:
    assert result.code != 1, f"the gate crashed (exit 1): {result.err[-2000:]}"
    return assert_denied(result)


@pytest.mark.slow
def test_a_payload_nested_5000_deep(wsroot: Path) -> None:
    """``tool_input`` of an MCP tool nested 5,000 levels: a deny, not a RecursionError."""
    selected(wsroot, "INT-006")
    payload = write_payload(wsroot, "src/a.py")
    payload["tool_name"] = "mcp__filesystem__write_file"
    payload["tool_input"] = {}
    text = json.dumps(payload).replace(
        '"tool_input": {}', '"tool_input": ' + nested_json(5000, ".git/config")
    )
    assert_policy_deny(launch(text.encode(), cwd=wsroot))


@pytest.mark.slow
def test_a_raw_document_nested_5000_deep(wsroot: Path) -> None:
    """A payload that is 5,000 nested arrays: a deny."""
    raw = b"[" * 5000 + b"]" * 5000
    assert_policy_deny(launch(raw, cwd=wsroot))


@pytest.mark.slow
def test_a_nested_value_beside_valid_fields(wsroot: Path) -> None:
    """A valid Write plus an extra field nested 100,000 deep (valid JSON, hostile to parsers)."""
    payload = write_payload(wsroot, "src/a.py")
    text = json.dumps(payload)
    raw = (text[:-1] + ', "extra": ' + "[" * 100_000 + "]" * 100_000 + "}").encode()
    assert_policy_deny(launch(raw, cwd=wsroot))


@pytest.mark.slow
def test_a_payload_of_70_megabytes(wsroot: Path) -> None:
    """A Write whose content is 70 MB: a deny (over the payload limit), not an exit 1."""
    selected(wsroot, "INT-006")
    payload = write_payload(wsroot, "src/a.py", content="x" * (70 * 1024 * 1024))
    assert_policy_deny(launch(payload, cwd=wsroot))


@pytest.mark.slow
@pytest.mark.parametrize(
    "mutate",
    ["json array", "tool_input a string", "tool_name a number", "tool_name null", "no tool_input"],
)
def test_wrongly_typed_payloads(wsroot: Path, mutate: str) -> None:
    """A JSON array, ``tool_input`` a string, ``tool_name`` a number or null: a deny."""
    selected(wsroot, "INT-006")
    payload = write_payload(wsroot, "src/a.py")
    body: object = payload
    if mutate == "json array":
        body = [payload]
    elif mutate == "tool_input a string":
        payload["tool_input"] = "file_path=.git/config"
    elif mutate == "tool_name a number":
        payload["tool_name"] = 42
    elif mutate == "tool_name null":
        payload["tool_name"] = None
    else:
        del payload["tool_input"]
    assert_policy_deny(launch(body, cwd=wsroot))


@pytest.mark.parametrize(
    "value",
    [123, None, ["src/a.py"], {"path": "src/a.py"}, True, 1.5],
    ids=["int", "null", "list", "object", "bool", "float"],
)
def test_file_path_of_the_wrong_type(wsroot: Path, value: object) -> None:
    """A Write whose ``file_path`` is not a string: a deny that reads as policy."""
    selected(wsroot, "INT-006")
    payload = write_payload(wsroot, "src/a.py")
    payload["tool_input"] = {"file_path": value, "content": "x"}
    assert_policy_deny(gate(payload))


@pytest.mark.slow
def test_a_number_too_long_for_python(wsroot: Path) -> None:
    """A 10,000-digit integer in ``tool_input`` (Python's int limit is 4,300 digits)."""
    payload = write_payload(wsroot, "src/a.py")
    text = json.dumps(payload)
    raw = (text[:-1] + ', "n": ' + "9" * 10_000 + "}").encode()
    assert_policy_deny(launch(raw, cwd=wsroot))


@pytest.mark.slow
def test_a_lone_surrogate_in_a_path(wsroot: Path) -> None:
    """``src/\\ud800.py`` (JSON-escaped lone surrogate) cannot be encoded: no crash."""
    selected(wsroot, "INT-006")
    raw = json.dumps(write_payload(wsroot, "src/a.py")).replace("src/a.py", "src/\\ud800.py")
    result = launch(raw.encode(), cwd=wsroot)
    assert result.code in (0, 2), (result.code, result.err[-2000:])
    assert "Traceback" not in result.err
    if result.code == 2:
        assert_denied(result)


@pytest.mark.slow
def test_a_surrogate_in_a_shell_command(wsroot: Path) -> None:
    """A Bash command holding a lone surrogate: a deny, not an exit 1."""
    selected(wsroot, "INT-006")
    raw = json.dumps(write_payload(wsroot, "src/a.py"))
    data = json.loads(raw)
    data["tool_name"] = "Bash"
    data["tool_input"] = {"command": "echo PLACEHOLDER > src/a.py"}
    text = json.dumps(data).replace("PLACEHOLDER", "\\udfff")
    result = launch(text.encode(), cwd=wsroot)
    assert result.code in (0, 2), (result.code, result.err[-2000:])
    assert "Traceback" not in result.err


@pytest.mark.slow
def test_many_path_like_strings_answer_in_time(wsroot: Path) -> None:
    """200,000 path-like strings in one MCP call: the gate must answer before the client's hook
    timeout (a timeout lets the tool run), and deny the one protected path among them."""
    selected(wsroot, "INT-006")
    paths = [f"src/gen/{i}/file.py" for i in range(200_000)] + [".git/config"]
    payload = write_payload(wsroot, "src/a.py")
    payload["tool_name"] = "mcp__filesystem__write_many"
    payload["tool_input"] = {"paths": paths}
    started = time.monotonic()
    result = launch(payload, cwd=wsroot, timeout=60)
    elapsed = time.monotonic() - started
    assert_policy_deny(result)
    assert elapsed < 20, f"the gate took {elapsed:.1f} s"


def test_malformed_payloads_leave_no_traceback_in_process(wsroot: Path) -> None:
    """In process too: a deep payload is a deny with no exception escaping ``decide_payload``."""
    raw = json.dumps(write_payload(wsroot, "src/a.py"))
    deep = raw[:-1] + ', "x": ' + "[" * 50_000 + "]" * 50_000 + "}"
    assert_policy_deny(gate(deep.encode()))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_planted_as_a_session_record_does_not_hang_the_gate(wsroot: Path) -> None:
    """A session record replaced by a FIFO: reading it must not block (a hook that times
    out lets the tool run); the record reads as unreadable, so the session holds nothing."""
    from paw_tui.core.handshake.sessions import session_path

    selected(wsroot, "INT-006")
    record = Path(session_path(str(wsroot), SESSION))
    record.unlink()
    os.mkfifo(record)
    result = launch(write_payload(wsroot, "src/auth/a.py"), cwd=wsroot, timeout=30)
    assert_policy_deny(result)


def _planted_at(root: Path, where: str) -> Path:
    from paw_tui.core.handshake.sessions import session_path
    from paw_tui.core.workspace import layout, statedir
    from paw_tui.core.workspace.secret import key_path

    state = Path(statedir.workspace_state_dir(str(root)))
    return {
        "policy cache": state / "policy.json",
        "holders index": root / layout.SESSIONS / ".holders",
        "session record": Path(session_path(str(root), SESSION)),
        "Claude local settings": root / ".claude" / "settings.local.json",
        "ledger": root / layout.LEDGER,
        "signing key": Path(key_path(str(root))),
        "ledger head": state / "agent_trace.jsonl.head",
    }[where]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize(
    "where",
    [
        "policy cache",
        "holders index",
        "session record",
        "Claude local settings",
        "ledger",
        "signing key",
        "ledger head",
    ],
)
def test_a_fifo_planted_where_the_gate_reads_never_hangs_it(wsroot: Path, where: str) -> None:
    """Opening a FIFO for reading waits for a writer: a hook that waits outlasts the client's
    timeout, and the client runs the tool. Every file the gate reads is opened non-blocking
    and must be a regular file; each kind of event still answers at once, and a write is
    never allowed on the strength of a file it could not read."""
    selected(wsroot, "INT-006")
    planted = _planted_at(wsroot, where)
    if planted.exists():
        planted.unlink()
    planted.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(planted)
    events = {
        "write": write_payload(wsroot, "src/auth/a.py"),
        "newcomer's write": write_payload(wsroot, "src/auth/a.py", session="s-new"),
        "prompt": claude_payload("user_prompt_submit", wsroot, session=SESSION),
        "session start": claude_payload("session_start_startup", wsroot, session="s-start"),
    }
    for name, payload in events.items():
        result = launch(payload, cwd=wsroot, timeout=30)  # a hang raises TimeoutExpired
        assert result.code in (0, 2), (name, result.code, result.err[-2000:])
    reason = assert_deny_shape(launch(events["newcomer's write"], cwd=wsroot, timeout=30))
    assert reason.endswith("Denying (fail closed).") or reads_as_policy(reason), reason
