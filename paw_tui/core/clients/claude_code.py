"""``paw-tui install claude-code``: hooks, the MCP server and the machine's settings.

- ``.claude/settings.json`` (committed): the portable hook command on PreToolUse (every tool
  but the catalogue's read-only ones), PostToolUse (file and shell tools), SessionStart,
  UserPromptSubmit and SessionEnd; ``permissions.allow`` rules for paw's own MCP tools (the
  handshake, the read-only tools, the scope request), which would otherwise ask each time.
- ``.mcp.json`` (committed): the ``paw`` server, through the same indirection.
- ``.claude/settings.local.json`` (this machine): ``env.PAW_TUI_HOOK`` (this installation's
  hook script), the shell's ``BASH_ENV`` where the kernel offers Landlock, and the approval of
  the ``paw`` server (``enabledMcpjsonServers``), which the person gives by running install.
- ``.claude/.gitignore`` (committed): ignores ``settings.local.json``, this machine's paths.
- the hook script, in the user state directory.

Entries of ours are recognised by their command and replaced in place; everything else stays.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import commands
from paw_tui.core.clients.claude_local import LOCAL_SETTINGS, paw_server_declined
from paw_tui.core.clients.plan import PlannedFile, SetupPlan, ignore_file, json_file
from paw_tui.core.errors import ValidationError
from paw_tui.core.support.regular_file import read_regular_text

NAME = "claude-code"
SETTINGS = os.path.join(".claude", "settings.json")
MCP_CONFIG = ".mcp.json"
HOOK_TIMEOUT = 10
POST_TOOL_MATCHER = "Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell"
LOCAL_FILES = ("/settings.local.json",)
"""What ``.claude/.gitignore`` keeps out of commits."""
EVENTS = ("PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "SessionEnd")


def pre_tool_matcher() -> str:
    """Every tool but the ones the catalogue knows read-only for Claude Code: those never start
    a process (unknown and MCP tools reach the gate)."""
    from paw_tui.core.policy.catalogue import READ_ONLY, catalogue

    names = sorted(e.name for e in catalogue().for_client(NAME) if e.kind == READ_ONLY)
    return "^(?!(" + "|".join(names) + ")$).*"


def claude_hooks(command: str) -> dict[str, dict[str, object]]:
    """Our entry per Claude Code hook event."""
    handler = {"type": "command", "command": command, "timeout": HOOK_TIMEOUT}
    return {
        "PreToolUse": {"matcher": pre_tool_matcher(), "hooks": [dict(handler)]},
        "PostToolUse": {"matcher": POST_TOOL_MATCHER, "hooks": [dict(handler)]},
        "SessionStart": {"hooks": [dict(handler)]},
        "UserPromptSubmit": {"hooks": [dict(handler)]},
        "SessionEnd": {"hooks": [dict(handler)]},
    }


def _is_our_handler(handler: object) -> bool:
    return (
        isinstance(handler, dict)
        and isinstance(handler.get("command"), str)
        and commands.is_gate_command(handler["command"])
    )


def _is_ours(entry: object) -> bool:
    """An entry (matcher group) holding one of our gate handlers."""
    if not isinstance(entry, dict):
        return False
    hooks = entry.get("hooks")
    return isinstance(hooks, list) and any(_is_our_handler(h) for h in hooks)


def merge_hooks(
    settings: dict[str, object], entries: dict[str, dict[str, object]], path: str
) -> dict[str, object]:
    """``settings`` with our entry per event: in place of an older one of ours, else last;
    handlers the user added to an entry of ours stay, in that entry without ours."""
    merged = dict(settings)
    hooks = merged.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ValidationError(f"'hooks' in {path} is not an object; nothing was changed.")
    hooks = dict(hooks)
    for event, entry in entries.items():
        existing = hooks.get(event, [])
        if not isinstance(existing, list):
            raise ValidationError(f"'hooks.{event}' in {path} is not a list; nothing was changed.")
        kept, placed = [], False
        for item in existing:
            if _is_ours(item):
                if not placed:
                    kept.append(entry)
                    placed = True
                others = [h for h in item["hooks"] if not _is_our_handler(h)]
                if others:
                    kept.append(dict(item, hooks=others))
            else:
                kept.append(item)
        if not placed:
            kept.append(entry)
        hooks[event] = kept
    merged["hooks"] = hooks
    return merged


def paw_tool_rules() -> list[str]:
    """Permission rules for paw's own MCP tools: the handshake, the read-only tools and the
    scope request (a request grants nothing). Without them Claude Code asks before each call."""
    from paw_tui.core.handshake.names import READ_ONLY_TOOLS, REQUEST_SCOPE_TOOL, SELECT_TOOL

    names = (SELECT_TOOL, REQUEST_SCOPE_TOOL, *READ_ONLY_TOOLS)
    return [f"mcp__{commands.SERVER_NAME}__{name}" for name in names]


def merge_permissions(settings: dict[str, object], path: str) -> dict[str, object]:
    merged = dict(settings)
    permissions = merged.get("permissions", {})
    if not isinstance(permissions, dict):
        raise ValidationError(f"'permissions' in {path} is not an object; nothing was changed.")
    allow = permissions.get("allow", [])
    if not isinstance(allow, list):
        raise ValidationError(f"'permissions.allow' in {path} is not a list; nothing was changed.")
    missing = [rule for rule in paw_tool_rules() if rule not in allow]
    merged["permissions"] = {**permissions, "allow": [*allow, *missing]}
    return merged


def merge_mcp_config(config: dict[str, object], command: list[str], path: str) -> dict[str, object]:
    merged = dict(config)
    servers = merged.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise ValidationError(f"'mcpServers' in {path} is not an object; nothing was changed.")
    servers = dict(servers)
    servers[commands.SERVER_NAME] = {"command": command[0], "args": command[1:]}
    merged["mcpServers"] = servers
    return merged


def merge_local(settings: dict[str, object], env: dict[str, str], path: str) -> dict[str, object]:
    """The machine's settings: our variables in ``env``, and ``paw`` approved (and no longer
    declined) among the project's MCP servers."""
    merged = dict(settings)
    current = merged.get("env", {})
    if not isinstance(current, dict):
        raise ValidationError(f"'env' in {path} is not an object; nothing was changed.")
    merged["env"] = {**current, **env}
    lists: dict[str, list[object]] = {}
    for key in ("enabledMcpjsonServers", "disabledMcpjsonServers"):
        value = merged.get(key, [])
        if not isinstance(value, list):
            raise ValidationError(f"'{key}' in {path} is not a list; nothing was changed.")
        lists[key] = [name for name in value if name != commands.SERVER_NAME]
    merged["enabledMcpjsonServers"] = [*lists["enabledMcpjsonServers"], commands.SERVER_NAME]
    if "disabledMcpjsonServers" in merged:
        merged["disabledMcpjsonServers"] = lists["disabledMcpjsonServers"]
    return merged


