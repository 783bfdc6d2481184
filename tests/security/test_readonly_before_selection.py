"""Read-only before a selection: provably read-only shell commands pass, anything that can
write (or run a program of the agent's choosing) is denied until an intent is selected.

The attacks here dress a write as a read: ``find -delete``, a pager or ``--pre`` program,
``-o``/``--output`` files, ``w`` commands in sed, redirections and substitutions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .kit import (
    NO_INTENT,
    assert_allowed,
    assert_denied,
    bash_call,
    gate,
    records,
)

READ_ONLY = [
    "ls",
    "ls -la src",
    "cat README.md",
    "head -n 5 README.md",
    "tail -n 2 README.md",
    "grep -r x .",
    "grep -rn TODO src --include='*.py'",
    "rg x",
    "find . -name '*.py'",
    "find src -type f -newer README.md",
    "git status",
    "git log --oneline -5",
    "git diff",
    "git show HEAD --stat",
    "pwd",
    "wc -l README.md",
    "cat README.md | head -3",
    "ls src && cat README.md",
    "ls > /dev/null 2>&1",
]


@pytest.mark.parametrize("command", READ_ONLY)
def test_read_only_commands_pass_before_selection(wsroot: Path, command: str) -> None:
    """A provably read-only command is allowed before any intent is selected."""
    assert_allowed(gate(bash_call(wsroot, command)))


DISGUISED_WRITES: dict[str, str] = {
    "find -delete": "find . -delete",
    "find -exec rm": "find . -exec rm {} \\;",
    "find -execdir": "find . -execdir rm {} \\;",
    "find -ok": "find . -ok rm {} \\;",
    "find -fprint writes a file": "find . -fprint out.txt",
    "find -fls writes a file": "find . -fls out.txt",
    "find -delete after -o": "find . -name '*.py' -o -delete",
    "git pager config": "git -c core.pager=sh log",
    "git pager environment": "GIT_PAGER=x git log",
    "pager environment": "PAGER='sh -c id' git log",
    "git alias config": "git -c alias.st='!rm -rf .' st",
    "git external diff": "git -c diff.external=./evil diff --ext-diff",
    "git diff --output": "git diff --output=patch.diff",
    "git log --output": "git log --output=log.txt",
    "redirect a read": "cat x > y",
    "append a read": "cat README.md >> y",
    "sort -o": "sort -o out in",
    "sort --output": "sort --output=out README.md",
    "rg --pre": "rg --pre sh x",
    "rg --pre=": "rg --pre=./evil x",
    "sed w command": "sed -n 'w out.txt' README.md",
    "sed s///w flag": "sed 's/x/y/w out.txt' README.md",
    "sed -i": "sed -i s/a/b/ README.md",
    "tee in a pipeline": "cat README.md | tee out.txt",
    "a write after a read": "cat README.md; rm -rf .git",
    "a write after ls": "ls && touch x",
    "command substitution in ls": "ls $(rm -rf .git)",
    "backquotes in cat": "cat `touch x`",
    "process substitution": "cat <(touch x)",
    "git status then commit": "git status; git commit -am x",
    "grep with a redirect": "grep x README.md > out",
    "head of zero into a file": "head -c 10 /dev/zero > f",
    "wc with an output file": "wc -l README.md > counts",
}


@pytest.mark.parametrize("command", list(DISGUISED_WRITES.values()), ids=list(DISGUISED_WRITES))
def test_disguised_writes_are_denied_before_selection(wsroot: Path, command: str) -> None:
    """A write (or an arbitrary program) dressed as a read needs an intent first."""
    reason = assert_denied(gate(bash_call(wsroot, command)))
    assert reason.startswith(NO_INTENT), reason
    (record,) = [r for r in records(wsroot) if r.get("decision") == "deny"]
    assert record["event"] == "tool_denied"


def test_read_only_commands_leave_no_decision_record(wsroot: Path) -> None:
    """Reads need no record (log_reads is off); the ledger stays empty."""
    for command in ("ls", "git status", "cat README.md"):
        assert_allowed(gate(bash_call(wsroot, command)))
    assert [r for r in records(wsroot) if r.get("decision") == "deny"] == []
