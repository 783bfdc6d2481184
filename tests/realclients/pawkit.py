"""What the paw-tui real-session tests of the OpenAI-speaking clients share: a workspace with
one intent, ``paw-tui install <client>`` as a person runs it, the ledger, ``trace verify``.

Each test runs **one** session of its client whose scripted model walks the whole handshake
(a write before selecting, the selection, an in-scope write, out-of-scope and shell writes),
so the done-when list of issue 19 costs one client start per client.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from .test_paw_claude_handshake import INTENTS, PAW

MUST_CITE = "You must cite a valid active Intent ID"
SCOPE_VIOLATION = "Scope Violation: INT-001 is not authorized to edit"
GOVERNANCE = "## Governance (paw-tui)"


def workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A git repository with one intent on ``src/**``; the paw-tui state directory's env."""
    root = (tmp_path / "ws").resolve()
    (root / ".orchestration").mkdir(parents=True)
    (root / ".orchestration" / "active_intents.yaml").write_text(INTENTS, encoding="utf-8")
    (root / "src").mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root, {"PAW_STATE_DIR": str(tmp_path / "paw-state")}


def paw(root: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PAW, *args], cwd=root, env={**os.environ, **env}, capture_output=True, text=True
    )


def install(root: Path, env: dict[str, str], client: str) -> str:
    """``paw-tui install <client>`` (twice: the second run must change nothing); its output."""
    first = paw(root, env, "install", client)
    assert first.returncode == 0, first.stdout + first.stderr
    again = paw(root, env, "install", client)
    assert again.returncode == 0 and "created" not in again.stdout, again.stdout
    assert "updated" not in again.stdout, again.stdout
    return first.stdout


def without_paw_on_path() -> str:
    """PATH without any folder holding a ``paw-tui``: only the install's settings reach it."""
    return os.pathsep.join(
        d for d in os.environ["PATH"].split(os.pathsep) if not (Path(d) / "paw-tui").exists()
    )


def records(root: Path) -> list[dict[str, Any]]:
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    return [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]


def events(root: Path) -> list[tuple[Any, Any, Any]]:
    return [(r["event"], r.get("tool"), r.get("paths")) for r in records(root)]


def mutation_ranges(root: Path, tool: str, path: str) -> list[list[tuple[int, int]]]:
    """The line ranges of each ``mutation`` record of ``tool`` on ``path`` (``[]`` for one
    recorded without ranges)."""
    return [
        [(r["start_line"], r["end_line"]) for r in record.get("ranges", [])]
        for record in records(root)
        if record["event"] == "mutation" and record.get("tool") == tool
        and record.get("paths") == [path]
    ]  # fmt: skip


def check_ledger(
    root: Path, env: dict[str, str], session: str | None, client: str, tools: dict[str, str]
) -> list[tuple[Any, Any, Any]]:
    """What the one session of the handshake must have left in the ledger, under the client's
    own session id and name: the early write denied, the selection, the in-scope write's
    ``mutation`` (each once), the out-of-scope and shell writes denied, the release last, and
    ``trace verify`` passing. ``tools``: the client's names for ``write`` and ``shell``."""
    found = records(root)
    assert session and {r.get("session_id") for r in found} == {session}
    assert {r.get("client") for r in found if r.get("client")} == {client}
    seen = events(root)
    write, shell = tools["write"], tools["shell"]
    assert seen.count(("tool_denied", write, ["src/early.py"])) == 1, seen
    assert ("intent_selected", "mcp__paw__select_active_intent", None) in seen
    assert seen.count(("mutation", write, ["src/app.py"])) == 1, seen
    assert ("tool_denied", write, ["docs/notes.md"]) in seen
    assert ("tool_denied", shell, ["docs/shell.md"]) in seen, seen
    assert seen[-1][0] == "session_released", seen[-3:]
    verify(root, env)
    return seen


def verify(root: Path, env: dict[str, str]) -> None:
    done = paw(root, env, "trace", "verify")
    assert done.returncode == 0, done.stdout + done.stderr


def canary_row(root: Path, env: dict[str, str], client: str) -> tuple[str, str]:
    """``doctor``'s ``<client> canary`` row: its status and detail."""
    done = paw(root, env, "doctor", "--json")
    rows = [r for r in json.loads(done.stdout) if r["check"] == f"{client} canary"]
    assert len(rows) == 1, done.stdout
    return rows[0]["status"], rows[0]["detail"]


def git_status(root: Path) -> list[str]:
    """``git status --porcelain`` lines: what a commit would pick up."""
    done = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()
