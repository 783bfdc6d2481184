"""The resident gate in tests: an installed hook script in a test's state directory, calls
through it as a client makes them, and the server it starts, watched through ``/proc`` and
always stopped after the test."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from paw_tui.core.clients import commands
from paw_tui.core.support import code_cache

IDLE = "60"
"""Seconds a test's server waits for calls before it leaves (a test that fails to stop one
does not leave it for long)."""


class Installed:
    """This machine's hook script in ``state`` (as ``paw-tui install`` writes it)."""

    def __init__(self, state: Path) -> None:
        self.state = state
        self.script = Path(commands.hook_script_path(str(state)))
        self.directory = Path(commands.resident_directory(str(state)))
        self.script.write_text(commands.hook_script_text(str(state)), encoding="utf-8")
        self.script.chmod(0o755)
        code_cache.build(str(state / code_cache.CACHE_NAME))

    def env(self, root: Path | None = None, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "PAW_RESIDENT_GATE"}
        env["PAW_RESIDENT_GATE_IDLE"] = IDLE
        env["PAW_STATE_DIR"] = str(self.state)
        if root is not None:
            env["CLAUDE_PROJECT_DIR"] = str(root)
        env.update(extra)
        return env

    def call(
        self, payload: object, *, cwd: Path, env: dict[str, str], client: str = "claude-code"
    ) -> tuple[int, str, str]:
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
        done = subprocess.run(
            [str(self.script), "gate", "--client", client],
            input=raw,
            capture_output=True,
            cwd=str(cwd),
            env=env,
            timeout=60,
        )
        return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")

    def server_pid(self) -> int | None:
        try:
            pid = int((self.directory / "lock").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        return pid if Path(f"/proc/{pid}").exists() and _is_server(pid) else None

    def wait_for_server(self, timeout: float = 30) -> int:
        """The running server's pid, once its socket is there and a child waits on it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = self.server_pid()
            if pid is not None and (self.directory / "gate.sock").exists() and children(pid):
                return pid
            time.sleep(0.05)
        raise AssertionError(f"no resident gate started in {self.directory}")

    def quiet_workers(self, pid: int, timeout: float = 30) -> int:
        """Once both workers are up and idle (their context switches no longer add up), that
        count: a call answered by a worker wakes it, a call the hook decided itself does not
        touch them."""
        deadline = time.monotonic() + timeout
        last = -1
        while time.monotonic() < deadline:
            found = children(pid)
            reads = sum(_reads(worker) for worker in found)
            if len(found) == 2 and reads == last:
                return reads
            last = reads
            time.sleep(0.1)
        raise AssertionError(f"the resident gate {pid} has workers {children(pid)}")

    def answered_by_server(self, pid: int, reads_before: int) -> bool:
        return sum(_reads(worker) for worker in children(pid)) > reads_before

    def stop(self) -> None:
        pid = self.server_pid()
        if pid is None:
            return
        os.kill(pid, signal.SIGTERM)
        wait_gone(pid)


def _is_server(pid: int) -> bool:
    try:
        return b"--resident-serve" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _reads(pid: int) -> int:
    """How often ``pid`` was switched out: a worker blocked in ``accept`` is not, one that
    answers a call is."""
    switches = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                switches += int(line.split()[1])
    except (OSError, ValueError):
        pass
    return switches


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(int(child) for child in (task / "children").read_text().split())
        except (OSError, ValueError):
            pass
    return found


def wait_gone(pid: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not Path(f"/proc/{pid}").exists() or not _is_server(pid):
            return
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
        except (OSError, IndexError):
            return
        if state == "Z":
            return
        time.sleep(0.05)
    raise AssertionError(f"the resident gate {pid} did not leave")


@pytest.fixture
def installed(tmp_path: Path) -> Iterator[Installed]:
    state = Path(os.environ.get("PAW_STATE_DIR") or tmp_path / "paw-state")
    state.mkdir(parents=True, exist_ok=True)
    hook = Installed(state)
    try:
        yield hook
    finally:
        hook.stop()
