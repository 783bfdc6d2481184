"""A repository stays clean (DESIGN §2), checked with real ``git``: a command that only reads
writes nothing inside the workspace; machine-owned state is git-ignored by whichever paw-tui
command first creates it; after ``init`` and an agent's session through the gate (hook
payloads piped to ``paw-tui gate``), ``git status`` shows only what a team commits."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from gatekit import (
    PAW,
    claude_payload,
    gate_env,
    paw_state_dir,
    run_gate,
    select_payload,
    write_payload,
)

__all__ = ["paw_state_dir"]

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

READ_ONLY = [
    ["intents", "list"],
    ["intents", "list", "--json"],
    ["intents", "show", "INT-001"],
    ["sessions", "list"],
    ["check", "src/app.py", "--intent", "INT-001"],
    ["trace", "tail"],
    ["trace", "show", "1"],
    ["trace", "verify"],
    ["approvals", "list"],
    ["scope", "requests"],
    ["doctor"],
]


def git(root: Path, *argv: str) -> str:
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    done = subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *argv],
        cwd=root, env=env, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return done.stdout


def status(root: Path, *options: str) -> list[str]:
    """``git status --porcelain -uall`` lines (with ``--ignored`` when asked)."""
    return git(root, "status", "--porcelain", "-uall", *options).splitlines()


def paw(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PAW, *argv], cwd=root, env=gate_env(), capture_output=True, text=True, timeout=120,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def new_repo(base: Path, name: str = "repo") -> Path:
    root = base / name
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "README.md").write_text("# app\n")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("print('hi')\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def agent_session(root: Path, session: str = "s-1") -> None:
    """An agent's session through the gate, as Claude Code's hooks would run it."""

    def hook(payload: dict[str, object]) -> None:
        done = run_gate(payload, cwd=root)
        assert done.code in (0, 2), done.err

    hook(claude_payload("session_start_startup", root, session=session))
    hook(claude_payload("user_prompt_submit", root, session=session))
    hook(write_payload(root, "src/app.py", session=session))  # denied: no intent yet
    hook(select_payload(root, "INT-001", session=session))
    hook(write_payload(root, "src/app.py", session=session))
    (root / "src" / "app.py").write_text("print('hello')\n")
    hook(claude_payload(
        "post_tool_use_write", root, session=session,
        replace_input={"file_path": f"{root}/src/app.py", "content": "print('hello')\n"},
    ))  # fmt: skip
    hook(claude_payload(
        "pre_tool_use_unknown_mcp", root, session=session,
        tool_name="mcp__paw__request_scope_expansion",
        replace_input={"pattern": "docs/**", "reason": "the docs need it"},
    ))  # fmt: skip
    hook(claude_payload("session_end", root, session=session))


@pytest.mark.parametrize("argv", READ_ONLY, ids=[" ".join(a) for a in READ_ONLY])
def test_a_read_only_command_writes_nothing_in_a_repository_that_never_ran_init(
    tmp_path: Path, argv: list[str]
) -> None:
    root = new_repo(tmp_path)
    paw(root, *argv)
    assert status(root, "--ignored") == []
    assert not (root / ".orchestration").exists()


def test_a_team_s_clone_stays_clean_under_every_read_only_command(tmp_path: Path) -> None:
    """What a team commits after a working day, cloned: reading it writes nothing, not even
    an ignored cache."""
    origin = new_repo(tmp_path, "origin")
    assert paw(origin, "init").returncode == 0
    (origin / ".orchestration" / "active_intents.yaml").write_text(
        (origin / ".orchestration" / "active_intents.yaml")
        .read_text()
        .replace('"src/**"', '"src/**"\n      - "README.md"')
    )
    agent_session(origin)
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "a day of work")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    for argv in READ_ONLY:
        paw(clone, *argv)
        assert status(clone, "--ignored") == [], argv


def test_after_init_and_an_agent_session_git_shows_only_what_a_team_commits(tmp_path: Path) -> None:
    root = new_repo(tmp_path)
    assert paw(root, "init").returncode == 0
    git(root, "add", "-A")
    git(root, "commit", "-qm", "paw-tui init")
    agent_session(root)
    assert paw(root, "prompt", "--supervisor", "Keep it small.").returncode == 0
    assert (root / ".orchestration" / "sessions").is_dir()  # machine state was written...
    assert (root / ".orchestration" / "scope_requests").is_dir()
    assert (root / ".orchestration" / ".cache").is_dir()
    assert sorted(status(root)) == [  # ...and none of it shows
        " M .orchestration/active_intents.yaml",  # INT-001: PENDING -> IN_PROGRESS
        " M src/app.py",
        "?? .orchestration/agent_trace.jsonl",
        "?? .orchestration/intent_map.md",
    ]


def test_the_gate_ignores_what_it_creates_in_a_repository_that_never_ran_init(
    tmp_path: Path,
) -> None:
    root = new_repo(tmp_path)
    made = paw(root, "intents", "new", "INT-001", "--name", "App", "--scope", "src/**")
    assert made.returncode == 0, made.stderr
    agent_session(root)
    assert sorted(status(root)) == [
        " M src/app.py",
        "?? .orchestration/.gitignore",
        "?? .orchestration/active_intents.yaml",
        "?? .orchestration/agent_trace.jsonl",
        "?? .orchestration/intent_map.md",
    ]
    ignored = [line for line in status(root, "--ignored") if line.startswith("!!")]
    assert any(line.startswith("!! .orchestration/sessions/") for line in ignored), ignored


def test_a_person_s_ignore_file_is_extended_never_rewritten(tmp_path: Path) -> None:
    root = new_repo(tmp_path)
    ignore = root / ".orchestration" / ".gitignore"
    ignore.parent.mkdir()
    ignore.write_text("# ours\n/local-notes.md\n!approvals/\n.cache")  # no final newline
    done = paw(root, "init")
    assert done.returncode == 0 and "updated  .orchestration/.gitignore" in done.stdout
    assert ignore.read_text() == (
        "# ours\n/local-notes.md\n!approvals/\n.cache\nsessions/\nscope_requests/\n*.torn-*\n.*.tmp\n"
    )  # their negation of approvals/ and their spelling of .cache are theirs to keep
    assert "Nothing to do" in paw(root, "init").stdout


def test_one_helper_ignores_a_machine_local_file_from_its_own_directory(tmp_path: Path) -> None:
    """``ensure_path_ignored``: what ``install`` uses for files such as
    ``.claude/settings.local.json`` (absolute paths of this machine)."""
    from paw_tui.core.workspace.gitignore import ensure_path_ignored

    root = new_repo(tmp_path)
    local = root / ".claude" / "settings.local.json"
    local.parent.mkdir()
    local.write_text("{}\n")
    (root / ".claude" / ".gitignore").write_text("# mine\nscratch/\n")
    assert ensure_path_ignored(str(root), ".claude/settings.local.json") is True
    assert ensure_path_ignored(str(root), ".claude/settings.local.json") is False
    assert (
        root / ".claude" / ".gitignore"
    ).read_text() == "# mine\nscratch/\n/settings.local.json\n"
    git(root, "check-ignore", "-q", ".claude/settings.local.json")  # exit 0: ignored
    assert status(root) == ["?? .claude/.gitignore"]
