"""What every client's set-up module shares: the hook command per event, merging paw-tui's
entries into a client's JSON configuration without touching anyone else's, the MCP server
entry, the hook script, and the one reader of those files that the doctors' checks run on.

Hook files come in two forms: *flat* (each event a list of entries, each entry one command:
Cursor, Copilot, VS Code, Windsurf, Kiro) and *nested* (each event a list of matcher groups,
each group's ``hooks`` a list of handlers: Claude Code, Gemini CLI, Qwen Code, Codex).
:func:`gate_entries` reads the first, :func:`gate_groups` the second, and
:func:`nested_entries` turns the second into the first for the shared rows.

A client's hook command carries ``--event``: Copilot's camelCase payloads do not say which
event they are, and a payload that cannot be read at a prompt or session event must still be
answered as that event (context, never a block), not as a tool call.
"""

from __future__ import annotations

import os
import shutil

from paw_tui.core.clients import commands
from paw_tui.core.clients.plan import PlannedFile, load_json_object, read_text
from paw_tui.core.errors import ValidationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    Row = tuple[str, str, str]
    """A doctor row: (status: OK, WARN or FAIL; the client; the detail)."""

OK, WARN, FAIL = "ok", "warn", "FAIL"
PRE_TOOL = "pre_tool"
POST_TOOL = "post_tool"
SESSION_START = "session_start"
PROMPT = "prompt"
SESSION_END = "session_end"
COMMAND_FIELDS = ("command", "bash", "powershell", "linux", "osx", "windows")
"""Where a client's hook entry keeps its command (Copilot ``bash``, VS Code per-OS fields)."""


def hook_command(client: str, event: str, stdout_deny: str | None = None) -> str:
    """The portable hook command for ``client``, answering as ``event`` (see the module doc;
    ``stdout_deny``: :func:`~paw_tui.core.clients.commands.portable_hook_command`)."""
    base = commands.portable_hook_command(client, stdout_deny)
    marker = f"gate --client {client};"
    if marker not in base:  # pragma: no cover - guards a change of the shared command's form
        raise RuntimeError(f"the portable hook command no longer ends its arguments: {base!r}")
    return base.replace(marker, f"gate --client {client} --event {event};", 1)


def command_of(entry: object) -> str | None:
    """The command an entry runs, wherever the client keeps it (Kiro v3: ``action.command``)."""
    if not isinstance(entry, dict):
        return None
    for field in COMMAND_FIELDS:
        value = entry.get(field)
        if isinstance(value, str):
            return value
    action = entry.get("action")
    return command_of(action) if isinstance(action, dict) else None


def is_ours(entry: object) -> bool:
    command = command_of(entry)
    return command is not None and commands.is_gate_command(command)


def merge_list(existing: object, entry: Mapping[str, object], where: str) -> list[object]:
    """``existing`` (a JSON list) with ``entry`` in place of the first entry of ours, later
    ones of ours dropped, everything else kept; ``entry`` last when none was ours."""
    if not isinstance(existing, list):
        raise ValidationError(f"{where} is not a list; nothing was changed.")
    merged: list[object] = []
    placed = False
    for item in existing:
        if is_ours(item):
            if not placed:
                merged.append(dict(entry))
                placed = True
        else:
            merged.append(item)
    if not placed:
        merged.append(dict(entry))
    return merged


def merge_event_hooks(
    data: dict[str, object], entries: Mapping[str, Mapping[str, object]], path: str
) -> dict[str, object]:
    """``data["hooks"]`` (event -> list of entries: Cursor, Copilot, VS Code, Windsurf) with
    our entry per event merged in."""
    merged = dict(data)
    hooks = merged.get("hooks", {})
    if not isinstance(hooks, dict):
        raise ValidationError(f"'hooks' in {path} is not an object; nothing was changed.")
    hooks = dict(hooks)
    for event, entry in entries.items():
        hooks[event] = merge_list(hooks.get(event, []), entry, f"'hooks.{event}' in {path}")
    merged["hooks"] = hooks
    return merged


def merge_server(
    data: dict[str, object], key: str, server: Mapping[str, object], path: str
) -> dict[str, object]:
    """``data[key]`` (the client's MCP servers) with the ``paw`` server set; other servers
    stay, and fields the person added to ours (``disabled``, approvals) are kept."""
    merged = dict(data)
    servers = merged.get(key, {})
    if not isinstance(servers, dict):
        raise ValidationError(f"'{key}' in {path} is not an object; nothing was changed.")
    servers = dict(servers)
    current = servers.get(commands.SERVER_NAME)
    servers[commands.SERVER_NAME] = {**(current if isinstance(current, dict) else {}), **server}
    merged[key] = servers
    return merged


def paw_server(**extra: object) -> dict[str, object]:
    """The ``paw`` MCP server: the portable command (no machine path), plus what the client
    needs (Copilot's ``tools``, VS Code's ``type``)."""
    command = commands.portable_mcp_command()
    return {**extra, "command": command[0], "args": command[1:]}


