"""The gate as a library (``paw_tui.gate.api``): a custom agent loop in process."""

from __future__ import annotations

from pathlib import Path

import pytest
from gatekit import NO_INTENT, records, root

from paw_tui.core.policy import compiled, sources
from paw_tui.gate.api import Governor, decide

__all__ = ["root"]


def call(tool: str, **fields: object) -> dict[str, object]:
    return {"event": "pre_tool", "session_id": "loop-1", "tool": tool, **fields}


def test_the_handshake_and_scope_in_process(root: Path) -> None:
    governor = Governor(str(root))
    before = governor.decide(call("write_file", paths=["src/auth/a.py"]))
    assert not before.allow and (before.reason or "").startswith(NO_INTENT)
    selected = governor.decide(call("select_active_intent", intent_id="INT-001"))
    assert selected.allow and selected.intent_id == "INT-001"
    inside = governor.decide(call("write_file", paths=["src/auth/a.py"]))
    assert inside.allow and inside.intent_id == "INT-001"
    outside = governor.decide(call("write_file", paths=["docs/a.md"]))
    assert not outside.allow
    assert (outside.reason or "").startswith("Scope Violation: INT-001 is not authorized")
    shell = governor.decide(call("execute_command", command="echo x > docs/b.md"))
    assert not shell.allow and "docs/b.md" in (shell.reason or "")
    events = [(r["event"], r.get("client"), r.get("decision")) for r in records(root)]
    assert events == [
        ("tool_denied", "generic", "deny"),
        ("intent_selected", "generic", "allow"),
        ("tool_allowed", "generic", "allow"),
        ("tool_denied", "generic", "deny"),
        ("tool_denied", "generic", "deny"),
    ]


def test_session_start_gives_the_governance_context(root: Path) -> None:
    verdict = decide({"event": "session_start", "session_id": "loop-2"}, root=str(root))
    assert verdict.allow and "select_active_intent" in (verdict.context or "")
    assert verdict.to_dict()["decision"] == "allow"


def test_an_unreadable_event_is_a_deny_not_an_exception(root: Path) -> None:
    governor = Governor(str(root))
    for bad in (
        {"event": "pre_tool", "tool": "write_file"},  # no session
        {"event": "pre_tool", "session_id": "s", "tool": "write_file", "paths": "src/a.py"},
        {"event": "nonsense", "session_id": "s"},
        {},
    ):
        verdict = governor.decide(bad)
        assert not verdict.allow, bad
        assert (verdict.reason or "").startswith("paw-tui policy: cannot read this event"), bad


def test_a_broken_policy_denies(root: Path) -> None:
    (root / ".orchestration" / "active_intents.yaml").write_text("active_intents: [", "utf-8")
    verdict = Governor(str(root)).decide(call("write_file", paths=["src/a.py"]))
    assert not verdict.allow and verdict.reason


def test_a_governor_keeps_its_policy_while_the_files_are_unchanged(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quiet files (stamps that vouch for them): one load for many decisions; an edit, even
    one keeping the size, is seen by the next decision."""
    monkeypatch.setattr(sources, "RACY_NS", 0)  # the files count as quiet at once
    governor = Governor(str(root))
    assert governor.decide(call("select_active_intent", intent_id="INT-001")).allow
    assert governor.decide(call("write_file", paths=["src/auth/a.py"])).allow
    before = dict(compiled.COUNTS)
    for number in range(20):
        assert governor.decide(call("write_file", paths=[f"src/auth/f{number}.py"])).allow
    assert compiled.COUNTS[compiled.LOADS] == before[compiled.LOADS]
    assert compiled.COUNTS[compiled.RECORDS] == before[compiled.RECORDS]
    path = root / ".orchestration" / "active_intents.yaml"
    text = path.read_text("utf-8")
    assert "src/auth/**" in text
    path.write_text(text.replace("src/auth/**", "src/xuth/**"), "utf-8")  # same size
    verdict = governor.decide(call("write_file", paths=["src/auth/late.py"]))
    assert not verdict.allow
    assert compiled.COUNTS[compiled.LOADS] == before[compiled.LOADS] + 1


def test_a_governor_reloads_while_the_files_are_too_fresh_to_vouch(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sources, "RACY_NS", 10**18)  # every file changed "just now"
    governor = Governor(str(root))
    governor.decide(call("select_active_intent", intent_id="INT-001"))
    before = dict(compiled.COUNTS)
    for number in range(3):
        governor.decide(call("write_file", paths=[f"src/auth/f{number}.py"]))
    assert compiled.COUNTS[compiled.LOADS] == before[compiled.LOADS] + 3
