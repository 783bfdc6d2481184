"""``paw-tui doctor`` for Gemini CLI: is the set-up there, and would Gemini run tools unseen.

Each row is ``(status, "gemini-cli", detail)``. Nothing is said for a repository without a
``.gemini`` folder. What fails (tools would run unseen, or every change is denied): no gate
hook on ``BeforeTool``, hooks turned off in Gemini's settings (``hooksConfig.enabled: false``,
or ``paw-tui`` among ``hooksConfig.disabled``), the folder marked "do not trust" (Gemini then
ignores the project's settings), the paw MCP server excluded (``mcp.excluded`` /
``mcp.allowed``) or disabled (``/mcp disable paw``), and a ``BeforeTool`` command that does
not deny a canary write: it is run the way Gemini runs it (settings expanded as Gemini expands
them, ``.gemini/.env`` under the environment, ``bash -c``, the hook's own ``env``), because
Gemini lets the tool run on exit 1, on a timeout and on non-JSON output with exit 0.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import commands
from paw_tui.core.clients.gemini_cli import (
    ENV_FILE,
    GITIGNORE,
    HOOK_NAME,
    NAME,
    SETTINGS,
    lost_variables,
    pre_tool_matcher,
    read_env_file,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    Row = tuple[str, str, str]

REQUIRED = {"BeforeTool": "Gemini's tool calls run unseen"}
OPTIONAL = ("AfterTool", "SessionStart", "BeforeAgent", "SessionEnd")
_VARIABLE = re.compile(r"\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})")
"""How Gemini CLI 0.61.0 finds variables in settings values (``resolveEnvVarsInString``)."""
CANARY_TIMEOUT = 30
GATE_MISSING = "the paw-tui gate could not run here"
"""What the portable hook command says when it cannot run paw-tui (``commands``)."""
ENABLEMENT_FILE = "mcp-server-enablement.json"
"""Where ``/mcp disable <server>`` records a server turned off, for every project."""


def check(root: str, environ: Mapping[str, str] | None = None) -> list[Row]:
    env = dict(os.environ if environ is None else environ)
    if not os.path.isdir(os.path.join(root, ".gemini")):
        return []
    data, missing = hj.doctor_config(root, SETTINGS, NAME, "Gemini CLI")
    if data is None:
        return missing
    hooks = data.get("hooks")
    rows = _hook_rows(hooks)
    home = gemini_home(env)
    user = _user_settings(home)
    rows += _switch_rows(data, user)
    rows += _server_rows(data, user, home)
    local = {**read_env_file(os.path.join(root, ENV_FILE)), **env}  # the launch env wins
    rows.append(hj.reach_row(NAME, local))
    rows += _local_file_rows(root, env)
    rows.append(trust_row(root, env))
    for handler in _our_handlers(hooks, "BeforeTool")[:1]:
        rows.append(canary_row(root, handler, local, env))
    return rows


def _our_handlers(hooks: object, event: str) -> list[dict[str, object]]:
    """Our handlers (in any matcher group) under ``hooks[event]``."""
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    found: list[dict[str, object]] = []
    for group in groups if isinstance(groups, list) else []:
        handlers = group.get("hooks") if isinstance(group, dict) else None
        for handler in handlers if isinstance(handlers, list) else []:
            if hj.is_ours(handler):
                found.append(handler)
    return found


def _matchers(hooks: object, event: str) -> list[str]:
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    return [
        str(group.get("matcher") or "")
        for group in (groups if isinstance(groups, list) else [])
        if isinstance(group, dict)
        and isinstance(group.get("hooks"), list)
        and any(hj.is_ours(h) for h in group["hooks"])
    ]


def _hook_rows(hooks: object) -> list[Row]:
    rows: list[Row] = []
    for event, unseen in REQUIRED.items():
        if not _our_handlers(hooks, event):
            rows.append((hj.FAIL, NAME, f"no gate hook on {event} in {SETTINGS}: {unseen}"))
    missing = [event for event in OPTIONAL if not _our_handlers(hooks, event)]
    if missing:
        rows.append((hj.WARN, NAME, f"gate hooks missing in {SETTINGS} for {', '.join(missing)}"))
    if not rows:
        rows.append((hj.OK, NAME, f"gate hooks present in {SETTINGS} for all five events"))
    if any(m not in (pre_tool_matcher(), "", "*", ".*") for m in _matchers(hooks, "BeforeTool")):
        rows.append(
            (
                hj.WARN,
                NAME,
                "the BeforeTool matcher is narrower than 'install' writes: tools it misses run unseen",
            )
        )
    return rows


def gemini_home(env: Mapping[str, str]) -> str:
    """The folder holding Gemini's user files (``~/.gemini``'s parent)."""
    return env.get("GEMINI_CLI_HOME") or env.get("HOME") or os.path.expanduser("~")


def _user_settings(home: str) -> dict[str, object]:
    data, _problem = hj.read_config(os.path.join(home, ".gemini", "settings.json"))
    return data or {}


def _section(settings: Mapping[str, object], key: str) -> dict[str, object]:
    value = settings.get(key)
    return value if isinstance(value, dict) else {}


def _switch_rows(project: Mapping[str, object], user: Mapping[str, object]) -> list[Row]:
    """Hooks turned off in Gemini's own settings (project or user level)."""
    rows: list[Row] = []
    for where, settings in ((SETTINGS, project), ("~/.gemini/settings.json", user)):
        config = _section(settings, "hooksConfig")
        if config.get("enabled") is False:
            rows.append((hj.FAIL, NAME, f"hooksConfig.enabled is false in {where}: no hook runs"))
        disabled = config.get("disabled")
        if isinstance(disabled, list) and HOOK_NAME in disabled:
            rows.append(
                (
                    hj.FAIL,
                    NAME,
                    f"'{HOOK_NAME}' is in hooksConfig.disabled in {where}: the gate never runs",
                )
            )
    return rows


