"""Helpers shared by the handshake, gate, MCP and install tests.

Workspaces are written as files (``.orchestration/active_intents.yaml`` and friends), Claude
Code payloads come from the real-shaped fixtures in ``tests/data/claude/`` with ``__ROOT__``
replaced by the workspace root, and the gate runs either in process
(:func:`paw_tui.gate.main.decide_payload`) or as the installed ``paw-tui gate`` script.
Every helper takes its environment from ``os.environ``, which the tests' fixtures isolate
(``HOME``, ``PAW_USER_HOME`` and ``PAW_STATE_DIR`` under ``tmp_path``).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import Workspace

    from paw_tui.core.handshake.selection import Selection
    from paw_tui.core.workspace.state import WorkspaceState

DATA = Path(__file__).parent / "data" / "claude"
BIN = Path(sys.executable).parent
PAW = str(BIN / "paw-tui")
FIXTURE_SESSION = "9f3c2a51-7d4e-4b8a-a1c6-2e5f0d8b7c13"
INTENTS_REL = ".orchestration/active_intents.yaml"
MANDATE = (
    "You are an Intent-Driven Architect. You CANNOT write code immediately. Your first action "
    "MUST be to analyze the user request and call select_active_intent to load the necessary "
    "context."
)
NO_INTENT = "You must cite a valid active Intent ID."

INTENTS_YAML = """\
# Intents of the test workspace (human-owned).
active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS   # being worked on
    description: Move the API from Basic Auth to JWT.
    owned_scope: ["src/auth/**", "tests/auth/**", "!src/auth/legacy/**"]
    constraints: ["Must not use external auth providers"]
    acceptance_criteria: ["Unit tests in tests/auth/ pass"]
    related_specs: ["docs/auth.md"]
    depends_on: []

  - id: INT-002
    name: Documentation Refresh
    status: PENDING       # nobody started it
    description: Rewrite the root-level documents.
    owned_scope: ["*.md"]

  - id: INT-003
    name: Payment Gateway
    status: BLOCKED
    owned_scope: ["src/pay/**"]

  - id: INT-004
    name: Old Cleanup
    status: COMPLETED
    owned_scope: ["old/**"]

  - id: INT-005
    name: Abandoned Spike
    status: ABANDONED
    owned_scope: ["spike/**"]

  - id: INT-006
    name: Everything
    status: IN_PROGRESS
    owned_scope: ["**"]

  - id: INT-007
    name: Source Tree
    status: IN_PROGRESS
    owned_scope: ["src/**"]
"""
# What "Available intents:" lists for INTENTS_YAML when nobody holds anything.
AVAILABLE = (
    "INT-001 (JWT Authentication Migration), INT-002 (Documentation Refresh), "
    "INT-006 (Everything), INT-007 (Source Tree)"
)
INT001_SCOPE = "src/auth/**, tests/auth/**, !src/auth/legacy/**"
SCOPE_TOOL_NAMES = {
    "claude-code": "mcp__paw__request_scope_expansion",
    "codex": "mcp__paw__request_scope_expansion",
    "gemini-cli": "mcp_paw_request_scope_expansion",
    "vscode": "mcp_paw_request_scope_expansion",
    "copilot": "paw-request_scope_expansion",
    "cline": "paw__request_scope_expansion",
}
"""What each client's model calls paw's request_scope_expansion (clients-observed.md); the
others are told the plain name."""


def scope_violation(intent_id: str, path: str, scope: str, client: str = "claude-code") -> str:
    """The deny reason of DESIGN §5 for ``client``: the contract sentence, then the tool that
    asks for more scope under that client's name for it."""
    tool = SCOPE_TOOL_NAMES.get(client, "request_scope_expansion")
    return (
        f"Scope Violation: {intent_id} is not authorized to edit {path}. Owned scope: {scope}. "
        f"Request scope expansion. To ask a person for it, call {tool}(pattern, reason)."
    )


@pytest.fixture(autouse=True)
def paw_state_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The ledger head lives outside the workspace: keep it in the test's tmp_path."""
    directory = tmp_path / "paw-state"
    directory.mkdir(exist_ok=True)
    monkeypatch.setenv("PAW_STATE_DIR", str(directory))
    return directory


def write_workspace(
    root: Path,
    intents: str | bytes | None = INTENTS_YAML,
    governance: str | None = None,
) -> Path:
    """``root`` with ``.orchestration/`` holding the given files (None: file absent)."""
    orchestration = root / ".orchestration"
    orchestration.mkdir(parents=True, exist_ok=True)
    if intents is not None:
        data = intents.encode("utf-8") if isinstance(intents, str) else intents
        (orchestration / "active_intents.yaml").write_bytes(data)
    if governance is not None:
        (orchestration / "governance.yaml").write_text(governance, encoding="utf-8")
    return root


