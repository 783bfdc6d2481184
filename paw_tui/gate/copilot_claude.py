"""A Claude Code hook run by Copilot CLI: each call decided once, as Copilot's.

Copilot CLI (1.0.102, observed) runs the hooks of ``.claude/settings.json`` beside its own
``.github/hooks/*.json``, sending them Claude Code's event names with its own payload shape
(``{hook_event_name, session_id, timestamp, cwd, tool_name, tool_input}``, Copilot's arguments
under Claude's tool names) and its own variables (``COPILOT_CLI=1``, ``COPILOT_PROJECT_DIR``).
With both ``install claude-code`` and ``install copilot``, every call would be gated twice and
recorded as Claude Code's.

So the Claude Code hook steps aside when, and only when, all of these hold: the variables say
Copilot runs it, the payload lacks ``transcript_path`` (which Claude Code always sends: a
person's exported variables do not make a Claude Code call look like Copilot's), and
Copilot's own hooks file in that project runs paw-tui's gate on the same event and is not
switched off. Otherwise it decides, and, for a call Copilot sent, decides it as Copilot's.
Either way exactly one hook decides; never none. Standard library only: the gate's path.
"""

from __future__ import annotations

import os

from paw_tui.core.support import fastjson as json
from paw_tui.core.support.regular_file import read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MARKER = "COPILOT_CLI"
PROJECT = "COPILOT_PROJECT_DIR"
HOOKS_DIR = os.path.join(".github", "hooks")
COPILOT_EVENTS = {
    "PreToolUse": "preToolUse",
    "PostToolUse": "postToolUse",
    "SessionStart": "sessionStart",
    "UserPromptSubmit": "userPromptSubmitted",
    "SessionEnd": "sessionEnd",
}
OWN_CLIENTS = (" gate --client copilot", " gate --client vscode")
"""The gate commands whose answers serve Copilot (VS Code's entries read its payloads too)."""


def copilot_call(payload: Mapping[str, object], environ: Mapping[str, str]) -> bool:
    """Whether a Claude Code-protocol payload was sent by Copilot CLI."""
    return (
        environ.get(MARKER) == "1"
        and bool((environ.get(PROJECT) or "").strip())
        and "transcript_path" not in payload
    )


def own_hook_decides(environ: Mapping[str, str], event: object) -> bool:
    """Whether Copilot's own hooks file in its project runs paw-tui's gate on ``event``."""
    camel = COPILOT_EVENTS.get(event) if isinstance(event, str) else None
    if camel is None:
        return False
    directory = os.path.join(str(environ.get(PROJECT)), HOOKS_DIR)
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".json"))
    except OSError:
        return False
    for name in names:
        try:
            data = json.loads(read_regular(os.path.join(directory, name)))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict) or data.get("disableAllHooks") is True:
            continue
        hooks = data.get("hooks")
        entries = hooks.get(camel) if isinstance(hooks, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            command = entry.get("bash") if isinstance(entry, dict) else None
            if isinstance(command, str) and any(own in command for own in OWN_CLIENTS):
                return True
    return False
