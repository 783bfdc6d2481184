"""Run a client process with a hard time limit, and leave none of its processes behind.

The process starts in its own session and process group, with stdin closed and a unique
``PAW_HARNESS_RUN`` token in its environment. When it ends, or when ``timeout`` passes, every
process it started is killed: its process group, its descendants (found through ``/proc`` while
the tree is still whole) and any process whose environment carries the token (Gemini CLI runs
shell commands in process groups of their own, which outlive a plain group kill).
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

TOKEN_VARIABLE = "PAW_HARNESS_RUN"


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        # the command name (field 2) may hold spaces: the parent pid follows its ")"
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` right now."""
    children = _children_map()
    found: set[int] = set()
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def tagged(token: str) -> set[int]:
    """Processes whose environment holds ``PAW_HARNESS_RUN=<token>``."""
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes():
                found.add(int(entry.name))
        except OSError:
            continue
    return found


def kill_all(pids: set[int]) -> None:
    for pid in pids - {os.getpid()}:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def run_process(
    argv: Sequence[str], cwd: Path, env: Mapping[str, str], timeout: float
) -> tuple[int | None, bool, str, str, float]:
    """Run ``argv``; ``(exit code or None, timed out, stdout, stderr, seconds)``.

    Output goes to temporary files, not pipes, so a grandchild that keeps a copy of the
    client's stdout open can never hold the harness up.
    """
    token = uuid.uuid4().hex
    started = time.monotonic()
    with tempfile.TemporaryFile("w+b") as out_file, tempfile.TemporaryFile("w+b") as err_file:
        proc = subprocess.Popen(
            list(argv),
            cwd=str(cwd),
            env={**env, TOKEN_VARIABLE: token},
            stdin=subprocess.DEVNULL,
            stdout=out_file,
            stderr=err_file,
            start_new_session=True,
        )
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            tree = descendants(proc.pid) | {proc.pid}
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            kill_all(tree | tagged(token))
            proc.wait(timeout=30)
        seconds = time.monotonic() - started
        # Whatever the client left running (MCP servers, background shells) goes too.
        kill_all(tagged(token))
        out_file.seek(0)
        err_file.seek(0)
        out = out_file.read().decode("utf-8", "replace")
        err = err_file.read().decode("utf-8", "replace")
    return (None if timed_out else proc.returncode), timed_out, out, err, seconds
