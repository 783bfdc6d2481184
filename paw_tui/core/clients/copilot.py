"""``paw-tui install copilot``: ``.github/hooks/paw-tui.json`` and ``.github/mcp.json``.

- ``.github/hooks/paw-tui.json`` (committed; Copilot CLI reads it and the cloud agent reads it
  from the default branch): version 1, the portable hook command per camelCase event
  (``sessionStart``, ``userPromptSubmitted``, ``preToolUse``, ``postToolUse``,
  ``sessionEnd``), each with ``--event``: the camelCase payloads do not say which event they
  are. No matcher: every tool reaches the gate. Copilot CLI 1.0.102 blocks a ``preToolUse`` on
  any exit but 0 and runs the tool on a timeout (hence the generous ``timeoutSec``) or non-JSON
  output with exit 0; it shows the model a deny's reason only from stdout (``hook exited with
  code 2`` otherwise), so the command's fail-closed fallback writes its deny JSON there too.
- ``.github/mcp.json`` (committed; the project MCP file Copilot CLI reads, microsoft/apm#2047
  citing the CLI command reference's "MCP server loading priority"): the ``paw`` server with
  ``tools: ["*"]`` (Copilot CLI's server entries list the tools they expose).
- ``~/.copilot/config.json`` (``$COPILOT_HOME``; this machine): the folder among
  ``trustedFolders``: Copilot CLI silently skips a repository's hooks and MCP servers in an
  untrusted folder. Installing is the person's decision to trust it; Copilot rewrites the file
  itself (its ``//`` comments are not kept).
- the hook script, in the user state directory.

Copilot CLI also runs the hooks of ``.claude/settings.json``: with ``install claude-code`` too,
the Claude Code hook steps aside for Copilot's own (:mod:`paw_tui.gate.copilot_claude`), so a
call is decided once, as Copilot's.

VS Code reads ``.github/hooks/*.json`` too, in this very format (``preToolUse`` becomes its
``PreToolUse``), and answers its own payloads through the same command: the file is shared
with ``paw-tui install vscode`` (:mod:`paw_tui.core.clients.vscode`), whose entries serve both
clients and are kept as they are. Source: docs.github.com/en/copilot/reference/hooks-reference.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import canary as canaries
from paw_tui.core.clients.plan import PlannedFile, SetupPlan
from paw_tui.core.errors import ValidationError

NAME = "copilot"
TITLE = "GitHub Copilot"
HOOKS = os.path.join(".github", "hooks", "paw-tui.json")
MCP_CONFIG = os.path.join(".github", "mcp.json")
HOOK_TIMEOUT = 30
EVENTS = {
    "sessionStart": hj.SESSION_START,
    "userPromptSubmitted": hj.PROMPT,
    "preToolUse": hj.PRE_TOOL,
    "postToolUse": hj.POST_TOOL,
    "sessionEnd": hj.SESSION_END,
}
SHARED_WITH = "vscode"
"""The other client whose install writes the same hooks file; its entries answer both."""


STDOUT_DENY = '{"permissionDecision":"deny","permissionDecisionReason":"%s"}'
"""The fallback's deny on stdout (a ``printf`` format), where Copilot CLI reads a reason."""
CONFIG_DIR_ENV = "COPILOT_HOME"
CONFIG = "config.json"
PROVIDER_PREFIX = "COPILOT_PROVIDER_"
"""Copilot CLI keeps its BYOK variables (the model's key) from its hooks' environment."""


def hook_entry(client: str, kind: str) -> dict[str, object]:
    """One hook: ``bash`` is the field Copilot's cloud agent honours (and VS Code maps to its
    Linux and macOS command)."""
    deny = STDOUT_DENY if client == NAME and kind == hj.PRE_TOOL else None
    command = hj.hook_command(client, kind, deny)
    return {"type": "command", "bash": command, "timeoutSec": HOOK_TIMEOUT}


def config_path(environ: dict[str, str] | None = None) -> str:
    """Copilot CLI's own state file on this machine (its trusted folders)."""
    env = os.environ if environ is None else environ
    home = env.get(CONFIG_DIR_ENV, "").strip() or os.path.join(os.path.expanduser("~"), ".copilot")
    return os.path.join(home, CONFIG)


def merge_trust(data: dict[str, object], root: str, path: str) -> dict[str, object]:
    folders = data.get("trustedFolders", [])
    if not isinstance(folders, list):
        raise ValidationError(f"'trustedFolders' in {path} is not a list; nothing was changed.")
    folder = os.path.abspath(root)
    return data if folder in folders else {**data, "trustedFolders": [*folders, folder]}


