"""``paw-tui install windsurf``: ``.windsurf/hooks.json`` and the ``paw`` MCP server.

- ``.windsurf/hooks.json`` (committed, workspace level; Cascade merges it with the user's and
  the system's hooks): the portable hook command on ``pre_write_code``, ``pre_run_command``
  and ``pre_mcp_tool_use`` (each blocks with exit 2) and on ``post_write_code`` /
  ``post_run_command`` (mutations, drift). Cascade has no matcher: every such action reaches the
  gate. Prompts are not hooked: Cascade cannot take context from a hook.
- ``~/.codeium/windsurf/mcp_config.json`` (this machine: Windsurf keeps MCP servers per user):
  the ``paw`` server.
- the hook script, in the user state directory.

Source: docs.windsurf.com/windsurf/cascade/hooks and /cascade/mcp.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients.plan import SetupPlan

NAME = "windsurf"
TITLE = "Windsurf"
HOOKS = os.path.join(".windsurf", "hooks.json")
MCP_CONFIG = os.path.join(".codeium", "windsurf", "mcp_config.json")
"""Under the user's home."""
EVENTS = {
    "pre_write_code": hj.PRE_TOOL,
    "pre_run_command": hj.PRE_TOOL,
    "pre_mcp_tool_use": hj.PRE_TOOL,
    "post_write_code": hj.POST_TOOL,
    "post_run_command": hj.POST_TOOL,
}
REQUIRED = {
    "pre_write_code": "Cascade's file writes",
    "pre_run_command": "Cascade's commands",
    "pre_mcp_tool_use": "Cascade's MCP tool calls (and the handshake)",
}


def windsurf_hooks() -> dict[str, dict[str, object]]:
    """Our entry per Cascade event. ``show_output`` on the blocking ones: a denial is the
    person's business too, and Cascade shows it only then."""
    return {
        event: {"command": hj.hook_command(NAME, kind), "show_output": kind == hj.PRE_TOOL}
        for event, kind in EVENTS.items()
    }


def mcp_config_path() -> str:
    from paw_tui.core.workspace.platform import PlatformProbe, home_directory

    home = home_directory(PlatformProbe()) or os.path.expanduser("~")
    return os.path.join(home, MCP_CONFIG)


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    hooks = os.path.join(root, HOOKS)
    result.files.append(
        hj.json_plan(hooks, lambda d: hj.merge_event_hooks(d, windsurf_hooks(), hooks))
    )
    mcp = mcp_config_path()
    result.files.append(
        hj.json_plan(mcp, lambda d: hj.merge_server(d, "mcpServers", hj.paw_server(), mcp))
    )
    result.files.append(hj.hook_script_file())
    result.steps += [
        "Open this folder in Windsurf: Cascade loads workspace hooks from .windsurf/hooks.json "
        "(Cascade hooks are in beta; keep Windsurf up to date).",
        "In Cascade's MCP panel (the hammer icon), press Refresh and check that the 'paw' "
        "server is enabled with its tools; the agent selects an intent through it, and every "
        "change is denied until it does.",
        hj.reach_step(TITLE),
        "Run 'paw-tui doctor' to check the set-up.",
    ]
    result.notes.append(
        "Windsurf's hooks cannot add context: the agent reads the governance context through "
        "the paw MCP server (paw_get_context), and denials explain themselves."
    )
    hj.add_boundary_note(result.notes, TITLE)
    return result


def doctor(root: str) -> list[tuple[str, str, str]]:
    data, missing = hj.doctor_config(root, HOOKS, NAME, TITLE)
    if data is None:
        return missing
    optional = tuple(event for event in EVENTS if event not in REQUIRED)
    rows = hj.events_rows(NAME, HOOKS, data.get("hooks"), REQUIRED, optional)
    mcp = mcp_config_path()
    rows.append(hj.server_row(NAME, root, mcp, "mcpServers"))  # mcp is absolute
    rows.append(hj.reach_row(NAME))
    return rows
