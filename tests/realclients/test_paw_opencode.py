"""paw-tui with the real opencode (issue 19): ``paw-tui install opencode``, then one session.

opencode has no command hooks: paw-tui's plugin (``.opencode/plugin/paw-tui.js``) asks the gate
and throws to refuse. One ``opencode run`` session: a ``write`` before selecting is refused with
the handshake's reason and the run goes on; ``paw_select_active_intent`` selects; an in-scope
write lands with its ``mutation`` record (the lines it wrote; an edit of every occurrence, each
one's); out-of-scope and ``bash`` writes are refused with ``Scope Violation``; a sub-agent
(``task``) writes under its parent's intent and session; the governance section is in each
request's system prompt, the sub-agent's too (once, from the turn's ``chat.message``); the
ledger holds opencode's session id (``ses_...``) alone; the session is
released when opencode exits (``dispose``); ``trace verify`` passes; nothing opencode or the
install leaves in the workspace shows in ``git status`` beyond the files a team commits. Only
``.opencode/paw-tui.hook`` tells the plugin and the MCP command where this machine's paw-tui is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import pawkit
from .mock_openai import OpenAIRequest
from .script import Step, Text, ToolCall
from .session import run_session

pytestmark = pytest.mark.realclient

KEY = "opencode@1.18.33"
SELECT = "paw_select_active_intent"
TASK = {"description": "write sub", "prompt": "Write src/sub.py", "subagent_type": "general"}
COMMITTED = {".opencode/plugin/paw-tui.js", "opencode.json", ".opencode/.gitignore"}


def _write(relative: str, content: str) -> ToolCall:
    return ToolCall("write", {"filePath": relative, "content": content})


def test_the_whole_handshake(tmp_path: Path) -> None:
    root, env = pawkit.workspace(tmp_path)
    pawkit.install(root, env, "opencode")
    env["PATH"] = pawkit.without_paw_on_path()
    script: list[Step] = [
        _write("src/early.py", "x = 1\n"),
        ToolCall(SELECT, {"intent_id": "INT-001"}),
        _write("src/app.py", "x = 2\ny = 3\nx = 2\n"),
        _write("docs/notes.md", "no\n"),
        ToolCall("bash", {"command": "echo no > docs/shell.md", "description": "test"}),
        ToolCall(
            "edit",
            {
                "filePath": "src/app.py",
                "oldString": "x = 2",
                "newString": "x = 4",
                "replaceAll": True,
            },
        ),
        ToolCall("task", TASK),
        _write("src/sub.py", "sub = 1\n"),  # the sub-agent's turns, in its own session
        Text("sub-agent done"),
        Text("done"),
    ]
    result = run_session(KEY, root, "Add src/app.py", script, env=env, timeout=120)
    assert result.ok, result.describe()

    def results(step: int) -> str:
        return "\n".join(result.request_for_step(step).tool_results())

    assert pawkit.MUST_CITE in results(1) and SELECT in results(1), results(1)
    assert "INT-001" in results(2) and "<intent_context" in results(2), results(2)
    assert (root / "src" / "app.py").read_text(encoding="utf-8") == "x = 4\ny = 3\nx = 4\n"
    assert pawkit.SCOPE_VIOLATION + " docs/notes.md" in results(4), results(4)
    assert pawkit.SCOPE_VIOLATION + " docs/shell.md" in results(5), results(5)
    assert not (root / "src" / "early.py").exists() and not (root / "docs").exists()
    for request in result.scripted:
        assert isinstance(request, OpenAIRequest)
        assert request.system_text().count(pawkit.GOVERNANCE) == 1, request.index
        assert not any(pawkit.GOVERNANCE in text for text in request.user_texts())
    # the sub-agent (a session of its own in opencode) wrote under its parent's intent, and
    # check_ledger below finds its records under the parent's session id
    assert "sub-agent done" in results(9), results(9)
    assert (root / "src" / "sub.py").read_text(encoding="utf-8") == "sub = 1\n"
    assert pawkit.mutation_ranges(root, "write", "src/sub.py") == [[(1, 1)]]
    session = result.session_id()
    assert session and session.startswith("ses_")
    pawkit.check_ledger(root, env, session, "opencode", {"write": "write", "shell": "bash"})
    # the lines each file tool wrote, for the Agent Trace export: the whole write, every
    # occurrence the edit replaced
    assert pawkit.mutation_ranges(root, "write", "src/app.py") == [[(1, 3)]]
    assert pawkit.mutation_ranges(root, "edit", "src/app.py") == [[(1, 1), (3, 3)]]
    ignore = (root / ".opencode" / ".gitignore").read_text(encoding="utf-8")
    assert "/paw-tui.hook" in ignore and "/node_modules/" in ignore, ignore  # opencode kept it
    untracked = {line[3:] for line in pawkit.git_status(root)}
    assert {path for path in untracked if path.startswith(".opencode/")} <= COMMITTED, untracked
