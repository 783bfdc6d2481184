"""The resident gate (issue 12): the installed hook asks a long-lived server that has already
imported the gate, and decides in its own process whenever it cannot. The answer must be
the one the hook's own process gives, for the caller's environment and directory; a server
that fails after taking a call means a deny; it leaves when idle, on SIGTERM, and a dead one
is replaced. Attacks on it are in ``tests/security/test_resident_gate.py``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from gatekit import bash_payload, paw_state_dir, root, select_payload, write_payload
from residentkit import Installed, children, installed, wait_gone

from paw_tui.core.clients import commands
from paw_tui.gate import launch
from paw_tui.gate.resident import freshness, memory, wire

__all__ = ["installed", "paw_state_dir", "root"]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the resident gate is Linux's")


def started(hook: Installed, root: Path) -> int:
    """Make the first call (decided in the hook's process, which starts the server) and
    wait for the server; its pid."""
    hook.call(write_payload(root, "README.md", session="s-start"), cwd=root, env=hook.env(root))
    return hook.wait_for_server()


def served(
    hook: Installed, pid: int, payload: object, cwd: Path, env: dict[str, str]
) -> tuple[int, str, str]:
    """One call, checked to have been answered by the server's workers."""
    reads = hook.quiet_workers(pid)
    answer = hook.call(payload, cwd=cwd, env=env)
    assert hook.answered_by_server(pid, reads), "the call was not answered by the resident gate"
    return answer


def test_the_hook_script_names_the_resident_directory(tmp_path: Path) -> None:
    text = commands.hook_script_text(str(tmp_path))
    assert repr(commands.RESIDENT_OPTION) in text
    assert repr(commands.resident_directory(str(tmp_path))) in text
    assert launch.RESIDENT_OPTION == commands.RESIDENT_OPTION


def test_the_first_call_starts_the_server_and_later_calls_are_answered_by_it(
    installed: Installed, root: Path
) -> None:
    env = installed.env(root)
    first = installed.call(write_payload(root, "src/auth/a.py"), cwd=root, env=env)
    assert first[0] == 2 and "You must cite" in first[1]  # decided in the hook's process
    pid = installed.wait_for_server()
    assert installed.call(select_payload(root, "INT-001"), cwd=root, env=env)[0] == 0
    allowed = served(installed, pid, write_payload(root, "src/auth/a.py"), root, env)
    assert allowed[0] == 0, allowed
    denied = served(installed, pid, write_payload(root, "docs/x.md"), root, env)
    assert denied[0] == 2 and "INT-001" in denied[1]


def answers_without_the_server(
    hook: Installed, payload: object, cwd: Path, env: dict[str, str]
) -> tuple[int, str, str]:
    return hook.call(payload, cwd=cwd, env={**env, "PAW_RESIDENT_GATE": "off"})


@pytest.mark.parametrize(
    "case",
    ["write allowed", "write out of scope", "newcomer", "read-only", "shell", "not json", "deep"],
)
def test_the_server_answers_as_the_hook_s_own_process_does(
    installed: Installed, root: Path, case: str
) -> None:
    env = installed.env(root)
    pid = started(installed, root)
    assert installed.call(select_payload(root, "INT-001"), cwd=root, env=env)[0] == 0
    payload: object = {
        "write allowed": write_payload(root, "src/auth/a.py"),
        "write out of scope": write_payload(root, "docs/x.md"),
        "newcomer": write_payload(root, "src/auth/a.py", session="s-new"),
        "read-only": write_payload(root, "README.md", tool="Read"),
        "shell": bash_payload(root, "ls src"),
        "not json": b"{not json",
        "deep": b"[" * 100 + b"]" * 100,
    }[case]
    alone = answers_without_the_server(installed, payload, root, env)
    resident = served(installed, pid, payload, root, env)
    assert resident == alone


def test_the_caller_s_directory_and_environment_decide(
    installed: Installed, root: Path, tmp_path: Path
) -> None:
    """The server takes the caller's working directory and environment, not its own."""
    pid = started(installed, root)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    payload = write_payload(root, "src/auth/a.py", session="s-cwd")
    payload["cwd"] = str(elsewhere)
    env = installed.env()  # no CLAUDE_PROJECT_DIR: the workspace comes from the directory
    code, out, _ = served(installed, pid, payload, elsewhere, env)
    assert code == 2 and f"no paw-tui workspace was found from {elsewhere}" in out
    code, out, _ = served(
        installed, pid, payload, elsewhere, {**env, "PAW_WORKSPACE_PATH": str(root)}
    )
    assert code == 2 and "You must cite" in out


def test_switched_off_no_server_starts(installed: Installed, root: Path) -> None:
    env = installed.env(root, PAW_RESIDENT_GATE="off")
    for _ in range(2):
        code, out, _ = installed.call(write_payload(root, "src/auth/a.py"), cwd=root, env=env)
        assert code == 2 and "You must cite" in out
    assert not installed.directory.exists()


def test_an_idle_server_leaves(installed: Installed, root: Path) -> None:
    env = installed.env(root, PAW_RESIDENT_GATE_IDLE="0.5")
    installed.call(write_payload(root, "README.md"), cwd=root, env=env)
    pid = installed.wait_for_server()
    wait_gone(pid)
    assert not (installed.directory / "gate.sock").exists()


def test_sigterm_stops_the_server_and_its_workers(installed: Installed, root: Path) -> None:
    pid = started(installed, root)
    installed.quiet_workers(pid)
    waiting = children(pid)
    installed.stop()
    assert not (installed.directory / "gate.sock").exists()
    for child in waiting:
        wait_gone(child)


def test_a_dead_server_s_socket_is_replaced(installed: Installed, root: Path) -> None:
    installed.directory.mkdir(mode=0o700)
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(installed.directory / "gate.sock"))
    dead.close()  # the file stays, nobody listens
    code, out, _ = installed.call(
        write_payload(root, "src/auth/a.py"), cwd=root, env=installed.env(root)
    )
    assert code == 2 and "You must cite" in out
    pid = installed.wait_for_server()
    served(installed, pid, write_payload(root, "README.md", tool="Read"), root, installed.env(root))


