"""What a confined ``bash -c`` can and cannot do, end to end: spec, BASH_ENV, launcher, kernel."""

from __future__ import annotations

import fcntl
import os
import struct
import subprocess
import termios
from pathlib import Path

import pytest

from .confine_kit import ABI, DENIED, Box, clean_env, needs_landlock

pytestmark = needs_landlock


@pytest.fixture
def box(tmp_path: Path) -> Box:
    return Box(tmp_path, ["src"])


def test_writes_inside_the_granted_tree(box: Box) -> None:
    result = box.bash(
        "set -e; echo x > src/new.txt; mkdir src/d; mv src/new.txt src/d/; ln -s d src/l;"
        " ln src/d/new.txt src/hard; rm src/a.txt; truncate -s 0 src/hard; rmdir src/sub;"
        " python3 -c \"open('src/py.txt', 'w').write('py')\"; echo done"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "done\n"
    src = box.ws / "src"
    assert (src / "d" / "new.txt").read_text() == "" and (src / "py.txt").read_text() == "py"
    assert os.readlink(src / "l") == "d" and not (src / "a.txt").exists()


@pytest.mark.parametrize(
    "command, target",
    [
        ("echo x > {out}/victim.txt", "victim.txt"),
        ("echo x >> {out}/victim.txt", "victim.txt"),
        ("echo x > {out}/new", "new"),
        ("python3 -c \"open('{out}/new', 'w')\"", "new"),
        ("ln src/a.txt {out}/new", "new"),
        ("ln -s /etc {out}/new", "new"),
        ("mv src/a.txt {out}/new", "new"),
        ("cp src/a.txt {out}/new", "new"),
        ("mkdir {out}/new", "new"),
        ("mkfifo {out}/new", "new"),
        ("rm {out}/victim.txt", "victim.txt"),
        ("mv {out}/victim.txt src/", "victim.txt"),
        ("truncate -s 0 {out}/victim.txt", "victim.txt"),
        ("touch {out}/new", "new"),
        ("echo x > README.md.new", None),
    ],
)
def test_denied_outside(box: Box, command: str, target: str | None) -> None:
    before = {p.name: (p.lstat().st_mtime_ns, p.read_bytes()) for p in box.out.iterdir()}
    result = box.bash(command.format(out=box.out) + "; echo status=$?")
    assert result.stdout.strip().splitlines()[-1] != "status=0", result
    assert DENIED in result.stderr or "Operation not permitted" in result.stderr, result.stderr
    after = {p.name: (p.lstat().st_mtime_ns, p.read_bytes()) for p in box.out.iterdir()}
    assert after == before
    assert (box.ws / "src" / "a.txt").exists()
    assert not (box.ws / "README.md.new").exists()


def test_metadata_changes_are_not_covered(box: Box) -> None:
    """Landlock has no right for timestamps, modes, owners or xattrs: documented, not stopped."""
    victim = box.out / "victim.txt"
    result = box.bash(f"touch -d @0 {victim} && chmod 600 {victim} && echo passed")
    assert result.stdout == "passed\n"
    assert victim.stat().st_mtime == 0 and victim.read_text() == "victim\n"


def test_children_and_grandchildren_stay_confined(box: Box) -> None:
    out = box.out
    script = box.base / "script.sh"
    script.write_text(f"#!/bin/bash\ntouch {out}/from-script\n")
    script.chmod(0o755)
    result = box.bash(
        f"bash -c 'bash -c \"touch {out}/g1\"'; sh -c 'touch {out}/g2';"
        f" python3 -c \"import subprocess; subprocess.run(['touch', '{out}/g3'])\";"
        f" env -u PAW_CONFINED BASH_ENV= bash -c 'touch {out}/g4'; {script};"
        f" setsid -w bash -c 'touch {out}/g5'; (nohup touch {out}/g6 &); wait; sleep 0.2"
    )
    assert result.stderr.count(DENIED) >= 6, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["victim.txt"]


def test_output_status_and_streams_pass_through(box: Box, tmp_path: Path) -> None:
    cwd_file = box.out / "cwd"
    cwd_file.write_text("")
    box.kwargs = {"extra_files": [str(cwd_file)]}
    box.refresh()
    result = box.bash(
        "printf 'out\\n'; echo err >&2; echo err2 > /dev/stderr; echo out2 > /dev/stdout;"
        f" echo null > /dev/null; cd src && pwd -P > {cwd_file}; exit 7"
    )
    assert result.returncode == 7
    assert result.stdout == "out\nout2\n"
    assert result.stderr == "err\nerr2\n"
    assert cwd_file.read_text() == f"{os.path.realpath(box.ws / 'src')}\n"


def test_stderr_as_a_regular_file_can_be_reopened(box: Box) -> None:
    log = box.base / "captured.log"  # outside every writable tree
    with open(log, "w") as handle:
        result = subprocess.run(
            ["bash", "-c", "echo one >&2; echo two >> /dev/stderr; echo three >> /dev/stdout"],
            env=box.env(),
            stdout=handle,
            stderr=handle,
            timeout=60,
        )
    assert result.returncode == 0
    assert log.read_text() == "one\ntwo\nthree\n"


def test_private_tmpdir(box: Box) -> None:
    result = box.bash(
        'echo "$TMPDIR"; t=$(mktemp) && echo x > "$t" && echo made;'
        " python3 -c 'import tempfile; print(tempfile.gettempdir())'; touch /tmp/paw-x-$$"
    )
    lines = result.stdout.splitlines()
    assert lines == [str(box.tmp), "made", str(box.tmp)]
    assert DENIED in result.stderr  # /tmp itself is not granted
    assert oct(box.tmp.stat().st_mode & 0o777) == "0o700"


def test_protected_paths_in_a_carved_root(tmp_path: Path) -> None:
    box = Box(tmp_path, ["."])  # scope "**": the root is carved around the protected paths
    ws = box.ws
    assert str(ws) in box.writable.carved and str(ws / ".claude") in box.writable.carved
    for command in (
        "echo x > .claude/settings.json",
        "rm .claude/settings.json",
        "mv src/a.txt .claude/settings.json",
        "ln .claude/settings.json src/link",
        "ln src/a.txt .claude/settings.local.json",
        "echo '{}' > .mcp.json",
        "echo x >> .orchestration/agent_trace.jsonl",
        "touch .orchestration/new",
        "rm -rf .orchestration",
        "mv .paw/instructions .paw/old",
        "echo x > .paw/instructions/x.md",
        "echo x > new-top-level-file",  # the carve-out's consequence
        "rm README.md",
    ):
        result = box.bash(command + " && echo WROTE")
        assert "WROTE" not in result.stdout, command
    assert (ws / ".claude" / "settings.json").read_text() == "{}\n"
    assert (ws / ".orchestration" / "agent_trace.jsonl").read_text() == ""
    assert not (ws / "src" / "link").exists() and not (ws / ".mcp.json").exists()
    assert (ws / ".paw" / "instructions" / "x.md").read_text() == "x\n"
    assert not (ws / "new-top-level-file").exists() and (ws / "README.md").exists()
    result = box.bash(
        "set -e; echo more >> README.md; echo y > .claude/commands/c.md; touch .claude/commands/n;"
        " echo z > .paw/work/w/notes.md; mkdir -p src/deep/er; echo ok"
    )
    assert result.stdout == "ok\n", result.stderr


def test_git_commit_inside_the_boundary(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    env = clean_env(
        GIT_AUTHOR_NAME="a",
        GIT_AUTHOR_EMAIL="a@x",
        GIT_COMMITTER_NAME="a",
        GIT_COMMITTER_EMAIL="a@x",
    )
    subprocess.run(["git", "init", "-q", str(ws)], check=True, env=env)
    box = Box(tmp_path, ["src/**"])
    assert str(ws / ".git") in box.writable.dirs
    result = box.bash(
        "set -e; echo change >> src/a.txt; git add src && git commit -qm one && git log --oneline",
        env=box.env(**{k: v for k, v in env.items() if k.startswith("GIT_")}),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("one")
    result = box.bash("git add README.md .claude && echo ok")
    assert result.returncode == 0  # the index may name any file: writing them is what is gated
    result = box.bash("echo x >> README.md; echo x > .claude/settings.json")
    assert result.stderr.count(DENIED) == 2


def run_on_tty(command: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``bash -c COMMAND`` in a new session (no controlling terminal until it opens one)."""
    return subprocess.run(
        ["bash", "-c", command],
        env=env,
        timeout=60,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        capture_output=True,
        text=True,
    )


def test_the_terminal_keeps_working(box: Box) -> None:
    """A terminal opened after the restriction still takes ioctls (IOCTL_DEV is granted on
    /dev/pts and /dev/tty), and /dev/tty reaches the controlling terminal."""
    master, slave = os.openpty()
    try:
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 33, 101, 0, 0))
        command = 'exec 0<"$PTS"; stty size; stty size </dev/tty; echo typed > /dev/tty'
        result = run_on_tty(command, box.env(PTS=os.ttyname(slave)))
        assert result.stdout == "33 101\n33 101\n", result.stderr
        assert os.read(master, 100).startswith(b"typed")
        if ABI >= 5:  # without the grant, the same ioctl is refused
            box.kwargs = {"always_dirs": ()}
            box.refresh()
            result = run_on_tty(command, box.env(PTS=os.ttyname(slave)))
            assert result.stderr.startswith(f"stty: 'standard input': {DENIED}"), result
    finally:
        os.close(master)
        os.close(slave)
