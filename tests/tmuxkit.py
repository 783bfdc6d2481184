"""A private tmux server for tests: started with its own socket and no configuration, the
``TMUX`` value of a shell inside its first pane (what a person running their agent inside
tmux has), and killed at the end. Nothing here knows about paw-tui."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class TmuxServer:
    """``tmux -L <socket> -f /dev/null new-session -d -s person``."""

    def __init__(self) -> None:
        self.socket = f"paw-test-{uuid.uuid4().hex[:12]}"
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "person", "-x", "80", "-y", "24")
        shown = self.tmux(
            "display-message", "-p", "-t", "person", "#{socket_path},#{pid},#{session_id}"
        )
        path, pid, session = shown.strip().split(",")
        self.tmux_env = f"{path},{pid},{session.lstrip('$')}"
        """The ``TMUX`` variable of a shell in the server's first pane."""

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

    def runs_what_it_is_handed(self, marker: Path) -> None:
        """The control: a shell with this ``TMUX`` hands the server a command, which runs."""
        subprocess.run(
            ["bash", "-c", f"tmux new-window -d 'touch {marker}'"],
            env={**os.environ, "TMUX": self.tmux_env},
            check=True,
            timeout=30,
        )
        deadline = time.monotonic() + 20
        while not marker.exists():
            assert time.monotonic() < deadline, "the private tmux server ran nothing"
            time.sleep(0.05)

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


@contextmanager
def tmux_server() -> Iterator[TmuxServer]:
    server = TmuxServer()
    try:
        yield server
    finally:
        server.kill()
