"""Attacks on the resident gate: getting a long-lived, unconfined process that writes the
ledger to act for a caller that may not.

Only a process of the same user that can open the directory's proof file for writing, and
passes it, is let in. The confined shell cannot open anything in the state directory for
writing (the kernel boundary) nor create, replace or remove anything in the resident
directory, so it can neither use the server nor stand in for it. Each refusal is checked to
have changed nothing (the ledger's records), and the same harness is checked to get a
proper request through, so a refusal is never the harness's own fault.
"""

from __future__ import annotations

import array
import json
import os
import socket
import subprocess
from pathlib import Path

import pytest
from residentkit import Installed, installed

from paw_tui.core.confine import landlock
from paw_tui.gate.resident import wire

from .kit import SESSION, records, selected, write_path

__all__ = ["installed"]

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/self/maps"), reason="the resident gate is Linux's"
)


def request_bytes(root: Path, state: Path, payload: dict[str, object]) -> bytes:
    environ = {
        b"PATH": os.environ.get("PATH", "/usr/bin:/bin").encode(),
        b"PAW_STATE_DIR": str(state).encode(),
        b"CLAUDE_PROJECT_DIR": str(root).encode(),
    }
    return wire.encode_request(
        ["--client", "claude-code"], environ, 0o022, json.dumps(payload).encode()
    )


