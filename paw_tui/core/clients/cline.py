"""``paw-tui install cline``: hook files in ``.clinerules/hooks/`` and the ``paw`` MCP server.

- ``.clinerules/hooks/<Hook>`` (committed): Cline finds hooks by file name, one file per hook,
  and reads its ``#!`` line itself: ``PreToolUse``, ``PostToolUse``, ``UserPromptSubmit``,
  ``TaskComplete`` and ``TaskCancel`` (a run's end: the session is released) and
  ``SessionShutdown`` (an aborted run's). Not ``TaskStart``: Cline runs it detached and drops
  its answer, and the governance section reaches the model with the first tool call's answer
  instead. Each is a small ``sh`` script running the portable hook command. A file of that
  name that is not paw-tui's is never overwritten: Cline runs one file per hook name, so the
  two must be combined by hand (the install stops, naming the file).
- ``~/.cline/data/settings/cline_mcp_settings.json`` (this machine; ``CLINE_MCP_SETTINGS_PATH``
  or ``CLINE_DATA_DIR`` move it, as they move it for Cline): the ``paw`` server, its tools
  auto-approved. Cline keeps no per-project MCP configuration; it starts the server in the
  workspace, where it finds the workspace.
- the hook script, in the user state directory.

Every failure of a Cline hook fails open (observed with Cline CLI 3.0.65: exit codes are
ignored, and a crash, no JSON, two JSON objects or a timeout let the tool run), so the
``PreToolUse`` file passes on the gate's one answer only when there is one, and otherwise
answers itself with ``cancel: true`` (the call cannot be read, so only ending the run is sure).
Source for the rest: docs.cline.bot/customization/hooks; cline/cline
``sdk/packages/shared/src/storage/paths.ts`` (21cb8d2).
"""

from __future__ import annotations

import json
import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import canary as canaries
from paw_tui.core.clients import commands
from paw_tui.core.clients.plan import PlannedFile, SetupPlan, read_text
from paw_tui.core.errors import ValidationError

NAME = "cline"
TITLE = "Cline"
HOOKS_DIR = os.path.join(".clinerules", "hooks")
HOOKS = {
    "UserPromptSubmit": hj.PROMPT,
    "PreToolUse": hj.PRE_TOOL,
    "PostToolUse": hj.POST_TOOL,
    "TaskComplete": hj.SESSION_END,
    "TaskCancel": hj.SESSION_END,
    "SessionShutdown": hj.SESSION_END,
}
"""Cline's hook file name -> the event the gate answers it as."""
MCP_SETTINGS = "cline_mcp_settings.json"
FAILED_GATE = (
    "paw-tui policy: the paw-tui gate could not answer here; denying (fail closed). Install "
    "paw-tui and run: paw-tui install cline (in this repository)."
)
"""Said by the PreToolUse file itself; no quote in it (it stands in a quoted shell word)."""
HOOK_TIMEOUT = 120.0
"""Seconds Cline CLI 3.0.65 gives a hook before it runs the tool anyway."""


def hook_script(hook: str) -> str:
    """The file Cline runs for ``hook``: the portable command, answered as its event. The
    PreToolUse file passes on the gate's answer only when the gate exited 0 with one (Cline's
    adapter answers every decision, denies too, with exit 0; an exit 2 is the command's
    fallback or a gate that failed), and otherwise answers a cancel itself: Cline lets the
    tool run on no answer, on two, and on one it cannot read."""
    command = hj.hook_command(NAME, HOOKS[hook])
    head = (
        "#!/bin/sh\n"
        f"# paw-tui gate for Cline's {hook} hook (written by 'paw-tui install cline';\n"
        "# the next install replaces it).\n"
    )
    if HOOKS[hook] != hj.PRE_TOOL:
        return head + command + "\n"
    cancel = json.dumps(
        {"cancel": True, "contextModification": FAILED_GATE, "errorMessage": FAILED_GATE}
    )
    return (
        head
        + "# Cline runs the tool on any hook failure: without one answer from the gate, refuse.\n"
        + f"out=$( {command} )\n"
        + "s=$?\n"
        + 'if [ -n "$out" ] && [ "$s" = 0 ]; then\n'
        + "  printf '%s\\n' \"$out\"\n"
        + "else\n"
        + f"  printf '%s\\n' '{cancel}'\n"
        + "fi\n"
        + "exit 0\n"
    )


def mcp_settings_path(environ: dict[str, str] | None = None) -> str:
    """Where Cline (VS Code, CLI, JetBrains) reads its MCP servers on this machine."""
    from paw_tui.core.workspace.platform import PlatformProbe, home_directory

    env = dict(os.environ) if environ is None else environ
    explicit = env.get("CLINE_MCP_SETTINGS_PATH", "").strip()
    if explicit:
        return explicit
    data = env.get("CLINE_DATA_DIR", "").strip()
    if not data:
        cline_dir = env.get("CLINE_DIR", "").strip()
        if not cline_dir:
            home = home_directory(PlatformProbe(environ=env)) or os.path.expanduser("~")
            cline_dir = os.path.join(home, ".cline")
        data = os.path.join(cline_dir, "data")
    return os.path.join(data, "settings", MCP_SETTINGS)


def paw_tool_names() -> list[str]:
    """paw-tui's own MCP tools, auto-approved: Cline would otherwise ask before each."""
    from paw_tui.core.handshake.names import READ_ONLY_TOOLS, REQUEST_SCOPE_TOOL, SELECT_TOOL

    return [SELECT_TOOL, REQUEST_SCOPE_TOOL, *READ_ONLY_TOOLS]


