"""Merging paw-tui's hooks and MCP server into a client's settings (``install``).

The merge never drops what the user has: other hooks, other servers and unknown keys stay as
they are; our own entries (recognised by the ``paw-tui`` gate command) are replaced in place,
so running it twice changes nothing the second time.
"""

from __future__ import annotations

import json
import os
import shlex
import sys

from paw_tui.core.errors import ValidationError

# Every tool except the known read-only ones reaches the gate: unknown and MCP tools are
# mutating until classified (DESIGN §6), and reads stay free of a process start.
READ_ONLY_FOR_MATCHER = (
    "Read",
    "Glob",
    "Grep",
    "LS",
    "NotebookRead",
    "WebFetch",
    "WebSearch",
    "TodoWrite",
    "Task",
    "Agent",
    "AskUserQuestion",
    "ExitPlanMode",
    "BashOutput",
    "KillShell",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
)
PRE_TOOL_MATCHER = "^(?!(" + "|".join(READ_ONLY_FOR_MATCHER) + ")$).*"
POST_TOOL_MATCHER = "Write|Edit|MultiEdit|NotebookEdit|Bash|PowerShell"
HOOK_TIMEOUT = 10
SERVER_NAME = "paw"
MARKER = " gate --client claude-code"  # how older installs ran the gate: the console script
GATE_CODE = "from paw_tui.gate.main import run; run()"  # and then the gate through python -c
LAUNCHER = os.path.join("paw_tui", "gate", "launch.py")


def launcher_path() -> str:
    """This installation's ``paw_tui/gate/launch.py``."""
    import paw_tui

    return os.path.join(os.path.dirname(os.path.abspath(paw_tui.__file__)), "gate", "launch.py")


def gate_command() -> list[str]:
    """The hook command: this installation's Python running the gate's launcher.

    Not the ``paw-tui`` console script: pip's launcher imports ``re`` (~15 ms, most of a
    hook's budget on every tool call). ``-I -S`` skip ``site`` and the environment; the
    launcher finds the package from its own location (:mod:`paw_tui.gate.launch`).
    """
    return [os.path.abspath(sys.executable), "-I", "-S", launcher_path(), "--client", "claude-code"]


def is_gate_command(command: str) -> bool:
    """Whether a hook command runs paw-tui's gate (any form an install wrote)."""
    return MARKER in command or GATE_CODE in command or LAUNCHER in command


def paw_command() -> list[str]:
    """How to run this installation's paw-tui: its console script, else ``python -m``."""
    bindir = os.path.dirname(os.path.abspath(sys.executable))
    for name in ("paw-tui", "paw-tui.exe"):
        candidate = os.path.join(bindir, name)
        if os.path.isfile(candidate):
            return [candidate]
    return [os.path.abspath(sys.executable), "-m", "paw_tui"]


def _shell_join(words: list[str]) -> str:
    return " ".join(shlex.quote(word) for word in words)


def _load_json_object(path: str) -> dict[str, object]:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ValidationError(f"Cannot read {path}: {exc.strerror or exc}.") from exc
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", "?")
        raise ValidationError(
            f"{path}:{line}: not valid JSON ({exc}); fix it first, nothing was changed."
        ) from exc
    if not isinstance(data, dict):
        raise ValidationError(f"{path}: expected a JSON object at the top; nothing was changed.")
    return data


def _is_our_handler(handler: object) -> bool:
    return (
        isinstance(handler, dict)
        and isinstance(handler.get("command"), str)
        and is_gate_command(handler["command"])
    )


def _is_ours(entry: object) -> bool:
    """An entry (matcher group) holding one of our gate handlers."""
    if not isinstance(entry, dict):
        return False
    hooks = entry.get("hooks")
    return isinstance(hooks, list) and any(_is_our_handler(h) for h in hooks)


