"""Workspaces for the TUI tests, built with the real gate so the ledger is genuine."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from paw_tui.cli import main
from paw_tui.gate.main import decide_payload

INTENTS = """\
active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS
    description: Move the API from Basic Auth to JWT.
    owned_scope: ["src/auth/**", "tests/auth/**", "!src/auth/legacy/**"]
    constraints: ["Must not use external auth providers"]
    acceptance_criteria: ["Unit tests in tests/auth/ pass"]
  - id: INT-002
    name: Invoice PDF export
    status: PENDING
    description: Export invoices as PDF.
    owned_scope: ["src/billing/**"]
  - id: INT-003
    name: Rate limiting
    status: BLOCKED
    owned_scope: ["src/api/**"]
"""


def claude(root: Path, session: str, event: str, **extra: object) -> dict[str, object]:
    payload: dict[str, object] = {
        "session_id": session,
        "cwd": str(root),
        "hook_event_name": event,
        "transcript_path": "/dev/null",
        "permission_mode": "default",
    }
    payload.update(extra)
    return payload


def gate(root: Path, payload: dict[str, object]) -> int:
    return decide_payload(json.dumps(payload).encode(), workspaces=[str(root)]).exit_code


def write(root: Path, session: str, path: str) -> int:
    return gate(
        root,
        claude(
            root,
            session,
            "PreToolUse",
            tool_name="Write",
            tool_input={"file_path": str(root / path), "content": "x = 1\n"},
        ),
    )


def write_done(root: Path, session: str, path: str) -> int:
    """The file written on disk, then its PostToolUse: the ledger records a ``mutation``."""
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("x = 1\n")
    return gate(
        root,
        claude(
            root,
            session,
            "PostToolUse",
            tool_name="Write",
            tool_input={"file_path": str(target), "content": "x = 1\n"},
            tool_response={"type": "create", "filePath": str(target)},
        ),
    )


def select(root: Path, session: str, intent: str) -> int:
    return gate(
        root,
        claude(
            root,
            session,
            "PreToolUse",
            tool_name="mcp__paw__select_active_intent",
            tool_input={"intent_id": intent},
        ),
    )


def new_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str = "ws") -> Path:
    """An initialised workspace holding :data:`INTENTS`, with the state, user home and
    config directories of this test; nothing recorded yet."""
    root = tmp_path / name
    root.mkdir()
    (root / ".git").mkdir()
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("PAW_USER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PAW_CONFIG_DIR", str(tmp_path / "config"))  # no real keymap or theme
    monkeypatch.delenv("PAW_WORKSPACE_PATH", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    assert main(["init", "--workspace", str(root)]) == 0
    (root / ".orchestration" / "active_intents.yaml").write_text(INTENTS)
    return root


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = new_workspace(tmp_path, monkeypatch)
    instructions = root / ".paw" / "instructions"
    (instructions / "Claude Code-instructions.md").write_text("# Workspace rules\n- Use ADRs.\n")
    (instructions / "Empty Agent-instructions.md").write_text("   \n")
    user = tmp_path / "home" / ".paw" / "instructions"
    user.mkdir(parents=True)
    (user / "Claude Code-instructions.md").write_text("# My preferences\n- Be concise.\n")
    (user / "Codex-instructions.md").write_text("Only user layer.\n")
    work = root / ".paw" / "work" / "auth-system"
    work.mkdir(parents=True)
    (work / "WorkflowContext.md").write_text("Work Title: Auth\nWork ID: auth-system\n")
    # some history: a denial before selection, a selection, allowed and denied writes
    assert write(root, "s1", "src/auth/a.py") == 2
    assert select(root, "s1", "INT-001") == 0
    assert write(root, "s1", "src/auth/a.py") == 0
    assert write_done(root, "s1", "src/auth/a.py") == 0
    assert write(root, "s1", "docs/readme.md") == 2
    return root


@pytest.fixture
def user_dir(tmp_path: Path) -> str:
    return str(tmp_path / "home" / ".paw" / "instructions")


def ledger_lines(root: Path) -> list[dict[str, object]]:
    path = root / ".orchestration" / "agent_trace.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def approvals_required(root: Path) -> None:
    governance = root / ".orchestration" / "governance.yaml"
    governance.write_text("approval: required\n")
    os.utime(governance)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