STATUSES = ("IN_PROGRESS", "PENDING", "COMPLETED", "BLOCKED", "ABANDONED")
"""Cycled through by :func:`many_intents_yaml` (only the first two are selectable)."""


def many_intents_yaml(count: int, *, renamed: int | None = None, exclusions: bool = False) -> str:
    """``count`` intents ``INT-0001``... each owning ``src/f<n>/**`` and ``docs/f<n>/*.md``
    (and excluding ``src/f<n>/gen/**`` with ``exclusions``), their statuses cycling through
    STATUSES; intent ``renamed`` named "Renamed"."""
    parts = ["active_intents:\n"]
    for number in range(1, count + 1):
        name = "Renamed" if number == renamed else f"Feature {number}"
        excluded = f'"!src/f{number}/gen/**", ' if exclusions else ""
        parts.append(
            f"  - id: INT-{number:04d}\n"
            f"    name: {name}\n"
            f"    status: {STATUSES[(number - 1) % len(STATUSES)]}\n"
            f'    owned_scope: ["src/f{number}/**", {excluded}"docs/f{number}/*.md"]\n'
        )
    return "".join(parts)


def intents_file(root: Path) -> Path:
    return root / ".orchestration" / "active_intents.yaml"


def fixture_text(name: str) -> str:
    return (DATA / f"{name}.json").read_text(encoding="utf-8")


def claude_payload(
    name: str,
    root: Path | str,
    *,
    session: str | None = None,
    cwd: str | Path | None = None,
    tool_name: str | None = None,
    tool_input: dict[str, object] | None = None,
    replace_input: dict[str, object] | None = None,
    **fields: object,
) -> dict[str, object]:
    """A fixture with ``__ROOT__`` replaced; ``tool_input`` entries are merged in,
    ``replace_input`` replaces the whole tool_input, ``fields`` set top-level keys."""
    text = fixture_text(name).replace("__ROOT__", json.dumps(str(root))[1:-1])
    payload: dict[str, Any] = json.loads(text)
    if session is not None:
        payload["session_id"] = session
    if cwd is not None:
        payload["cwd"] = str(cwd)
    if tool_name is not None:
        payload["tool_name"] = tool_name
    if replace_input is not None:
        payload["tool_input"] = copy.deepcopy(replace_input)
    if tool_input:
        payload["tool_input"] = dict(payload["tool_input"], **tool_input)
    payload.update(fields)
    return payload


def write_payload(
    root: Path | str,
    path: str,
    *,
    session: str = "s-alpha",
    content: str = "x\n",
    tool: str = "Write",
) -> dict[str, object]:
    """A PreToolUse Write (or ``tool``) of ``path`` (relative ones are joined to the root)."""
    target = (
        path if os.path.isabs(path) or "\\" in path or path.startswith("~") else f"{root}/{path}"
    )
    return claude_payload(
        "pre_tool_use_write",
        root,
        session=session,
        tool_name=tool,
        replace_input={"file_path": target, "content": content},
    )


def bash_payload(
    root: Path | str, command: str, *, session: str = "s-alpha", cwd: str | Path | None = None
) -> dict[str, object]:
    return claude_payload(
        "pre_tool_use_bash", root, session=session, cwd=cwd, tool_input={"command": command}
    )


def select_payload(
    root: Path | str,
    intent_id: str,
    *,
    session: str = "s-alpha",
    tool_name: str = "mcp__paw__select_active_intent",
) -> dict[str, object]:
    return claude_payload(
        "pre_tool_use_select_active_intent",
        root,
        session=session,
        tool_name=tool_name,
        replace_input={"intent_id": intent_id},
    )


@dataclass
class GateResult:
    code: int
    out: str
    err: str

    @property
    def json(self) -> dict[str, object]:
        data: dict[str, object] = json.loads(self.out)
        return data

    @property
    def denied(self) -> bool:
        return self.code == 2

    @property
    def reason(self) -> str | None:
        """The Claude Code deny reason (None when the answer is not a deny)."""
        if not self.out.strip():
            return None
        specific = self.json.get("hookSpecificOutput", {})
        return specific.get("permissionDecisionReason") if isinstance(specific, dict) else None

    @property
    def context(self) -> str | None:
        if not self.out.strip():
            return None
        specific = self.json.get("hookSpecificOutput", {})
        return specific.get("additionalContext") if isinstance(specific, dict) else None