def hook_file(root: str, hook: str) -> PlannedFile:
    path = os.path.join(root, HOOKS_DIR, hook)
    before = read_text(path)
    if before is not None and not commands.is_gate_command(before):
        raise ValidationError(
            f"{path} is a Cline hook that is not paw-tui's, and Cline runs one {hook} file: "
            "combine the two by hand (or move yours aside) and install again; "
            "nothing was changed."
        )
    return PlannedFile(path, before, hook_script(hook), 0o755)


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    for hook in HOOKS:
        result.files.append(hook_file(root, hook))
    settings = mcp_settings_path()
    server = hj.paw_server(type="stdio", disabled=False, autoApprove=paw_tool_names())
    result.files.append(
        hj.json_plan(settings, lambda d: hj.merge_server(d, "mcpServers", server, settings))
    )
    result.files.append(hj.hook_script_file())
    result.steps += [
        "Cline CLI runs the files in .clinerules/hooks/ with no switch and no trust step: "
        "nothing to do. In the VS Code extension, turn hooks on (Settings > Feature Settings "
        "> 'Enable Hooks'; not tried here) and leave each file's switch on in the Hooks tab.",
        "In the VS Code extension's MCP Servers panel, check that the 'paw' server is "
        "connected (restart it if Cline was open during the install); the agent selects an "
        "intent through it (paw__select_active_intent), and every change is denied until it "
        "does.",
        hj.reach_step(TITLE),
        "A denied call of Cline's own tools is refused alone and the model reads why; a "
        "denied call of another MCP server's tool ends the run (Cline runs an MCP tool "
        "whatever input a hook gives it): read the reason in Cline's output.",
        "Run 'paw-tui doctor' to check the set-up.",
    ]
    result.notes.append(
        f"Cline keeps MCP servers per machine ({settings}); it starts them in the workspace, "
        "where the paw server finds it."
    )
    hj.add_boundary_note(result.notes, TITLE)
    return result


def doctor(root: str) -> list[tuple[str, str, str]]:
    rows: list[tuple[str, str, str]] = []
    for hook, kind in HOOKS.items():
        rel = os.path.join(HOOKS_DIR, hook)
        path = os.path.join(root, rel)
        try:
            text = read_text(path)
        except ValidationError as exc:
            rows.append((hj.FAIL, NAME, str(exc)))
            continue
        if text is None or not commands.is_gate_command(text):
            what = "missing" if text is None else "not paw-tui's"
            if kind == hj.PRE_TOOL:
                rows.append((hj.FAIL, NAME, f"{rel} is {what}: Cline's tool calls run unseen"))
            else:
                rows.append((hj.WARN, NAME, f"{rel} is {what}"))
        elif not os.access(path, os.X_OK):
            status = hj.FAIL if kind == hj.PRE_TOOL else hj.WARN
            rows.append((status, NAME, f"{rel} is not executable: Cline skips it (chmod +x it)"))
    if not rows:
        rows.append((hj.OK, NAME, f"gate hooks present in {HOOKS_DIR}"))
    rows.append(hj.server_row(NAME, root, mcp_settings_path(), "mcpServers"))
    rows.append(hj.reach_row(NAME))
    pre_tool = os.path.join(root, HOOKS_DIR, "PreToolUse")
    if os.access(pre_tool, os.X_OK):
        rows.append(canary_row(root, pre_tool))
    return rows


def canary_row(root: str, hook: str) -> tuple[str, str, str]:
    """The PreToolUse file, run as Cline runs it, on an ``editor`` write."""
    return canaries.run_canary(root, canary(), [hook])


def canary() -> canaries.Canary:
    """How Cline CLI 3.0.65 runs a PreToolUse hook: the file itself, by its ``#!`` line, in
    the workspace, with Cline's own environment; the payload is its SDK runtime's
    ``tool_call`` (the typed input beside the classic section's JSON-encoded parameters)."""

    def payload(scratch: canaries.Scratch) -> dict[str, object]:
        arguments = {"path": scratch.file_path, "new_text": "canary\n"}
        return {
            "clineVersion": "",
            "hookName": "tool_call",
            "timestamp": "1970-01-01T00:00:00.000Z",
            "taskId": scratch.session_id,
            "sessionContext": {"rootSessionId": scratch.session_id},
            "workspaceRoots": [scratch.root],
            "tool_call": {"id": "toolu_" + scratch.nonce, "name": "editor", "input": arguments},
            "preToolUse": {"toolName": "editor", "parameters": arguments},
        }

    return canaries.Canary(
        NAME,
        TITLE,
        runs_as="the file itself by its #! line, in the workspace, with Cline's environment",
        argv=lambda hook: [hook],
        environment=lambda _root, _scratch: canaries.launch_environment(),
        payload=payload,
        refusal=refusal,
        fails_open="on any answer but one JSON object that refuses it, whatever the exit code",
        timeout=HOOK_TIMEOUT,
        noun="the PreToolUse file",
    )


def refusal(outcome: canaries.Outcome) -> str | None:
    """What Cline tells the model when it refuses the call on ``outcome`` (exit codes are
    ignored): the ``contextModification`` of a per-call refusal (``overrideInput: {}``, which a
    built-in tool such as ``editor`` fails to validate), or nothing at all for ``cancel: true``
    (which ends the whole run); None when Cline runs the tool (no answer, two, one it cannot
    read, or one that refuses nothing)."""
    if outcome.timed_out:
        return None
    lines = [line for line in outcome.stdout.splitlines() if line.strip()]
    answer = outcome.json() if len(lines) == 1 else None
    if answer is None:
        return None
    if answer.get("cancel") is True:
        return ""
    context = answer.get("contextModification")
    if answer.get("overrideInput") == {} and isinstance(context, str):
        return context
    return None
