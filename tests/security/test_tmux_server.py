"""The tmux case end to end: a tmux server of the test's own runs nothing the agent asked for.

The test starts a private tmux server (``tmux -L <socket> -f /dev/null new-session -d``) and
gives the gate and the agent's shell the ``TMUX`` a person running their agent inside tmux
has. A control command run straight through bash reaches the server (its marker appears), so
the server would run what it is handed. The agent's commands then go through the installed
hook (``paw-tui gate`` with Claude Code payloads) and, when allowed, through bash as Claude
Code's Bash tool runs them: the server runs none of them. The server is killed at the end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from gatekit import run_gate

from .kit import (
    agent_env,
    assert_denied,
    bash_call,
    gate,
    post_bash_payload,
    run_bash,
    selected,
)

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Server:
    """A private tmux server and the ``TMUX`` value of a shell inside its first pane."""

    def __init__(self, socket: str) -> None:
        self.socket = socket
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "person", "-x", "80", "-y", "24")
        shown = self.tmux(
            "display-message", "-p", "-t", "person", "#{socket_path},#{pid},#{session_id}"
        )
        path, pid, session = shown.strip().split(",")
        self.env_value = f"{path},{pid},{session.lstrip('$')}"

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
            env={**os.environ, "TMUX": ""},
        )
        return done.stdout

    def settle(self) -> None:
        """Wait until the server has run what it was given (run-shell without -b waits)."""
        self.tmux("run-shell", "true")

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


@pytest.fixture
def server() -> Iterator[Server]:
    started = Server(f"paw-test-{uuid.uuid4().hex[:12]}")
    try:
        yield started
    finally:
        started.kill()


def _wait_for(path: Path, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.05)
    return path.exists()


def test_the_tmux_server_runs_nothing_the_agent_asked_for(wsroot: Path, server: Server) -> None:
    tmux_env = {"TMUX": server.env_value}
    # the control: straight through bash, the person's server runs what it is handed
    control = wsroot / "docs" / "control-marker"
    run_bash(wsroot, f"tmux new-window -d 'touch {control}'", env=agent_env(**tmux_env))
    assert _wait_for(control), "the tmux server did not run the control command"

    marker = wsroot / "docs" / "marker"
    relative = "docs/marker"
    commands = [
        f"tmux new-window -d 'touch {marker}'",
        f"tmux new-window -d 'cd {wsroot} && touch {relative}'",
        f"tmux send-keys -t person 'touch {marker}' Enter",
        f"tmux send-keys 'touch {marker}' C-m",
        f"tmux split-window -d 'touch {marker}'",
        f"tmux run-shell 'touch {marker}'",
        f'tmux run-shell -b \'python3 -c "open(\\"{marker}\\", \\"w\\")"\'',
        f"tmux respawn-pane -k -t person 'touch {marker}'",
        f"tmux if-shell true 'run-shell \"touch {marker}\"'",
        f"tmux ls \\; neww -d 'touch {marker}'",
        f"tmux neww -d touch {marker}",
        f"tmux set-buffer 'touch {marker}' \\; paste-buffer -t person \\; send-keys -t person Enter",
        f"tmux new-window -d \"$(printf 'touch {marker}')\"",
        f"echo 'touch {marker}' | xargs -I{{}} tmux new-window -d '{{}}'",
        f"bash -c \"tmux new-window -d 'touch {marker}'\"",
    ]
    selected(wsroot, "INT-001")
    for command in commands:
        pre_payload = bash_call(wsroot, command)
        pre = run_gate(pre_payload, cwd=wsroot, env=tmux_env)
        if pre.code == 0:  # not expected: run it as Claude Code would, then report
            proc = run_bash(wsroot, command, env=agent_env(**tmux_env))
            gate(post_bash_payload(pre_payload, proc))
        assert_denied(pre)
    server.settle()
    assert not marker.exists(), "the tmux server ran a command the agent handed it"
