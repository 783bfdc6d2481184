"""Drift detection and ``.git``: whatever makes git run a program or read another repository
is pinned and put back (DESIGN §6, layer 3; :mod:`paw_tui.core.confine.drift_git`).

``.git`` is writable inside the kernel boundary (``git commit`` needs it), and Codex has no
boundary at all: a write the parser cannot see (``python3 -c``) can reach any file in it.
Pinning only ``config`` and ``hooks/`` let ``.git/commondir`` point git at a git directory the
agent built inside its own scope, whose config the person's next ``git status`` then obeyed.
Each case: one shell call (PreToolUse, ``bash -c``, PostToolUse) under INT-001
(``src/auth/**``), then the file is as it was, one ``scope_breach`` record names it as
restored, and the agent is told. In a real repository, with git run afterwards as the person.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .kit import SESSION, ShellCall, digest_tree, populate, records, selected, shell_call

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "gc.auto=0"]
FILES = {
    "README.md": "# project\n",
    "src/auth/login.py": "def login():\n    pass\n",
    "src/auth/vendor/lib/lib.py": "x = 1\n",
    "docs/x.md": "# doc\n",
    ".gitignore": ".orchestration/\n",
}


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GIT, *args], cwd=root, capture_output=True, text=True, check=False)


@pytest.fixture
def repo(root: Path) -> Path:
    """The gatekit workspace as a git repository with one commit, one submodule git directory
    (``.git/modules/lib``, checked out at ``src/auth/vendor/lib``, inside the scope), one nested
    submodule and one linked worktree; INT-001 held."""
    populate(root, FILES)
    assert git(root, "init", "-q").returncode == 0
    git(root, "add", "-A")
    assert git(root, "commit", "-q", "-m", "init").returncode == 0
    lib = root / ".git" / "modules" / "lib"
    for git_dir in (lib, lib / "modules" / "inner"):
        (git_dir / "hooks").mkdir(parents=True)
        (git_dir / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
        (git_dir / "config").write_text("[core]\n\tbare = false\n", encoding="utf-8")
    with (lib / "config").open("a", encoding="utf-8") as handle:
        handle.write("\tworktree = ../../../src/auth/vendor/lib\n")
    (root / "src/auth/vendor/lib/.git").write_text("gitdir: ../../../../.git/modules/lib\n")
    assert git(root, "worktree", "add", "-q", str(root.parent / "wt"), "-b", "wt").returncode == 0
    return selected(root, "INT-001")


def py(code: str) -> str:
    return f'python3 -c "{code}"'


def the_breach(root: Path, call: ShellCall) -> dict[str, object]:
    found = [r for r in records(root) if r.get("event") == "scope_breach"]
    assert len(found) == 1, [r.get("event") for r in records(root)]
    record = found[0]
    assert (record["session_id"], record["intent_id"]) == (SESSION, "INT-001")
    return record


def told(call: ShellCall) -> str:
    assert call.post is not None and call.post.out.strip(), "PostToolUse said nothing"
    context = json.loads(call.post.out)["hookSpecificOutput"]["additionalContext"]
    assert isinstance(context, str)
    return context


WORKTREE = ".git/worktrees/wt"
PLANTED: dict[str, tuple[str, str]] = {
    "commondir created": (".git/commondir", "open('.git/commondir','w').write('../src/auth/g')"),
    "config.worktree created": (
        ".git/config.worktree",
        "open('.git/config.worktree','w').write('[core]\\n\\tfsmonitor = sh evil\\n')",
    ),
    "info/attributes created": (
        ".git/info/attributes",
        "open('.git/info/attributes','w').write('* filter=evil diff=evil\\n')",
    ),
    "info/exclude changed": (".git/info/exclude", "open('.git/info/exclude','a').write('src\\n')"),
    "info/sparse-checkout created": (
        ".git/info/sparse-checkout",
        "open('.git/info/sparse-checkout','w').write('/docs/\\n')",
    ),
    "alternates created": (
        ".git/objects/info/alternates",
        "open('.git/objects/info/alternates','w').write('/tmp/other/objects\\n')",
    ),
    "http-alternates created": (
        ".git/objects/info/http-alternates",
        "open('.git/objects/info/http-alternates','w').write('http://127.0.0.1/x\\n')",
    ),
    "old-style remote created": (
        ".git/remotes/origin",
        "import os; os.makedirs('.git/remotes'); open('.git/remotes/origin','w').write('URL: /x')",
    ),
    "submodule config changed": (
        ".git/modules/lib/config",
        "open('.git/modules/lib/config','a').write('[core]\\n\\tfsmonitor = sh evil\\n')",
    ),
    "submodule hook planted": (
        ".git/modules/lib/hooks/post-checkout",
        "open('.git/modules/lib/hooks/post-checkout','w').write('#!/bin/sh\\nevil\\n')",
    ),
    "submodule commondir created": (
        ".git/modules/lib/commondir",
        "open('.git/modules/lib/commondir','w').write('../../../src/auth/g')",
    ),
    "nested submodule config changed": (
        ".git/modules/lib/modules/inner/config",
        "open('.git/modules/lib/modules/inner/config','a').write('[alias]\\n\\tst = !evil\\n')",
    ),
    "submodule checkout's .git file redirected": (
        "src/auth/vendor/lib/.git",
        "open('src/auth/vendor/lib/.git','w').write('gitdir: ../../g')",
    ),
    "worktree commondir redirected": (
        f"{WORKTREE}/commondir",
        f"open('{WORKTREE}/commondir','w').write('../../../src/auth/g')",
    ),
    "worktree gitdir redirected": (
        f"{WORKTREE}/gitdir",
        f"open('{WORKTREE}/gitdir','w').write('/tmp/elsewhere/.git')",
    ),
    "worktree config.worktree created": (
        f"{WORKTREE}/config.worktree",
        f"open('{WORKTREE}/config.worktree','w').write('[core]\\n\\tfsmonitor = sh evil\\n')",
    ),
    "commondir removed from a worktree": (
        f"{WORKTREE}/commondir",
        f"import os; os.remove('{WORKTREE}/commondir')",
    ),
}


@pytest.mark.parametrize("case", PLANTED.values(), ids=PLANTED.keys())
def test_a_pinned_git_path_is_put_back(repo: Path, case: tuple[str, str]) -> None:
    rel, code = case
    before = digest_tree(repo, rel)
    call = shell_call(repo, py(code))
    assert call.pre.code == 0, "python3 -c writes what no parser sees: it runs"
    assert digest_tree(repo, rel) == before, f"{rel} was not put back"
    record = the_breach(repo, call)
    assert rel in record["restored"], record  # type: ignore[operator]
    assert rel in told(call)


def test_a_new_submodule_git_directory_is_removed_whole(repo: Path) -> None:
    code = (
        "import os; d='.git/modules/evil'; os.makedirs(d+'/hooks'); "
        "open(d+'/HEAD','w').write('ref: refs/heads/main'); "
        "open(d+'/config','w').write('[core]\\n\\tfsmonitor = sh evil\\n'); "
        "open(d+'/hooks/post-checkout','w').write('#!/bin/sh')"
    )
    call = shell_call(repo, py(code))
    assert not (repo / ".git" / "modules" / "evil").exists()
    assert ".git/modules/evil" in the_breach(repo, call)["restored"]  # type: ignore[operator]
    assert ".git/modules/evil" in told(call)


def test_a_new_linked_worktree_git_directory_is_removed(repo: Path) -> None:
    code = "import os; os.makedirs('.git/worktrees/x'); open('.git/worktrees/x/commondir','w')"
    call = shell_call(repo, py(code))
    assert not (repo / ".git" / "worktrees" / "x").exists()
    assert (repo / ".git" / "worktrees" / "wt" / "commondir").exists()
    assert ".git/worktrees/x" in the_breach(repo, call)["restored"]  # type: ignore[operator]


def test_commondir_into_the_scope_does_not_run_the_agent_s_program(repo: Path) -> None:
    """The attack of issue 17: a git directory built inside the scope, ``.git/commondir``
    pointing at it; afterwards the person runs ``git status`` outside any boundary."""
    marker = repo.parent / "ran"
    program = repo / "src" / "auth" / "fsm.sh"
    code = (
        "import os, shutil; shutil.copytree('.git', 'src/auth/g', ignore=lambda d, n: "
        "[x for x in n if x in ('modules', 'worktrees')]); "
        f"open('src/auth/g/config','a').write('[core]\\n\\tfsmonitor = {program}\\n'); "
        "open('.git/commondir','w').write('../src/auth/g')"
    )
    program.write_text(f"#!/bin/sh\necho ran >> {marker}\nexit 1\n", encoding="utf-8")
    program.chmod(0o755)
    call = shell_call(repo, py(code))
    status = git(repo, "status", "--short")
    assert not marker.exists(), "git ran the agent's program"
    assert status.returncode == 0, status.stderr
    assert not (repo / ".git" / "commondir").exists()
    assert ".git/commondir" in the_breach(repo, call)["restored"]  # type: ignore[operator]


def test_a_redirected_submodule_checkout_runs_nothing_either(repo: Path) -> None:
    """The submodule's ``.git`` file lies in a directory the scope owns whole (so drift does
    not walk it): it is pinned from the submodule's ``core.worktree``."""
    call = shell_call(repo, py("open('src/auth/vendor/lib/.git','w').write('gitdir: ../../g')"))
    record = the_breach(repo, call)
    assert "src/auth/vendor/lib/.git" in record["restored"]  # type: ignore[operator]
    text = (repo / "src/auth/vendor/lib/.git").read_text(encoding="utf-8")
    assert text == "gitdir: ../../../../.git/modules/lib\n"


def test_ordinary_git_use_in_the_scope_is_no_breach(repo: Path) -> None:
    """``git add``, ``git commit``, ``git switch -c``, ``git stash`` write the index, objects,
    refs, logs and HEAD: none is pinned."""
    (repo / "src" / "auth" / "login.py").write_text("def login():\n    return 1\n")
    for command in (
        "git add src/auth/login.py",
        "git -c user.name=t -c user.email=t@example.invalid commit -q -m change",
        "git switch -q -c feature",
        "git status --short",
    ):
        call = shell_call(repo, command)
        assert call.pre.code == 0, (command, call.pre.err)
    assert [r for r in records(repo) if r.get("event") == "scope_breach"] == []
    assert git(repo, "log", "--oneline").stdout.count("\n") == 2
    assert os.path.isdir(repo / ".git" / "hooks")
