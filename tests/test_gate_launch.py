"""The hook's launcher (paw_tui/gate/launch.py): ``python -I -S`` finds the package from the
launcher's own location, and a launcher that cannot find the gate denies (exit 2), never
crashes (exit 1: every client would let the tool run)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from paw_tui.core.clients.commands import gate_command, launcher_path


def write_payload(root: Path) -> bytes:
    return json.dumps(
        {
            "session_id": "s1",
            "cwd": str(root),
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": str(root / "src" / "a.py"), "content": ""},
        }
    ).encode()


def test_the_installed_command_runs_the_gate_without_site(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / ".git").mkdir(parents=True)
    command = gate_command()
    assert command[1:4] == ["-I", "-S", launcher_path()]
    env = {
        "PATH": os.environ.get("PATH", ""),
        "CLAUDE_PROJECT_DIR": str(root),
        "PAW_STATE_DIR": str(tmp_path / "state"),
        "HOME": str(tmp_path),
    }
    done = subprocess.run(
        command, input=write_payload(root), capture_output=True, env=env, cwd=root
    )
    assert done.returncode == 2, done.stderr  # denied: no intent selected, by the real gate
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecisionReason"].startswith(
        "You must cite a valid active Intent ID."
    )
    assert b"Traceback" not in done.stderr


def test_a_launcher_that_cannot_find_the_gate_denies(tmp_path: Path) -> None:
    """Copied where no paw_tui is beside it, with ``site`` unavailable too: nothing can import
    the gate, and the answer is a deny naming why."""
    stray = tmp_path / "a" / "b" / "c" / "launch.py"
    stray.parent.mkdir(parents=True)
    shutil.copy(launcher_path(), stray)
    run_it = (
        "import sys; sys.modules['site'] = None; "
        f"path = {str(stray)!r}; sys.argv[0] = path; "
        "exec(compile(open(path).read(), path, 'exec'), {'__name__': '__main__', '__file__': path})"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", run_it, "--client", "claude-code"],
        input=write_payload(tmp_path),
        capture_output=True,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    answer = json.loads(done.stdout)
    reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.startswith("paw-tui policy: the paw-tui gate cannot start (ModuleNotFoundError")
    assert "denying (fail closed)" in reason
    assert b"Traceback" not in done.stderr