def machine_environment(root: str) -> dict[str, str]:
    """This machine's variables: the hook script, and the kernel boundary where there is one."""
    from paw_tui.core.confine import boundary

    env = {commands.HOOK_ENV: commands.hook_script_path()}
    if boundary.available():
        env.update(boundary.shell_environment(root))
    return env


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    hook = commands.portable_hook_command(NAME)
    settings = os.path.join(root, SETTINGS)
    result.files.append(
        json_file(
            settings,
            lambda d: merge_permissions(merge_hooks(d, claude_hooks(hook), settings), settings),
        )
    )
    mcp = os.path.join(root, MCP_CONFIG)
    result.files.append(
        json_file(mcp, lambda d: merge_mcp_config(d, commands.portable_mcp_command(), mcp))
    )
    local = os.path.join(root, LOCAL_SETTINGS)
    declined = paw_server_declined(root)
    env = machine_environment(root)
    result.files.append(json_file(local, lambda d: merge_local(d, env, local)))
    result.files.append(ignore_file(root, ".claude", LOCAL_FILES, NAME))
    script = commands.hook_script_path()
    current = _read(script)
    result.files.append(PlannedFile(script, current, commands.hook_script_text(), 0o755))
    if declined:
        result.notes.append(
            "The paw MCP server had been declined in this project (disabledMcpjsonServers); "
            "it is enabled again."
        )
    result.steps.append(
        "Start Claude Code in this folder. If it asks whether you trust the folder, choose "
        "'Yes, proceed': the hooks run only in a trusted folder."
    )
    result.steps.append(
        "The paw MCP server is approved in .claude/settings.local.json; if Claude Code still "
        "asks, choose 'Use this MCP server' (not the default 'Continue without')."
    )
    result.steps.append("Run 'paw-tui doctor' to check the set-up.")
    return result


def _read(path: str) -> str | None:
    try:
        return read_regular_text(path)
    except OSError:
        return None
