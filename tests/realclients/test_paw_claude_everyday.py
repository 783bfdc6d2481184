"""paw-tui with the real Claude Code: everyday work passes under a narrow intent, and a tmux
server of the test's own runs nothing the agent hands it (issue 17).

One session (for CI time): the scripted model selects ``INT-001`` (``src/**``) and, through
Claude Code's own Bash tool, commits, switches to a new branch, lists stashes, lists tmux
sessions, runs an ``npm test``-like and a ``pytest``-like command: all allowed, all run. The
shell has ``TMUX`` pointing at a private tmux server started by the test (as a person running
their agent inside tmux has it); the model's ``tmux new-window`` and ``tmux send-keys`` are
denied and the server runs neither (their marker never appears), while a control command the
test sends the same server straight away does run.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from tmuxkit import TmuxServer, tmux_server

from .install import CLIENTS
from .pawsetup import SOURCE_INTENT, paw_workspace
from .recipes import shell
from .script import Step, Text, ToolCall
from .session import run_session

pytestmark = [
    pytest.mark.realclient,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed"),
]

PACKAGE = {"name": "ws", "version": "1.0.0", "scripts": {"test": "node src/check.js"}}
FILES = {
    ".orchestration/active_intents.yaml": SOURCE_INTENT,
    ".orchestration/governance.yaml": "approval: none\n",
    ".gitignore": "node_modules/\n",
    "package.json": json.dumps(PACKAGE),
    "src/a.py": "A = 1\n",
    "src/check.js": "console.log('npm-test-ok')\n",
    "src/test_a.py": "from a import A\n\n\ndef test_a():\n    assert A == 1\n",
    "docs/d.md": "docs\n",
}


def test_everyday_work_passes_and_tmux_runs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = max(k for k in CLIENTS if k.startswith("claude-code"))
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "paw-state"))
    root = (tmp_path / "ws").resolve()
    root.mkdir()
    env = paw_workspace(root, tmp_path / "paw-state", FILES, commit=True)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    with tmux_server() as server:
        env["TMUX"] = server.tmux_env
        server.runs_what_it_is_handed(root.parent / "control-marker")
        _session(key, root, tmp_path, env, server)


def _session(key: str, root: Path, tmp_path: Path, env: dict[str, str], server: TmuxServer) -> None:
    marker = root / "src" / "tmux-marker"
    outside = root / "docs" / "tmux-marker"
    allowed = [
        "echo 'B = 2' >> src/a.py && git add src/a.py && git commit -qm 'more' && echo committed",
        "git commit -qam 'again' --allow-empty && git switch -c feature/x && git branch --show-current",
        "git stash list && git status --short && git log --oneline -1 && git diff HEAD~1 --stat",
        "tmux ls",
        "npm test",
        f"{Path(sys.executable).parent / 'pytest'} -q -p no:cacheprovider src/test_a.py",
        f"{sys.executable} -m pytest -q -p no:cacheprovider src/test_a.py",
    ]
    denied = [
        "tmux new-window -d 'touch src/tmux-marker'",
        f"tmux send-keys -t person 'touch {outside}' Enter",
        "git stash",
    ]
    script: list[Step] = [ToolCall("mcp__paw__select_active_intent", {"intent_id": "INT-001"})]
    script += [shell("claude", command) for command in allowed + denied]
    script.append(Text("done"))
    result = run_session(
        key, root, "work on INT-001", script, env=env, timeout=180, home=tmp_path / "client-home"
    )
    assert result.ok, result.describe()
    outputs = [
        "\n".join(result.request_for_step(step).tool_results()) for step in range(2, len(script))
    ]
    expected = ["committed", "feature/x", "again", "person:", "npm-test-ok", "1 passed", "1 passed"]
    for command, output, needle in zip(allowed, outputs[: len(allowed)], expected, strict=True):
        assert "paw-tui policy" not in output and "Scope Violation" not in output, (command, output)
        assert needle in output, (command, output)
    for command, output in zip(denied, outputs[len(allowed) :], strict=True):
        assert "paw-tui policy" in output or "Scope Violation" in output, (command, output)
    server.settle()  # the server has run whatever it was handed
    assert not marker.exists() and not outside.exists()
    records = [
        json.loads(line)
        for line in (root / ".orchestration" / "agent_trace.jsonl").read_text().splitlines()
    ]
    shells = [r for r in records if r.get("tool") == "Bash" and r["event"].startswith("tool_")]
    assert [r["event"] for r in shells] == ["tool_allowed"] * len(allowed) + ["tool_denied"] * len(
        denied
    ), [(r["event"], r.get("reason")) for r in shells]