def claude_hooks(gate_words: list[str] | None = None) -> dict[str, dict[str, object]]:
    """Our entry per Claude Code hook event."""
    gate = _shell_join(gate_words or gate_command())
    handler = {"type": "command", "command": gate, "timeout": HOOK_TIMEOUT}
    return {
        "PreToolUse": {"matcher": PRE_TOOL_MATCHER, "hooks": [dict(handler)]},
        "PostToolUse": {"matcher": POST_TOOL_MATCHER, "hooks": [dict(handler)]},
        "SessionStart": {"hooks": [dict(handler)]},
        "UserPromptSubmit": {"hooks": [dict(handler)]},
        "SessionEnd": {"hooks": [dict(handler)]},
    }


def merge_claude_settings(
    settings: dict[str, object], gate_words: list[str] | None = None
) -> dict[str, object]:
    merged = dict(settings)
    hooks = merged.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ValidationError(
            "'hooks' in .claude/settings.json is not an object; nothing was changed."
        )
    hooks = dict(hooks)
    for event, entry in claude_hooks(gate_words).items():
        existing = hooks.get(event, [])
        if not isinstance(existing, list):
            raise ValidationError(
                f"'hooks.{event}' in .claude/settings.json is not a list; nothing was changed."
            )
        kept, placed = [], False
        for item in existing:
            if _is_ours(item):
                # Our entry goes where the first old one was; handlers the user added to an
                # entry of ours stay, in that entry without our handler.
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


def merge_mcp_config(config: dict[str, object], command: list[str]) -> dict[str, object]:
    merged = dict(config)
    servers = merged.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise ValidationError("'mcpServers' in .mcp.json is not an object; nothing was changed.")
    servers = dict(servers)
    servers[SERVER_NAME] = {"command": command[0], "args": command[1:] + ["mcp", "--hooked"]}
    merged["mcpServers"] = servers
    return merged


class PlannedFile:
    __slots__ = ("path", "before", "after")

    def __init__(self, path: str, before: dict[str, object], after: dict[str, object]) -> None:
        self.path = path
        self.before = before
        self.after = after

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def text(self) -> str:
        return json.dumps(self.after, indent=2, ensure_ascii=False) + "\n"


def plan_claude_code(
    root: str, command: list[str] | None = None, gate_words: list[str] | None = None
) -> list[PlannedFile]:
    """What ``install claude-code`` would write, without writing it. ``command`` runs paw-tui
    (the MCP server), ``gate_words`` the hook (default: :func:`gate_command`)."""
    words = command or paw_command()
    settings_path = os.path.join(root, ".claude", "settings.json")
    mcp_path = os.path.join(root, ".mcp.json")
    settings = _load_json_object(settings_path)
    mcp = _load_json_object(mcp_path)
    planned = [
        PlannedFile(settings_path, settings, merge_claude_settings(settings, gate_words)),
        PlannedFile(mcp_path, mcp, merge_mcp_config(mcp, words)),
    ]
    shell_env = kernel_environment(root)
    if shell_env:
        # machine-specific (paths in this user's state directory): the local settings file
        local_path = os.path.join(root, ".claude", "settings.local.json")
        local = _load_json_object(local_path)
        planned.append(PlannedFile(local_path, local, merge_env(local, shell_env, local_path)))
    return planned


def kernel_environment(root: str) -> dict[str, str]:
    """What the client's shell needs to run confined (empty where the kernel cannot)."""
    from paw_tui.core.confine import boundary

    if not boundary.available():
        return {}
    return boundary.shell_environment(root)


def merge_env(settings: dict[str, object], env: dict[str, str], path: str) -> dict[str, object]:
    merged = dict(settings)
    current = merged.get("env", {})
    if not isinstance(current, dict):
        raise ValidationError(f"'env' in {path} is not an object; nothing was changed.")
    merged["env"] = {**current, **env}
    return merged


def apply(planned: list[PlannedFile]) -> list[str]:
    """Write the changed files atomically; the paths written."""
    from paw_tui.core.support.fsutil import atomic_write

    written = []
    for item in planned:
        if item.changed or not os.path.exists(item.path):
            os.makedirs(os.path.dirname(item.path), exist_ok=True)
            atomic_write(item.path, item.text().encode("utf-8"))
            written.append(item.path)
    return written