def ask_raw(directory: Path, data: bytes, fds: list[int]) -> bytes:
    """Send a request with ``fds`` attached, as an attacker's own client would; what came
    back (``R`` and the answer when let in, ``X reason`` when refused)."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(30)
        sock.connect(str(directory / "gate.sock"))
        ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))] if fds else []
        sock.sendmsg([data], ancillary)
        reply = sock.recv(256)
        if reply != wire.READY:
            return reply
        sock.sendall(wire.GO)
        while chunk := sock.recv(65536):
            reply += chunk
        return reply


def running(hook: Installed, root: Path) -> None:
    hook.call(write_path(root, "README.md"), cwd=root, env=hook.env(root))
    hook.wait_for_server()


def write_attempt(root: Path) -> dict[str, object]:
    """A write in scope for the session holding INT-006: recorded when decided."""
    return write_path(root, "src/app.py")


def test_a_proper_request_gets_through_the_harness(installed: Installed, wsroot: Path) -> None:
    selected(wsroot, "INT-006")
    running(installed, wsroot)
    before = len(records(wsroot))
    proof = os.open(installed.directory / "proof", os.O_WRONLY)
    cwd = os.open(wsroot, os.O_RDONLY)
    try:
        reply = ask_raw(
            installed.directory,
            request_bytes(wsroot, installed.state, write_attempt(wsroot)),
            [proof, cwd],
        )
    finally:
        os.close(proof)
        os.close(cwd)
    assert reply.startswith(b"RD 0 "), reply[:200]
    assert len(records(wsroot)) > before


@pytest.mark.parametrize(
    "what",
    [
        "no descriptors",
        "the directory only",
        "proof read-only",
        "proof in access mode 3",
        "proof for appending",
        "proof through a second name",
        "another writable file",
        "three",
    ],
)
def test_a_caller_without_a_writable_proof_is_refused(
    installed: Installed, wsroot: Path, tmp_path: Path, what: str
) -> None:
    selected(wsroot, "INT-006")
    running(installed, wsroot)
    before = records(wsroot)
    other = tmp_path / "mine.txt"
    other.write_text("")
    opened: list[int] = []
    try:
        cwd = os.open(wsroot, os.O_RDONLY)
        opened.append(cwd)
        proof = installed.directory / "proof"
        if what == "proof read-only":
            opened.insert(0, os.open(proof, os.O_RDONLY))
        elif what == "proof in access mode 3":  # neither read nor write to Landlock
            opened.insert(0, os.open(proof, os.O_WRONLY | os.O_RDWR))
        elif what == "proof for appending":
            opened.insert(0, os.open(proof, os.O_WRONLY | os.O_APPEND))
        elif what == "proof through a second name":  # a link in a tree the shell may write
            os.link(proof, wsroot / "src" / "proof")
            opened.insert(0, os.open(wsroot / "src" / "proof", os.O_WRONLY))
        elif what == "another writable file":
            opened.insert(0, os.open(other, os.O_WRONLY))
        elif what == "three":
            opened.insert(0, os.open(installed.directory / "proof", os.O_WRONLY))
            opened.append(os.open(other, os.O_WRONLY))
        fds = {"no descriptors": [], "the directory only": [cwd]}.get(what, opened)
        reply = ask_raw(
            installed.directory, request_bytes(wsroot, installed.state, write_attempt(wsroot)), fds
        )
    finally:
        for fd in opened:
            os.close(fd)
    assert reply.startswith(wire.REFUSED), reply[:200]
    assert records(wsroot) == before
    # ... and the server still answers its own hook
    code, _, _ = installed.call(write_attempt(wsroot), cwd=wsroot, env=installed.env(wsroot))
    assert code == 0


def test_nonsense_after_the_proof_changes_nothing(installed: Installed, wsroot: Path) -> None:
    selected(wsroot, "INT-006")
    running(installed, wsroot)
    before = records(wsroot)
    proof = os.open(installed.directory / "proof", os.O_WRONLY)
    cwd = os.open(wsroot, os.O_RDONLY)
    try:
        for data in (b"PAWG1 99999999999 0\n", b"GET / HTTP/1.1\r\n\r\n", b"PAWG1 5 0\n\0\0\0\0\0"):
            assert not ask_raw(installed.directory, data, [proof, cwd]).startswith(b"RD")
    finally:
        os.close(proof)
        os.close(cwd)
    assert records(wsroot) == before
    assert installed.call(write_attempt(wsroot), cwd=wsroot, env=installed.env(wsroot))[0] == 0


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as another user")
def test_another_user_is_refused_even_when_the_directory_lets_it_connect(
    installed: Installed, wsroot: Path
) -> None:
    """The directory is the owner's only; opened up by mistake, the server still checks the
    caller's user on the socket itself."""
    selected(wsroot, "INT-006")
    running(installed, wsroot)
    before = records(wsroot)
    assert installed.directory.stat().st_mode & 0o777 == 0o700
    installed.directory.chmod(0o755)
    (installed.directory / "gate.sock").chmod(0o777)
    (installed.directory / "proof").chmod(0o666)
    code = (
        "import os, sys, socket, array\n"
        "proof = os.open(sys.argv[1] + '/proof', os.O_WRONLY)\n"
        "here = os.open(sys.argv[1], os.O_RDONLY)  # past the test's private parents\n"
        "os.setgid(65534); os.setuid(65534)\n"
        "s = socket.socket(socket.AF_UNIX); s.settimeout(30)\n"
        "s.connect(f'/proc/self/fd/{here}/gate.sock')\n"
        "try:\n"
        "    s.sendmsg([b'PAWG1 1 0\\n0'], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [proof, proof]))])\n"
        "except BrokenPipeError:\n"
        "    pass  # refused before it could send: the refusal is still there to read\n"
        "print(s.recv(256).decode())\n"
    )
    try:
        done = subprocess.run(
            ["python3", "-c", code, str(installed.directory)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        installed.directory.chmod(0o700)
    assert done.stdout.startswith("X another user"), (done.stdout, done.stderr)
    assert records(wsroot) == before


landlock_only = pytest.mark.skipif(
    landlock.abi_version() == 0, reason="Landlock is unavailable here: no kernel boundary"
)


@landlock_only
@pytest.mark.slow
def test_the_confined_shell_can_neither_use_nor_replace_the_server(
    installed: Installed, wsroot: Path
) -> None:
    from .test_kernel_boundary import Confined

    box = Confined(wsroot)
    running(installed, wsroot)
    box.prepare()
    directory = installed.directory
    before = {p.name: p.stat().st_ino for p in directory.iterdir()}
    attempts = {
        "open the proof for writing": f"python3 -c \"import os; os.open('{directory}/proof', os.O_WRONLY)\"",
        "plant a socket": (
            'python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('
            f"'{directory}/gate.sock.x')\""
        ),
        "replace the socket": f"mv -f '{directory}/proof' '{directory}/gate.sock'",
        "remove the socket": f"rm -f '{directory}/gate.sock'",
        "touch the lock": f"echo 1 > '{directory}/lock'",
    }
    for name, command in attempts.items():
        done = box.shell(command)
        assert done.returncode != 0, (name, done.stdout, done.stderr)
    assert {p.name: p.stat().st_ino for p in directory.iterdir()} == before


@landlock_only
@pytest.mark.slow
def test_a_forged_hook_event_from_the_confined_shell_gets_no_help_from_the_server(
    installed: Installed, wsroot: Path
) -> None:
    """The shell runs the installed hook itself with another session's SessionEnd: the
    hook cannot open the proof from there, so it decides in its own (confined) process,
    which cannot write the session files; nothing is released or recorded."""
    from .test_kernel_boundary import Confined

    box = Confined(wsroot)
    selected(wsroot, "INT-001", session="s-other")
    running(installed, wsroot)
    box.prepare()
    before = records(wsroot)
    forged = json.dumps(
        {
            "hook_event_name": "SessionEnd",
            "session_id": "s-other",
            "cwd": str(wsroot),
            "reason": "other",
        }
    )
    box.env.pop("PAW_RESIDENT_GATE", None)
    box.shell(f"echo '{forged}' | '{installed.script}' gate --client claude-code")
    assert (wsroot / ".orchestration" / "sessions" / "s-other.json").exists()
    assert [r for r in records(wsroot) if r.get("session_id") == "s-other"] == [
        r for r in before if r.get("session_id") == "s-other"
    ]


FORGE = r"""
import array, fcntl, json, os, socket, sys
from paw_tui.gate.resident import wire

directory, root, state, session = sys.argv[1:5]
proof = os.open(directory + "/proof", os.O_WRONLY | os.O_RDWR)  # access mode 3: neither, to Landlock
print("opened", fcntl.fcntl(proof, fcntl.F_GETFL) & os.O_ACCMODE)
here = os.open(root, os.O_RDONLY)
environ = {b"PATH": b"/usr/bin:/bin", b"PAW_STATE_DIR": state.encode(), b"CLAUDE_PROJECT_DIR": root.encode()}
forged = [
    {"hook_event_name": "SessionEnd", "session_id": session, "cwd": root, "reason": "other"},
    {"hook_event_name": "PreToolUse", "session_id": session, "cwd": root,
     "tool_name": "mcp__paw__select_active_intent", "tool_input": {"intent_id": "INT-006"}},
]
for payload in forged:
    data = wire.encode_request(["--client", "claude-code"], environ, 0o022, json.dumps(payload).encode())
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(30)
        sock.connect(directory + "/gate.sock")
        sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [proof, here]))])
        reply = sock.recv(256)
        if reply == wire.READY:
            sock.sendall(wire.GO)
            while chunk := sock.recv(65536):
                reply += chunk
    print(payload["hook_event_name"], reply[:60])
"""


@landlock_only
@pytest.mark.slow
def test_the_proof_opened_with_access_mode_3_from_the_confined_shell_is_refused(
    installed: Installed, wsroot: Path
) -> None:
    """``open(proof, O_WRONLY | O_RDWR)`` is neither a read nor a write to Landlock, so the
    kernel lets the confined shell have that descriptor; it cannot write through it, and
    neither a forged SessionEnd nor a forged selection (narrow intent to ``**``) gets in."""
    from .test_kernel_boundary import Confined

    box = Confined(wsroot)  # the session holds INT-007 (src/**)
    running(installed, wsroot)
    box.prepare()
    session_file = wsroot / ".orchestration" / "sessions" / f"{SESSION}.json"
    held = session_file.read_bytes()
    before = records(wsroot)
    done = box.shell(
        f"python3 -c '{FORGE}' '{installed.directory}' '{wsroot}' '{installed.state}' '{SESSION}'"
    )
    assert done.stdout.startswith("opened 3"), (done.stdout, done.stderr)
    lines = done.stdout.splitlines()[1:]
    assert [line.split()[0] for line in lines] == ["SessionEnd", "PreToolUse"], done.stdout
    for line in lines:
        assert line.split(maxsplit=1)[1].startswith("b'X"), done.stdout
    assert records(wsroot) == before
    assert session_file.read_bytes() == held
