"""Commands handed to another program are read as that program's commands (issue 17).

A tmux server, ``screen``, ``at``/``batch``/``crontab`` and ``systemd-run`` run what they are
given in a process that is not the shell's child: outside the kernel boundary, after
PostToolUse, unseen by drift. Under an intent the gate denies such a command unless every
command it carries is itself allowed *and* fully visible (a write the parser cannot place, a
program that may write what it does not name, a command arriving through stdin, a file or a
variable: denied). Multi-call binaries (``busybox``, ``toybox``) are unwrapped like ``env``.
Before a selection only the listing forms read.

INT-001 owns ``src/auth/**`` and ``tests/auth/**``; the workspace holds a fake ``.git``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .kit import (
    NO_INTENT,
    assert_allowed,
    assert_blocked,
    assert_denied,
    assert_shell_denied_naming,
    bash_call,
    gate,
    selected,
)

HANDED = "a command handed to another program runs under an intent only when paw-tui can read"
UNSEEN = "outside the shell (no kernel boundary, no drift detection)"

# command (ROOT is the workspace's absolute path) -> a phrase the deny reason holds
DENIED: dict[str, tuple[str, str]] = {
    "tmux new-window": ("tmux new-window -d 'rm -rf .git'", UNSEEN),
    "tmux neww (an alias)": ("tmux neww -d 'python3 -c 1'", UNSEEN),
    "tmux new-w (a unique prefix)": ("tmux new-w -d 'make'", UNSEEN),
    "tmux send-keys into the agent's own pane": ("tmux send-keys 'make install' Enter", UNSEEN),
    "tmux send-keys C-m": ("tmux send-keys -t %0 'rm -f ROOT/docs/x.md' C-m", "docs/x.md"),
    "tmux send-keys leaves a line at the prompt": ("tmux send-keys 'rm -rf .g'", "prompt"),
    "tmux send-keys Enter alone": ("tmux send-keys -t 0 Enter", "already waits"),
    "tmux send-keys Up replays history": ("tmux send-keys Up Enter", "the key Up"),
    "tmux send-keys -l literal text": ("tmux send-keys -l 'rm -rf .git'", "prompt"),
    "tmux run-shell": ("tmux run-shell 'rm -rf ROOT/.git'", ".git"),
    "tmux run-shell -b": ("tmux run -b 'npm publish'", UNSEEN),
    "tmux run-shell -C (tmux commands)": ("tmux run-shell -C 'neww \"make\"'", UNSEEN),
    "tmux split-window": ("tmux split-window -d 'cargo run'", UNSEEN),
    "tmux new-session -d": ("tmux new-session -d -s x 'touch ROOT/docs/y'", "docs/y"),
    "tmux respawn-pane": ("tmux respawn-pane -k -t 1 'pip install x'", UNSEEN),
    "tmux pipe-pane": ("tmux pipe-pane -o 'cat >> ROOT/docs/log'", "docs/log"),
    "tmux if-shell's shell command": ("tmux if-shell 'make' 'display x'", UNSEEN),
    "tmux if-shell's tmux command": ("tmux if true 'neww \"rm -rf ROOT/.git\"'", ".git"),
    "tmux display-popup": ("tmux display-popup -E 'vim src/x'", UNSEEN),
    "tmux -c shell command": ("tmux -c 'rm -rf .git'", ".git"),
    "tmux commands chained with \\;": ("tmux ls \\; neww -d 'rm -rf .git'", UNSEEN),
    "tmux commands chained with a trailing ;": ("tmux ls\\; neww -d make", UNSEEN),
    "tmux a format's #(...)": ("tmux display -p '#(rm -rf .git)'", "#("),
    "tmux set-option for later": ("tmux set -g default-command 'rm -rf ~'", "later"),
    "tmux bind-key": ("tmux bind-key x run-shell 'rm -rf .git'", "later"),
    "tmux set-hook": ("tmux set-hook -g pane-exited 'run make'", "later"),
    "tmux source-file": ("tmux source-file /tmp/cmds.conf", "file"),
    "tmux -f config": ("tmux -f /tmp/evil.conf new -d", "file"),
    "tmux paste-buffer": ("tmux set-buffer 'rm -rf .git\n' \\; paste-buffer", "buffer"),
    "tmux new-window -e environment": ("tmux neww -e BASH_ENV=/tmp/x 'ls'", "environment"),
    "tmux command from a variable": ("tmux $TMUX_COMMAND", "known only when it runs"),
    "tmux command in a variable": ('tmux neww "$CMD"', "known only when it runs"),
    "screen -X stuff": ("screen -S main -X stuff 'rm -rf ROOT/.git^M'", ".git"),
    "screen -dm": ("screen -dmS job make deploy", UNSEEN),
    "screen -X exec": ("screen -X exec make", "screen"),
    "at from a pipe": ("echo 'rm -rf .git' | at now", "standard input"),
    "at -f file": ("at -f /tmp/job now", "file"),
    "at from a here-document": ("at now <<'EOF'\nrm -rf ROOT/.git\nEOF", ".git"),
    "at runs a build later": ("at now + 1 minute <<< 'make'", UNSEEN),
    "batch": ("batch <<< 'npm run deploy'", UNSEEN),
    "crontab a file": ("crontab /tmp/jobs", "file"),
    "crontab - from stdin": ("crontab - <<'EOF'\n* * * * * ls\nEOF", "person's crontab"),
    "crontab from a pipe": ("echo '* * * * * make' | crontab -", "standard input"),
    "crontab -r": ("crontab -r", "crontab"),
    "crontab -e": ("crontab -e", "editor"),
    "systemd-run --user": ("systemd-run --user rm -rf ROOT/.git", ".git"),
    "systemd-run a build": ("systemd-run --user --on-active=30 make", UNSEEN),
    "systemd-run -p ExecStartPre": ("systemd-run --user -p ExecStartPre=/bin/x true", "property"),
    "systemd-run --scope is a child": ("systemd-run --user --scope rm -rf .git", ".git"),
    "ssh to this machine": ("ssh localhost rm -rf ROOT/.git", ".git"),
    "ssh with options after the host": ("ssh localhost -p 22 make install", UNSEEN),
    "ssh a here-document": ("ssh localhost <<'EOF'\nmake\nEOF", UNSEEN),
    "ssh a remote shell on stdin": ("echo make | ssh localhost", "standard input"),
    "ssh -o ProxyCommand": ("ssh -o ProxyCommand='rm -rf .git' -N h", ".git"),
    "ssh -F config": ("ssh -F /tmp/evil.conf -N h", "configuration"),
    "systemctl start": ("systemctl --user start evil.service", "service manager"),
    "systemctl edit": ("systemctl --user edit x.service", "service manager"),
}


@pytest.mark.parametrize("case", list(DENIED.values()), ids=list(DENIED))
def test_a_command_handed_over_is_denied(wsroot: Path, case: tuple[str, str]) -> None:
    assert_shell_denied_naming(wsroot, *case)


@pytest.mark.parametrize(
    "command",
    [
        # neighbours: programs that start the command they are given, as wrappers do
        "taskset 1 rm -rf .git",
        "taskset -c 0 rm -rf .git",
        "chrt -f 10 rm -rf .git",
        "numactl -N 0 rm -rf .git",
        "prlimit --nofile=64 rm -rf .git",
        "setpriv --reuid=1000 rm -rf .git",
        "unshare -r rm -rf .git",
        "faketime '2020-01-01' rm -rf .git",
        "fakeroot rm -rf .git",
        "unbuffer rm -rf .git",
        "xvfb-run -a rm -rf .git",
        "pkexec rm -rf .git",
        "dbus-run-session -- rm -rf .git",
        "systemd-inhibit --why=x rm -rf .git",
        "strace -f -o /dev/null rm -rf .git",
        "watch -n 1 rm -rf .git",
        "watch -x rm -rf .git",
        "script -q -c 'rm -rf .git' /dev/null",
        "uv run rm -rf .git",
        "uv run --with requests rm -rf .git",
        "poetry run rm -rf .git",
        "pipenv run rm -rf .git",
        "conda run -n env rm -rf .git",
        "bundle exec rm -rf .git",
        "busybox rm -rf .git",
        "toybox rm -rf .git",
        "busybox sh -c 'rm -rf .git'",
        "busybox ash -c 'rm -rf .git'",
        "toybox cp f .git/config",
        "/bin/busybox rm -rf .orchestration",
        "nohup rm -rf .git &",
        "setsid -f rm -rf .git",
        "nohup busybox rm -rf .git",
        "setarch x86_64 rm -rf .git",
        "setarch x86_64 -R rm -rf .git",
        "setarch -R rm -rf .git",
        "linux64 rm -rf .git",
        "sg users -c 'rm -rf .git'",
        "sg - users 'rm -rf .git'",
        "direnv exec . rm -rf .git",
        "pdm run rm -rf .git",
        "hatch run rm -rf .git",
        "pixi run -e dev rm -rf .git",
    ],
)
def test_multi_call_binaries_and_wrappers_are_unwrapped(wsroot: Path, command: str) -> None:
    selected(wsroot, "INT-001")
    reason = assert_denied(gate(bash_call(wsroot, command)))
    assert "protected" in reason, reason


def test_wrapped_ordinary_work_is_allowed(wsroot: Path) -> None:
    selected(wsroot, "INT-001")
    for command in (
        "taskset 1 ls",
        "uv run pytest -q",
        "poetry run python -m pytest",
        "watch -g ls",
        "setarch x86_64 -R ls",
        "direnv exec . pytest -q",
        "pdm run pytest",
    ):
        assert_allowed(gate(bash_call(wsroot, command)))


def test_a_carried_write_the_parser_sees_whole_in_scope_is_allowed(wsroot: Path) -> None:
    """A fully visible carried command that is allowed stays allowed: an absolute write in
    the scope, a read, text typed and run in a pane after C-c cleared its prompt."""
    selected(wsroot, "INT-001")
    for command in (
        f"tmux new-window -d 'touch {wsroot}/src/auth/new.py'",
        "tmux send-keys -t 0 C-c 'ls' Enter",
        f"at now <<'EOF'\necho ok > {wsroot}/src/auth/at.txt\nEOF",
        "tmux new-window -d",
        "tmux kill-session -t old",
        "tmux capture-pane -p -t 0",
    ):
        assert_allowed(gate(bash_call(wsroot, command)))


def test_a_carried_write_out_of_scope_is_a_scope_violation(wsroot: Path) -> None:
    selected(wsroot, "INT-001")
    command = f"tmux new-window -d 'echo x > {wsroot}/docs/x.md'"
    assert_blocked(gate(bash_call(wsroot, command)), "docs/x.md", "INT-001")


@pytest.mark.parametrize(
    "command",
    [
        "tmux ls",
        "tmux list-sessions",
        "tmux list-windows -a",
        "tmux lsp -F '#{pane_id}'",
        "tmux display -p '#{session_name}'",
        "tmux has-session -t main",
        "screen -ls",
        "atq",
        "at -l",
        "crontab -l",
        "systemctl --user status",
        "systemctl --user list-timers",
    ],
)
def test_listing_forms_only_read_before_a_selection(wsroot: Path, command: str) -> None:
    assert_allowed(gate(bash_call(wsroot, command)))


@pytest.mark.parametrize(
    "command",
    [
        "tmux new-window -d ls",
        "tmux send-keys ls Enter",
        "tmux ls -F '#(touch x)'",
        "tmux ls \\; neww ls",
        "at now <<< ls",
        "crontab - <<< '* * * * * ls'",
        "systemctl --user restart app",
        "screen -dm ls",
        "systemd-run --user ls",
    ],
)
def test_nothing_else_is_read_only_before_a_selection(wsroot: Path, command: str) -> None:
    reason = assert_denied(gate(bash_call(wsroot, command)))
    assert reason.startswith(NO_INTENT), reason
