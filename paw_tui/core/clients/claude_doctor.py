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

import json
import os

from paw_tui.core.clients import canary as canaries
from paw_tui.core.clients._hooks_json import FAIL, OK, WARN
from paw_tui.core.clients.claude_code import EVENTS, HOOK_TIMEOUT, NAME, SETTINGS, pre_tool_matcher
from paw_tui.core.clients.claude_local import LOCAL_SETTINGS
from paw_tui.core.clients.commands import is_gate_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    Row = tuple[str, str, str]

TITLE = "Claude Code"
HOOK_AGENT = "claude-code_doctor_harness"
"""``AI_AGENT`` as Claude Code sets it for hooks (``claude-code_<version>_harness``)."""


def settings_environment(root: str) -> dict[str, str]:
    """The ``env`` of Claude Code's project settings, the local file's winning."""
    env: dict[str, str] = {}
    for name in (SETTINGS, LOCAL_SETTINGS):
        try:
            with open(os.path.join(root, name), encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            continue
        values = data.get("env") if isinstance(data, dict) else None
        if isinstance(values, dict):
            env.update({str(k): str(v) for k, v in values.items()})
    return env


def _gate_hooks(settings: object) -> tuple[dict[str, list[str]], list[str], list[float]]:
    """The gate commands per event, the PreToolUse matchers and timeouts of ours."""
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    found: dict[str, list[str]] = {}
    matchers: list[str] = []
    timeouts: list[float] = []
    for event, entries in hooks.items() if isinstance(hooks, dict) else []:
        for entry in entries if isinstance(entries, list) else []:
            for handler in entry.get("hooks", []) if isinstance(entry, dict) else []:
                command = handler.get("command") if isinstance(handler, dict) else None
                if isinstance(command, str) and is_gate_command(command):
                    found.setdefault(event, []).append(command)
                    if event == "PreToolUse":
                        matchers.append(str(entry.get("matcher", "")))
                        timeout = handler.get("timeout")
                        if isinstance(timeout, (int, float)) and timeout > 0:
                            timeouts.append(float(timeout))
    return found, matchers, timeouts


def pre_tool_commands(root: str) -> list[str]:
    """The configured PreToolUse gate commands (empty when there are none, or no settings)."""
    try:
        with open(os.path.join(root, SETTINGS), encoding="utf-8") as handle:
            settings = json.load(handle)
    except (OSError, ValueError):
        return []
    return _gate_hooks(settings)[0].get("PreToolUse", [])


def doctor(root: str) -> list[Row]:
    """The hooks' rows, then the canary's."""
    path = os.path.join(root, SETTINGS)
    if not os.path.exists(path):
        return [
            (
                WARN,
                NAME,
                "no .claude/settings.json: run 'paw-tui install claude-code' to enforce the "
                "handshake",
            )
        ]
    try:
        with open(path, encoding="utf-8") as handle:
            settings = json.load(handle)
    except (OSError, ValueError) as exc:
        return [(FAIL, NAME, f"{path} cannot be read as JSON: {exc}")]
    found, matchers, timeouts = _gate_hooks(settings)
    if "PreToolUse" not in found:
        return [
            (FAIL, NAME, "no PreToolUse gate hook in .claude/settings.json: nothing is enforced")
        ]
    rows: list[Row] = []
    missing = [event for event in EVENTS if event not in found]
    if missing:
        rows.append((WARN, NAME, f"gate hooks missing for {', '.join(missing)}"))
    else:
        rows.append((OK, NAME, "gate hooks present for all five events"))
    if any(m not in (pre_tool_matcher(), "*", "", ".*") for m in matchers):
        rows.append(
            (
                WARN,
                NAME,
                "the PreToolUse matcher is narrower than 'install' writes: tools it misses are "
                "not governed",
            )
        )
    timeout = min(timeouts) if timeouts else float(HOOK_TIMEOUT)
    rows.append(canaries.run_canary(root, canary(timeout), found["PreToolUse"]))
    return rows


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
        return {
            "session_id": scratch.session_id,
            "cwd": scratch.root,
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": scratch.file_path, "content": "canary\n"},
            "tool_use_id": "toolu_" + scratch.nonce,
        }

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
