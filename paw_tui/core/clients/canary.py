"""``doctor``'s canary: a client's committed pre-tool hook, run exactly as that client runs it,
on a file write before any selection, must be denied **by the gate**.

What it proves. The command a team commits (``"${PAW_TUI_HOOK:-paw-tui}" gate ...``) ends in a
fail-closed fallback: where paw-tui cannot run (the first word names nothing, ``PAW_TUI_HOOK``
points nowhere, the venv is gone), it still denies, and so does the hook launcher when the
package cannot be imported. Such a deny keeps tools from running unseen, but it also denies
*every* call: governance is not in force, the workspace is locked. A canary that only looked
at the answer would take that deny for the gate's own. So the canary runs against a scratch
copy of the workspace's intents (``PAW_WORKSPACE_PATH`` and ``PAW_STATE_DIR`` point there,
nothing of the real workspace or state directory is written), on a file whose name carries a
fresh nonce, and passes only when

1. the client would refuse the tool on that output (its own rules: exit codes, which stream,
   which JSON), and
2. the scratch ledger holds the gate's ``tool_denied`` record for that very file: a decision
   the gate made and recorded, which no fallback can produce.

The per-client interface. A client's doctor describes how it runs its hook with one
:class:`Canary` and calls :func:`run_canary` with the committed commands; the result is one
row ``(status, "<client> canary", detail)``. A :class:`Canary` says:

- ``argv(command)``: the process the client starts for a hook command (Claude Code
  ``["/bin/sh", "-c", command]``, Gemini CLI ``["bash", "-c", command]``; a client that runs a
  hook *file* by its ``#!`` line, ``[command]``);
- ``environment(root, scratch)``: the environment the client gives its hooks (its launch
  environment as :func:`launch_environment` approximates it, its settings' variables, the
  variables it adds, such as ``CLAUDE_PROJECT_DIR``); :func:`run_canary` then points
  ``PAW_WORKSPACE_PATH`` and ``PAW_STATE_DIR`` at the scratch copy;
- ``payload(scratch)``: the JSON object the client sends on stdin for a write of
  ``scratch.file_name`` (``scratch.file_path`` when the client sends absolute paths) by
  session ``scratch.session_id``, the event named as the client names it;
- ``refusal(outcome)``: what the model would be told when the client refuses the tool on this
  :class:`Outcome`, or None when the client would run it (the client's fail-open rules);
- ``cwd``: where the client runs its hooks (None: the workspace root), and ``timeout``, the
  hook timeout the client applies (a slow gate is an open gate), of which doctor waits at
  most :data:`WAIT_AT_MOST` (a gate slower than that is reported as one that did not answer);
- ``hook`` and ``noun``: what is run, for people, in the ok row ("the committed pre-tool
  hook") and in a failure ("the command").

A client without command hooks fits the same shape: opencode's governance is a plugin that
opencode loads in its own process and that throws to refuse, so its :class:`Canary` runs the
committed plugin *file* (the "command") in a small ``node`` program that loads it as opencode
does and calls its ``tool.execute.before`` with the ``payload`` read from stdin, and
``refusal`` reads what was thrown from that program's output
(:mod:`paw_tui.core.clients.opencode`). The plugin spawns the gate itself, with the
environment it was given, so the scratch workspace and the ledger check work unchanged.

Nothing here imports a client module: each client's own doctor builds its :class:`Canary`.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import tempfile

from paw_tui.core.clients._hooks_json import FAIL, OK
from paw_tui.core.clients.markers import MARKERS
from paw_tui.core.workspace import layout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from paw_tui.core.clients._hooks_json import Row

PREFIX = "paw-doctor-canary-"
COPIED = (layout.INTENTS, layout.GOVERNANCE)
"""What the scratch copy holds: the policy the gate decides by, nothing else."""
SHOWN = 300
"""Characters of a command's output quoted in a row."""
WAIT_AT_MOST = 30.0
"""Seconds doctor waits for one hook, whatever longer timeout the client allows it."""


class Scratch:
    """The scratch workspace one canary call runs against."""

    __slots__ = ("root", "state", "nonce")

    def __init__(self, root: str, state: str, nonce: str) -> None:
        self.root = root
        self.state = state
        self.nonce = nonce

    @property
    def session_id(self) -> str:
        return PREFIX + self.nonce

    @property
    def file_name(self) -> str:
        """The file the canary writes, root-relative (no client may write it: it is new)."""
        return f"{PREFIX}{self.nonce}.txt"

    @property
    def file_path(self) -> str:
        return os.path.join(self.root, self.file_name)


class Outcome:
    """What the hook process did: exit code, output, or that it ran out of time."""

    __slots__ = ("code", "stdout", "stderr", "timed_out")

    def __init__(self, code: int | None, stdout: str, stderr: str, timed_out: bool = False) -> None:
        self.code = code
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out

    def json(self) -> dict[str, object] | None:
        """stdout as one JSON object, or None."""
        try:
            value = json.loads(self.stdout)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def said(self) -> str:
        """What the command said (stderr, else stdout), cut for a row."""
        text = (self.stderr.strip() or self.stdout.strip()).replace("\n", " | ")
        return text[:SHOWN]


