"""Running git for claims: bounded in time, never prompting, with paw-tui's own identity.

A claim commit is paw-tui's, not the person's: git runs with ``GIT_AUTHOR_*`` and
``GIT_COMMITTER_*`` set, so it works where no ``user.name`` is configured. It never asks for
a password (``GIT_TERMINAL_PROMPT=0``, stdin closed) and never runs the person's push hooks
(``--no-verify`` at the call sites). Every call has a timeout: a selection waits on the
remote, and a client runs the tool when its hook times out.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass

TIMEOUT = 4.0
"""Seconds one git call may take (a selection makes at most three, after a failed push)."""
IDENTITY = {
    "GIT_AUTHOR_NAME": "paw-tui",
    "GIT_AUTHOR_EMAIL": "paw-tui@localhost",
    "GIT_COMMITTER_NAME": "paw-tui",
    "GIT_COMMITTER_EMAIL": "paw-tui@localhost",
}


class GitUnavailable(Exception):
    """git could not be run, or did not answer in time; the message says which."""


@dataclass(frozen=True)
class GitResult:
    code: int
    out: str
    err: str

    @property
    def ok(self) -> bool:
        return self.code == 0

    def said(self) -> str:
        """git's own words, one line, for a message."""
        text = (self.err.strip() or self.out.strip()).splitlines()
        return text[-1].strip() if text else f"git exited {self.code}"


def run_git(root: str, *args: str, timeout: float = TIMEOUT) -> GitResult:
    """``git -C root ARGS``; GitUnavailable when git is missing or too slow."""
    env = dict(os.environ)
    env.update(IDENTITY)
    env["GIT_TERMINAL_PROMPT"] = "0"
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):  # the workspace's own repo
        env.pop(name, None)
    try:
        done = subprocess.run(
            ["git", "-C", root, *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            env=env,
            timeout=timeout,
        )
    except FileNotFoundError as error:
        raise GitUnavailable("git is not installed") from error
    except subprocess.TimeoutExpired as error:
        raise GitUnavailable(f"git did not answer within {timeout:g} s") from error
    except OSError as error:
        raise GitUnavailable(f"git could not be run ({error})") from error
    return GitResult(done.returncode, done.stdout, done.stderr)