def merge_hooks_file(data: dict[str, object], path: str, client: str) -> dict[str, object]:
    """``data`` with ``client``'s hook per event: an entry of ours replaced in place, every
    other entry kept. Installed as Copilot, an event already answered by VS Code's entry keeps
    it (that command reads Copilot's payloads too, and records them as Copilot's)."""
    version = data.get("version", 1)
    if version != 1:
        raise ValidationError(
            f"{path} has version {version!r}; paw-tui writes version 1 hooks. Nothing was changed."
        )
    hooks = data.get("hooks")
    entries: dict[str, dict[str, object]] = {}
    for event, kind in EVENTS.items():
        entries[event] = hook_entry(client, kind)
        if client == NAME and isinstance(hooks, dict):
            for entry in hj.gate_entries(hooks, event):
                if hj.command_of(entry) == hook_entry(SHARED_WITH, kind)["bash"]:
                    entries[event] = entry
                    break
    return {"version": 1, **hj.merge_event_hooks(data, entries, path)}


def hooks_plan(root: str, client: str) -> PlannedFile:
    hooks = os.path.join(root, HOOKS)
    return hj.json_plan(hooks, lambda d: merge_hooks_file(d, hooks, client))


def disabled_note(root: str) -> str | None:
    """Said when the hooks file switches its own hooks off."""
    data, _problem = hj.read_config(os.path.join(root, HOOKS))
    if data and data.get("disableAllHooks") is True:
        return f"{HOOKS} sets disableAllHooks: true, so none of its hooks run; remove it."
    return None


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    result.files.append(hooks_plan(root, NAME))
    mcp = os.path.join(root, MCP_CONFIG)
    server = hj.paw_server(type="local", tools=["*"])
    result.files.append(hj.json_plan(mcp, lambda d: hj.merge_server(d, "mcpServers", server, mcp)))
    config = config_path()
    result.files.append(
        hj.json_plan(config, lambda d: merge_trust(d, root, config), allow_comments=True)
    )
    result.files.append(hj.hook_script_file())
    result.steps += [
        f"This folder is now among Copilot CLI's trusted folders ({config}): repository hooks "
        "and MCP servers load only in a trusted folder, and an untrusted one is skipped "
        f"silently. '/hooks' should list {HOOKS}, and '/mcp show' the paw server.",
        "When Copilot asks to run a paw tool (select_active_intent, paw_get_context), allow "
        "it for the session: the agent selects an intent through it, and every change is "
        "denied until it does.",
        hj.reach_step("Copilot CLI"),
        "For the cloud agent: merge the hooks file into the default branch, install paw-tui "
        "in .github/workflows/copilot-setup-steps.yml and add the paw server to the "
        "repository's Copilot MCP configuration; without paw-tui there, every change the "
        "agent tries is denied, saying why.",
        "Run 'paw-tui doctor' to check the set-up.",
    ]
    for note in (disabled_note(root), hj.boundary_note("Copilot CLI")):
        if note:
            result.notes.append(note)
    return result


def hooks_rows(
    root: str, client: str, title: str, optional: tuple[str, ...]
) -> tuple[list[tuple[str, str, str]], bool]:
    """The doctor's rows about the shared hooks file, and whether it exists and can be read."""
    data, missing = hj.doctor_config(root, HOOKS, client, title)
    if data is None:
        return missing, False
    hooks = data.get("hooks")
    rows = hj.events_rows(client, HOOKS, hooks, {"preToolUse": f"{title}'s tool calls"}, optional)
    if data.get("disableAllHooks") is True:
        rows.append((hj.FAIL, client, f"{HOOKS} sets disableAllHooks: tool calls run unseen"))
    matchers = [entry.get("matcher") for entry in hj.gate_entries(hooks, "preToolUse")]
    narrow = hj.matcher_row(client, "preToolUse", matchers, (None, "", ".*"))
    return [*rows, narrow] if narrow else rows, True


def installed(root: str, client: str) -> bool:
    """Whether the shared hooks file holds ``client``'s entries."""
    data, _problem = hj.read_config(os.path.join(root, HOOKS))
    hooks = data.get("hooks") if data else None
    wanted = hook_entry(client, hj.PRE_TOOL)["bash"]
    return any(hj.command_of(e) == wanted for e in hj.gate_entries(hooks, "preToolUse"))


