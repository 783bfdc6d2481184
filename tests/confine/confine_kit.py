"""Shared set-up for the kernel-boundary tests: a workspace, a spec, a BASH_ENV file, and a way
to run ``bash -c`` through them. Every confinement happens in a child process: the test process
itself is never restricted (a Landlock domain cannot be left).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from paw_tui.core.confine import landlock, writable
from paw_tui.core.confine.bash_env import render_bash_env
from paw_tui.core.confine.spec import write_spec

CONFINE_DIR = Path(landlock.__file__).parent
LAUNCHER = str(CONFINE_DIR / "launcher.py")
PYTHON = sys.executable
ABI = landlock.abi_version()
needs_landlock = pytest.mark.skipif(
    ABI == 0, reason="Landlock is unavailable here (landlock.abi_version() == 0)"
)
DENIED = "Permission denied"


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BASH_ENV", "PAW_CONFINED")}
    env.update(extra)
    return env


class Box:
    """A workspace ``ws`` (with protected files), a directory ``out`` outside it, a state
    directory holding the spec and the BASH_ENV file, and a private TMPDIR."""

    def __init__(self, base: Path, grants: list[str], **kwargs: Any) -> None:
        self.base = base
        self.ws = base / "ws"
        self.out = base / "outside"
        self.state = base / "state"
        self.tmp = base / "private-tmp"
        for directory in (self.ws / "src" / "sub", self.out, self.state):
            directory.mkdir(parents=True, exist_ok=True)
        files = {
            "src/a.txt": "a\n",
            "README.md": "readme\n",
            ".claude/settings.json": "{}\n",
            ".claude/commands/c.md": "c\n",
            ".orchestration/agent_trace.jsonl": "",
            ".paw/work/w/notes.md": "n\n",
            ".paw/instructions/x.md": "x\n",
        }
        for rel, text in files.items():
            path = self.ws / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                path.write_text(text)
        (self.out / "victim.txt").write_text("victim\n")
        self.grants = grants
        self.kwargs = kwargs
        self.spec = self.state / "session.spec"
        self.bash_env = self.state / "bash_env.sh"
        self.refresh()

    def refresh(self) -> writable.Writable:
        """Recompute the writable set and rewrite the spec and the BASH_ENV file."""
        kwargs: dict[str, Any] = {"state_dir": str(self.state), "tmpdir": str(self.tmp)}
        kwargs.update(self.kwargs)
        self.writable = writable.compute_writable(str(self.ws), self.grants, **kwargs)
        write_spec(str(self.spec), self.writable.spec())
        self.bash_env.write_text(render_bash_env(PYTHON, LAUNCHER, spec=str(self.spec)))
        return self.writable

    def env(self, **extra: str) -> dict[str, str]:
        return clean_env(BASH_ENV=str(self.bash_env), **extra)

    def bash(
        self, command: str, *args: str, flags: tuple[str, ...] = ("-c",), **kwargs: Any
    ) -> subprocess.CompletedProcess[str]:
        """``bash FLAGS COMMAND ARGS...`` with the BASH_ENV file, in the workspace."""
        kwargs.setdefault("env", self.env())
        kwargs.setdefault("cwd", self.ws)
        argv = ["bash", *flags, command, *args]
        return subprocess.run(argv, capture_output=True, text=True, timeout=60, **kwargs)

    def launch(
        self, *program: str, options: tuple[str, ...] = (), **kwargs: Any
    ) -> subprocess.CompletedProcess[str]:
        """The launcher run directly: ``python -I -S launcher.py --spec S OPTIONS -- PROGRAM``."""
        kwargs.setdefault("env", clean_env())
        kwargs.setdefault("cwd", self.ws)
        argv = [PYTHON, "-I", "-S", LAUNCHER, "--spec", str(self.spec), *options, "--", *program]
        return subprocess.run(argv, capture_output=True, text=True, timeout=60, **kwargs)
