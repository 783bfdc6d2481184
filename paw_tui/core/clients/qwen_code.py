"""``paw-tui install qwen-code``: hooks and the MCP server in ``.qwen/settings.json``, this
machine's variables in ``.qwen/.env``.

Qwen Code (a Gemini CLI fork) reads hooks in **Claude Code's** protocol, only from the
``.qwen/`` of the folder it starts in (observed with 0.24.4, ``reference/clients-observed.md``
Part 2); Gemini-named events (``BeforeTool``) never run there, without a warning.

- ``.qwen/settings.json`` (committed): the portable hook command on ``PreToolUse`` (every tool
  but the catalogue's read-only ones), ``PostToolUse`` (file and shell tools), ``SessionStart``,
  ``UserPromptSubmit``, ``Stop`` (a headless run ends with it: no ``SessionEnd``) and
  ``SessionEnd``; timeouts in seconds. The ``paw`` MCP server, trusted (no confirmation per
  call).
- ``.qwen/.env`` (this machine, ignored by ``.qwen/.gitignore``): ``PAW_TUI_HOOK``; Qwen loads it
  into its environment, so its hooks, MCP servers and shell tool see it. Not ``BASH_ENV``: Qwen
  scrubs it (with ``LD_PRELOAD``, ``ZDOTDIR``, ``BASH_FUNC_*``) from every child's environment,
  so the kernel boundary cannot reach its shell; the command parser and drift detection hold
  Qwen's shell commands.
- the hook script, in the user state directory.

Qwen lets a tool run when a hook exits 1, 127 (even with stderr text), times out or prints
broken JSON: the portable command turns every such exit into a deny. Qwen expands ``$NAME`` and
``${NAME}`` in settings values, so the command has Gemini's form (only ``$PAW_TUI_HOOK``,
``$1`` and ``$?``). Folder trust (``security.folderTrust.enabled``) is **off** by default: any
folder's ``.qwen/settings.json`` hooks and MCP servers run without asking.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import commands
from paw_tui.core.clients.claude_code import merge_hooks
from paw_tui.core.clients.gemini_cli import hook_command, merge_env_text
from paw_tui.core.clients.ignore import ignore_plan
from paw_tui.core.clients.plan import PlannedFile, SetupPlan, read_text

NAME = "qwen-code"
TITLE = "Qwen Code"
FOLDER = ".qwen"
SETTINGS = os.path.join(FOLDER, "settings.json")
ENV_FILE = os.path.join(FOLDER, ".env")
LOCAL_FILES = ("/.env",)
"""What ``.qwen/.gitignore`` keeps out of commits."""
HOOK_TIMEOUT = 30
"""Seconds; the gate answers well within it (a slow gate is an open gate)."""
EVENTS = {
    "PreToolUse": hj.PRE_TOOL,
    "PostToolUse": hj.POST_TOOL,
    "SessionStart": hj.SESSION_START,
    "UserPromptSubmit": hj.PROMPT,
    "Stop": hj.SESSION_END,
    "SessionEnd": hj.SESSION_END,
}


def pre_tool_matcher() -> str:
    """Every tool but Qwen's read-only ones (a JavaScript regular expression)."""
    from paw_tui.core.policy.catalogue import READ_ONLY, catalogue

    names = sorted(e.name for e in catalogue().for_client(NAME) if e.kind == READ_ONLY)
    return "^(?!(" + "|".join(names) + ")$).*"


def post_tool_matcher() -> str:
    from paw_tui.core.policy.catalogue import FILE, PATCH, SHELL, catalogue

    names = sorted(e.name for e in catalogue().for_client(NAME) if e.kind in (FILE, PATCH, SHELL))
    return "^(" + "|".join(names) + ")$"


def qwen_hooks() -> dict[str, dict[str, object]]:
    """Our matcher group per Qwen hook event (``Stop`` ends the session, as ``SessionEnd``)."""
    entries: dict[str, dict[str, object]] = {}
    for event, kind in EVENTS.items():
        handler = {
            "type": "command",
            "command": hook_command(kind, NAME),
            "timeout": HOOK_TIMEOUT,
        }
        group: dict[str, object] = {"hooks": [handler]}
        if kind == hj.PRE_TOOL:
            group = {"matcher": pre_tool_matcher(), **group}
        elif kind == hj.POST_TOOL:
            group = {"matcher": post_tool_matcher(), **group}
        entries[event] = group
    return entries


def merge_settings(data: dict[str, object], path: str) -> dict[str, object]:
    merged = merge_hooks(data, qwen_hooks(), path)
    return hj.merge_server(merged, "mcpServers", hj.paw_server(trust=True), path)


def trust_step(root: str) -> str:
    return (
        "Qwen Code's folder trust (security.folderTrust.enabled) is off by default: every "
        "folder's .qwen/settings.json hooks and MCP servers run without asking, so a clone's "
        "hooks run too. If you turn it on, trust this folder (start 'qwen' here and accept, or "
        f'add "{os.path.abspath(root)}": "TRUST_FOLDER" to ~/.qwen/trustedFolders.json): in an '
        "untrusted folder Qwen runs no project hooks, and nothing is governed."
    )


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    settings = os.path.join(root, SETTINGS)
    result.files.append(
        hj.json_plan(settings, lambda d: merge_settings(d, settings), allow_comments=True)
    )
    env_path = os.path.join(root, ENV_FILE)
    env_before = read_text(env_path)
    env = {commands.HOOK_ENV: commands.hook_script_path()}
    header = f"# paw-tui: this machine's settings for {TITLE} (written by 'paw-tui install {NAME}')"
    result.files.append(PlannedFile(env_path, env_before, merge_env_text(env_before, env, header)))
    result.files.append(ignore_plan(root, FOLDER, LOCAL_FILES, NAME))
    result.files.append(hj.hook_script_file())
    hj.add_boundary_note(result.notes, TITLE)
    result.notes.append(
        ".qwen/.env holds this machine's paths and is ignored by .qwen/.gitignore: commit "
        ".qwen/settings.json and .qwen/.gitignore, not .qwen/.env."
    )
    result.steps += [
        trust_step(root),
        "Start Qwen Code from this folder: it reads only the .qwen/ of the folder it starts in. "
        "The agent reaches select_active_intent through tool_search (Qwen defers MCP tools).",
        "A headless run ('qwen PROMPT') ends with Stop, which releases the session; in an "
        "interactive session each turn does, and the agent selects its intent again on the "
        "next prompt.",
        "Run 'paw-tui doctor' to check the set-up.",
    ]
    return result


def doctor(root: str) -> list[tuple[str, str, str]]:
    from paw_tui.core.clients.qwen_doctor import check

    return check(root)
