"""The tmux case end to end: a tmux server of the test's own runs nothing the agent asked for.

The test starts a private tmux server (``tmux -L <socket> -f /dev/null new-session -d``) and
gives the gate and the agent's shell the ``TMUX`` a person running their agent inside tmux
has. A control command run straight through bash reaches the server (its marker appears), so
the server would run what it is handed. The agent's commands then go through the installed
hook (``paw-tui gate`` with Claude Code payloads) and, when allowed, through bash as Claude
Code's Bash tool runs them: the server runs none of them. The server is killed at the end.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from gatekit import run_gate
from tmuxkit import TmuxServer, tmux_server

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


@pytest.fixture
def server() -> Iterator[TmuxServer]:
    with tmux_server() as started:
        yield started


def test_the_tmux_server_runs_nothing_the_agent_asked_for(wsroot: Path, server: TmuxServer) -> None:
    tmux_env = {"TMUX": server.tmux_env}
    # the control: straight through bash, the person's server runs what it is handed
    server.runs_what_it_is_handed(wsroot / "docs" / "control-marker")

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