def doctor(root: str) -> list[tuple[str, str, str]]:
    if not os.path.exists(os.path.join(root, MCP_CONFIG)) and not installed(root, NAME):
        return []  # not set up for Copilot (VS Code's entries are checked as VS Code's)
    optional = ("postToolUse", "sessionStart", "userPromptSubmitted", "sessionEnd")
    rows, present = hooks_rows(root, NAME, TITLE, optional)
    if not present:
        return rows
    rows += hj.reach_rows(NAME, root, MCP_CONFIG, "mcpServers", "Copilot CLI", steps_aside=True)
    rows.append(trust_row(root))
    data, _problem = hj.read_config(os.path.join(root, HOOKS))
    for entry in hj.gate_entries(data.get("hooks") if data else None, "preToolUse")[:1]:
        rows.append(canary_row(root, entry))
    return rows


def trust_row(root: str) -> tuple[str, str, str]:
    config = config_path()
    data, _problem = hj.read_config(config)
    folders = data.get("trustedFolders") if data else None
    folder = os.path.realpath(root)
    trusted = isinstance(folders, list) and any(
        isinstance(f, str) and (folder + os.sep).startswith(os.path.join(os.path.realpath(f), ""))
        for f in folders
    )
    if trusted:
        return (hj.OK, NAME, f"this folder is trusted in {config}")
    return (
        hj.FAIL,
        NAME,
        f"this folder is not among trustedFolders in {config}: Copilot CLI skips its hooks and "
        "MCP servers silently (run 'paw-tui install copilot' again, or answer Copilot's "
        "trust question with 'Yes, and remember this folder')",
    )


def canary_row(root: str, entry: dict[str, object]) -> tuple[str, str, str]:
    """The preToolUse entry's command, run as Copilot CLI runs it, on a ``create``."""
    spec = canary(hj.hook_timeout([entry], "timeoutSec") or float(HOOK_TIMEOUT))
    return canaries.run_canary(root, spec, [str(hj.command_of(entry))])


def canary(timeout: float = float(HOOK_TIMEOUT)) -> canaries.Canary:
    """How Copilot CLI 1.0.102 runs a camelCase preToolUse hook: ``bash -c`` in the project
    folder, with its own environment less ``COPILOT_PROVIDER_*`` and with
    ``COPILOT_PROJECT_DIR``, ``CLAUDE_PROJECT_DIR``, ``COPILOT_HOOK_DIR`` and ``COPILOT_CLI``;
    the payload names no event (the command's ``--event`` does)."""

    def environment(root: str, _scratch: canaries.Scratch) -> dict[str, str]:
        env = {
            name: value
            for name, value in canaries.launch_environment().items()
            if not name.startswith(PROVIDER_PREFIX)
        }
        env.update(
            COPILOT_PROJECT_DIR=root,
            CLAUDE_PROJECT_DIR=root,
            COPILOT_HOOK_DIR=os.path.join(root, os.path.dirname(HOOKS)),
            COPILOT_CLI="1",
        )
        return env

    def payload(scratch: canaries.Scratch) -> dict[str, object]:
        return {
            "sessionId": scratch.session_id,
            "timestamp": 0,
            "cwd": scratch.root,
            "toolName": "create",
            "toolArgs": {"path": scratch.file_path, "file_text": "canary\n"},
        }

    return canaries.Canary(
        NAME,
        "Copilot CLI",
        runs_as="bash -c, in the project folder, with Copilot's environment",
        argv=lambda command: ["bash", "-c", command],
        environment=environment,
        payload=payload,
        refusal=refusal,
        fails_open="on a timeout, or output that is not JSON with exit 0",
        timeout=timeout,
    )


def refusal(outcome: canaries.Outcome) -> str | None:
    """What Copilot CLI 1.0.102 tells the model when it refuses the tool: the reason of a
    ``permissionDecision: "deny"`` on stdout (exit 0 or 2), or only ``hook exited with code
    N`` for any other failing exit (it fails closed there, dropping stderr); None when it runs
    the tool (a timeout, exit 0 without that deny)."""
    if outcome.timed_out or outcome.code is None:
        return None
    answer = outcome.json()
    if answer is not None and answer.get("permissionDecision") == "deny":
        return str(answer.get("permissionDecisionReason") or "")
    if outcome.code != 0:
        return f"hook exited with code {outcome.code}"
    return None
