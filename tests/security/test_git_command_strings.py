"""Git runs command strings of its own: they are read as commands (issue 17).

``git -c 'alias.x=!rm -rf .git/objects' x`` destroyed a repository from inside the boundary,
where ``.git`` is writable for commits. Every way to give git a command string (``-c``,
``--config-env``, ``GIT_CONFIG_*``, ``GIT_EDITOR`` and its kin, aliases, transports, options
that take a command) is read as that command; a configuration file or another repository git
would read, which an agent may have written, is denied. Ordinary git keeps working.

The workspace holds a fake ``.git`` (config and HEAD); INT-001 owns ``src/auth/**``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .kit import (
    assert_allowed,
    assert_denied,
    assert_protected,
    bash_call,
    gate,
    selected,
)

# a command git would run that destroys the repository: denied as a protected write
PROTECTED_CASES: dict[str, str] = {
    "-c alias.x=!": "git -c 'alias.x=!rm -rf .git/objects' x",
    "-c alias with arguments": "git -c 'alias.x=!rm -rf' x .git",
    "-c alias.x (attached -c)": "git '-calias.x=!rm -rf .git' x",
    "a non-! alias expanding to more git": "git -c alias.x='-c alias.y=!rm\\ -rf\\ .git y' x",
    "-c core.fsmonitor": "git -c core.fsmonitor='rm -rf .git' status",
    "-c core.editor": "git -c core.editor='rm -rf .git; true' commit",
    "-c core.pager": "git -c core.pager='rm -rf .git' log",
    "-c pager.log": "git -c pager.log='rm -rf .git' log",
    "-c core.sshCommand": "git -c core.sshCommand='rm -rf .git' fetch",
    "-c core.askPass": "git -c core.askPass='rm -rf .git' push",
    "-c core.gitProxy": "git -c core.gitProxy='rm -rf .git' fetch",
    "-c diff.external": "git -c diff.external='rm -rf .git' diff",
    "-c diff.<driver>.command": "git -c diff.x.command='rm -rf .git' diff",
    "-c diff.<driver>.textconv": "git -c diff.x.textconv='rm -rf .git' log -p",
    "-c filter.<driver>.clean": "git -c filter.x.clean='rm -rf .git' add src/auth/a",
    "-c filter.<driver>.smudge": "git -c filter.x.smudge='rm -rf .git' status",
    "-c filter.<driver>.process": "git -c filter.x.process='rm -rf .git' status",
    "-c merge.<driver>.driver": "git -c merge.x.driver='rm -rf .git' status",
    "-c credential.helper=!": "git -c 'credential.helper=!rm -rf .git' fetch",
    "-c sequence.editor": "git -c sequence.editor='rm -rf .git' status",
    "-c gpg.program": "git -c gpg.program='rm -rf .git' commit -S -m x",
    "-c gpg.ssh.program": "git -c gpg.ssh.program='rm -rf .git' log",
    "-c uploadpack.packObjectsHook": "git -c uploadpack.packObjectsHook='rm -rf .git' fetch",
    "-c submodule.x.update=!": "git -c 'submodule.x.update=!rm -rf .git' status",
    "mixed-case key": "git -c Core.FSMonitor='rm -rf .git' status",
    "--config-env from a variable set here": "F='rm -rf .git' git --config-env=core.pager=F log",
    "GIT_CONFIG_PARAMETERS": "GIT_CONFIG_PARAMETERS=\"'core.fsmonitor'='rm -rf .git'\" git status",
    "GIT_CONFIG_COUNT/KEY/VALUE": (
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='rm -rf .git' "
        "git status"
    ),
    "GIT_TRACE to a file": "GIT_TRACE=$PWD/.git/config git status",
    "--upload-pack": "git fetch --upload-pack='rm -rf .git' origin",
    "clone -u": "git clone -u 'rm -rf .git' /tmp/r x",
    "push --receive-pack": "git push --receive-pack='rm -rf .git' origin",
    "ls-remote --upload-pack": "git ls-remote --upload-pack 'rm -rf .git' origin",
    "archive --exec": "git archive --remote=/tmp/r --exec='rm -rf .git' HEAD",
    "difftool -x": "git difftool -x 'rm -rf .git' HEAD",
    "grep -O": "git grep -O'rm -rf .git' x",
    "clone -c": "git clone -c core.fsmonitor='rm -rf .git' /tmp/r y",
}

# git adds arguments to these ("$@": a path known only when it runs), or rewrites the whole
# tree as well: denied, the destroyed path or the rewrite named
WITH_ARGUMENTS_CASES: dict[str, str] = {
    "GIT_EDITOR": "GIT_EDITOR='rm -rf .git; true' git commit",
    "GIT_SEQUENCE_EDITOR": "GIT_SEQUENCE_EDITOR='rm -rf .git; true' git rebase -i HEAD",
    "GIT_SSH_COMMAND": "GIT_SSH_COMMAND='rm -rf .git' git fetch",
    "GIT_SSH": "GIT_SSH='rm -rf .git' git fetch",
    "GIT_EXTERNAL_DIFF": "GIT_EXTERNAL_DIFF='rm -rf .git' git diff",
    "GIT_PAGER": "GIT_PAGER='rm -rf .git' git -p log",
    "PAGER": "PAGER='rm -rf .git' git -p log",
    "GIT_ASKPASS": "GIT_ASKPASS='rm -rf .git' git push",
    "GIT_PROXY_COMMAND": "GIT_PROXY_COMMAND='rm -rf .git' git fetch git://h/r",
    "EDITOR through export": "export EDITOR='rm -rf .git; true'; git commit",
    "env wrapper": "env GIT_EDITOR='rm -rf .git; true' git commit",
    "rebase --exec": "git rebase -x 'rm -rf .git' HEAD",
    "bisect run": "git bisect run rm -rf .git",
    "submodule foreach": "git submodule foreach rm -rf $toplevel/.git",
}

# denied without being read: git would read what an agent may have written, or run a server
UNREADABLE_CASES: dict[str, str] = {
    "-c include.path": "git -c include.path=src/auth/evil.cfg status",
    "-c includeIf": "git -c includeIf.gitdir:/.path=src/auth/evil.cfg status",
    "-c core.hooksPath": "git -c core.hooksPath=src/auth/hooks commit -m x",
    "-c core.worktree": "git -c core.worktree=/tmp status",
    "-c protocol.ext.allow": "git -c protocol.ext.allow=always fetch origin",
    "ext:: remote URL": "git clone 'ext::sh -c touch% /tmp/pwned' x",
    "ext:: in a remote url key": "git -c remote.o.url='ext::sh -c x' fetch o",
    "GIT_CONFIG_GLOBAL": "GIT_CONFIG_GLOBAL=src/auth/evil.cfg git status",
    "GIT_CONFIG_SYSTEM": "GIT_CONFIG_SYSTEM=src/auth/evil.cfg git status",
    "GIT_CONFIG": "GIT_CONFIG=src/auth/evil.cfg git status",
    "GIT_DIR": "GIT_DIR=/tmp/evil.git git status",
    "GIT_WORK_TREE": "GIT_WORK_TREE=/tmp git checkout -f main",
    "GIT_COMMON_DIR": "GIT_COMMON_DIR=/tmp/evil.git git status",
    "GIT_INDEX_FILE": "GIT_INDEX_FILE=/tmp/idx git status",
    "GIT_OBJECT_DIRECTORY": "GIT_OBJECT_DIRECTORY=/tmp/o git status",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES": "GIT_ALTERNATE_OBJECT_DIRECTORIES=/tmp/o git status",
    "GIT_EXEC_PATH": "GIT_EXEC_PATH=src/auth git status",
    "GIT_TEMPLATE_DIR": "GIT_TEMPLATE_DIR=src/auth/t git init src/auth/r",
    "--git-dir": "git --git-dir=/tmp/evil.git status",
    "--work-tree": "git --work-tree=/tmp status",
    "--exec-path=DIR": "git --exec-path=src/auth status",
    "init --template": "git init --template=src/auth/t src/auth/r",
    "clone --template": "git clone --template=src/auth/t /tmp/r src/auth/r",
    "git daemon": "git daemon --export-all --enable=receive-pack --base-path=.",
    "an editor from a variable nobody knows": 'GIT_EDITOR="$X" git commit',
    "an alias from a variable": 'git -c alias.x="$A" x',
}


@pytest.mark.parametrize("command", list(PROTECTED_CASES.values()), ids=list(PROTECTED_CASES))
def test_a_command_git_would_run_is_read(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-006")  # the widest scope: only a protected path stops it
    assert_protected(gate(bash_call(wsroot, command)))


@pytest.mark.parametrize(
    "command", list(WITH_ARGUMENTS_CASES.values()), ids=list(WITH_ARGUMENTS_CASES)
)
def test_a_command_git_runs_with_arguments_is_read(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-006")
    reason = assert_denied(gate(bash_call(wsroot, command)))
    assert any(sign in reason for sign in (".git is protected", "known only when", "every file")), (
        reason
    )


@pytest.mark.parametrize("command", list(UNREADABLE_CASES.values()), ids=list(UNREADABLE_CASES))
def test_what_git_would_read_from_an_agent_is_denied(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-006")
    assert_denied(gate(bash_call(wsroot, command)))


def test_a_carried_command_is_checked_against_the_scope(wsroot: Path) -> None:
    """Not only protected paths: the carried command's writes are scope-checked."""
    selected(wsroot, "INT-001")
    reason = assert_denied(gate(bash_call(wsroot, "git -c 'alias.x=!touch docs/x.md' x")))
    assert reason.startswith("Scope Violation: INT-001 is not authorized to edit docs/x.md"), reason
    assert_allowed(gate(bash_call(wsroot, "git -c 'alias.x=!touch src/auth/x.py' x")))