class Canary:
    """How one client runs its pre-tool hook (see the module docstring)."""

    __slots__ = (
        "client",
        "title",
        "runs_as",
        "argv",
        "environment",
        "payload",
        "refusal",
        "fails_open",
        "cwd",
        "timeout",
        "hook",
        "noun",
    )

    def __init__(
        self,
        client: str,
        title: str,
        *,
        runs_as: str,
        argv: Callable[[str], list[str]],
        environment: Callable[[str, Scratch], dict[str, str]],
        payload: Callable[[Scratch], dict[str, object]],
        refusal: Callable[[Outcome], str | None],
        fails_open: str,
        cwd: str | None = None,
        timeout: float = 10.0,
        hook: str = "the committed pre-tool hook",
        noun: str = "the command",
    ) -> None:
        self.client = client
        self.title = title
        self.runs_as = runs_as
        """How the client starts the command, for people (``/bin/sh -c``)."""
        self.argv = argv
        self.environment = environment
        self.payload = payload
        self.refusal = refusal
        self.fails_open = fails_open
        """When the client runs the tool anyway, for people ("on exit 1, 127 or a timeout")."""
        self.cwd = cwd
        self.timeout = min(timeout, WAIT_AT_MOST)
        self.hook = hook
        """What is run, for people, in the ok row."""
        self.noun = noun
        """What is run, for people, in a failure."""

    @property
    def check(self) -> str:
        return f"{self.client} canary"


def launch_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a client is started from, as far as doctor can know it: doctor's own,
    less the variables a client sets for its agent's tools (doctor run from an agent's shell
    would otherwise hand its hooks a marker no real hook carries)."""
    env = dict(os.environ if environ is None else environ)
    for name in (*MARKERS, "AI_AGENT"):
        env.pop(name, None)
    return env


def deny_json_or_exit_2(outcome: Outcome) -> str | None:
    """Claude Code's rule (Codex's too): ``permissionDecision: "deny"`` on stdout, or exit 2
    (the reason read from stderr), refuses the tool; anything else runs it."""
    if outcome.timed_out:
        return None
    answer = outcome.json()
    output = answer.get("hookSpecificOutput") if answer is not None else None
    if isinstance(output, dict) and output.get("permissionDecision") == "deny":
        return str(output.get("permissionDecisionReason") or "")
    if outcome.code == 2:
        return outcome.stderr.strip()
    return None


def run_canary(root: str, canary: Canary, commands: Sequence[str]) -> Row:
    """One row for the client: ok when every command is refused by the gate itself."""
    problems: list[str] = []
    for command in dict.fromkeys(commands):
        problem = _one(root, canary, command)
        if problem:
            problems.append(problem if len(commands) == 1 else f"'{command}': {problem}")
    if problems:
        return (FAIL, canary.check, "; ".join(problems))
    return (
        OK,
        canary.check,
        f"{canary.hook}, run as {canary.title} runs it ({canary.runs_as}), "
        "denied a file write before any selection, and the gate recorded that deny",
    )


def _one(root: str, canary: Canary, command: str) -> str | None:
    """What is wrong with one command's answer to the canary, or None."""
    with tempfile.TemporaryDirectory(prefix="paw-doctor-") as base:
        scratch = _scratch(root, base)
        env = canary.environment(root, scratch)
        # the resident gate off: a server started for a scratch state directory would outlive
        # the check by its idle time and write into the removed scratch workspace; the hook
        # decides in its own process, the path every call falls back to
        env.update(
            PAW_WORKSPACE_PATH=scratch.root, PAW_STATE_DIR=scratch.state, PAW_RESIDENT_GATE="off"
        )
        outcome = _run(canary, command, env, scratch, root)
        shown = canary.refusal(outcome)
        recorded = gate_record(scratch)
    if outcome.timed_out:
        return (
            f"{canary.noun} did not answer within {canary.timeout:g} s, and {canary.title} "
            "runs the tool when a hook times out"
        )
    if outcome.code is None:
        return f"{canary.noun} could not be started: {outcome.stderr}"
    if shown is None:
        return (
            f"{canary.title} would run the tool: {canary.noun} exited {outcome.code} without "
            f"a deny {canary.title} honours ({canary.title} runs the tool {canary.fails_open})"
            + (f": {outcome.said()}" if outcome.said() else "")
        )
    if recorded is None:
        return (
            f"{canary.noun} cannot run paw-tui here: the deny came from its fail-closed fallback, "
            "not from the gate (no decision was recorded), so every tool call is denied"
            + (f": {outcome.said()}" if outcome.said() else "")
        )
    return None


def _scratch(root: str, base: str) -> Scratch:
    scratch = Scratch(
        os.path.join(base, "workspace"), os.path.join(base, "state"), secrets.token_hex(8)
    )
    for relative in COPIED:
        source = layout.at(root, relative)
        target = layout.at(scratch.root, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.isfile(source):
            shutil.copyfile(source, target)
    os.makedirs(scratch.state, mode=0o700, exist_ok=True)
    return scratch


def _run(canary: Canary, command: str, env: dict[str, str], scratch: Scratch, root: str) -> Outcome:
    stdin = json.dumps(canary.payload(scratch)).encode()
    try:
        done = subprocess.run(
            canary.argv(command),
            input=stdin,
            capture_output=True,
            env=env,
            cwd=canary.cwd or root,
            timeout=canary.timeout,
        )
    except subprocess.TimeoutExpired:
        return Outcome(None, "", "", timed_out=True)
    except OSError as error:
        return Outcome(None, "", str(error))
    return Outcome(
        done.returncode,
        done.stdout.decode(errors="replace"),
        done.stderr.decode(errors="replace"),
    )


def gate_record(scratch: Scratch) -> dict[str, object] | None:
    """The gate's record of denying the canary's write in the scratch ledger, or None."""
    from paw_tui.core.ledger.read import iter_records
    from paw_tui.core.ledger.records import TOOL_DENIED

    path = layout.at(scratch.root, layout.LEDGER)
    if not os.path.isfile(path):
        return None
    for _offset, _line, record in iter_records(path):
        paths = record.get("paths") if record is not None else None
        if (
            record is not None
            and record.get("event") == TOOL_DENIED
            and isinstance(paths, list)
            and any(isinstance(p, str) and p.endswith(scratch.file_name) for p in paths)
        ):
            return record
    return None