def _server_rows(project: Mapping[str, object], user: Mapping[str, object], home: str) -> list[Row]:
    servers = project.get("mcpServers")
    server = servers.get(commands.SERVER_NAME) if isinstance(servers, dict) else None
    if not isinstance(server, dict):
        return [
            (
                hj.WARN,
                NAME,
                f"no paw MCP server in {SETTINGS}: the agent cannot select an intent, so every "
                "change is denied",
            )
        ]
    rows: list[Row] = []
    for where, settings in ((SETTINGS, project), ("~/.gemini/settings.json", user)):
        mcp = _section(settings, "mcp")
        excluded, allowed = mcp.get("excluded"), mcp.get("allowed")
        if (isinstance(excluded, list) and commands.SERVER_NAME in excluded) or (
            isinstance(allowed, list) and commands.SERVER_NAME not in allowed
        ):
            rows.append(
                (
                    hj.FAIL,
                    NAME,
                    f"the paw MCP server is turned off by mcp.excluded / mcp.allowed in {where}: "
                    "the agent cannot select an intent",
                )
            )
    enablement = os.path.join(home, ".gemini", ENABLEMENT_FILE)
    states, _problem = hj.read_config(enablement)
    state = (states or {}).get(commands.SERVER_NAME)
    if isinstance(state, dict) and state.get("enabled") is False:
        rows.append(
            (
                hj.FAIL,
                NAME,
                f"the paw MCP server is disabled in {enablement} ('/mcp disable paw'): the agent "
                "cannot select an intent; run '/mcp enable paw' in Gemini CLI",
            )
        )
    if server.get("trust") is not True:
        rows.append(
            (
                hj.WARN,
                NAME,
                f'the paw MCP server in {SETTINGS} lacks "trust": true: Gemini asks before each of its calls',
            )
        )
    if not rows:
        rows.append((hj.OK, NAME, f"the paw MCP server is configured and trusted in {SETTINGS}"))
    return rows


def _local_file_rows(root: str, env: Mapping[str, str]) -> list[Row]:
    rows: list[Row] = []
    if os.path.exists(os.path.join(root, ENV_FILE)):
        ignore = os.path.join(root, GITIGNORE)
        try:
            with open(ignore, encoding="utf-8") as handle:
                ignored = any(line.strip() in (".env", "/.env") for line in handle)
        except OSError:
            ignored = False
        if not ignored:
            rows.append(
                (
                    hj.WARN,
                    NAME,
                    f"{GITIGNORE} does not ignore .env: this machine's paths may get committed",
                )
            )
    shadowed, lost = lost_variables(root, env)
    if lost and os.path.exists(os.path.join(root, ENV_FILE)):
        rows.append(
            (
                hj.WARN,
                NAME,
                f"Gemini reads {ENV_FILE} here, not {shadowed}: {', '.join(lost)} from it are "
                "not set in Gemini; move them there or export them",
            )
        )
    return rows


# --- folder trust -----------------------------------------------------------------------


