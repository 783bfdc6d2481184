"""paw-tui with the real Cline CLI (issue 19): ``paw-tui install cline``, then one session.

Cline's only sure block, ``cancel: true``, ends the whole run; the per-call refusal that keeps
it going is ``overrideInput`` + ``contextModification``. One ``cline --json`` session: an
``editor`` write before selecting is refused with the handshake's reason and the governance
section (TaskStart's answer is dropped, so the first call's answer carries it), and the run
goes on; ``paw__select_active_intent`` selects; an in-scope write lands with its ``mutation``
record; out-of-scope and ``run_commands`` writes are refused with ``Scope Violation``; the
ledger holds Cline's task id; ``TaskComplete`` releases the session; ``trace verify`` passes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import pawkit
from .mock_openai import OpenAIRequest
from .script import Step, Text, ToolCall
from .session import run_session

pytestmark = pytest.mark.realclient

KEY = "cline@3.0.65"
SELECT = "paw__select_active_intent"


def _editor(root: Path, relative: str, text: str) -> ToolCall:
    return ToolCall("editor", {"path": str(root / relative), "new_text": text})


def test_the_whole_handshake(tmp_path: Path) -> None:
    root, env = pawkit.workspace(tmp_path)
    home = (tmp_path / "home").resolve()
    env["CLINE_DATA_DIR"] = str(home / ".cline" / "data")
    pawkit.install(root, env, "cline")
    env["PATH"] = pawkit.without_paw_on_path()
    env["PAW_TUI_HOOK"] = str(tmp_path / "paw-state" / "hook")  # the install's reach step
    script: list[Step] = [
        _editor(root, "src/early.py", "x = 1\n"),
        ToolCall(SELECT, {"intent_id": "INT-001"}),
        _editor(root, "src/app.py", "x = 2\n"),
        _editor(root, "docs/notes.md", "no\n"),
        ToolCall("run_commands", {"commands": ["echo no > docs/shell.md"]}),
        Text("done"),
    ]
    result = run_session(KEY, root, "Add src/app.py", script, env=env, home=home, timeout=120)
    assert result.ok, result.describe()

    def told(step: int) -> str:
        request = result.request_for_step(step)
        assert isinstance(request, OpenAIRequest)
        return "\n".join(request.tool_results() + request.after_results())

    assert pawkit.MUST_CITE in told(1) and pawkit.GOVERNANCE in told(1), told(1)
    assert "INT-001" in told(2) and "<intent_context" in told(2), told(2)
    assert (root / "src" / "app.py").read_text(encoding="utf-8") == "x = 2\n"
    assert pawkit.SCOPE_VIOLATION + " docs/notes.md" in told(4), told(4)
    assert pawkit.SCOPE_VIOLATION + " docs/shell.md" in told(5), told(5)
    assert not (root / "src" / "early.py").exists() and not (root / "docs").exists()
    last = result.request_for_step(5)
    assert isinstance(last, OpenAIRequest)
    assert sum(text.count(pawkit.GOVERNANCE) for text in last.user_texts()) == 1
    session = result.session_id()
    assert session and session.startswith("conv_")
    pawkit.check_ledger(root, env, session, "cline", {"write": "editor", "shell": "run_commands"})
    assert pawkit.mutation_ranges(root, "editor", "src/app.py") == [[(1, 1)]]
