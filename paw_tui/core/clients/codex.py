"""``paw-tui install codex``: hooks, the MCP server, and Codex's trust for both.

- ``.codex/hooks.json`` (committed): the portable hook command on PreToolUse (no matcher:
  every tool Codex hooks, the shell, ``apply_patch`` and MCP tools), PostToolUse (shell and
  patches), SessionStart, UserPromptSubmit and SessionEnd. Codex reads the same file shape as
  Claude Code; its matchers are Rust regular expressions without look-ahead (a group whose
  matcher uses one is dropped silently), so none of ours needs one.
- ``.codex/config.toml`` (committed): ``[mcp_servers.paw]``, the portable command with
  ``default_tools_approval_mode = "approve"`` (else each paw tool asks, or fails under
  ``approval_policy = "never"``) and ``env_vars`` passing ``PAW_TUI_HOOK`` through (Codex gives
  an MCP server only HOME, LANG, PATH, SHELL, TERM, TMPDIR and USER).
- ``$CODEX_HOME/config.toml`` (this machine, the person's): the project trusted (Codex ignores
  an untrusted project's ``.codex/``) and each of our hooks trusted by hash (Codex skips an
  untrusted hook silently); a project the person marked untrusted is left so, and said.
- the hook script, in the user state directory.

Codex can give neither hooks nor a project's MCP server a variable from its configuration (a
``[mcp_servers.paw.env]`` in the user config breaks Codex in every project without paw), so
``PAW_TUI_HOOK`` is the person's to export; without it the committed commands run the
``paw-tui`` on the PATH, and without that they deny, saying why.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import _toml, codex_trust, commands
from paw_tui.core.clients.claude_code import merge_hooks
from paw_tui.core.clients.plan import PlannedFile, SetupPlan, read_text
from paw_tui.core.errors import ValidationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.core.clients import canary as canaries
    from paw_tui.core.clients._hooks_json import Row

NAME = "codex"
TITLE = "Codex CLI"
HOOKS = os.path.join(".codex", "hooks.json")
CONFIG = os.path.join(".codex", "config.toml")
HOOK_TIMEOUT = 10
SESSION_END_TIMEOUT = 3  # Codex cuts SessionEnd hooks to 3 s whatever is configured
POST_TOOL_MATCHER = "^(Bash|apply_patch)$"
SERVER_TABLE = ("mcp_servers", commands.SERVER_NAME)
APPROVAL = "default_tools_approval_mode"
PASSED_VARIABLES = [commands.HOOK_ENV, "PAW_STATE_DIR", "XDG_STATE_HOME"]
"""What the paw server needs from Codex's environment: this machine's paw-tui and the state
directory the gate writes to."""
EVENTS = ("PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "SessionEnd")


def codex_hooks(command: str) -> dict[str, dict[str, object]]:
    """Our matcher group per Codex hook event."""

    def group(timeout: int = HOOK_TIMEOUT, matcher: str | None = None) -> dict[str, object]:
        entry: dict[str, object] = {"matcher": matcher} if matcher else {}
        entry["hooks"] = [{"type": "command", "command": command, "timeout": timeout}]
        return entry

    return {
        "PreToolUse": group(),
        "PostToolUse": group(matcher=POST_TOOL_MATCHER),
        "SessionStart": group(),
        "UserPromptSubmit": group(),
        "SessionEnd": group(SESSION_END_TIMEOUT),
    }


def paw_server() -> dict[str, object]:
    command = commands.portable_mcp_command()
    return {
        "command": command[0],
        "args": command[1:],
        "env_vars": list(PASSED_VARIABLES),
        APPROVAL: "approve",
    }


def our_identities(root: str, hooks_data: Mapping[str, object]) -> list[codex_trust.HookIdentity]:
    """The trust identities of paw-tui's handlers in a ``.codex/hooks.json``'s data."""
    hooks = hooks_data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    path = os.path.join(os.path.abspath(root), HOOKS)
    return [
        identity
        for identity in codex_trust.hook_identities(path, hooks)
        if commands.is_gate_command(identity.command)
    ]


class Trust:
    """What recording Codex's trust did to the user config."""

    __slots__ = ("text", "project", "hooks", "refused")

    def __init__(self, text: str) -> None:
        self.text = text
        self.project = False
        """The project's trust was recorded."""
        self.hooks = 0
        """How many of our hooks got their hash recorded."""
        self.refused = False
        """The person marked the project untrusted: it stays so."""


