"""paw-tui with the real GitHub Copilot CLI (issue 19), with Claude Code's install beside it.

Copilot CLI also runs ``.claude/settings.json``'s hooks: with ``install claude-code`` and
``install copilot`` (in either order) each call must be decided once, as Copilot's. One
session: a ``create`` before selecting is denied with the handshake's reason (shown to the
model: the JSON deny on stdout) and the run goes on; ``paw-select_active_intent`` selects; an
in-scope ``create`` and an in-scope ``bash`` write land with their ``mutation`` records;
out-of-scope and shell writes are denied with ``Scope Violation``. The ledger holds Copilot's
session id and no record of Claude Code's, the session is released at ``sessionEnd``, ``trace
verify`` passes. The trust install recorded in ``$COPILOT_HOME/config.json`` is what lets
Copilot load the hooks (the harness trusts nothing itself). Where paw-tui cannot run, the
model is told why (the fallback's JSON deny).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import pawkit
from .mock_openai import OpenAIRequest
from .script import Step, Text, ToolCall
from .session import SessionResult, run_session

pytestmark = pytest.mark.realclient

KEY = "copilot@1.0.102"
SELECT = "paw-select_active_intent"
DENIED = "Denied by preToolUse hook: "


def _create(root: Path, relative: str, text: str) -> ToolCall:
    return ToolCall("create", {"path": str(root / relative), "file_text": text})


def _session(
    tmp_path: Path, order: tuple[str, ...], script: list[Step], hook: bool = True
) -> tuple[Path, dict[str, str], SessionResult]:
    root, env = pawkit.workspace(tmp_path)
    home = (tmp_path / "home").resolve()
    env["COPILOT_HOME"] = str(home / ".copilot")
    for client in order:
        pawkit.install(root, env, client)
    env["PATH"] = pawkit.without_paw_on_path()
    if hook:  # what the install step asks a person to export
        env["PAW_TUI_HOOK"] = str(tmp_path / "paw-state" / "hook")
    result = run_session(KEY, root, "Add src/app.py", script, env=env, home=home, trust=False)
    assert result.ok, result.describe()
    return root, env, result


def test_the_whole_handshake_decided_once(tmp_path: Path) -> None:
    root = (tmp_path / "ws").resolve()
    script: list[Step] = [
        _create(root, "src/early.py", "x = 1\n"),
        ToolCall(SELECT, {"intent_id": "INT-001"}),
        _create(root, "src/app.py", "x = 2\n"),
        _create(root, "docs/notes.md", "no\n"),
        ToolCall("bash", {"command": "echo no > docs/shell.md", "description": "test"}),
        ToolCall("bash", {"command": "echo yes > src/shell.txt", "description": "test"}),
        Text("done"),
    ]
    root, env, result = _session(tmp_path, ("claude-code", "copilot"), script)

    def results(step: int) -> str:
        return "\n".join(result.request_for_step(step).tool_results())

    assert DENIED + "You must cite a valid active Intent ID" in results(1), results(1)
    assert "INT-001" in results(2) and "<intent_context" in results(2), results(2)
    assert (root / "src" / "app.py").read_text(encoding="utf-8") == "x = 2\n"
    assert DENIED + pawkit.SCOPE_VIOLATION + " docs/notes.md" in results(4), results(4)
    assert pawkit.SCOPE_VIOLATION + " docs/shell.md" in results(5), results(5)
    assert not (root / "src" / "early.py").exists() and not (root / "docs").exists()
    last = result.request_for_step(5)
    assert isinstance(last, OpenAIRequest)
    assert sum(text.count(pawkit.GOVERNANCE) for text in last.user_texts()) == 1
    pawkit.check_ledger(
        root, env, result.session_id(), "copilot", {"write": "create", "shell": "bash"}
    )
    assert pawkit.mutation_ranges(root, "create", "src/app.py") == [[(1, 1)]]
    # a bash command in scope runs, and what it wrote is recorded
    assert (root / "src" / "shell.txt").read_text(encoding="utf-8") == "yes\n", results(6)
    assert pawkit.mutation_ranges(root, "bash", "src/shell.txt") == [[]]


def test_the_other_order_and_no_paw_tui(tmp_path: Path) -> None:
    """``install copilot`` then ``install claude-code``: still one decision per call. And on a
    machine where the hooks find no paw-tui, the model reads why it was denied."""
    root = (tmp_path / "ws").resolve()
    script: list[Step] = [_create(root, "src/early.py", "x = 1\n"), Text("done")]
    root, env, result = _session(tmp_path, ("copilot", "claude-code"), script)
    events = pawkit.events(root)
    assert events.count(("tool_denied", "create", ["src/early.py"])) == 1, events
    assert {r.get("client") for r in pawkit.records(root) if r.get("client")} == {"copilot"}
    broken = tmp_path / "broken"
    broken.mkdir()
    root, env, result = _session(broken, ("copilot",), script, hook=False)
    told = "\n".join(result.request_for_step(1).tool_results())
    assert DENIED + "paw-tui policy: the paw-tui gate could not run here" in told, told
    assert not (root / "src" / "early.py").exists()
