"""Stalling the gate: a client that times its hook out runs the tool (Claude Code after 10 s),
so an input that keeps the gate busy is a way through. ``rm -rf .git`` placed before
``touch src/auth/*a*a*a*a*a*a*a*a*a*a*c`` (one long name in ``src/auth``) made the glob
matcher backtrack for longer than any client waits, and the client ran the command.

Every hostile input here must be answered, and denied: through the installed hook as a
client runs it, through the resident gate, and in process. Nothing is timed: without the
fixes these calls do not answer within the harness's own time limit (or are allowed). The
counted bounds of the matchers are in ``tests/shell/test_glob_match.py`` and
``tests/test_scope_linear.py``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from residentkit import Installed, children, installed

from paw_tui.gate.budget import ANALYSIS_SECONDS, TOO_SLOW

from .kit import (
    assert_denied,
    assert_scope_violation,
    bash_call,
    cli,
    gate,
    launch,
    records,
    selected,
    write_payload,
)

__all__ = ["installed"]

STAR_GLOB = "*a" * 10 + "*c"
LONG_NAME = "a" * 200
STALLING = f"rm -rf .git; touch src/auth/{STAR_GLOB}"
TOO_SLOW_START = TOO_SLOW.format(seconds=ANALYSIS_SECONDS)[:60]
HUGE_COMMAND = "a;" * 10_000_000
"""Twenty megabytes of commands: far more than any machine parses within the budget."""


@pytest.fixture
def stalling_tree(wsroot: Path) -> Path:
    """INT-001 (``src/auth/**``) held, and the long name the glob backtracks on."""
    selected(wsroot, "INT-001")
    (wsroot / "src" / "auth" / LONG_NAME).write_text("x\n")
    return wsroot


def deny_reason(code: int, out: str, err: str) -> str:
    assert code == 2, (code, out[-500:], err[-2000:])
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    assert isinstance(reason, str) and reason in err
    return reason


def test_the_stalling_glob_is_answered_and_denied_by_the_hook(stalling_tree: Path) -> None:
    result = launch(bash_call(stalling_tree, STALLING), cwd=stalling_tree, timeout=60)
    assert ".git is protected" in assert_denied(result)
    assert (stalling_tree / ".git" / "config").exists()


@pytest.mark.parametrize(
    ("command", "named"),
    [
        (f"touch docs/{STAR_GLOB}", "docs/"),
        (f"cp f src/auth/{STAR_GLOB} docs/", "docs"),
        (f"touch src/auth/{'?*a' * 12}c .orchestration/x", ".orchestration"),
    ],
    ids=["out of scope", "copied out", "protected"],
)
def test_pathological_globs_are_answered_in_process(
    stalling_tree: Path, command: str, named: str
) -> None:
    (stalling_tree / "docs" / LONG_NAME).write_text("x\n")
    reason = assert_denied(gate(bash_call(stalling_tree, command)))
    assert named in reason


def test_a_granted_pattern_that_backtracks_answers_on_a_long_path(wsroot: Path) -> None:
    """A pattern an agent asked for and a person granted, against a path the agent chose:
    the Write and ``paw-tui check`` both answer."""
    intents = wsroot / ".orchestration" / "active_intents.yaml"
    intents.write_text(
        intents.read_text().replace(
            'owned_scope: ["src/auth/**", "tests/auth/**", "!src/auth/legacy/**"]',
            f'owned_scope: ["src/auth/**", "src/{STAR_GLOB}"]',
        )
    )
    selected(wsroot, "INT-001")
    long_path = "src/" + "a" * 3000 + "c.x"
    assert_scope_violation(gate(write_payload(wsroot, long_path)), "INT-001", "src/aaaa")
    checked = cli("check", long_path, "--intent", "INT-001", "--json", cwd=wsroot, timeout=60)
    assert checked.returncode == 2, checked.stderr
    assert json.loads(checked.stdout)["allowed"] is False


@pytest.mark.parametrize(
    ("command", "bound"),
    [
        ("{rm,-rf,.git}" + "{,}" * 12, "makes more than 4,096 words"),  # was allowed
        ("touch src/auth/{1..100000000}", "makes more than 4,096 words"),
        ("touch src/auth/" + "{a," * 4000, "nests or repeats braces too much"),
        ("touch src/auth/" + "{" * 50_000, "nests or repeats braces too much"),
    ],
    ids=["a command name of 12,288 words", "a long sequence", "unclosed nesting", "50,000 {"],
)
def test_brace_bombs_are_denied_naming_the_bound(
    stalling_tree: Path, command: str, bound: str
) -> None:
    before = len(records(stalling_tree))
    reason = assert_denied(gate(bash_call(stalling_tree, command)))
    assert "brace expansion" in reason and bound in reason
    assert len(records(stalling_tree)) == before + 1  # the denial is recorded


def test_a_glob_walking_a_looping_tree_is_denied_naming_the_bound(stalling_tree: Path) -> None:
    """Ten links to ``.`` make ``*/*/*/*/*/*`` a million paths: the walk stops at its
    bound and the call is denied, whether the glob is a write target or a loop's list."""
    for index in range(10):
        (stalling_tree / "src" / "auth" / f"l{index}").symlink_to(".")
    pattern = "src/auth/" + "/".join(["*"] * 6)
    reason = assert_denied(gate(bash_call(stalling_tree, f"rm -f {pattern}/x")))
    assert "the glob" in reason and ("directory entries" in reason or "paths" in reason)
    reason = assert_denied(gate(bash_call(stalling_tree, f"for f in {pattern}; do :; done")))
    assert "the glob" in reason


def test_analysis_past_the_budget_is_denied_by_the_hook(stalling_tree: Path) -> None:
    result = launch(bash_call(stalling_tree, HUGE_COMMAND), cwd=stalling_tree, timeout=60)
    assert assert_denied(result).startswith(TOO_SLOW_START)


def test_the_hook_still_allows_after_the_budget_is_spent_elsewhere(stalling_tree: Path) -> None:
    """A denial for time is that call's alone: the next call is decided as usual."""
    launch(bash_call(stalling_tree, HUGE_COMMAND), cwd=stalling_tree, timeout=60)
    ok = launch(bash_call(stalling_tree, "touch src/auth/x.py"), cwd=stalling_tree)
    assert ok.code == 0, ok.err


# -- through the resident gate ----------------------------------------------------------------


def served(hook: Installed, root: Path, payload: object) -> tuple[int, str, str]:
    """A call the server answers (checked through its workers' activity)."""
    pid = hook.wait_for_server()
    reads = hook.quiet_workers(pid)
    answer = hook.call(payload, cwd=root, env=hook.env(root))
    assert hook.answered_by_server(pid, reads), "the call was not answered by the resident gate"
    return answer


def hook_process(hook: Installed, root: Path) -> subprocess.Popen[bytes]:
    """The installed hook started as a client starts it, its stdin still to be written."""
    return subprocess.Popen(
        [str(hook.script), "gate", "--client", "claude-code"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=str(root),
        env=hook.env(root),
    )


def start_server(hook: Installed, root: Path) -> int:
    hook.call(bash_call(root, "ls"), cwd=root, env=hook.env(root))
    return hook.wait_for_server()


@pytest.mark.slow
def test_the_stalling_glob_is_denied_through_the_resident_gate(
    installed: Installed, stalling_tree: Path
) -> None:
    start_server(installed, stalling_tree)
    reason = deny_reason(*served(installed, stalling_tree, bash_call(stalling_tree, STALLING)))
    assert ".git is protected" in reason


@pytest.mark.slow
def test_a_call_past_the_budget_does_not_hold_a_worker(
    installed: Installed, stalling_tree: Path
) -> None:
    """Two hostile calls once took both workers for good. Now each is denied for time by
    the worker that took it, and both workers then answer the next calls."""
    pid = start_server(installed, stalling_tree)
    installed.quiet_workers(pid)  # both forked: the server answers once it has one
    workers = children(pid)
    hostile = [hook_process(installed, stalling_tree) for _ in range(2)]
    payload = json.dumps(bash_call(stalling_tree, HUGE_COMMAND)).encode()
    outcomes = [proc.communicate(payload, timeout=60) for proc in hostile]
    for proc, (out, err) in zip(hostile, outcomes, strict=True):
        reason = deny_reason(proc.returncode, out.decode(), err.decode())
        assert reason.startswith(TOO_SLOW_START)
    assert children(pid) == workers  # answered by them, and none had to be replaced
    code, _, _ = served(installed, stalling_tree, bash_call(stalling_tree, "touch src/auth/y"))
    assert code == 0


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime


@pytest.mark.slow
def test_a_worker_stuck_in_a_call_is_replaced_and_the_call_denied(
    installed: Installed, stalling_tree: Path
) -> None:
    """A worker stuck where its own timer cannot reach it (here: stopped while analysing,
    as a same-user process may do) is killed by the server once the call is past the
    budget; the hook denies the call and a new worker takes its place."""
    pid = start_server(installed, stalling_tree)
    installed.quiet_workers(pid)
    before = {worker: _cpu_ticks(worker) for worker in children(pid)}
    call = hook_process(installed, stalling_tree)
    assert call.stdin is not None
    call.stdin.write(json.dumps(bash_call(stalling_tree, HUGE_COMMAND)).encode())
    call.stdin.close()
    busy = None
    deadline = time.monotonic() + 30
    while busy is None and time.monotonic() < deadline:
        for worker, ticks in before.items():
            if _cpu_ticks(worker) > ticks + 10:  # analysing: a tenth of a second of CPU
                busy = worker
        time.sleep(0.01)
    assert busy is not None, "no worker took the call"
    os.kill(busy, signal.SIGSTOP)
    try:
        call.wait(timeout=60)
    finally:
        if Path(f"/proc/{busy}").exists():
            os.kill(busy, signal.SIGKILL)
    assert call.stdout is not None and call.stderr is not None
    out, err = call.stdout.read(), call.stderr.read()
    reason = deny_reason(call.returncode, out.decode(), err.decode())
    assert "resident gate failed while deciding" in reason
    assert installed.server_pid() == pid
    installed.quiet_workers(pid)  # two workers again
    assert busy not in children(pid)
    code, _, _ = served(installed, stalling_tree, bash_call(stalling_tree, "touch src/auth/z"))
    assert code == 0