def trust_user_config(
    text: str, root: str, identities: list[codex_trust.HookIdentity], where: str
) -> Trust:
    """The user config with the project and our hooks trusted."""
    result = Trust(text)
    data = _toml.load(text, where)
    level = codex_trust.project_trust(data, root)
    result.refused = level not in (None, codex_trust.TRUSTED)
    # Both spellings of a symlinked root: which one Codex keys by depends on how it is started.
    if level is None:
        result.project = True
        for spelled in codex_trust.root_keys(root):
            values = {"trust_level": codex_trust.TRUSTED}
            result.text = _toml.set_keys(result.text, ("projects", spelled), values, where)
    for identity in identities:
        if codex_trust.trust_problem(data, identity) is None:
            continue
        result.hooks += 1
        for key in identity.keys:
            state = ("hooks", "state", key)
            values = {"trusted_hash": identity.hash}
            result.text = _toml.set_keys(result.text, state, values, where)
    return result


def _trust_notes(trust: Trust, user_path: str) -> list[str]:
    notes = []
    if trust.project:
        notes.append(
            f"{user_path}: this project is now trusted (Codex reads .codex/ only in a trusted "
            "project; this also lets the repository's other .codex/ settings load)."
        )
    if trust.hooks:
        notes.append(
            f"{user_path}: the hashes of paw-tui's {trust.hooks} hooks are recorded as trusted "
            "(Codex skips an untrusted or changed hook silently)."
        )
    return notes


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    hooks_path = os.path.join(root, HOOKS)
    hooks_file = hj.json_plan(
        hooks_path,
        lambda d: merge_hooks(d, codex_hooks(commands.portable_hook_command(NAME)), hooks_path),
    )
    result.files.append(hooks_file)
    config_path = os.path.join(root, CONFIG)
    config_before = read_text(config_path)
    config_after = _toml.set_keys(config_before or "", SERVER_TABLE, paw_server(), config_path)
    result.files.append(PlannedFile(config_path, config_before, config_after))
    user_path = codex_trust.user_config()
    user_before = read_text(user_path)
    assert isinstance(hooks_file.after, dict)
    identities = our_identities(root, hooks_file.after)
    trust = trust_user_config(user_before or "", root, identities, user_path)
    result.files.append(PlannedFile(user_path, user_before, trust.text))
    result.files.append(hj.hook_script_file())
    result.notes += _trust_notes(trust, user_path)
    note = hj.boundary_note(TITLE)
    if note:
        result.notes.append(note + " Codex's own sandbox still applies.")
    if trust.refused:
        result.steps.append(
            f"{user_path} marks this project untrusted, so Codex ignores .codex/ here and no "
            'tool call is governed: set trust_level = "trusted" for it, or trust the folder '
            "when Codex asks."
        )
    result.steps += [
        hj.reach_step("Codex") + f" The paw MCP server gets {commands.HOOK_ENV} through env_vars.",
        "If you edit .codex/hooks.json, run 'paw-tui install codex' again (or review the hooks "
        "in Codex with /hooks): Codex skips a changed hook silently until it is trusted again.",
        "Run 'paw-tui doctor' to check the set-up.",
    ]
    return result


# --- doctor -----------------------------------------------------------------------------


def _hooks_rows(hooks: object) -> list[Row]:
    rows = [
        row
        for row in hj.events_rows(
            NAME, HOOKS, hj.nested_entries(hooks), {"PreToolUse": "Codex's tool calls"}, EVENTS[1:]
        )
        if row[0] != hj.OK  # the trust rows say whether Codex runs them
    ]
    matchers = [group.get("matcher") for group, _ in hj.gate_groups(hooks, "PreToolUse")[:1]]
    look_around = [m for m in matchers if isinstance(m, str) and "(?" in m]
    if look_around:
        rows.append(
            (
                hj.FAIL,
                NAME,
                f"the PreToolUse matcher {look_around[0]!r} uses look-around, which Codex "
                "cannot compile: it drops the hook silently and tool calls run unseen",
            )
        )
    else:
        narrow = hj.matcher_row(NAME, "PreToolUse", matchers)
        rows += [narrow] if narrow else []
    return rows


