"""The typing case in a real terminal (issue 18 item 2): ``paw-tui`` runs in a private tmux
server on a workspace with ``approval: required``; the person types into the prompt view's
supervisor field; mid-sentence an agent's selection arrives (a hook payload piped to
``paw-tui gate``); they keep typing "yes". The ledger and the approvals directory prove
that nothing was decided and the ledger that the text went into the field (it is then set as
the supervisor instruction, a recorded act). Skipped where tmux is absent."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .conftest import approvals_required, claude, ledger_lines

TMUX = shutil.which("tmux")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        TMUX is None, reason="tmux is not installed: the real-terminal test needs it"
    ),
]
DEADLINE = 90.0  # seconds; a loaded machine starts the TUI slowly, a healthy one in a second
ENVIRONMENT = ("PAW_STATE_DIR", "PAW_USER_HOME", "PAW_CONFIG_DIR", "HOME", "PATH")


class Terminal:
    """One tmux server of our own (``-L``), one 100x30 window running the command."""

    def __init__(self, socket: str) -> None:
        self.socket = socket
        self.socket_path: str | None = None

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        return done.stdout

    def start(self, command: list[str], env: dict[str, str]) -> None:
        line = " ".join(
            ["env", *(f"{k}={shlex.quote(v)}" for k, v in env.items()), *map(shlex.quote, command)]
        )
        self.tmux("new-session", "-d", "-x", "100", "-y", "30", line)
        self.socket_path = self.tmux("display-message", "-p", "#{socket_path}").strip() or None

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p")

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-l", text)

    def keys(self, *names: str) -> None:
        self.tmux("send-keys", *names)

    def wait_for(self, condition: Callable[[str], bool], what: str) -> str:
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            shown = self.screen()
            if condition(shown):
                return shown
            time.sleep(0.1)
        raise AssertionError(f"never saw {what}; the screen:\n{self.screen()}")

    def kill(self) -> None:
        self.tmux("kill-server")
        if self.socket_path:  # the server is gone; its socket file stays unless removed
            with contextlib.suppress(OSError):
                os.unlink(self.socket_path)


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"paw-test-{uuid.uuid4().hex[:12]}")
    try:
        yield term
    finally:
        term.kill()  # the server, the TUI in it, everything


def pipe_to_gate(root: Path, env: dict[str, str], payload: dict[str, object]) -> int:
    done = subprocess.run(
        [sys.executable, "-m", "paw_tui", "gate"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        cwd=root,
        timeout=60,
        check=False,
    )
    return done.returncode


def test_typing_yes_while_a_selection_arrives_decides_nothing(
    workspace: Path, terminal: Terminal
) -> None:
    approvals_required(workspace)
    env = {name: os.environ[name] for name in ENVIRONMENT if name in os.environ}
    env["CLAUDE_PROJECT_DIR"] = str(workspace)
    terminal.start([sys.executable, "-m", "paw_tui", "ui", "--workspace", str(workspace)], env)
    terminal.wait_for(lambda s: "Intents" in s and "INT-001" in s, "the main screen")
    terminal.keys("p")
    terminal.wait_for(lambda s: "e Supervisor" in s, "the prompt view, its keys in the footer")
    terminal.keys("e")  # the supervisor field: the footer drops the view's own keys
    terminal.wait_for(lambda s: "e Supervisor" not in s, "the focus in the supervisor field")
    terminal.type("I think ")
    terminal.wait_for(lambda s: "I think" in s, "the text in the field")
    # mid-sentence, an agent selects an intent that needs a person's approval
    selection = claude(
        workspace,
        "agent-7",
        "PreToolUse",
        tool_name="mcp__paw__select_active_intent",
        tool_input={"intent_id": "INT-002"},
    )
    assert pipe_to_gate(workspace, {**os.environ, **env}, selection) == 0
    terminal.wait_for(lambda s: "1 waiting (a)" in s, "the request announced in the header")
    terminal.type("yes")
    shown = terminal.wait_for(lambda s: "I think yes" in s, "every key in the field")
    assert "Approve intent selection?" not in shown
    # the text is set as the supervisor instruction for every session (a recorded act)
    terminal.keys("Tab", "Tab", "Enter")
    terminal.wait_for(
        lambda s: "Approve intent selection?" in s, "the request, once typing stopped"
    )
    records = ledger_lines(workspace)
    events = [r["event"] for r in records]
    assert "approval_granted" not in events and "approval_rejected" not in events
    supervisor = [r for r in records if r["event"] == "supervisor_set"]
    assert [r.get("instruction") for r in supervisor] == ["I think yes"]
    approvals = workspace / ".orchestration" / "approvals"
    states = [json.loads(p.read_text())["state"] for p in approvals.glob("*.json")]
    assert states == ["pending"]
