"""A workspace set up for paw-tui as a person sets one up before a real client session: its
files, a git repository, and ``paw-tui install claude-code``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PAW = str(Path(sys.executable).parent / "paw-tui")
SOURCE_INTENT = """\
active_intents:
  - id: INT-001
    name: Source work
    status: IN_PROGRESS
    owned_scope: ["src/**"]
"""
GIT_IDENTITY = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "agent",
    "GIT_AUTHOR_EMAIL": "agent@example.invalid",
    "GIT_COMMITTER_NAME": "agent",
    "GIT_COMMITTER_EMAIL": "agent@example.invalid",
}
"""git without the person's configuration, and an identity for commits."""


def git(root: Path, *args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        ["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def paw_workspace(
    root: Path, state: Path, files: dict[str, str], *, commit: bool = False
) -> dict[str, str]:
    """``files`` written under ``root``, ``git init`` (and everything committed with
    ``commit``), ``paw-tui install claude-code``; returns the session's extra environment."""
    env = {"PAW_STATE_DIR": str(state), **GIT_IDENTITY}
    full = {**os.environ, **env}
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(root, "init", "-q", env=full)
    if commit:
        git(root, "add", "-A", env=full)
        git(root, "commit", "-qm", "start", env=full)
    done = subprocess.run(
        [PAW, "install", "claude-code"], cwd=root, env=full, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return env
