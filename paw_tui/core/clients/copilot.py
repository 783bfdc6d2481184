"""``paw-tui install copilot``: ``.github/hooks/paw-tui.json`` and ``.github/mcp.json``.

- ``.github/hooks/paw-tui.json`` (committed; Copilot CLI reads it and the cloud agent reads it
  from the default branch): version 1, the portable hook command per camelCase event
  (``sessionStart``, ``userPromptSubmitted``, ``preToolUse``, ``postToolUse``,
  ``sessionEnd``), each with ``--event``: the camelCase payloads do not say which event they
  are. No matcher: every tool reaches the gate. A command ``preToolUse`` hook fails closed on a
  crash and on any exit but 0, and open on a timeout, hence the generous ``timeoutSec``.
- ``.github/mcp.json`` (committed; the project MCP file Copilot CLI reads, microsoft/apm#2047
  citing the CLI command reference's "MCP server loading priority"): the ``paw`` server with
  ``tools: ["*"]`` (Copilot CLI's server entries list the tools they expose).
- the hook script, in the user state directory.

VS Code reads ``.github/hooks/*.json`` too, in this very format (``preToolUse`` becomes its
``PreToolUse``), and answers its own payloads through the same command: the file is shared
with ``paw-tui install vscode`` (:mod:`paw_tui.core.clients.vscode`), whose entries serve both
clients and are kept as they are. Source: docs.github.com/en/copilot/reference/hooks-reference.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
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


def hook_entry(client: str, kind: str) -> dict[str, object]:
    """One hook: ``bash`` is the field Copilot's cloud agent honours (and VS Code maps to its
    Linux and macOS command)."""
    return {"type": "command", "bash": hj.hook_command(client, kind), "timeoutSec": HOOK_TIMEOUT}


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
                if hj.command_of(entry) == hj.hook_command(SHARED_WITH, kind):
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
    result.files.append(hj.hook_script_file())
    result.steps += [
        "Start Copilot CLI in this folder and answer its folder-trust question with 'Yes, and "
        "remember this folder for future sessions': repository hooks and MCP servers load "
        "only in a trusted folder. '/hooks' should "
        f"list {HOOKS}, and '/mcp show' the paw server (if it does not, add it with '/mcp "
        f"add' using the command in {MCP_CONFIG}).",
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
    for entry in hj.gate_entries(hooks, "preToolUse"):
        if entry.get("matcher") not in (None, "", ".*"):
            unseen = "the preToolUse gate hook has a matcher: tools it misses run unseen"
            rows.append((hj.WARN, client, unseen))
    return rows, True


def installed(root: str, client: str) -> bool:
    """Whether the shared hooks file holds ``client``'s entries."""
    data, _problem = hj.read_config(os.path.join(root, HOOKS))
    hooks = data.get("hooks") if data else None
    wanted = hj.hook_command(client, hj.PRE_TOOL)
    return any(hj.command_of(e) == wanted for e in hj.gate_entries(hooks, "preToolUse"))


def doctor(root: str) -> list[tuple[str, str, str]]:
    if not os.path.exists(os.path.join(root, MCP_CONFIG)) and not installed(root, NAME):
        return []  # not set up for Copilot (VS Code's entries are checked as VS Code's)
    optional = ("postToolUse", "sessionStart", "userPromptSubmitted", "sessionEnd")
    rows, present = hooks_rows(root, NAME, TITLE, optional)
    if not present:
        return rows
    return rows + hj.reach_rows(NAME, root, MCP_CONFIG, "mcpServers", "Copilot CLI")
