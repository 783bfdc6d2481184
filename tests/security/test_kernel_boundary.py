"""Kernel boundary: what a confined shell can no longer do, whatever the parser missed.

The client's shell tool runs with ``shell_environment(root)`` (``BASH_ENV`` and friends)
plus its own markers. Once the session holds an intent owning ``src/**`` and the gate has
allowed a Bash PreToolUse (which prepares the boundary for that session), ``bash -c CMD``
can write ``src/`` and the temp directory, and nothing else: not the protected files, not
the rest of the workspace, not the state directory. Git may write ``.git`` (commits work).
Each attack runs the command directly, as a client would after a PreToolUse it was allowed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paw_tui.core.confine import landlock

from .kit import (
    SESSION,
    assert_allowed,
    bash_call,
    digest_tree,
    gate,
    records,
    select_payload,
    selected,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        landlock.abi_version() == 0,
        reason="Landlock is unavailable here (landlock.abi_version() == 0): no kernel boundary",
    ),
]

GUARDED = (
    ".orchestration/active_intents.yaml",
    ".orchestration/governance.yaml",
    ".orchestration/sessions",
    ".orchestration/approvals",
    ".claude/settings.json",
    ".mcp.json",
    ".git/config",
    ".git/hooks",
    ".paw/instructions",
    "README.md",
    "docs",
)


class Confined:
    """A git workspace whose session holds INT-007 (``src/**``), and its confined shell."""

    def __init__(self, root: Path) -> None:
        self.root = root
        shutil.rmtree(root / ".git")
        git = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
        subprocess.run(["git", "init", "-q", str(root)], check=True, env={**os.environ, **git})
        self.state = Path(os.environ["PAW_STATE_DIR"])
        selected(root, "INT-007")
        self.env = self._environment(git)

    def _environment(self, git: dict[str, str]) -> dict[str, str]:
        from paw_tui.core.confine.boundary import shell_environment

        env = {
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
            "HOME": os.environ["HOME"],
            "LANG": "C.UTF-8",
            "PAW_STATE_DIR": str(self.state),
            "GIT_AUTHOR_NAME": "agent",
            "GIT_AUTHOR_EMAIL": "agent@example.invalid",
            "GIT_COMMITTER_NAME": "agent",
            "GIT_COMMITTER_EMAIL": "agent@example.invalid",
            **git,
        }
        env.update(shell_environment(str(self.root)))
        assert "BASH_ENV" in env
        env.update({"CLAUDE_CODE_SESSION_ID": SESSION, "CLAUDECODE": "1", "SHLVL": "1"})
        return env

    def prepare(self) -> None:
        """A Bash PreToolUse the gate allows: it prepares the boundary for the session."""
        assert_allowed(gate(bash_call(self.root, "true")))

    def run(self, command: str) -> subprocess.CompletedProcess[str]:
        """PreToolUse, then ``bash -c COMMAND``."""
        self.prepare()
        return self.shell(command)

    def shell(self, command: str) -> subprocess.CompletedProcess[str]:
        """``bash -c COMMAND`` in the workspace with the confined shell's environment."""
        return subprocess.run(
            ["bash", "-c", command],
            cwd=str(self.root),
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    def guarded(self) -> dict[str, str]:
        tree = digest_tree(self.root, *GUARDED)
        tree.update({f"state:{k}": v for k, v in digest_tree(self.state, ".").items()})
        return tree


@pytest.fixture
def box(wsroot: Path) -> Confined:
    return Confined(wsroot)


ATTACKS: dict[str, tuple[str, str]] = {
    "python appends to governance.yaml": (
        "python3 -c \"open('.orchestration/governance.yaml','a').write('approval: none')\"",
        ".orchestration/governance.yaml",
    ),
    "redirect into docs": ("echo x > docs/a.md", "docs/a.md"),
    "hard link a protected file into scope": (
        "ln .orchestration/active_intents.yaml src/x",
        "src/x",
    ),
    "append to the client's settings": (
        "echo '{}' >> .claude/settings.json",
        ".claude/settings.json",
    ),
    "delete a root file": ("rm -f README.md", "README.md"),
    "delete the MCP config from python": (
        "python3 -c \"import os; os.remove('.mcp.json')\"",
        ".mcp.json",
    ),
    "write next to the workspace": ("echo x > ../outside.txt", "../outside.txt"),
    "nested bash with a cleared environment": (
        "env -i /bin/bash --norc -c 'echo x > docs/b.md'",
        "docs/b.md",
    ),
    "edit the session lock": (
        "python3 -c \"import glob; [open(p,'a').write(' ') for p in "
        "glob.glob('.orchestration/sessions/*')]\"",
        ".orchestration/sessions",
    ),
}


@pytest.mark.parametrize("case", list(ATTACKS.values()), ids=list(ATTACKS))
def test_writes_outside_the_scope_fail(box: Confined, case: tuple[str, str]) -> None:
    """Under the boundary the write fails and nothing guarded changes."""
    command, rel = case
    box.prepare()
    before = box.guarded()
    target = (box.root / rel).resolve()
    existed = target.exists()
    done = box.shell(command)
    assert done.returncode != 0, (done.stdout, done.stderr)
    assert box.guarded() == before
    if not existed:
        assert not target.exists(), f"{rel} was created"
    assert (box.root / "src" / "a.py").exists()


def test_git_directory_is_writable_and_drift_undoes_a_planted_hook(box: Confined) -> None:
    """Known limit: ``git commit`` needs ``.git``, and Landlock cannot grant a directory but
    one of its subdirectories, so a hook can be planted while the command runs. It runs only
    inside this same boundary; drift detection removes it when the call ends, before the
    person's next commit (the PostToolUse of the same call)."""
    from .kit import post_bash_payload

    command = "python3 -c \"import shutil; shutil.copy('src/a.py', '.git/hooks/pre-commit')\""
    payload = bash_call(box.root, command)
    assert_allowed(gate(payload))
    done = box.shell(command)
    assert done.returncode == 0, done.stderr
    assert (box.root / ".git" / "hooks" / "pre-commit").exists()
    post = gate(post_bash_payload(payload, done))
    assert post.code == 0, post.err
    assert not (box.root / ".git" / "hooks" / "pre-commit").exists()
    assert ".git/hooks/pre-commit" in post.out


def test_in_scope_work_and_git_commit_succeed(box: Confined) -> None:
    """``echo ok > src/a.py``, ``mkdir -p src/b`` and a git commit work under the boundary."""
    done = box.run('echo ok > src/a.py && mkdir -p src/b && echo t > "${TMPDIR:-/tmp}/paw-t"')
    assert done.returncode == 0, done.stderr
    assert (box.root / "src" / "a.py").read_text() == "ok\n"
    assert (box.root / "src" / "b").is_dir()
    done = box.run("git add src/a.py && git commit -qm x && git log --oneline | wc -l")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


def test_exit_status_and_streams_pass_through(box: Confined) -> None:
    """``bash -c 'echo out; echo err >&2; exit 7'`` gives 7, ``out``, ``err``."""
    done = box.run("echo out; echo err >&2; exit 7")
    assert (done.returncode, done.stdout, done.stderr) == (7, "out\n", "err\n")


def test_a_background_child_stays_confined(box: Confined) -> None:
    """A child left running after the call returns still cannot write outside the scope."""
    done = box.run("(sleep 0.5; echo late > docs/late.md) >/dev/null 2>&1 & disown; echo started")
    assert done.stdout == "started\n"
    time.sleep(1.5)
    assert not (box.root / "docs" / "late.md").exists()


def test_the_boundary_cannot_be_rewritten_from_inside(box: Confined) -> None:
    """The confined shell cannot edit its own BASH_ENV file or anything in the state dir."""
    box.prepare()
    before = box.guarded()
    done = box.shell('echo "# widened" >> "$BASH_ENV"; echo x > "$PAW_STATE_DIR/planted"')
    assert done.returncode != 0
    assert box.guarded() == before


def test_the_gate_s_own_launch_cannot_be_rewritten_from_inside(box: Confined) -> None:
    """The hook script and the gate's code cache run the gate on every call: rewriting either
    from inside would be governing oneself. They stay unwritable even where the state
    directory lies inside a writable tree (here: the temporary directory)."""
    from paw_tui.core.clients import commands
    from paw_tui.core.support import code_cache

    script = Path(commands.hook_script_path())
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(commands.hook_script_text(), encoding="utf-8")
    cache = script.parent / code_cache.CACHE_NAME
    code_cache.build(str(cache))
    box.prepare()
    before = (script.read_bytes(), cache.read_bytes())
    for target in (script, cache):
        done = box.shell(f"echo 'import os' > '{target}'; python3 -c \"open('{target}','ab')\"")
        assert done.returncode != 0
    assert (script.read_bytes(), cache.read_bytes()) == before


def test_before_a_selection_only_the_temp_directory_is_writable(
    box: Confined, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session's first shell call, before it selects an intent: the gate allows a provably
    read-only ``ls`` and the command runs (no spec missing, no minimal set), the client's
    temp directory stays writable (Claude Code writes the shell's working directory there
    after every command), and a write the parser never saw fails: nothing of the workspace."""
    client_tmp = tmp_path / "client-tmp"
    client_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(client_tmp))  # the client's, as its hooks inherit it
    fresh = "s-fresh"
    assert_allowed(gate(bash_call(box.root, "ls", session=fresh)))
    cwd_file = client_tmp / "claude-1a2b-cwd"
    done = subprocess.run(
        [
            "bash",
            "-c",
            f"ls >/dev/null && pwd -P >| {cwd_file} && echo ok; echo x > src/planted.py",
        ],
        cwd=str(box.root),
        env={**box.env, "CLAUDE_CODE_SESSION_ID": fresh, "TMPDIR": str(client_tmp)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "paw-tui confine" not in done.stderr, done.stderr
    assert done.stdout == "ok\n" and cwd_file.read_text() == f"{box.root}\n"
    assert "Permission denied" in done.stderr and not (box.root / "src" / "planted.py").exists()


def test_a_persons_act_fails_even_without_markers(box: Confined) -> None:
    """With every marker removed the CLI cannot tell; the boundary still keeps the approval
    files unwritable, so nothing is approved."""
    (box.root / ".orchestration" / "governance.yaml").write_text("approval: required\n")
    assert_allowed(gate(select_payload(box.root, "INT-006", session="s-other")))
    done = box.run(
        "env -u CLAUDECODE -u CLAUDE_CODE_SESSION_ID -u AI_AGENT "
        "paw-tui approvals approve --session s-other"
    )
    assert done.returncode != 0, done.stdout
    assert "approval_granted" not in [r["event"] for r in records(box.root)]


def test_a_forged_hook_event_cannot_release_another_session(box: Confined) -> None:
    """A SessionEnd for another session piped into the gate from the confined shell changes
    nothing: the gate run from there cannot write the session files."""
    selected(box.root, "INT-001", session="s-other")
    forged = (
        '{"hook_event_name":"SessionEnd","session_id":"s-other","cwd":"'
        + str(box.root)
        + '","reason":"other"}'
    )
    box.run(f"echo '{forged}' | paw-tui gate --client claude-code")
    assert (box.root / ".orchestration" / "sessions" / "s-other.json").exists()