def _trust_rows(root: str, hooks_data: Mapping[str, object]) -> list[Row]:
    user_path = codex_trust.user_config()
    try:
        user = _toml.load(read_text(user_path) or "", user_path)
        configs = [(user_path, user), *_project_config(root)]
    except ValidationError as exc:  # a broken config: Codex itself will not start
        return [(hj.FAIL, NAME, str(exc))]
    rows: list[Row] = []
    level = codex_trust.project_trust(user, root)
    if level != codex_trust.TRUSTED:
        state = "marked untrusted" if level else "not trusted"
        rows.append(
            (
                hj.FAIL,
                NAME,
                f"this project is {state} in {user_path}: Codex ignores .codex/ here, "
                "so no hook runs and tool calls run unseen; run 'paw-tui install codex'",
            )
        )
    for identity in our_identities(root, hooks_data):
        problem = codex_trust.trust_problem(user, identity)
        if problem:
            rows.append(
                (
                    hj.FAIL,
                    NAME,
                    f"the {identity.event} gate hook is {problem} in {user_path}: "
                    "Codex skips it silently; run 'paw-tui install codex' (or trust it in /hooks)",
                )
            )
    for where, data in configs:
        features = data.get("features")
        if isinstance(features, dict) and False in (
            features.get("hooks"),
            features.get("codex_hooks"),
        ):
            rows.append(
                (
                    hj.FAIL,
                    NAME,
                    f"hooks are turned off in {where} ([features]): tool calls run unseen",
                )
            )
    if not rows:
        rows.append((hj.OK, NAME, f"project and gate hooks trusted in {user_path}"))
    return rows


def _project_config(root: str) -> list[tuple[str, Mapping[str, object]]]:
    path = os.path.join(root, CONFIG)
    text = read_text(path)
    return [] if text is None else [(CONFIG, _toml.load(text, path))]


def _server_row(root: str) -> Row:
    try:
        configs = _project_config(root)
    except ValidationError as exc:
        return (hj.FAIL, NAME, str(exc))
    server = _toml.table_at(configs[0][1], SERVER_TABLE) if configs else None
    if server is None:
        return (
            hj.WARN,
            NAME,
            f"no [mcp_servers.paw] in {CONFIG}: the agent cannot select an "
            "intent, so every change is denied",
        )
    if server.get("enabled") is False:
        return (
            hj.WARN,
            NAME,
            f"the paw MCP server is disabled in {CONFIG} (enabled = false): every change is denied",
        )
    if server.get(APPROVAL) != "approve":
        return (
            hj.WARN,
            NAME,
            f'[mcp_servers.paw] in {CONFIG} lacks {APPROVAL} = "approve": '
            "each paw tool call asks for approval (and fails when nobody can answer)",
        )
    return (hj.OK, NAME, f"the paw MCP server is configured in {CONFIG}")


def doctor(root: str) -> list[Row]:
    """Nothing when Codex is not set up here; else whether Codex would run our hooks at all,
    and the canary through its PreToolUse commands."""
    hooks_path = os.path.join(root, HOOKS)
    if not os.path.exists(hooks_path) and not os.path.exists(os.path.join(root, CONFIG)):
        return []
    data, problem = hj.read_config(hooks_path)
    if problem:
        return [(hj.FAIL, NAME, problem)]
    hooks_data = data or {}
    rows = _hooks_rows(hooks_data.get("hooks"))
    rows += _trust_rows(root, hooks_data)
    rows.append(_server_row(root))
    rows.append(hj.reach_row(NAME))
    groups = hj.gate_groups(hooks_data.get("hooks"), "PreToolUse")
    ours = [handler for group, handler in groups if group is groups[0][0]]
    if ours:
        from paw_tui.core.clients import canary as canaries

        spec = canary(hj.hook_timeout(ours) or float(HOOK_TIMEOUT))
        rows.append(canaries.run_canary(root, spec, [str(hj.command_of(h)) for h in ours]))
    return rows


def canary(timeout: float = float(HOOK_TIMEOUT)) -> canaries.Canary:
    """How Codex 0.169.0 runs a PreToolUse hook: ``/bin/bash -c`` (even with ``SHELL`` naming
    another shell) in the session's folder, with Codex's own environment and no variable of
    its own; the payload is Claude Code's shape, a file write is an ``apply_patch``. It
    refuses the tool on ``permissionDecision: "deny"`` or exit 2, and runs it on exit 1, a
    timeout or stdout that is not JSON."""
    from paw_tui.core.clients import canary as canaries
    from paw_tui.core.clients.claude_doctor import pre_tool_payload

    def payload(scratch: canaries.Scratch) -> dict[str, object]:
        body = f"*** Begin Patch\n*** Add File: {scratch.file_name}\n+canary\n*** End Patch\n"
        patch = {"command": body}
        return pre_tool_payload(
            scratch, "apply_patch", patch, call_id="call_", turn_id=scratch.nonce
        )

    return canaries.Canary(
        NAME,
        TITLE,
        runs_as="/bin/bash -c, in the project folder, with Codex's environment",
        argv=lambda command: ["/bin/bash", "-c", command],
        environment=lambda _root, _scratch: canaries.launch_environment(),
        payload=payload,
        refusal=canaries.deny_json_or_exit_2,
        fails_open="on exit 1, a timeout, or stdout that is not JSON",
        timeout=timeout,
    )
