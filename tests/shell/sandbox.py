"""Running commands in real bash inside a scratch tree, and checking what they changed
against what the parser reported (shared by the agreement tests)."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import time

from paw_tui.core.policy.shell.analysis import ShellAnalysis, ShellTarget, analyse
from paw_tui.core.policy.shell.globbing import glob_matches

BASH = shutil.which("bash") or "/bin/bash"
WORK = "l1/l2/work"  # the command's directory (three levels down: "cd .." stays inside)
HOME = "home/u"
OLDPWD = "o1/o2/old"
FILES = {
    "a.txt": "alpha\nabc\n",
    "b.txt": "beta\n",
    "c.log": "log\n",
    ".hidden": "hidden\n",
    "sub/c.txt": "sea\n",
    "sub/deep/d.txt": "deep\n",
    "dir with space/e.txt": "e\n",
    ".orchestration/active_intents.yaml": "intents: []\n",
    "src/auth/legacy/old.py": "old = 1\n",
    "src/auth/new.py": "new = 1\n",
}
DIRS = ("empty", "sub/deep", "src/auth/legacy")


class Sandbox:
    """A scratch tree: ``root`` holds ``work`` (the cwd), ``home`` and ``old``."""

    def __init__(self) -> None:
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="paw-shell-"))
        self.work = os.path.join(self.root, WORK)
        self.home = os.path.join(self.root, HOME)
        self.oldpwd = os.path.join(self.root, OLDPWD)
        self.reset()

    def reset(self) -> None:
        for name in os.listdir(self.root):
            path = os.path.join(self.root, name)
            if os.path.isdir(path) and not os.path.islink(path):
                for _ in range(20):  # a process substitution may still be writing
                    shutil.rmtree(path, ignore_errors=True)
                    if not os.path.exists(path):
                        break
                    time.sleep(0.01)
            else:
                os.unlink(path)
        for directory in (self.work, self.home, self.oldpwd, os.path.join(self.root, "tmp")):
            os.makedirs(directory)
        for directory in DIRS:
            os.makedirs(os.path.join(self.work, directory), exist_ok=True)
        for name, text in FILES.items():
            path = os.path.join(self.work, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as handle:
                handle.write(text)
        with open(os.path.join(self.home, "h.txt"), "w") as handle:
            handle.write("home\n")

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def env(self) -> dict[str, str]:
        return {
            "HOME": self.home,
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "OLDPWD": self.oldpwd,
            "LC_ALL": "C",
            "TMPDIR": os.path.join(self.root, "tmp"),
        }

    def analyse(self, command: str) -> ShellAnalysis:
        return analyse(command, self.work, home=self.home, oldpwd=self.oldpwd)

    def run(self, command: str, timeout: float = 5.0) -> tuple[int, str]:
        """Run ``command`` with bash -c in the work directory: (exit code, stderr). Bash runs
        in a process group of its own, killed afterwards (background jobs included)."""
        process = subprocess.Popen(
            [BASH, "--norc", "--noprofile", "-c", command],
            cwd=self.work,
            env=self.env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            _, stderr = process.communicate(timeout=timeout)
            code = process.returncode
        except subprocess.TimeoutExpired:
            stderr, code = b"timeout", -1
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
        return code, stderr.decode(errors="replace")

    def snapshot(self) -> dict[str, tuple[object, ...]]:
        facts: dict[str, tuple[object, ...]] = {}
        for directory, dirnames, filenames in os.walk(self.root):
            for name in dirnames + filenames:
                path = os.path.join(directory, name)
                info = os.lstat(path)
                if os.path.islink(path):
                    facts[path] = ("link", os.readlink(path), info.st_mode)
                elif os.path.isdir(path):
                    facts[path] = ("dir", info.st_mode)
                elif not stat.S_ISREG(info.st_mode):  # a fifo: opening it would block
                    facts[path] = ("special", info.st_mode, info.st_mtime_ns)
                else:
                    with open(path, "rb") as handle:
                        digest = hashlib.sha1(handle.read()).hexdigest()
                    facts[path] = (
                        "file",
                        info.st_size,
                        info.st_mtime_ns,
                        info.st_mode,
                        digest,
                        info.st_ino,
                    )
        return facts

    def changes(self, command: str) -> tuple[int, str, dict[str, str]]:
        """Run ``command``; (exit code, stderr, {path: created|modified|deleted})."""
        before = self.snapshot()
        code, stderr = self.run(command)
        after = self.snapshot()
        changed: dict[str, str] = {}
        for path, facts in after.items():
            if path not in before:
                changed[path] = "created"
            elif before[path] != facts:  # a directory's facts leave out its mtime
                changed[path] = "modified"
        for path in before:
            if path not in after:
                changed[path] = "deleted"
        return code, stderr, changed


def bash_rejected(code: int, stderr: str) -> bool:
    """Whether bash reported a syntax error (its exit code is not always 2)."""
    return any(
        message in stderr
        for message in (
            "syntax error",
            "unexpected EOF while looking",
            "conditional binary operator",
            "conditional unary operator",
            "in conditional command",
        )
    )


def resolved(target: ShellTarget) -> str:
    path = target.path if target.path.startswith("/") else os.path.join(target.cwd, target.path)
    return os.path.normpath(path)


def covers(target: ShellTarget, path: str, kind: str) -> bool:
    """Whether a (non-dynamic) target accounts for a change to ``path``."""
    if target.dynamic:
        return False
    base = resolved(target)
    if path == base or (target.subtree and path.startswith(base.rstrip("/") + "/")):
        return True
    if kind == "created-dir" and base.startswith(path + "/"):
        return True  # mkdir -p, cp into a new directory: the parents come along
    if target.glob and target.pattern is not None:
        pattern = target.pattern
        if not pattern.startswith("/"):
            pattern = os.path.join(target.cwd, pattern)
        if glob_matches(os.path.normpath(pattern), path):
            return True
        if target.subtree or kind == "created-dir":
            parts = path.split("/")
            for cut in range(len(parts), 1, -1):
                if glob_matches(os.path.normpath(pattern), "/".join(parts[:cut])):
                    return True
    return False


def uncovered(analysis: ShellAnalysis, changed: dict[str, str]) -> list[str]:
    """The changes no reported target accounts for."""
    missing = []
    for path, what in sorted(changed.items()):
        kind = what
        if what == "created" and os.path.isdir(path) and not os.path.islink(path):
            kind = "created-dir"
        if not any(covers(target, path, kind) for target in analysis.targets):
            missing.append(f"{what}: {path}")
    return missing
