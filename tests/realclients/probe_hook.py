#!/usr/bin/env python3
"""Probe hook: log every hook call, then allow (default), deny or inject context.

Usage (as a client's hook command)::

    python3 probe_hook.py --log LOG.jsonl [--config RULES.json] CLIENT EVENT

``CLIENT`` is ``claude``, ``gemini`` or ``codex`` (it picks the answer protocol), ``EVENT`` is
a label only (the payload's ``hook_event_name`` is what rules match). Each call appends one JSON
line to ``LOG``: the parsed stdin payload, argv, cwd, pid and selected environment variables.

Rules come from ``--config`` or, failing that, the file named by ``$PROBE_HOOK_CONFIG``; a bare
``$PROBE_HOOK_DENY=<reason>`` denies every pre-tool event. The file holds
``{"rules": [RULE, ...]}`` and the first rule that matches decides. A rule has ``event`` (a
hook_event_name, or a list of them), optional ``tool`` (a regex searched in tool_name), and
``action``: ``"deny"`` with ``reason``, or ``"context"`` with ``text`` (additionalContext).
No matching rule means "allow": no output, exit 0.

Answers: deny — Claude: ``hookSpecificOutput.permissionDecision: deny`` JSON and exit 2 (the
reason also on stderr); Gemini: ``{"decision": "deny", "reason": ...}`` exit 0; Codex:
``hookSpecificOutput.permissionDecision: deny`` exit 0. Context — all three:
``{"hookSpecificOutput": {"hookEventName": EVENT, "additionalContext": TEXT}}`` exit 0.

Stdlib only, and it never raises: a probe that crashed would fail open and hide the bug.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import sys
import time
from typing import Any

ENV_KEYS = (
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDECODE",
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_ENV_FILE",
    "AI_AGENT",
    "GEMINI_CLI",
    "GEMINI_SESSION_ID",
    "GEMINI_PROJECT_DIR",
    "GEMINI_CWD",
    "CODEX_SESSION_ID",
    "CODEX_THREAD_ID",
    "CODEX_CI",
    "CODEX_HOME",
    "BASH_ENV",
    "HOME",
    "PWD",
)
PRE_TOOL_EVENTS = ("PreToolUse", "BeforeTool")


def _parse_args(argv: list[str]) -> tuple[str | None, str | None, list[str]]:
    log = config = None
    rest: list[str] = []
    items = iter(argv)
    for item in items:
        if item == "--log":
            log = next(items, None)
        elif item == "--config":
            config = next(items, None)
        else:
            rest.append(item)
    return log, config, rest


def _load_rules(config: str | None) -> list[dict[str, Any]]:
    path = config or os.environ.get("PROBE_HOOK_CONFIG")
    rules: list[dict[str, Any]] = []
    if path and os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            rules = [r for r in data.get("rules", []) if isinstance(r, dict)]
        except (OSError, ValueError, AttributeError):
            rules = []
    deny = os.environ.get("PROBE_HOOK_DENY")
    if deny:
        rules.append({"event": list(PRE_TOOL_EVENTS), "action": "deny", "reason": deny})
    return rules


def _matches(rule: dict[str, Any], event: str, tool_name: str) -> bool:
    events = rule.get("event")
    if isinstance(events, str):
        events = [events]
    if events and event not in events:
        return False
    pattern = rule.get("tool")
    if pattern and not re.search(str(pattern), tool_name):
        return False
    return True


def answer(client: str, event: str, rule: dict[str, Any] | None) -> tuple[str, str, int]:
    """(stdout, stderr, exit code) for ``rule`` in ``client``'s protocol."""
    if rule is None:
        return "", "", 0
    if rule.get("action") == "context":
        out = {
            "hookSpecificOutput": {
                "hookEventName": event,
                "additionalContext": rule.get("text", ""),
            }
        }
        return json.dumps(out), "", 0
    if rule.get("action") == "deny":
        reason = str(rule.get("reason") or "denied by probe hook")
        if client == "gemini":
            return json.dumps({"decision": "deny", "reason": reason}), "", 0
        out = {
            "hookSpecificOutput": {
                "hookEventName": event,
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }
        if client == "claude":
            return json.dumps(out), reason, 2
        return json.dumps(out), "", 0
    return "", "", 0


def main(argv: list[str]) -> int:
    log, config, rest = _parse_args(argv)
    client = rest[0] if rest else "claude"
    label = rest[1] if len(rest) > 1 else ""
    raw = ""
    try:
        raw = sys.stdin.read()
    except (OSError, ValueError):
        pass
    try:
        payload: Any = json.loads(raw) if raw.strip() else None
    except ValueError:
        payload = None
    body = payload if isinstance(payload, dict) else {}
    event = str(body.get("hook_event_name") or label)
    tool_name = str(body.get("tool_name") or "")
    rule = next((r for r in _load_rules(config) if _matches(r, event, tool_name)), None)
    stdout, stderr, code = answer(client, event, rule)
    record = {
        "time": time.time(),
        "client": client,
        "label": label,
        "event": event,
        "tool_name": tool_name or None,
        "payload": payload,
        "raw_stdin": None if payload is not None else raw,
        "argv": sys.argv,
        "cwd": os.getcwd(),
        "pid": os.getpid(),
        "ppid": os.getppid(),
        "env": {key: os.environ[key] for key in ENV_KEYS if key in os.environ},
        "env_names": sorted(os.environ),
        "answer": {"stdout": stdout, "stderr": stderr, "exit": code},
    }
    if log:
        try:
            with open(log, "a", encoding="utf-8") as handle:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX)  # parallel hooks append whole lines
                handle.write(json.dumps(record) + "\n")
        except OSError:
            pass
    if stdout:
        sys.stdout.write(stdout)
        sys.stdout.flush()
    if stderr:
        sys.stderr.write(stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