FAKE_SERVER = textwrap.dedent(
    """
    import socket, sys, time
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(sys.argv[1])
    listener.listen(4)
    print("listening", flush=True)
    conn, _ = listener.accept()
    conn.recvmsg(65536, socket.CMSG_SPACE(16))
    if sys.argv[2] == "silent":
        time.sleep(30)
    conn.sendall(b"R")
    conn.recv(1)
    if sys.argv[2] == "garbage":
        conn.sendall(b"D 0 999999 0\\nshort")
    conn.close()
    """
)


def fake_server(hook: Installed, behaviour: str) -> subprocess.Popen[str]:
    hook.directory.mkdir(mode=0o700, exist_ok=True)
    (hook.directory / "proof").touch(mode=0o600)
    proc = subprocess.Popen(
        [sys.executable, "-c", FAKE_SERVER, str(hook.directory / "gate.sock"), behaviour],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "listening"
    return proc


@pytest.mark.parametrize("behaviour", ["hangs up", "garbage"])
def test_a_server_that_fails_after_taking_the_call_means_a_deny(
    installed: Installed, root: Path, behaviour: str
) -> None:
    """After GO the server may have acted: deciding again could act twice, and letting the
    tool run is what a crash must never do. The hook denies and says why."""
    proc = fake_server(installed, behaviour)
    try:
        payload = write_payload(root, "README.md", tool="Read")  # allowed when decided
        code, out, err = installed.call(payload, cwd=root, env=installed.env(root))
    finally:
        proc.kill()
        proc.wait()
    assert code == 2
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "the resident gate failed while deciding" in reason and "fail closed" in reason
    assert "resident gate failed" in err


def test_a_server_that_never_lets_the_call_in_is_passed_over(
    installed: Installed, root: Path
) -> None:
    """Before GO nothing was done there: the hook decides itself (after READY_TIMEOUT)."""
    proc = fake_server(installed, "silent")
    try:
        code, out, _ = installed.call(
            write_payload(root, "src/auth/a.py"), cwd=root, env=installed.env(root)
        )
    finally:
        proc.kill()
        proc.wait()
    assert code == 2 and "You must cite" in out


def test_a_payload_over_the_limit_is_denied_through_the_server(
    installed: Installed, root: Path
) -> None:
    pid = started(installed, root)
    payload = b'{"x": "' + b"a" * wire.MAX_PAYLOAD + b'"}'
    code, out, _ = served(installed, pid, payload, root, installed.env(root))
    assert code == 2 and "larger than 64 MiB" in out


def test_the_request_round_trips_any_argument_and_environment() -> None:
    environ = {b"PLAIN": b"x", b"EQUALS": b"a=b=c", b"EMPTY": b"", b"BYTES": b"\xff\xfe"}
    args = ["--client", "claude-code", "caf\u00e9", "not utf-8 \udcff", ""]
    data = wire.encode_request(args, environ, 0o027, b"payload\0with nul")
    header, _, body = data.partition(b"\n")
    meta, payload = wire.request_sizes(header)
    request = wire.decode_request(body[:meta], body[meta:])
    assert (request.args, request.environ, request.umask) == (args, environ, 0o027)
    assert request.payload == b"payload\0with nul" and len(body) == meta + payload


@pytest.mark.parametrize(
    "header",
    [b"PAWG2 1 1", b"PAWG1 -1 0", b"PAWG1 1", b"PAWG1 x 1", b"PAWG1 1 " + str(2**40).encode()],
)
def test_a_malformed_request_header_is_refused(header: bytes) -> None:
    with pytest.raises(ValueError):
        wire.request_sizes(header)


@pytest.mark.parametrize(
    "meta", [b"", b"18\x005", b"18\x000\x00NOEQUALS", b"18\x000\x00=x", b"999\x000"]
)
def test_malformed_request_metadata_is_refused(meta: bytes) -> None:
    with pytest.raises(ValueError):
        wire.decode_request(meta, b"")


@pytest.mark.parametrize("header", [b"D 256 0 0", b"D 0 -1 0", b"X 0 0 0", b"D 0 0"])
def test_a_malformed_answer_header_is_refused(header: bytes) -> None:
    with pytest.raises(ValueError):
        wire.answer_sizes(header)


def test_a_long_directory_is_reached_through_its_descriptor(tmp_path: Path) -> None:
    directory = tmp_path / ("d" * 100)
    directory.mkdir()
    fd = os.open(directory, os.O_RDONLY)
    try:
        address = wire.socket_address(str(directory), fd)
        assert address == f"/proc/self/fd/{fd}/gate.sock"
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(address)
        listener.close()
    finally:
        os.close(fd)
    assert (directory / "gate.sock").exists()
    assert wire.socket_address(str(tmp_path), 3) == str(tmp_path / "gate.sock")


def test_a_changed_or_removed_code_file_is_seen(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text("x = 1\n")
    info = module.stat()
    stamps = {str(module): (info.st_mtime_ns, info.st_size)}
    assert freshness.changed(stamps) is None
    module.write_text("x = 22\n")
    assert freshness.changed(stamps) == str(module)
    module.unlink()
    assert freshness.changed(stamps) == str(module)


def test_the_server_s_stamps_cover_the_gate_and_its_data() -> None:
    import yaml  # a dependency the launcher names, loaded as a rebuilt policy cache loads it

    import paw_tui.gate.main  # loaded, as the server loads it

    stamps = freshness.code_stamps(launch.DEPENDENCIES)
    assert any(path.endswith(os.path.join("gate", "main.py")) for path in stamps)
    assert any(path.endswith("catalogue.json") for path in stamps)
    assert any(path == yaml.__file__ for path in stamps)
    assert not any(path == yaml.__file__ for path in freshness.code_stamps())


def test_only_private_writable_mappings_are_populated() -> None:
    maps = "\n".join(
        [
            "55d0c000-55d0d000 r--p 00000000 08:01 1 /usr/bin/python3",
            "55d0e000-55d10000 rw-p 00002000 08:01 1 /usr/bin/python3",
            "7f00a000-7f00c000 rw-s 00000000 00:01 2 /dev/shm/x",
            "7f010000-7f020000 rw-p 00000000 00:00 0",
            "7ffc0000-7ffc2000 rw-p 00000000 00:00 0 [stack]",
            "garbage",
        ]
    )
    assert memory.writable_private_mappings(maps) == [(0x55D0E000, 0x2000), (0x7F010000, 0x10000)]


def test_the_rehearsal_answers_every_call_and_leaves_nothing_behind(tmp_path: Path) -> None:
    """The server's warm-up decides real calls on a scratch workspace of its own: each one
    as the gate would answer it, and afterwards its files are gone and the server's own
    environment and directory are as they were."""
    from paw_tui.gate.resident import rehearsal

    directory = tmp_path / "resident"
    directory.mkdir()
    environ, cwd = dict(os.environ), os.getcwd()
    assert rehearsal.rehearse(str(directory)) == rehearsal.CALLS
    assert dict(os.environ) == environ and os.getcwd() == cwd
    assert list(directory.iterdir()) == []


def test_one_worker_answers_calls_in_turn_each_as_its_own_process_would(
    installed: Installed, root: Path, tmp_path: Path
) -> None:
    """With one worker stopped, the other answers every call: a call from another
    directory and environment between two from the workspace takes nothing from them, and
    leaves nothing to the next."""
    import signal

    pid = started(installed, root)
    installed.quiet_workers(pid)
    stopped = min(children(pid))
    os.kill(stopped, signal.SIGSTOP)
    try:
        env = installed.env(root)
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        lost = write_payload(root, "src/auth/a.py", session="s-turns")
        lost["cwd"] = str(elsewhere)
        calls: list[tuple[object, Path, dict[str, str]]] = [
            (write_payload(root, "src/auth/a.py", session="s-turns"), root, env),
            (lost, elsewhere, installed.env(TMPDIR=str(elsewhere))),
            (write_payload(root, "src/auth/a.py", session="s-turns"), root, env),
        ]
        answers = [served(installed, pid, *call) for call in calls]
        alone = [answers_without_the_server(installed, *call) for call in calls]
    finally:
        os.kill(stopped, signal.SIGCONT)
    assert answers == alone
    assert "no paw-tui workspace was found from" in answers[1][1]
    assert answers[0] == answers[2] and "You must cite" in answers[0][1]


@pytest.mark.parametrize(
    ("chunks", "problem"),
    [
        ([b"x" * 300], "malformed first line"),
        ([b"D 0 10 0\nshort"], "ended early"),
        ([b"D 0 2 0\n", b"abc"], "longer than announced"),
        ([b"D 0 2"], "ended early"),
    ],
)
def test_a_message_that_runs_on_or_ends_early_is_refused(chunks: list[bytes], problem: str) -> None:
    pending = list(chunks)

    def recv(size: int) -> bytes:
        return pending.pop(0) if pending else b""

    with pytest.raises(ValueError, match=problem):
        wire.read_message(recv, b"", lambda line: sum(wire.answer_sizes(line)[1:]))


def test_a_message_in_pieces_is_read_whole() -> None:
    pending = [b"D 2 ", b"3 1\nab", b"c", b"!"]

    def recv(size: int) -> bytes:
        return pending.pop(0)

    header, body = wire.read_message(recv, b"", lambda line: sum(wire.answer_sizes(line)[1:]))
    assert wire.answer_sizes(header) == (2, 3, 1) and body == b"abc!"


def test_the_hook_s_side_loads_no_more_than_it_needs() -> None:
    """What a hook answered by the resident gate imports: the launcher, the client and the
    wire format, and ``_socket``; not ``os`` (which ``-I -S`` leaves unloaded), nor any
    other module of paw-tui."""
    import paw_tui

    site = str(Path(paw_tui.__file__).resolve().parent.parent)
    code = (
        "import sys\n"
        f"sys.path.append({site!r})\n"
        "before = set(sys.modules)\n"
        "import paw_tui.gate.launch, paw_tui.gate.resident.client, _socket\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=60
    )
    loaded = set(done.stdout.split())
    assert loaded == {
        "_socket",
        "paw_tui",
        "paw_tui.gate",
        "paw_tui.gate.launch",
        "paw_tui.gate.resident",
        "paw_tui.gate.resident.client",
        "paw_tui.gate.resident.wire",
    }, (loaded, done.stderr)


def test_the_server_and_its_workers_hold_no_caller_s_directory(
    installed: Installed, root: Path
) -> None:
    """The server outlives the call that started it, and a worker the call it answered:
    neither keeps the caller's working directory (which may be removed or unmounted)."""
    pid = started(installed, root)
    served(installed, pid, write_payload(root, "README.md", tool="Read"), root, installed.env(root))
    installed.quiet_workers(pid)
    for process in (pid, *children(pid)):
        assert os.readlink(f"/proc/{process}/cwd") == "/", process


def test_a_worker_takes_on_exactly_the_caller_s_environment() -> None:
    """Between calls a worker changes only the variables that differ, and ends with exactly
    the caller's: nothing of the last caller's (a secret, a PATH) stays, nothing is missing."""
    from paw_tui.gate.resident.handler import become

    mine = dict(os.environb)
    caller = {
        **{name: value for name, value in mine.items() if name != b"HOME"},
        b"PAW_TEST_SECRET": b"s3cret",
        b"PATH": b"/caller/bin",
        b"EMPTY": b"",
    }
    try:
        become(caller)
        assert dict(os.environb) == caller and os.environ["PATH"] == "/caller/bin"
        become(mine)
        assert dict(os.environb) == mine and "PAW_TEST_SECRET" not in os.environ
    finally:
        os.environb.clear()
        os.environb.update(mine)
