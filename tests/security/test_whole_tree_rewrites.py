"""Whole-tree git rewrites are scope-checked as writes of everything they may change (issue 17).

``git reset --hard`` and ``git checkout-index -a -f`` under a narrow intent threw away a
person's uncommitted edit outside the scope. A git command that moves the worktree to another
state may change any file of the repository (the workspace root and its protected files
among them), so without pathspecs it is denied under every intent; with pathspecs each one is
checked, git's globs and magic widened to the directory that bounds them. Creating a branch
where HEAD is, committing, stashing a list: allowed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .kit import (
    assert_allowed,
    assert_blocked,
    assert_denied,
    assert_protected,
    bash_call,
    gate,
    selected,
    shell_call,
)

WHOLE = "rewrite every file of the repository"

UNBOUNDED: list[str] = [
    "git reset --hard",
    "git reset --hard HEAD~1",
    "git reset --merge",
    "git reset --keep HEAD",
    "git checkout-index -a -f",
    "git checkout-index --all --force",
    "git checkout-index --stdin < list",
    "git stash",
    "git stash push",
    "git stash -u",
    "git stash save wip",
    "git stash pop",
    "git stash apply stash@{1}",
    "git stash branch b",
    "git checkout main",
    "git checkout -f HEAD~2",
    "git checkout -b b origin/main",
    "git checkout --detach v1.0",
    "git checkout --pathspec-from-file=list",
    "git switch main",
    "git switch -",
    "git switch -c b origin/main",
    "git switch --detach HEAD~1",
    "git switch --orphan empty",
    "git read-tree -u -m HEAD",
    "git read-tree --reset -u HEAD",
    "git merge origin/main",
    "git merge --abort",
    "git rebase main",
    "git rebase --abort",
    "git pull",
    "git pull --rebase origin main",
    "git am patches.mbox",
    "git cherry-pick abc1234",
    "git revert HEAD",
    "git sparse-checkout set src",
    "git bisect start HEAD v1",
    "git apply --index missing.patch",
    "git apply < changes.diff",
    "git restore --pathspec-from-file=list",
    "git restore ':!src/auth'",
    "git restore ':(glob)**/x.md'",
    "git checkout -p",
]


@pytest.mark.parametrize("command", UNBOUNDED)
def test_an_unbounded_rewrite_is_denied_under_a_narrow_intent(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-001")
    reason = assert_denied(gate(bash_call(wsroot, command)))
    assert WHOLE in reason, reason


def test_an_unbounded_rewrite_is_denied_under_the_widest_intent(wsroot: Path) -> None:
    """``**`` does not own the root or its protected files either."""
    selected(wsroot, "INT-006")
    for command in ("git reset --hard", "git stash", "git checkout main", "git pull"):
        assert WHOLE in assert_denied(gate(bash_call(wsroot, command)))


# command -> the path the deny names (a pathspec, widened where git's glob or magic reaches)
BOUNDED: dict[str, str] = {
    "git checkout -- docs/x.md": "docs/x.md",
    "git checkout main -- docs": "docs",
    "git checkout HEAD~1 docs/x.md": "docs/x.md",
    "git checkout -- '*.yaml'": ".",
    "git checkout -- 'tests/auth/*.py' 'docs/*.md'": "docs",
    "git restore src/auth": "src/auth",  # holds src/auth/legacy, which INT-001 excludes
    "git restore docs/x.md": "docs/x.md",
    "git restore --source HEAD~1 -- :/": ".",
    "git restore -s main ':(top)docs'": "docs",
    "git stash push -- docs": "docs",
    "git stash push -u -- docs/x.md": "docs/x.md",
    "git clean -fd docs": "docs",
    "git clean -fdx": ".",
    "git rm 'src/*'": "src",
    "git rm -r docs": "docs",
    "git read-tree -u --prefix=docs/ HEAD": "docs",
    "git checkout-index -f -- docs/x.md": "docs/x.md",
    "git checkout-index -a -f --prefix=docs/": "docs",
    "cd src/auth && git restore :/docs/x.md": "docs/x.md",
    "git merge-file docs/x.md base other": "docs/x.md",
}


@pytest.mark.parametrize("command", list(BOUNDED), ids=list(BOUNDED))
def test_pathspecs_are_checked_as_what_they_may_change(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-001")
    named = BOUNDED[command]
    result = gate(bash_call(wsroot, command))
    if named == ".":
        assert_protected(result)
    else:
        assert_blocked(result, named, "INT-001")


def test_a_patch_is_checked_as_the_paths_inside_it(wsroot: Path) -> None:
    patch = (
        "diff --git a/docs/x.md b/docs/x.md\n"
        "--- a/docs/x.md\n+++ b/docs/x.md\n@@ -1 +1 @@\n-# doc a\n+# doc b\n"
    )
    (wsroot / "src" / "auth" / "change.patch").write_text(patch, encoding="utf-8")
    inside = patch.replace("docs/x.md", "src/auth/login.py")
    (wsroot / "src" / "auth" / "inside.patch").write_text(inside, encoding="utf-8")
    selected(wsroot, "INT-001")
    assert_blocked(
        gate(bash_call(wsroot, "git apply src/auth/change.patch")), "docs/x.md", "INT-001"
    )
    here = "git apply <<'EOF'\n" + patch + "EOF"
    assert_blocked(gate(bash_call(wsroot, here)), "docs/x.md", "INT-001")
    assert_allowed(gate(bash_call(wsroot, "git apply src/auth/inside.patch")))
    assert_allowed(gate(bash_call(wsroot, "git apply --check src/auth/change.patch")))


@pytest.mark.parametrize(
    "command",
    [
        "git checkout -- src/auth/login.py",
        "git restore tests/auth",
        "git restore --staged docs/x.md",
        "git stash push -- tests/auth src/auth/login.py",
        "git checkout HEAD~1 -- 'tests/auth/*.py'",
        "git stash list",
        "git stash show -p",
        "git stash drop",
        "git switch -c feature",
        "git checkout -b feature",
        "git checkout -B feature",
        "git switch --create feature",
        "git reset --soft HEAD~1",
        "git reset HEAD docs/x.md",
        "git commit -am wip",
        "git add src/auth/login.py",
        "git read-tree HEAD",
        "git clean -n",
        "git rm --cached docs/x.md",
        "git merge --continue",
    ],
)
def test_rewrites_inside_the_scope_and_index_only_changes_are_allowed(
    wsroot: Path, command: str
) -> None:
    selected(wsroot, "INT-001")
    assert_allowed(gate(bash_call(wsroot, command)))


def _git(root: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "p",
        "GIT_AUTHOR_EMAIL": "p@example.invalid",
        "GIT_COMMITTER_NAME": "p",
        "GIT_COMMITTER_EMAIL": "p@example.invalid",
    }
    done = subprocess.run(
        ["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.fixture
def repo(wsroot: Path) -> Path:
    """The workspace as a real repository with everything committed."""
    shutil.rmtree(wsroot / ".git")
    _git(wsroot, "init", "-q")
    _git(wsroot, "add", "-A")
    _git(wsroot, "commit", "-qm", "start")
    return wsroot


@pytest.mark.parametrize("command", ["git reset --hard", "git checkout-index -a -f"])
def test_a_persons_uncommitted_edit_outside_the_scope_survives(repo: Path, command: str) -> None:
    """The issue's case, end to end in a real repository: the person edits docs/x.md, the
    agent under INT-001 runs the rewrite through the gate; without the gate the edit is gone
    (the control), with it the call is denied and the edit stays."""
    control = repo.parent / "control"
    shutil.copytree(repo, control, symlinks=True)
    (control / "docs" / "x.md").write_text("the person's edit\n", encoding="utf-8")
    subprocess.run(["bash", "-c", command], cwd=control, check=True, capture_output=True)
    assert (control / "docs" / "x.md").read_text(encoding="utf-8") == "# doc a\n"

    (repo / "docs" / "x.md").write_text("the person's edit\n", encoding="utf-8")
    selected(repo, "INT-001")
    call = shell_call(repo, command)
    assert WHOLE in assert_denied(call.pre)
    assert call.proc is None
    assert (repo / "docs" / "x.md").read_text(encoding="utf-8") == "the person's edit\n"


def test_checkout_of_a_branch_named_like_a_file_is_a_branch_switch(repo: Path) -> None:
    """``git checkout x`` switches branches when a branch x exists, file or no file."""
    _git(repo, "branch", "README.md")
    selected(repo, "INT-002")  # owns *.md at the root
    assert WHOLE in assert_denied(gate(bash_call(repo, "git checkout README.md")))
    _git(repo, "branch", "-D", "README.md")
    assert_allowed(gate(bash_call(repo, "git checkout README.md")))
