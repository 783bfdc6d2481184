"""paw-tui with the real Qwen Code (issue 19): ``paw-tui install qwen-code``, then one session.

The scripted model writes before selecting (denied with the handshake's reason; the run goes
on), finds select_active_intent with ``tool_search`` and calls it through ``tool_call`` (Qwen
defers MCP tools: the hook sees the underlying ``mcp__paw__select_active_intent``), writes
inside the scope (a ``mutation`` record with the lines it wrote, and an edit of every
occurrence with each one's), outside it and through the shell (``Scope
Violation``). Only ``.qwen/.env`` tells Qwen where this machine's paw-tui is. The ledger holds
Qwen's own session id, the governance section reached the model once (not once per request:
``UserPromptSubmit`` fires before every request), the session is released at ``Stop`` (a
headless run sends no ``SessionEnd``) and ``trace verify`` passes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import pawkit
from .mock_openai import OpenAIRequest
from .script import Step, Text, ToolCall
from .session import run_session

pytestmark = pytest.mark.realclient

KEY = "qwen-code@0.24.4"
SELECT = "mcp__paw__select_active_intent"
PYTHON_WRITE = "python3 -c \"import os; os.makedirs('docs'); open('docs/py.txt', 'w')\""


def _write(root: Path, relative: str, content: str) -> ToolCall:
    return ToolCall("write_file", {"file_path": str(root / relative), "content": content})


def _edit(root: Path, relative: str, old: str, new: str) -> ToolCall:
    arguments = {"old_string": old, "new_string": new, "replace_all": True}
    return ToolCall("edit", {"file_path": str(root / relative), **arguments})


def _shell(command: str) -> ToolCall:
    return ToolCall("run_shell_command", {"command": command, "description": "test"})


def test_the_whole_handshake(tmp_path: Path) -> None:
    root, env = pawkit.workspace(tmp_path)
    pawkit.install(root, env, "qwen-code")
    env["PATH"] = pawkit.without_paw_on_path()
    script: list[Step] = [
        _write(root, "src/early.py", "x = 1\n"),
        ToolCall("tool_search", {"query": f"select:{SELECT}"}),
        ToolCall("tool_call", {"name": SELECT, "arguments": {"intent_id": "INT-001"}}),
        _write(root, "src/app.py", "x = 2\ny = 3\nx = 2\n"),
        _write(root, "docs/notes.md", "no\n"),
        _shell("echo no > docs/shell.md"),
        _shell(PYTHON_WRITE),
        _edit(root, "src/app.py", "x = 2", "x = 4"),
        Text("done"),
    ]
    result = run_session(KEY, root, "Add src/app.py", script, env=env, timeout=120)
    assert result.ok, result.describe()

    def results(step: int) -> str:
        return "\n".join(result.request_for_step(step).tool_results())

    early = results(1)
    assert pawkit.MUST_CITE in early and "select_active_intent" in early, early
    assert SELECT in results(2), results(2)  # tool_search loaded the handshake tool
    assert "INT-001" in results(3) and "<intent_context" in results(3), results(3)
    assert (root / "src" / "app.py").read_text(encoding="utf-8") == "x = 4\ny = 3\nx = 4\n"
    assert pawkit.SCOPE_VIOLATION + " docs/notes.md" in results(5), results(5)
    assert pawkit.SCOPE_VIOLATION + " docs/shell.md" in results(6), results(6)
    # Qwen scrubs BASH_ENV from its shell's environment: no kernel boundary there, drift
    # detection reports what the parser could not see
    assert "changed files outside the scope of INT-001: docs (created)" in results(7), results(7)
    assert not (root / "src" / "early.py").exists()
    assert not (root / "docs" / "notes.md").exists() and not (root / "docs" / "shell.md").exists()
    # the governance section once, in the prompt: not again before each later request
    last = result.request_for_step(7)
    assert isinstance(last, OpenAIRequest)
    assert sum(text.count(pawkit.GOVERNANCE) for text in last.user_texts()) == 1
    assert pawkit.GOVERNANCE not in last.system_text()
    events = pawkit.check_ledger(
        root,
        env,
        result.session_id(),
        "qwen-code",
        {"write": "write_file", "shell": "run_shell_command"},
    )
    assert "scope_breach" in [event for event, _tool, _paths in events]
    # the lines each file tool wrote, for the Agent Trace export: the whole write, every
    # occurrence the edit replaced
    assert pawkit.mutation_ranges(root, "write_file", "src/app.py") == [[(1, 3)]]
    assert pawkit.mutation_ranges(root, "edit", "src/app.py") == [[(1, 1), (3, 3)]]
    assert not [line for line in pawkit.git_status(root) if ".qwen/.env" in line]
