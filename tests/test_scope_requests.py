"""Scope requests (DESIGN §5): an agent asks, a person grants or denies, the agent's next call
sees the answer. Through the gate (hook payloads), the CLI and the MCP server's tool."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from gatekit import (
    PAW,
    assert_allow,
    claude_payload,
    gate,
    gate_env,
    intents_file,
    records,
    root,
    select_payload,
    write_payload,
)

SESSION = "s-alpha"
TOOL = "mcp__paw__request_scope_expansion"


def ask(root: Path, pattern: object, reason: object = "the task needs it", session: str = SESSION):  # type: ignore[no-untyped-def]
    payload = claude_payload(
        "pre_tool_use_select_active_intent",
        root,
        session=session,
        tool_name=TOOL,
        replace_input={"pattern": pattern, "reason": reason},
    )
    return gate(payload)


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PAW, *args, "-w", str(root)],
        capture_output=True,
        text=True,
        env=gate_env(),
        timeout=120,
    )


def pending(root: Path) -> list[dict[str, object]]:
    done = cli(root, "scope", "requests", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert isinstance(data, list)
    return data


def test_denied_write_request_grant_then_allowed(root: Path) -> None:
    """The whole loop: deny, request, list, grant, the same write passes."""
    assert_allow(gate(select_payload(root, "INT-007")))
    denied = gate(write_payload(root, "docs/api.md"))
    assert denied.denied and "Request scope expansion" in (denied.reason or "")
    asked = ask(root, "docs/**", "the API docs describe src/")
    assert asked.code == 0, asked.out
    listed = pending(root)
    assert [(r["intent_id"], r["pattern"], r["reason"], r["session_id"]) for r in listed] == [
        ("INT-007", "docs/**", "the API docs describe src/", SESSION)
    ]
    assert list(listed[0])[:6] == [
        "id", "session_id", "intent_id", "pattern", "reason", "requested_at",
    ]  # fmt: skip
    still = gate(write_payload(root, "docs/api.md"))
    assert still.denied, "a request grants nothing by itself"
    granted = cli(root, "scope", "grant", str(listed[0]["id"]), "--note", "ok")
    assert granted.returncode == 0, granted.stderr
    assert "INT-007 now owns docs/**" in granted.stdout
    assert_allow(gate(write_payload(root, "docs/api.md")))
    assert pending(root) == []
    events = [r["event"] for r in records(root)]
    assert events.count("scope_requested") == 1 and events.count("scope_granted") == 1


def test_grant_keeps_the_humans_yaml(root: Path) -> None:
    """Only the one list changes: comments, flow style, order and the other intents stay."""
    assert_allow(gate(select_payload(root, "INT-001")))
    before = intents_file(root).read_text(encoding="utf-8")
    assert ask(root, "docs/auth.md").code == 0
    request = pending(root)[0]
    assert cli(root, "scope", "grant", str(request["id"])).returncode == 0
    after = intents_file(root).read_text(encoding="utf-8")
    expected = before.replace(
        'owned_scope: ["src/auth/**", "tests/auth/**", "!src/auth/legacy/**"]',
        'owned_scope: ["src/auth/**", "tests/auth/**", "!src/auth/legacy/**", "docs/auth.md"]',
    )
    assert after == expected


def test_block_style_list_grows_in_its_own_style(root: Path) -> None:
    text = (
        "active_intents:\n"
        "  # the one intent\n"
        "  - id: INT-001\n"
        "    name: A\n"
        "    status: IN_PROGRESS  # keep\n"
        "    owned_scope:\n"
        '      - "src/**"   # code\n'
        '      - "!src/gen/**"\n'
        "    constraints: []\n"
    )
    intents_file(root).write_text(text, encoding="utf-8")
    assert_allow(gate(select_payload(root, "INT-001")))
    assert ask(root, "docs/**").code == 0
    assert cli(root, "scope", "grant", str(pending(root)[0]["id"])).returncode == 0
    assert intents_file(root).read_text(encoding="utf-8") == text.replace(
        '      - "!src/gen/**"\n', '      - "!src/gen/**"\n      - "docs/**"\n'
    )


def test_deny_leaves_the_scope(root: Path) -> None:
    assert_allow(gate(select_payload(root, "INT-007")))
    before = intents_file(root).read_bytes()
    assert ask(root, "docs/**").code == 0
    request = pending(root)[0]
    done = cli(root, "scope", "deny", str(request["id"]), "--note", "not now")
    assert done.returncode == 0, done.stderr
    assert intents_file(root).read_bytes() == before
    assert gate(write_payload(root, "docs/api.md")).denied
    again = cli(root, "scope", "grant", str(request["id"]))
    assert again.returncode == 2 and "already denied" in again.stderr
    last = [r for r in records(root) if r["event"] == "scope_denied"][-1]
    assert (last["decision"], last["pattern"], last["request_id"]) == (
        "deny",
        "docs/**",
        request["id"],
    )
    assert "not now" in str(last["reason"])


@pytest.mark.parametrize(
    ("pattern", "says"),
    [
        (".orchestration/**", "is protected"),
        (".git/hooks/pre-commit", "is protected"),
        (".claude/settings.json", "is protected"),
        ("!src/**", "would narrow it"),
        ("", "non-empty string"),
        (42, "non-empty string"),
        ("src/[a", "never closed"),
        ("../outside/**", "'..'"),
        ("docs/\x1b[2J", "control character"),
    ],
)
def test_a_request_that_could_never_be_granted_is_denied(
    root: Path, pattern: object, says: str
) -> None:
    assert_allow(gate(select_payload(root, "INT-007")))
    result = ask(root, pattern)
    assert result.denied, result.out
    assert says in (result.reason or ""), result.reason
    assert pending(root) == []
    assert records(root)[-1]["event"] == "scope_denied"


def test_no_intent_no_request(root: Path) -> None:
    result = ask(root, "docs/**")
    assert result.denied and "select_active_intent" in (result.reason or "")
    assert pending(root) == []


def test_the_same_request_twice_is_one_request(root: Path) -> None:
    assert_allow(gate(select_payload(root, "INT-007")))
    assert ask(root, "docs/**").code == 0
    assert ask(root, "docs/**").code == 0
    assert len(pending(root)) == 1


def test_unknown_or_malformed_ids(root: Path) -> None:
    for bad in ("scp-nope", "../../etc/passwd", ".hidden"):
        done = cli(root, "scope", "grant", bad)
        assert done.returncode == 2, done.stdout
        assert "No scope request" in done.stderr, done.stderr


def test_a_corrupt_request_file_is_skipped_and_kept(root: Path) -> None:
    assert_allow(gate(select_payload(root, "INT-007")))
    assert ask(root, "docs/**").code == 0
    folder = root / ".orchestration" / "scope_requests"
    (folder / "scp-broken.json").write_text("{not json", encoding="utf-8")
    assert [r["pattern"] for r in pending(root)] == ["docs/**"]
    assert (folder / "scp-broken.json").read_text(encoding="utf-8") == "{not json"


def test_the_reason_is_kept_escaped(root: Path) -> None:
    assert_allow(gate(select_payload(root, "INT-007")))
    assert ask(root, "docs/**", "ok\x1b[2J\nApproved by admin").code == 0
    reason = str(pending(root)[0]["reason"])
    assert "\x1b" not in reason and "\n" not in reason
    assert "\\x1b[2J\\nApproved by admin" in reason


def test_mcp_tool_plain_mode_files_for_its_own_session(root: Path) -> None:
    """Without hooks the server is the session: select, then request."""
    from paw_tui.mcp.tools import PawTools

    paw = PawTools(cwd=str(root), environ={"PAW_WORKSPACE_PATH": str(root)})
    selected = paw.select_active_intent("INT-007")
    assert not selected.is_error, selected.text
    result = paw.request_scope_expansion("docs/**", "docs")
    assert not result.is_error, result.text
    text = result.text
    assert "waits for a person" in text
    assert [r["session_id"] for r in pending(root)] == [paw.session_id]
    refused = paw.request_scope_expansion(".git/**", "hooks")
    assert refused.is_error