def gate(
    payload: object,
    *,
    client: str = "auto",
    event: str | None = None,
    workspaces: tuple[str, ...] = (),
) -> GateResult:
    """The gate in process: ``decide_payload`` on the JSON of ``payload`` (bytes as is)."""
    from paw_tui.gate.main import decide_payload

    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
    answer = decide_payload(
        raw, client=client, event_override=event, workspaces=workspaces, environ=dict(os.environ)
    )
    return GateResult(answer.exit_code, answer.stdout, answer.stderr)


REPO = str(Path(__file__).resolve().parent.parent)


def gate_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a child process: this test's, with the working tree's ``paw_tui``
    first on the path (the venv may hold a stale non-editable copy of the package)."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("PAW_WORKSPACE_PATH", "CLAUDE_PROJECT_DIR")
    }
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [REPO, os.environ.get("PYTHONPATH")]))
    env.update(extra or {})
    return env


def run_gate(
    payload: object,
    *,
    cwd: Path | str,
    args: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
) -> GateResult:
    """``paw-tui gate ARGS`` as a real process: the payload on stdin."""
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
    proc = subprocess.run(
        [PAW, "gate", *args],
        input=raw,
        capture_output=True,
        cwd=str(cwd),
        env=gate_env(env),
        timeout=60,
    )
    return GateResult(proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8"))


def assert_claude_deny(
    result: GateResult, reason: str | None = None, *, startswith: str | None = None
) -> str:
    """The exact deny shape of DESIGN §6; returns the reason."""
    assert result.code == 2, (result.code, result.out, result.err)
    data = result.json
    assert set(data) == {"hookSpecificOutput"}
    specific = data["hookSpecificOutput"]
    assert isinstance(specific, dict)
    assert set(specific) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    assert specific["hookEventName"] == "PreToolUse"
    assert specific["permissionDecision"] == "deny"
    got: str = specific["permissionDecisionReason"]
    if reason is not None:
        assert got == reason
    if startswith is not None:
        assert got.startswith(startswith), got
    assert result.err == got + "\n"
    return got


def assert_allow(result: GateResult) -> None:
    """A Claude Code allow: exit 0 and nothing on stdout (never permissionDecision allow)."""
    assert result.code == 0, (result.code, result.out, result.err)
    assert result.out == "", result.out
    assert "permissionDecision" not in result.out


def records(root: Path | str) -> list[dict[str, object]]:
    path = Path(root) / ".orchestration" / "agent_trace.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def events(root: Path | str) -> list[str]:
    return [str(r["event"]) for r in records(root)]


def state(root: Path | str, clock: Callable[[], float] | None = None) -> WorkspaceState:
    from paw_tui.core.workspace.state import WorkspaceState

    return WorkspaceState(str(root)) if clock is None else WorkspaceState(str(root), clock=clock)


def select(
    root: Path | str, session: str, intent_id: str, clock: Callable[[], float] | None = None
) -> Selection:
    from paw_tui.core.handshake.selection import select_active_intent

    return select_active_intent(state(root, clock), session, intent_id)


class Clock:
    """A settable clock for ``WorkspaceState(root, clock=...)``."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def session_file(root: Path | str, session: str) -> Path:
    return Path(root) / ".orchestration" / "sessions" / f"{session}.json"


def age_session(root: Path | str, session: str, seconds: float) -> None:
    """Make a session look idle for ``seconds`` (its last_seen moved into the past)."""
    path = session_file(root, session)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["last_seen"] = float(data["last_seen"]) - seconds
    data["started"] = min(float(data["started"]), data["last_seen"])
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture
def root(ws: Workspace) -> Path:
    """The conftest workspace (``.paw`` marker) with INTENTS_YAML in ``.orchestration/``."""
    return write_workspace(ws.root)


def launcher_only_hook(directory: Path) -> str:
    """A hook script whose venv lost its paw-tui package: the interpreter runs and the hook's
    launcher is there, the gate is not, so the launcher denies every call on its own (with
    the deny JSON a working gate prints). Returns its path."""
    import shutil

    from paw_tui.core.clients.commands import launcher_path

    launcher = directory / "site" / "paw_tui" / "gate" / "launch.py"
    launcher.parent.mkdir(parents=True)
    shutil.copyfile(launcher_path(), launcher)
    script = directory / "hook"
    script.write_text(
        f'#!/bin/sh\n[ "$1" = gate ] && shift\nexec {sys.executable} -I -S {launcher} "$@"\n',
        encoding="utf-8",
    )
    script.chmod(0o755)
    return str(script)
