"""Codex's two trust steps, computed the way Codex 0.169 computes them.

Codex reads a project's ``.codex/`` only when the user config (``$CODEX_HOME/config.toml``)
trusts the project (``[projects."<root>"] trust_level = "trusted"``), and runs a project hook
only when the user config holds its hash (``[hooks.state."<key>"] trusted_hash``); an
untrusted or modified hook is skipped **silently**. A hook's key is
``<absolute hooks.json>:<event>:<group index>:<handler index>`` (event in snake case), its hash
``sha256:`` + the SHA-256 of the compact, key-sorted JSON of the normalized hook: the event, the
group's matcher (where the event has matchers) and the one handler with its timeout filled in
(``codex-rs/hooks/src/engine/discovery.rs``; checked against ``codex app-server``'s
``hooks/list`` in the real-client tests).
"""

from __future__ import annotations

import hashlib
import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

CONFIG = "config.toml"
HOOKS_FILE = "hooks.json"
TRUSTED = "trusted"
EVENT_LABELS = {
    "PreToolUse": "pre_tool_use",
    "PostToolUse": "post_tool_use",
    "SessionStart": "session_start",
    "UserPromptSubmit": "user_prompt_submit",
    "SessionEnd": "session_end",
    "Stop": "stop",
    "PermissionRequest": "permission_request",
}
MATCHERLESS = frozenset({"user_prompt_submit", "stop"})
"""Events whose matcher Codex ignores (and leaves out of the hash)."""
DEFAULT_TIMEOUT = 600
SESSION_END_TIMEOUT = (1, 3)
"""SessionEnd hooks: 1 s unless set, never more than 3 s (Codex 0.169)."""


def codex_home(environ: Mapping[str, str] | None = None) -> str:
    """``$CODEX_HOME``, else ``~/.codex``."""
    env = os.environ if environ is None else environ
    home = (env.get("CODEX_HOME") or "").strip()
    return home or os.path.join(os.path.expanduser("~"), ".codex")


def user_config(environ: Mapping[str, str] | None = None) -> str:
    return os.path.join(codex_home(environ), CONFIG)


def root_keys(root: str) -> list[str]:
    """The spellings of ``root`` Codex may use as a key: as given, and its real path."""
    given = os.path.abspath(root)
    real = os.path.realpath(given)
    return [given] if real == given else [given, real]


def project_trust(user_data: Mapping[str, object], root: str) -> str | None:
    """The ``trust_level`` the user config gives ``root`` (or an ancestor of it: Codex also
    trusts a project through its repository's root); None when it gives none."""
    projects = user_data.get("projects")
    if not isinstance(projects, dict):
        return None
    for spelled in root_keys(root):
        path = spelled
        while True:
            entry = projects.get(path)
            if isinstance(entry, dict) and isinstance(entry.get("trust_level"), str):
                return str(entry["trust_level"])
            parent = os.path.dirname(path)
            if parent == path:
                break
            path = parent
    return None


class HookIdentity:
    """One handler of a ``hooks.json``: the keys Codex may file its trust under (one per
    spelling of the file's path), and the hash it wants there."""

    __slots__ = ("keys", "hash", "event", "command")

    def __init__(self, keys: list[str], hash_: str, event: str, command: str) -> None:
        self.keys = keys
        self.hash = hash_
        self.event = event
        self.command = command


def hook_identities(hooks_path: str, hooks: Mapping[str, object]) -> Iterator[HookIdentity]:
    """Every command handler in ``hooks`` (the file's ``"hooks"`` object), with its keys and
    hash."""
    paths = root_keys(hooks_path)
    for event, groups in hooks.items():
        label = EVENT_LABELS.get(event)
        if label is None or not isinstance(groups, list):
            continue
        for group_index, group in enumerate(groups):
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                continue
            for handler_index, handler in enumerate(group["hooks"]):
                if not isinstance(handler, dict) or handler.get("type", "command") != "command":
                    continue
                command = handler.get("command")
                if not isinstance(command, str):
                    continue
                keys = [f"{path}:{label}:{group_index}:{handler_index}" for path in paths]
                hash_ = hook_hash(label, group.get("matcher"), handler)
                yield HookIdentity(keys, hash_, event, command)


def hook_hash(label: str, matcher: object, handler: Mapping[str, object]) -> str:
    """Codex's ``currentHash`` of one handler (see the module docstring)."""
    timeout = handler.get("timeout", handler.get("timeoutSec"))
    if label == "session_end":
        default, cap = SESSION_END_TIMEOUT
        seconds = min(timeout if isinstance(timeout, int) else default, cap)
    else:
        seconds = timeout if isinstance(timeout, int) else DEFAULT_TIMEOUT
    normalized: dict[str, object] = {
        "type": "command",
        "command": handler["command"],
        "timeout": max(1, seconds),
        "async": handler.get("async") is True,
    }
    status = handler.get("statusMessage")
    if isinstance(status, str):
        normalized["statusMessage"] = status
    identity: dict[str, object] = {"event_name": label, "hooks": [normalized]}
    if isinstance(matcher, str) and label not in MATCHERLESS:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def hook_state(user_data: Mapping[str, object], key: str) -> Mapping[str, object]:
    """``[hooks.state."<key>"]`` of the user config (empty when absent)."""
    hooks = user_data.get("hooks")
    states = hooks.get("state") if isinstance(hooks, dict) else None
    state = states.get(key) if isinstance(states, dict) else None
    return state if isinstance(state, dict) else {}


def trust_problem(user_data: Mapping[str, object], identity: HookIdentity) -> str | None:
    """Why Codex would skip this hook (None when it is trusted and enabled)."""
    problems = []
    for key in identity.keys:
        state = hook_state(user_data, key)
        trusted = state.get("trusted_hash")
        if state.get("enabled") is False:
            problems.append("disabled")
        elif trusted == identity.hash:
            return None
        elif trusted is not None:
            problems.append("changed since it was trusted")
    return problems[0] if problems else "not trusted"
