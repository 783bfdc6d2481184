"""``doctor``'s canary for a client's committed hook command: run it as the client would, on
a tool call no intent allows, in a scratch copy of the workspace's intents, and judge the
answer in that client's protocol.

A deny by the gate itself is ok; a deny by the portable command's own fallback (paw-tui could
not run: every call would be denied) is a failure naming why; anything else would let the
tool run in the client, and is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    Row = tuple[str, str, str]

OK, FAIL = "ok", "FAIL"
CANARY_TIMEOUT = 30
SESSION = "paw-doctor-canary"
FALLBACK_SIGNS = ("the paw-tui gate could not run here", "the paw-tui gate could not answer")
"""What the portable commands say when they deny without the gate (``commands``, ``cline``)."""


class Outcome:
    __slots__ = ("code", "stdout", "stderr")

    def __init__(self, code: int, stdout: str, stderr: str) -> None:
        self.code = code
        self.stdout = stdout
        self.stderr = stderr

    @property
    def fallback(self) -> bool:
        """Whether the answer came from the command's own fail-closed fallback."""
        return any(sign in self.stdout + self.stderr for sign in FALLBACK_SIGNS)


def run(
    root: str,
    argv: Sequence[str] | Callable[[str], Sequence[str]],
    payload: Callable[[str], Mapping[str, object]],
    env: Mapping[str, str],
) -> Outcome | str:
    """Run ``argv`` (or ``argv(scratch)``) with ``payload(scratch)`` on stdin in a scratch
    workspace holding a copy of ``root``'s intents; the outcome, or why it did not run."""
    with tempfile.TemporaryDirectory(prefix="paw-doctor-") as scratch:
        target = os.path.join(scratch, ".orchestration")
        os.makedirs(target)
        for name in ("active_intents.yaml", "governance.yaml"):
            source = os.path.join(root, ".orchestration", name)
            if os.path.exists(source):
                shutil.copyfile(source, os.path.join(target, name))
        full_env = {
            **{k: str(v) for k, v in env.items()},
            "CLAUDE_PROJECT_DIR": scratch,
            "PAW_WORKSPACE_PATH": scratch,
            "PAW_STATE_DIR": os.path.join(scratch, "state"),
        }
        command = list(argv(scratch) if callable(argv) else argv)
        try:
            done = subprocess.run(
                command,
                input=json.dumps(payload(scratch)).encode(),
                capture_output=True,
                env=full_env,
                cwd=scratch,
                timeout=CANARY_TIMEOUT,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"did not run: {exc}"
    return Outcome(
        done.returncode,
        done.stdout.decode(errors="replace"),
        done.stderr.decode(errors="replace"),
    )


def judge(
    client: str, what: str, outcome: Outcome | str, denied: Callable[[Outcome], bool], lets_run: str
) -> Row:
    """The row for ``outcome``: ``denied(outcome)`` says the client would refuse the call;
    ``lets_run`` says when that client runs the tool anyway."""
    if isinstance(outcome, str):
        return (FAIL, client, f"the {what} command {outcome}")
    text = outcome.stderr.strip() or outcome.stdout.strip()
    detail = " | ".join(line.strip() for line in text.splitlines() if line.strip())[:300]
    if denied(outcome):
        if outcome.fallback:
            return (
                FAIL,
                client,
                f"the {what} command cannot run paw-tui here, so every tool call is denied: "
                f"{detail}",
            )
        return (OK, client, f"a write without an intent was denied by the gate ({what} canary)")
    return (
        FAIL,
        client,
        f"the {what} command exited {outcome.code} without denying the canary write "
        f"({lets_run}): {detail}",
    )


def claude_denied(outcome: Outcome) -> bool:
    """Claude Code's protocol (Qwen Code, Copilot's PascalCase files): exit 2, or the JSON deny."""
    return outcome.code == 2 or '"permissionDecision": "deny"' in outcome.stdout
