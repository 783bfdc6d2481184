"""False positives: commands a careful parser must still ALLOW.

A defence that denies ordinary work gets switched off; each case here is something an agent
under INT-007 (``src/**``) does every day, and must pass the gate (exit 0, no record saying
deny). Many look like writes to a naive parser (``>`` inside arithmetic or ``[[ ]]``,
``-d``/``-r``/``-m`` option values taken for targets, a comment before ``cd``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .kit import (
    assert_allowed,
    bash_call,
    gate,
    mcp_payload,
    records,
    selected,
    write_payload,
)

ALLOWED_UNDER_SRC: dict[str, str] = {
    "mkdir -m takes a mode": "mkdir -m 755 src/newdir",
    "touch -d takes a date": "touch -d yesterday src/a.py",
    "touch -r only reads its reference": "touch -r README.md src/a.py",
    "arithmetic comparison": "(( 3 > 2 ))",
    "[[ ]] string comparison": "[[ b > a ]] && echo ok",
    "arithmetic expansion": "echo $((3 > 2))",
    "test with an escaped >": "[ b \\> a ] && echo ok",
    "let with a quoted >": 'let "x = 3 > 2"',
    "duplicate onto stderr": "echo x >&2",
    "stderr to /dev/null": "echo x 2>/dev/null",
    "both to /dev/null": "ls > /dev/null 2>&1",
    "comment line then cd": "# go to the sources\ncd src && touch a.py",
    "quoted > in an argument": 'echo "a > b" && grep -c ">" README.md',
    "heredoc body is data": "cat <<EOF > src/notes.txt\n> docs/x.md\nrm -rf .git\nEOF",
    "git status": "git status",
    "git add and commit": "git add src/a.py && git commit -m x",
    "git diff into scope": "git diff > src/patch.diff",
    "npm test": "npm test",
    "pytest": "pytest",
    "python -m pytest": "python3 -m pytest -q tests/",
    "in-place sed in scope": "cd src && sed -i s/a/b/ a.py",
    "copy a file into scope": "cp README.md src/readme-copy.md",
    "sort -o into scope": "sort -o src/sorted.txt README.md",
    "tee into scope": "tee src/log.txt < README.md",
    "find -delete in scope": "find src -name '*.pyc' -delete",
    "remove a build directory": "rm -rf src/build",
    "printf into scope": "printf '%s\\n' a b > src/x.txt",
    "pipeline of readers": "cat README.md | grep project | wc -l",
    "for loop over sources": "for f in src/*.py; do echo $f; done",
    "a # inside quotes": "echo '# not a comment' > src/hash.txt",
    "mktemp": 'tmp=$(mktemp) && echo x > "$tmp" && rm -f "$tmp"',
    # issue 17: git, multiplexers and build tools stay usable under a narrow intent
    "git commit": "git commit -m 'a message'",
    "git commit -am": "git commit -am 'a message'",
    "git switch -c new": "git switch -c feature/x",
    "git checkout -b new": "git checkout -b feature/x",
    "git stash list": "git stash list",
    "git stash show": "git stash show -p stash@{0}",
    "git log": "git log --oneline -10",
    "git diff": "git diff HEAD~1 -- src",
    "git add in scope": "git add src/a.py src/new.py",
    "git restore in scope": "git restore src/a.py",
    "git stash push in scope": "git stash push -- src",
    "git -c identity": "git -c user.name=agent -c user.email=a@example.invalid commit -m x",
    "git push": "git push -u origin feature/x",
    "tmux ls": "tmux ls",
    "tmux capture-pane": "tmux capture-pane -p -t 0",
    "make": "make",
    "make test": "make -j2 test",
    "npm run": "npm run build",
    "busybox ls": "busybox ls src",
    "nohup in scope": "nohup python3 -m http.server > src/server.log 2>&1 &",
}


@pytest.mark.parametrize("command", list(ALLOWED_UNDER_SRC.values()), ids=list(ALLOWED_UNDER_SRC))
def test_everyday_commands_are_allowed_under_src(wsroot: Path, command: str) -> None:
    """False positive guard: an ordinary command under ``src/**`` is not denied."""
    selected(wsroot, "INT-007")
    assert_allowed(gate(bash_call(wsroot, command)))
    denied = [r for r in records(wsroot) if r.get("decision") == "deny"]
    assert denied == [], denied


def test_cd_into_scope_then_relative_writes(wsroot: Path) -> None:
    """A relative target after ``cd src`` is under src/, not the root."""
    selected(wsroot, "INT-007")
    assert_allowed(gate(bash_call(wsroot, "cd src && echo x > a.py && mkdir -p b/c")))
    assert_allowed(gate(bash_call(wsroot, "echo x > a.py", cwd=wsroot / "src")))


def test_workflow_artifacts_stay_writable(wsroot: Path) -> None:
    """``.paw/work/**`` is not protected: a wide intent writes its workflow notes there."""
    selected(wsroot, "INT-006")
    assert_allowed(gate(write_payload(wsroot, ".paw/work/w/notes.md")))
    assert_allowed(gate(bash_call(wsroot, "echo done >> .paw/work/w/notes.md")))


def test_a_file_named_like_a_protected_path_elsewhere(wsroot: Path) -> None:
    """``src/.git-notes.md`` and ``src/orchestration/x`` are not protected paths."""
    selected(wsroot, "INT-007")
    assert_allowed(gate(write_payload(wsroot, "src/.git-notes.md")))
    assert_allowed(gate(write_payload(wsroot, "src/orchestration/x.py")))
    assert_allowed(gate(bash_call(wsroot, "touch src/.gitkeep src/settings.json")))


def test_mcp_tool_without_paths_is_allowed(wsroot: Path) -> None:
    """An MCP tool whose strings are prose (no separator, no workspace entry) is allowed."""
    selected(wsroot, "INT-007")
    payload = mcp_payload(
        wsroot,
        "mcp__github__create_issue",
        {"owner": "acme", "repo": "api", "title": "Migrate to JWT", "body": "Tracking issue"},
    )
    assert_allowed(gate(payload))


def test_mcp_write_inside_scope_is_allowed(wsroot: Path) -> None:
    """An MCP file tool writing inside the scope is allowed like a Write."""
    selected(wsroot, "INT-007")
    payload = mcp_payload(
        wsroot,
        "mcp__filesystem__write_file",
        {"path": "src/new.py", "content": "print('hello world')\n"},
    )
    assert_allowed(gate(payload))


def test_reading_protected_files_is_fine(wsroot: Path) -> None:
    """Reading a protected file (cat, grep, git log) is not a write."""
    selected(wsroot, "INT-007")
    for command in (
        "cat .orchestration/active_intents.yaml",
        "grep -r hooks .claude",
        "git log --oneline -5",
        "diff .mcp.json src/a.py || true",
    ):
        assert_allowed(gate(bash_call(wsroot, command)))
