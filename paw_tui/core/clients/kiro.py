"""``paw-tui install kiro``: ``.kiro/hooks/paw-tui.json`` and ``.kiro/settings/mcp.json``.

- ``.kiro/hooks/paw-tui.json`` (committed): Kiro's standalone hook file (``"version": "v1"``,
  Kiro CLI 3 and the IDE since 1.0; it applies to every agent of the workspace) with the
  portable hook command on ``SessionStart``, ``UserPromptSubmit``, ``PreToolUse`` (every tool)
  and ``PostToolUse`` (the file and shell tools). Hooks the person added to the file stay.
- ``.kiro/settings/mcp.json`` (committed): the ``paw`` server, its tools auto-approved.
- the hook script, in the user state directory.

Kiro CLI 2.x runs only hooks embedded in an agent's configuration; the steps say what to do
there. Source: kiro.dev/docs/cli/v3/hooks, kiro.dev/docs/cli/hooks, kiro.dev/docs/mcp.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients.plan import SetupPlan
from paw_tui.core.errors import ValidationError

NAME = "kiro"
TITLE = "Kiro"
HOOKS = os.path.join(".kiro", "hooks", "paw-tui.json")
MCP_CONFIG = os.path.join(".kiro", "settings", "mcp.json")
VERSION = "v1"
HOOK_TIMEOUT = 10
TRIGGERS = {
    "SessionStart": hj.SESSION_START,
    "UserPromptSubmit": hj.PROMPT,
    "PreToolUse": hj.PRE_TOOL,
    "PostToolUse": hj.POST_TOOL,
}
EVERY_TOOL = ".*"


def post_tool_matcher() -> str:
    """The catalogue's Kiro tools that write files or run commands: their results are
    recorded (mutations, drift); read-only calls need no post-event."""
    from paw_tui.core.policy.catalogue import READ_ONLY, catalogue

    names = sorted(e.name for e in catalogue().for_client(NAME) if e.kind != READ_ONLY)
    return "^(" + "|".join(names) + ")$"


def kiro_hooks() -> list[dict[str, object]]:
    """Our hooks, one per trigger, in Kiro's v1 shape."""
    entries: list[dict[str, object]] = []
    for trigger, kind in TRIGGERS.items():
        entry: dict[str, object] = {"name": f"paw-tui {trigger}", "trigger": trigger}
        if kind == hj.PRE_TOOL:
            entry["matcher"] = EVERY_TOOL
        elif kind == hj.POST_TOOL:
            entry["matcher"] = post_tool_matcher()
        entry["action"] = {"type": "command", "command": hj.hook_command(NAME, kind)}
        entry["timeout"] = HOOK_TIMEOUT
        entry["enabled"] = True
        entries.append(entry)
    return entries


def merge_hooks_file(data: dict[str, object], path: str) -> dict[str, object]:
    """``data`` with our hooks where the first of ours was (else last); other hooks stay."""
    version = data.get("version", VERSION)
    if version != VERSION:
        raise ValidationError(
            f"{path} has version {version!r}; paw-tui writes Kiro's {VERSION!r} hook files. "
            "Nothing was changed."
        )
    existing = data.get("hooks", [])
    if not isinstance(existing, list):
        raise ValidationError(f"'hooks' in {path} is not a list; nothing was changed.")
    ours = kiro_hooks()
    merged: list[object] = []
    placed = False
    for item in existing:
        if hj.is_ours(item):
            if not placed:
                merged.extend(ours)
                placed = True
        else:
            merged.append(item)
    if not placed:
        merged.extend(ours)
    return {**data, "version": VERSION, "hooks": merged}


def paw_tool_names() -> list[str]:
    from paw_tui.core.handshake.names import READ_ONLY_TOOLS, REQUEST_SCOPE_TOOL, SELECT_TOOL

    return [SELECT_TOOL, REQUEST_SCOPE_TOOL, *READ_ONLY_TOOLS]


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    hooks = os.path.join(root, HOOKS)
    result.files.append(hj.json_plan(hooks, lambda d: merge_hooks_file(d, hooks)))
    mcp = os.path.join(root, MCP_CONFIG)
    server = hj.paw_server(disabled=False, autoApprove=paw_tool_names())
    result.files.append(hj.json_plan(mcp, lambda d: hj.merge_server(d, "mcpServers", server, mcp)))
    result.files.append(hj.hook_script_file())
    result.steps += [
        "Kiro IDE: open this folder and trust it if asked; the Agent Hooks panel lists the "
        "'paw-tui' hooks from .kiro/hooks/paw-tui.json: leave them enabled. The MCP Servers "
        "panel should show 'paw' connected.",
        "Kiro CLI: run it in V3 mode (kiro-cli chat --v3), where .kiro/hooks/ applies to every "
        "agent. In V2 mode hooks live in an agent's configuration: add the same commands under "
        "its 'hooks' (agentSpawn, userPromptSubmit, preToolUse with matcher '*', postToolUse) "
        "and set 'includeMcpJson': true.",
        hj.reach_step(TITLE),
        "Run 'paw-tui doctor' to check the set-up.",
    ]
    result.notes.append(
        "Kiro's hook payloads carry no session id: the Kiro sessions started in one directory "
        "share one paw-tui session (and its intent)."
    )
    hj.add_boundary_note(result.notes, TITLE)
    return result


def doctor(root: str) -> list[tuple[str, str, str]]:
    data, why_not = hj.doctor_config(root, HOOKS, NAME, TITLE)
    if data is None:
        return why_not
    hooks = data.get("hooks")
    ours = [h for h in hooks if hj.is_ours(h)] if isinstance(hooks, list) else []
    on = {h.get("trigger") for h in ours if isinstance(h, dict) and h.get("enabled") is not False}
    rows: list[tuple[str, str, str]] = []
    if "PreToolUse" not in on:
        rows.append(
            (
                hj.FAIL,
                NAME,
                f"no enabled gate hook on PreToolUse in {HOOKS}: Kiro's tool calls run unseen",
            )
        )
    missing = [t for t in TRIGGERS if t != "PreToolUse" and t not in on]
    if missing:
        rows.append((hj.WARN, NAME, f"gate hooks missing in {HOOKS} for {', '.join(missing)}"))
    if not rows:
        rows.append((hj.OK, NAME, f"gate hooks present in {HOOKS}"))
    rows.append(hj.server_row(NAME, root, MCP_CONFIG, "mcpServers"))
    rows.append(hj.reach_row(NAME))
    return rows
