"""Copilot CLI runs ``.claude/settings.json``'s hooks too: each call decided once, never none.

With ``install claude-code`` and ``install copilot`` in one repository, the Claude Code hook
steps aside for Copilot's own (issue 19). An attacker who could make it step aside where
Copilot's own hook does not decide would get ungoverned calls, so: a Claude Code payload is
decided whatever Copilot variables the environment carries; a Copilot payload is decided (as
Copilot's) when Copilot's hooks file is missing, runs someone else's command, or is switched
off; only with Copilot's own gate hook on that event does the Claude hook step aside.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paw_tui.core.clients.copilot import hook_entry

from .kit import gate, records, write_payload

TOOL_EVENT = "preToolUse"


def _copilot_hooks(root: Path, **extra: object) -> None:
    hooks = {TOOL_EVENT: [hook_entry("copilot", "pre_tool")]}
    folder = root / ".github" / "hooks"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "paw-tui.json").write_text(json.dumps({"version": 1, "hooks": hooks, **extra}))


def _copilot_payload(root: Path) -> dict[str, object]:
    """What Copilot CLI 1.0.102 sends a ``.claude/settings.json`` PreToolUse hook."""
    return {
        "hook_event_name": "PreToolUse",
        "session_id": "copilot-session",
        "timestamp": "2026-11-27T18:26:24.761Z",
        "cwd": str(root),
        "tool_name": "Write",
        "tool_input": {"path": str(root / "src" / "a.py"), "file_text": "x\n"},
    }


@pytest.fixture
def under_copilot(wsroot: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COPILOT_CLI", "1")
    monkeypatch.setenv("COPILOT_PROJECT_DIR", str(wsroot))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(wsroot))
    return wsroot


def test_a_claude_code_call_is_decided_whatever_copilot_variables_say(under_copilot: Path) -> None:
    _copilot_hooks(under_copilot)
    result = gate(write_payload(under_copilot, "src/a.py"), client="claude-code")
    assert result.denied and "select_active_intent" in (result.reason or ""), result.out
    assert [r["client"] for r in records(under_copilot)] == ["claude-code"]


def test_copilot_calls_step_aside_only_for_copilots_own_gate_hook(under_copilot: Path) -> None:
    _copilot_hooks(under_copilot)
    result = gate(_copilot_payload(under_copilot), client="claude-code")
    assert (result.code, result.out) == (0, "")
    assert records(under_copilot) == []


@pytest.mark.parametrize("setup", ["none", "switched off", "someone else's hook"])
def test_otherwise_the_claude_hook_decides_as_copilot(under_copilot: Path, setup: str) -> None:
    if setup == "switched off":
        _copilot_hooks(under_copilot, disableAllHooks=True)
    elif setup == "someone else's hook":
        folder = under_copilot / ".github" / "hooks"
        folder.mkdir(parents=True)
        entry = {"type": "command", "bash": "echo paw-tui gate --client claude-code"}
        (folder / "x.json").write_text(json.dumps({"version": 1, "hooks": {TOOL_EVENT: [entry]}}))
    result = gate(_copilot_payload(under_copilot), client="claude-code")
    assert result.denied, result.out
    assert "select_active_intent" in json.loads(result.out)["permissionDecisionReason"]
    assert [(r["client"], r["tool"]) for r in records(under_copilot)] == [("copilot", "Write")]