def json_plan(
    path: str,
    merge: Callable[[dict[str, object]], dict[str, object]],
    *,
    allow_comments: bool = False,
) -> PlannedFile:
    """``path`` read as a JSON object (ValidationError naming it, nothing written, when it
    cannot be) and merged."""
    before = load_json_object(path, allow_comments=allow_comments)
    return PlannedFile(path, before, merge(dict(before or {})))


def hook_script_file() -> PlannedFile:
    """This machine's hook script, in the user state directory (what ``PAW_TUI_HOOK`` names)."""
    script = commands.hook_script_path()
    return PlannedFile(script, read_text(script), commands.hook_script_text(), 0o755)


def reach_step(client_title: str) -> str:
    """How the committed command finds paw-tui on this machine: these clients keep no local
    settings paw-tui could write ``PAW_TUI_HOOK`` into."""
    return (
        f'{client_title}\'s hooks run "${{{commands.HOOK_ENV}:-paw-tui}}": export '
        f"{commands.HOOK_ENV}={commands.hook_script_path()} in the environment {client_title} "
        "starts from (your shell profile) for the fast path, or keep paw-tui on the PATH; "
        "where there is neither, every tool call is denied, saying why."
    )


def boundary_note(client_title: str) -> str | None:
    """Said where the kernel could confine shell commands but this client's shell cannot be
    given the variable that does it."""
    from paw_tui.core.confine import boundary

    if not boundary.available():
        return None
    return (
        f"{client_title}'s shell commands are not confined by the kernel boundary (paw-tui "
        "cannot set that shell's environment); the command parser and drift detection apply."
    )


# --- doctor -----------------------------------------------------------------------------


def read_config(
    path: str, *, allow_comments: bool = True
) -> tuple[dict[str, object] | None, str | None]:
    """``(data, None)``, ``(None, None)`` when absent, ``(None, problem)`` when unreadable
    (``allow_comments``: ``//`` lines skipped, as most clients read their settings)."""
    try:
        return load_json_object(path, allow_comments=allow_comments), None
    except ValidationError as exc:
        return None, str(exc)


def doctor_config(
    root: str, rel: str, client: str, title: str, *, allow_comments: bool = True
) -> tuple[dict[str, object] | None, list[tuple[str, str, str]]]:
    """A client's configuration file for its doctor, or the one row saying why there is none:
    FAIL when it cannot be read, WARN naming the install command when it is absent."""
    data, problem = read_config(os.path.join(root, rel), allow_comments=allow_comments)
    if problem:
        return None, [(FAIL, client, problem)]
    if data is None:
        return None, [(WARN, client, f"no {rel}: run 'paw-tui install {client}' to govern {title}")]
    return data, []


def add_boundary_note(notes: list[str], client_title: str) -> None:
    """:func:`boundary_note` added to an install's ``notes`` when it applies."""
    note = boundary_note(client_title)
    if note:
        notes.append(note)


def gate_entries(hooks: object, event: str) -> list[dict[str, object]]:
    """Our entries under ``hooks[event]`` (the flat form)."""
    entries = hooks.get(event) if isinstance(hooks, dict) else None
    return [e for e in entries if is_ours(e)] if isinstance(entries, list) else []


def gate_groups(hooks: object, event: str) -> list[tuple[dict[str, object], dict[str, object]]]:
    """Our handlers under ``hooks[event]`` in the nested form, each with its matcher group."""
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    found: list[tuple[dict[str, object], dict[str, object]]] = []
    for group in groups if isinstance(groups, list) else []:
        handlers = group.get("hooks") if isinstance(group, dict) else None
        for handler in handlers if isinstance(handlers, list) else []:
            if is_ours(handler):
                found.append((group, handler))
    return found


def nested_entries(hooks: object) -> dict[str, list[object]]:
    """The nested form's handlers per event, in the flat form (the groups dropped)."""
    flat: dict[str, list[object]] = {}
    for event, groups in hooks.items() if isinstance(hooks, dict) else []:
        for group in groups if isinstance(groups, list) else []:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            flat.setdefault(event, []).extend(handlers if isinstance(handlers, list) else [])
    return flat


def events_rows(
    check: str,
    rel: str,
    hooks: object,
    required: Mapping[str, str],
    optional: tuple[str, ...],
    present: str = "",
) -> list[Row]:
    """FAIL for each ``required`` event (event -> what runs unseen without it) with no gate
    entry, warn for missing ``optional`` ones, ok otherwise (``present`` ends that row)."""
    rows: list[Row] = []
    for event, unseen in required.items():
        if not gate_entries(hooks, event):
            rows.append((FAIL, check, f"no gate hook on {event} in {rel}: {unseen} run unseen"))
    missing = [event for event in optional if not gate_entries(hooks, event)]
    if missing:
        rows.append((WARN, check, f"gate hooks missing in {rel} for {', '.join(missing)}"))
    if not rows:
        rows.append((OK, check, f"gate hooks present in {rel}{present}"))
    return rows


