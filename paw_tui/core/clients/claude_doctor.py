"""``paw-tui doctor`` for Claude Code: the gate hooks in ``.claude/settings.json``, and the
canary through the configured PreToolUse command.

Rows ``(status, "claude-code", detail)`` for the hooks and one ``claude-code canary`` row.
Claude Code runs a hook as ``/bin/sh -c "<command>"`` in the project folder, with its own
environment, the ``env`` of ``.claude/settings.json`` and ``settings.local.json`` (the local
file winning), ``CLAUDE_PROJECT_DIR``, ``CLAUDECODE=1``, the session id, and ``AI_AGENT`` ending
in ``_harness`` (seen with the real 2.1.330 binary). It refuses the tool on a
``permissionDecision: "deny"`` or on exit 2, and runs it on exit 1, 127 or a timeout.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import canary as canaries
from paw_tui.core.clients.claude_code import (
    EVENTS,
    HOOK_TIMEOUT,
    LOCAL_FILES,
    NAME,
    SETTINGS,
    pre_tool_matcher,
)
from paw_tui.core.clients.claude_local import LOCAL_SETTINGS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.core.clients._hooks_json import Row

TITLE = "Claude Code"
HOOK_AGENT = "claude-code_doctor_harness"
"""``AI_AGENT`` as Claude Code sets it for hooks (``claude-code_<version>_harness``)."""


def settings_environment(root: str) -> dict[str, str]:
    """The ``env`` of Claude Code's project settings, the local file's winning."""
    env: dict[str, str] = {}
    for name in (SETTINGS, LOCAL_SETTINGS):
        data, _problem = hj.read_config(os.path.join(root, name), allow_comments=False)
        values = data.get("env") if data else None
        if isinstance(values, dict):
            env.update({str(k): str(v) for k, v in values.items()})
    return env


def pre_tool_commands(root: str) -> list[str]:
    """The configured PreToolUse gate commands (empty when there are none, or no settings)."""
    data, _problem = hj.read_config(os.path.join(root, SETTINGS), allow_comments=False)
    hooks = data.get("hooks") if data else None
    return [str(hj.command_of(handler)) for _group, handler in hj.gate_groups(hooks, "PreToolUse")]


def doctor(root: str) -> list[Row]:
    """The hooks' rows, then the canary's."""
    settings, missing = hj.doctor_config(root, SETTINGS, NAME, TITLE, allow_comments=False)
    if settings is None:
        return missing
    hooks = settings.get("hooks")
    pre_tool = hj.gate_groups(hooks, "PreToolUse")
    if not pre_tool:
        return [
            (hj.FAIL, NAME, "no PreToolUse gate hook in .claude/settings.json: nothing is enforced")
        ]
    rows = hj.events_rows(
        NAME, SETTINGS, hj.nested_entries(hooks), {}, EVENTS[1:], " for all five events"
    )
    matchers = [group.get("matcher") for group, _ in pre_tool]
    narrow = hj.matcher_row(NAME, "PreToolUse", matchers, (*hj.WIDE_MATCHERS, pre_tool_matcher()))
    if narrow:
        rows.append(narrow)
    unignored = hj.ignore_row(NAME, root, ".claude", LOCAL_FILES)
    if unignored and os.path.exists(os.path.join(root, LOCAL_SETTINGS)):
        rows.append(unignored)
    handlers = [handler for _group, handler in pre_tool]
    timeout = hj.hook_timeout(handlers) or float(HOOK_TIMEOUT)
    commands = [str(hj.command_of(handler)) for handler in handlers]
    rows.append(canaries.run_canary(root, canary(timeout), commands))
    return rows


def pre_tool_payload(
    scratch: canaries.Scratch,
    tool: str,
    tool_input: Mapping[str, object],
    *,
    call_id: str = "toolu_",
    **extra: object,
) -> dict[str, object]:
    """Claude Code's PreToolUse payload for the canary's write, the shape Codex and Qwen Code
    send too (``extra``: their own fields; ``call_id``: how their call ids start)."""
    return {
        "session_id": scratch.session_id,
        "cwd": scratch.root,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": dict(tool_input),
        "tool_use_id": call_id + scratch.nonce,
        **extra,
    }


def canary(timeout: float = float(HOOK_TIMEOUT)) -> canaries.Canary:
    """How Claude Code runs a PreToolUse hook (see the module docstring)."""

    def environment(root: str, scratch: canaries.Scratch) -> dict[str, str]:
        env = canaries.launch_environment()
        env.update(settings_environment(root))
        env.update(
            CLAUDE_PROJECT_DIR=root,
            CLAUDECODE="1",
            CLAUDE_CODE_SESSION_ID=scratch.session_id,
            AI_AGENT=HOOK_AGENT,
        )
        return env

    def payload(scratch: canaries.Scratch) -> dict[str, object]:
        write = {"file_path": scratch.file_path, "content": "canary\n"}
        return pre_tool_payload(scratch, "Write", write)

    return canaries.Canary(
        NAME,
        TITLE,
        runs_as="/bin/sh -c, in the project folder, with the settings' env",
        argv=lambda command: ["/bin/sh", "-c", command],
        environment=environment,
        payload=payload,
        refusal=canaries.deny_json_or_exit_2,
        fails_open="on exit 1, 127 or a timeout",
        timeout=timeout,
    )
