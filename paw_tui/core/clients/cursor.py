"""``paw-tui install cursor``: ``.cursor/hooks.json`` and ``.cursor/mcp.json``.

- ``.cursor/hooks.json`` (committed, version 1): the portable hook command on ``preToolUse``
  (every tool, no matcher: Cursor's preToolUse also covers Shell and MCP calls, so
  ``beforeShellExecution`` / ``beforeMCPExecution`` are not used and no call is decided twice)
  with ``failClosed: true`` (a crash, a timeout or bad output blocks the call instead of letting
  it run), ``postToolUse``, ``sessionStart``, ``beforeSubmitPrompt`` and ``sessionEnd``.
- ``.cursor/mcp.json`` (committed): the ``paw`` server.
- the hook script, in the user state directory.

Cursor keeps no per-project machine settings, so ``PAW_TUI_HOOK`` is the person's to export
(the steps say so). Source: cursor.com/docs/hooks (mirror mehmetbaykar/cursor-docs-skill).
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients.plan import SetupPlan
from paw_tui.core.errors import ValidationError

NAME = "cursor"
TITLE = "Cursor"
HOOKS = os.path.join(".cursor", "hooks.json")
MCP_CONFIG = os.path.join(".cursor", "mcp.json")
HOOK_TIMEOUT = 10
EVENTS = {
    "sessionStart": hj.SESSION_START,
    "beforeSubmitPrompt": hj.PROMPT,
    "preToolUse": hj.PRE_TOOL,
    "postToolUse": hj.POST_TOOL,
    "sessionEnd": hj.SESSION_END,
}


def cursor_hooks() -> dict[str, dict[str, object]]:
    entries: dict[str, dict[str, object]] = {}
    for event, kind in EVENTS.items():
        entry: dict[str, object] = {"command": hj.hook_command(NAME, kind), "timeout": HOOK_TIMEOUT}
        if kind == hj.PRE_TOOL:
            entry["failClosed"] = True
        entries[event] = entry
    return entries


def merge_hooks_file(data: dict[str, object], path: str) -> dict[str, object]:
    version = data.get("version", 1)
    if version != 1:
        raise ValidationError(
            f"{path} has version {version!r}; paw-tui writes version 1 hooks. Nothing was changed."
        )
    return {"version": 1, **hj.merge_event_hooks(data, cursor_hooks(), path)}


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    hooks = os.path.join(root, HOOKS)
    result.files.append(hj.json_plan(hooks, lambda d: merge_hooks_file(d, hooks)))
    mcp = os.path.join(root, MCP_CONFIG)
    result.files.append(
        hj.json_plan(mcp, lambda d: hj.merge_server(d, "mcpServers", hj.paw_server(), mcp))
    )
    result.files.append(hj.hook_script_file())
    result.steps += [
        "Open this folder in Cursor and trust the workspace: project hooks run only in a "
        "trusted workspace. Settings > Hooks lists .cursor/hooks.json when they are loaded.",
        "In Cursor Settings > MCP (Tools & MCP in newer builds), turn the project's 'paw' "
        "server on when Cursor lists it, and when the agent first calls select_active_intent "
        "let it run (or add paw's tools to the auto-run allowlist): the agent selects an "
        "intent through it, and every change is denied until it does.",
        hj.reach_step(TITLE),
        "If .claude/settings.json holds paw-tui's Claude Code hooks, turn off Settings > "
        "Agents > Third-Party Imports: Cursor would run those too, with the Claude Code gate.",
        "Run 'paw-tui doctor' to check the set-up.",
    ]
    hj.add_boundary_note(result.notes, TITLE)
    return result


def doctor(root: str) -> list[tuple[str, str, str]]:
    if not os.path.isdir(os.path.join(root, ".cursor")):
        return []  # Cursor is not used here
    data, missing = hj.doctor_config(root, HOOKS, NAME, TITLE)
    if data is None:
        return missing
    hooks = data.get("hooks")
    rows = hj.events_rows(
        NAME,
        HOOKS,
        hooks,
        {"preToolUse": "Cursor's tool calls"},
        ("postToolUse", "sessionStart", "beforeSubmitPrompt", "sessionEnd"),
    )
    for entry in hj.gate_entries(hooks, "preToolUse"):
        if entry.get("failClosed") is not True:
            rows.append(
                (
                    hj.FAIL,
                    NAME,
                    "the preToolUse gate hook lacks failClosed: a timeout lets the call run",
                )
            )
    matchers = [entry.get("matcher") for entry in hj.gate_entries(hooks, "preToolUse")]
    narrow = hj.matcher_row(NAME, "preToolUse", matchers)
    rows += [narrow] if narrow else []
    return rows + hj.reach_rows(NAME, root, MCP_CONFIG, "mcpServers", TITLE)