def hook_timeout(
    handlers: list[dict[str, object]], field: str = "timeout", unit: float = 1.0
) -> float | None:
    """The shortest positive ``field`` among ``handlers``, in seconds (``unit``: seconds per
    step of the field, 0.001 for Gemini's milliseconds); None when none has one."""
    found = [
        float(value) * unit
        for handler in handlers
        if isinstance(value := handler.get(field), (int, float)) and value > 0
    ]
    return min(found) if found else None


WIDE_MATCHERS: tuple[str | None, ...] = (None, "", "*", ".*")
"""Matchers that let every tool reach a hook (no matcher, or one matching all)."""


def matcher_row(
    check: str, event: str, matchers: list[object], wide: tuple[str | None, ...] = WIDE_MATCHERS
) -> Row | None:
    """A warning when a matcher of our ``event`` gate hook is not one of ``wide`` (those that
    reach every tool, and the one ``install`` writes)."""
    if all(matcher in wide for matcher in matchers):
        return None
    return (
        WARN,
        check,
        f"the {event} gate hook has a matcher narrower than 'install' writes: tools it misses "
        "run unseen",
    )


def server_row(check: str, root: str, rel: str, key: str) -> Row:
    """Whether the client's MCP configuration (``rel``: root-relative, or this machine's
    absolute path) holds the ``paw`` server, not switched off (``disabled``: Cline's,
    Windsurf's and Kiro's switch)."""
    data, problem = read_config(os.path.join(root, rel))
    if problem:
        return (FAIL, check, problem)
    servers = data.get(key) if data else None
    server = servers.get(commands.SERVER_NAME) if isinstance(servers, dict) else None
    if isinstance(server, dict) and server.get("disabled") is True:
        return (
            WARN,
            check,
            f"the paw MCP server is disabled in {rel}: the agent cannot select an intent, so "
            "every change is denied",
        )
    if isinstance(server, dict):
        return (OK, check, f"the paw MCP server is configured in {rel}")
    return (
        WARN,
        check,
        f"no paw MCP server in {rel}: the agent cannot select an intent, so every change is denied",
    )


def ignore_row(check: str, root: str, folder: str, entries: tuple[str, ...]) -> Row | None:
    """A warning when ``<folder>/.gitignore`` lacks some of the machine-local ``entries`` an
    install keeps out of commits there (:func:`~paw_tui.core.clients.plan.ignore_file`)."""
    from paw_tui.core.workspace.gitignore import unlisted

    left = unlisted(os.path.join(root, folder), entries)
    if not left:
        return None
    return (
        WARN,
        check,
        f"{folder}/.gitignore does not ignore {', '.join(left)}: this machine's paths may get "
        "committed",
    )


def reach_row(check: str, environ: Mapping[str, str] | None = None) -> Row:
    """Whether the committed command finds paw-tui here (else it denies every call)."""
    env = os.environ if environ is None else environ
    script = env.get(commands.HOOK_ENV, "").strip()
    if script and os.access(script, os.X_OK):
        return (OK, check, f"hooks run {script} ({commands.HOOK_ENV})")
    if shutil.which("paw-tui", path=env.get("PATH")):
        return (OK, check, "hooks run the paw-tui on the PATH")
    return (
        WARN,
        check,
        f"neither {commands.HOOK_ENV} nor a paw-tui on the PATH here: hooks deny every call",
    )


def claude_hooks_row(
    check: str, root: str, client_title: str, steps_aside: bool = False
) -> Row | None:
    """A warning when the repository's Claude Code settings hold paw-tui's gate: this client
    also runs the hooks in ``.claude/settings.json`` (Cursor's Third-Party Imports, Copilot
    CLI and VS Code read it), so each call is decided twice, once by the Claude Code adapter,
    which may not read this client's payloads. ``steps_aside``: the Claude Code hook
    recognises this client and leaves the decision to its own hook (Copilot CLI)."""
    data, _problem = read_config(os.path.join(root, ".claude", "settings.json"))
    hooks = data.get("hooks") if data else None
    if not isinstance(hooks, dict) or not any(gate_groups(hooks, event) for event in hooks):
        return None
    if steps_aside:
        return (
            OK,
            check,
            f"{client_title} also runs .claude/settings.json's gate hooks; they step "
            f"aside for {client_title}'s own, so each call is decided once",
        )
    return (
        WARN,
        check,
        f".claude/settings.json holds paw-tui's Claude Code hooks and {client_title} "
        "runs them too: every call is decided twice; keep one (see the install steps)",
    )


def reach_rows(
    check: str, root: str, mcp_rel: str, key: str, client_title: str, steps_aside: bool = False
) -> list[Row]:
    """The rows every client's doctor ends with: the paw server in its MCP configuration,
    whether the committed command finds paw-tui here, and Claude Code's hooks run twice."""
    rows = [server_row(check, root, mcp_rel, key), reach_row(check)]
    cross = claude_hooks_row(check, root, client_title, steps_aside)
    return [*rows, cross] if cross else rows
