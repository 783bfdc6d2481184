"""``paw-tui install vscode``: VS Code agent mode's hooks and the paw MCP server.

- ``.github/hooks/paw-tui.json`` (committed): VS Code's agent hooks. The file is in Copilot's
  format (version 1, camelCase events, ``bash``), which VS Code reads and converts
  (``preToolUse`` -> ``PreToolUse``, ``bash`` -> its Linux and macOS command; docs FAQ "How
  does VS Code handle Copilot CLI hook configurations?"), so the same file governs Copilot CLI,
  the Copilot cloud agent and VS Code's "Copilot" harness sessions, and no client decides a
  call twice. VS Code runs each hook in the workspace folder and ignores matchers. The
  entries run the gate as ``--client vscode``, which reads both clients' payloads
  (:mod:`paw_tui.gate.clients.vscode`); ``paw-tui install copilot`` keeps them.
- ``.vscode/mcp.json`` (committed): the ``paw`` server (``type: stdio``) with
  ``PAW_WORKSPACE_PATH`` set to ``${workspaceFolder}``, which VS Code expands itself, so the
  server finds this workspace whatever directory VS Code starts it in.
- the hook script, in the user state directory.

VS Code keeps no per-project machine settings paw-tui could write ``PAW_TUI_HOOK`` into, so the
steps say how the committed command finds paw-tui. Sources: code.visualstudio.com/docs/
agent-customization/hooks and /mcp-servers, /agents/reference/mcp-configuration.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import commands
from paw_tui.core.clients import copilot as github_hooks
from paw_tui.core.clients.plan import PlannedFile, SetupPlan, load_json_object
from paw_tui.core.errors import ValidationError

NAME = "vscode"
TITLE = "VS Code"
HOOKS = github_hooks.HOOKS
MCP_CONFIG = os.path.join(".vscode", "mcp.json")
SETTINGS = os.path.join(".vscode", "settings.json")
WORKSPACE_VARIABLE = "${workspaceFolder}"
"""Expanded by VS Code in ``mcp.json``: the workspace root, on every machine."""


def paw_server() -> dict[str, object]:
    return hj.paw_server(type="stdio", env={"PAW_WORKSPACE_PATH": WORKSPACE_VARIABLE})


def mcp_plan(root: str) -> PlannedFile:
    """``.vscode/mcp.json`` with the paw server. VS Code accepts comments there, which a
    rewrite would drop: such a file is refused, naming it, and nothing is written."""
    path = os.path.join(root, MCP_CONFIG)
    try:
        before = load_json_object(path)
    except ValidationError:
        load_json_object(path, allow_comments=True)  # not JSON even without comments: say so
        raise ValidationError(
            f"{path} holds comments, which rewriting it would drop; remove them, or add the "
            f"'{commands.SERVER_NAME}' server under 'servers' yourself. Nothing was changed."
        ) from None
    after = hj.merge_server(dict(before or {}), "servers", paw_server(), path)
    return PlannedFile(path, before, after)


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    result.files.append(github_hooks.hooks_plan(root, NAME))
    result.files.append(mcp_plan(root))
    result.files.append(hj.hook_script_file())
    result.steps += [
        "Open this folder in VS Code and, when it asks whether you trust the authors of the "
        "files in this folder, choose 'Yes, I trust the authors': in Restricted Mode agent "
        "hooks and MCP servers do not run.",
        "Keep the setting chat.useHooks on (the default) and .github/hooks enabled in "
        "chat.hookFilesLocations; the 'GitHub Copilot Chat Hooks' output channel shows each "
        "hook run.",
        "Start the 'paw' server (MCP: List Servers, or the chat's tools list) and, when VS Code "
        "asks whether you trust it, choose 'Trust': otherwise it never starts, the agent "
        "cannot select an intent, and every change is denied.",
        "When the agent first calls select_active_intent, VS Code asks to confirm: choose "
        "'Allow in this Workspace' so it is not asked again.",
        hj.reach_step(TITLE),
        "If .claude/settings.json holds paw-tui's Claude Code hooks, VS Code runs them too: "
        'set "chat.hookFilesLocations": {".claude/settings.json": false, '
        '".claude/settings.local.json": false} in .vscode/settings.json, or every call is '
        "decided twice.",
        "Run 'paw-tui doctor' to check the set-up.",
    ]
    for note in (github_hooks.disabled_note(root), hj.boundary_note(TITLE)):
        if note:
            result.notes.append(note)
    return result


def doctor(root: str) -> list[tuple[str, str, str]]:
    if not any(os.path.exists(os.path.join(root, rel)) for rel in (HOOKS, MCP_CONFIG)):
        return []  # VS Code's agent is not set up here
    optional = ("postToolUse", "sessionStart", "userPromptSubmitted")
    rows, present = github_hooks.hooks_rows(root, NAME, TITLE, optional)
    if not present:
        return rows
    switched_off = settings_problem(root)
    if switched_off:
        rows.append((hj.FAIL, NAME, switched_off))
    return rows + hj.reach_rows(NAME, root, MCP_CONFIG, "servers", TITLE)


def settings_problem(root: str) -> str | None:
    """What in the workspace's ``.vscode/settings.json`` keeps the hooks from running."""
    data, _problem = hj.read_config(os.path.join(root, SETTINGS))
    if not data:
        return None
    if data.get("chat.useHooks") is False:
        return f"{SETTINGS} sets chat.useHooks to false: the agent's tool calls run unseen"
    locations = data.get("chat.hookFilesLocations")
    if isinstance(locations, dict) and locations.get(".github/hooks") is False:
        return (
            f"{SETTINGS} turns .github/hooks off in chat.hookFilesLocations: the agent's tool "
            "calls run unseen"
        )
    return None