def trust_row(root: str, env: Mapping[str, str]) -> Row:
    """Whether Gemini trusts this folder (``trustedFolders.json``, longest rule wins)."""
    verdict = folder_trust(root, env)
    if verdict is True:
        return (hj.OK, NAME, "Gemini CLI trusts this folder")
    if verdict is False:
        return (
            hj.FAIL,
            NAME,
            "Gemini CLI is told not to trust this folder: it ignores .gemini/settings.json, so "
            "tools run unseen (change it with /permissions in Gemini)",
        )
    return (
        hj.WARN,
        NAME,
        "this folder is not in Gemini CLI's trustedFolders.json: Gemini asks on first start "
        "(choose 'Trust folder'), and with -p it exits 55",
    )


def folder_trust(root: str, env: Mapping[str, str]) -> bool | None:
    """True / False from the rule for ``root`` in Gemini's trusted folders, None with none."""
    path = env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or os.path.join(
        gemini_home(env), ".gemini", "trustedFolders.json"
    )
    rules, _problem = hj.read_config(path)
    target = os.path.realpath(root)
    best, verdict = -1, None
    for rule, level in (rules or {}).items():
        folder = os.path.dirname(rule) if level == "TRUST_PARENT" else rule
        folder = os.path.realpath(folder)
        inside = target == folder or target.startswith(folder.rstrip(os.sep) + os.sep)
        if inside and len(rule) > best:
            best, verdict = len(rule), level
    if verdict == "DO_NOT_TRUST":
        return False
    if verdict in ("TRUST_FOLDER", "TRUST_PARENT"):
        return True
    return None


# --- the canary -------------------------------------------------------------------------


def gemini_expand(text: str, environ: Mapping[str, str]) -> str:
    """``text`` as Gemini CLI expands a settings value when it loads it (before ``.env``)."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2) or ""
        if name in environ:
            return environ[name]
        return match.group(3) if match.group(3) is not None else match.group(0)

    return _VARIABLE.sub(replace, text)


def canary_row(
    root: str, handler: Mapping[str, object], local: Mapping[str, str], launch: Mapping[str, str]
) -> Row:
    """Run the BeforeTool command as Gemini would on a write before any selection: expanded
    with the ``launch`` environment, run with ``local`` (``.gemini/.env`` under it)."""
    import shutil

    command = gemini_expand(str(handler.get("command", "")), launch)
    hook_env = handler.get("env")
    with tempfile.TemporaryDirectory(prefix="paw-doctor-gemini-") as scratch:
        target = os.path.join(scratch, ".orchestration")
        os.makedirs(target)
        for name in ("active_intents.yaml", "governance.yaml"):
            source = os.path.join(root, ".orchestration", name)
            if os.path.exists(source):
                shutil.copyfile(source, os.path.join(target, name))
        payload = {
            "session_id": "paw-doctor-canary",
            "cwd": scratch,
            "hook_event_name": "BeforeTool",
            "tool_name": "write_file",
            "tool_input": {"file_path": "canary.txt", "content": "x"},
        }
        env = {**local, **(hook_env if isinstance(hook_env, dict) else {})}
        env.update(
            GEMINI_PROJECT_DIR=scratch,
            GEMINI_CWD=scratch,
            GEMINI_SESSION_ID="paw-doctor-canary",
            CLAUDE_PROJECT_DIR=scratch,
            PAW_WORKSPACE_PATH=scratch,
            PAW_STATE_DIR=os.path.join(scratch, "state"),
        )
        try:
            done = subprocess.run(
                ["bash", "-c", command],
                input=json.dumps(payload).encode(),
                capture_output=True,
                env={k: str(v) for k, v in env.items()},
                cwd=scratch,
                timeout=CANARY_TIMEOUT,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return (hj.FAIL, NAME, f"the BeforeTool command did not run: {exc}")
    return _judge(done.returncode, done.stdout.decode(errors="replace"), done.stderr)


def _judge(code: int, out: str, err: bytes) -> Row:
    if code == 0 and out.strip():
        try:
            answer = json.loads(out)
        except ValueError:
            answer = None
        if isinstance(answer, dict) and answer.get("decision") in ("deny", "block"):
            return (hj.OK, NAME, "a write_file without an intent was denied (Gemini's deny JSON)")
    detail = err.decode(errors="replace").strip()[:200]
    if code == 2 and not out.strip():
        if GATE_MISSING in detail:  # denied, but by the command's own fallback: every call is
            return (
                hj.FAIL,
                NAME,
                f"the BeforeTool command cannot run paw-tui here, so every tool call is denied: {detail}",
            )
        return (hj.OK, NAME, "a write_file without an intent was denied (exit 2)")
    return (
        hj.FAIL,
        NAME,
        f"the BeforeTool command exited {code} without denying the canary write (Gemini lets "
        f"a tool run on exit 1, a timeout, or non-JSON output): {detail or out.strip()[:200]}",
    )