def test_another_repository_git_would_read_is_denied(wsroot: Path, tmp_path: Path) -> None:
    """A repository the agent planted elsewhere (its config runs programs) is not read, in
    any spelling; the workspace's own repository from a subdirectory is."""
    planted = tmp_path / "planted"
    subprocess.run(["git", "init", "-q", str(planted)], check=True)
    selected(wsroot, "INT-001")
    for command in (
        f"git -C {planted} status",
        f"cd {planted} && git log",
        f"git -C {tmp_path} -C planted diff",
        'git -C "$DIR" status',
    ):
        assert_denied(gate(bash_call(wsroot, command)))
    for command in ("git -C src status", "cd src/auth && git log -1", f"git -C {wsroot} diff"):
        assert_allowed(gate(bash_call(wsroot, command)))


def test_before_a_selection_a_planted_repository_is_not_a_read(
    wsroot: Path, tmp_path: Path
) -> None:
    """``git status`` runs the repository's fsmonitor: in a planted repository it is no
    look around."""
    planted = tmp_path / "planted"
    subprocess.run(["git", "init", "-q", str(planted)], check=True)
    assert_allowed(gate(bash_call(wsroot, "git status && git -C src log -1")))
    assert_denied(gate(bash_call(wsroot, f"git -C {planted} status")))
    assert_denied(gate(bash_call(wsroot, "git -c core.pager=less log")))


@pytest.mark.parametrize(
    "command",
    [
        "git -c user.name=agent -c user.email=a@example.invalid commit -m x",
        "git -c color.ui=false -c core.quotepath=off log --oneline",
        "git -c core.pager=cat log",
        "git -c core.editor=true commit",
        "GIT_EDITOR=true git commit --amend",
        "GIT_PAGER=cat git log",
        "git -c core.hooksPath=/dev/null commit -m x",
        "GIT_CONFIG_GLOBAL=/dev/null git status",
        "git -c alias.st=status st",
        "git -c advice.detachedHead=false status",
        "git config --get user.name",
        "git -C src/auth diff",
    ],
)
def test_ordinary_git_configuration_is_allowed(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-001")
    assert_allowed(gate(bash_call(wsroot, command)))


def test_git_config_writing_a_command_key_is_a_protected_write(wsroot: Path) -> None:
    selected(wsroot, "INT-006")
    for command in (
        "git config core.fsmonitor 'rm -rf .git'",
        "git config alias.x '!rm -rf .git'",
        "git config --worktree core.hooksPath /tmp/h",
    ):
        assert_protected(gate(bash_call(wsroot, command)))
