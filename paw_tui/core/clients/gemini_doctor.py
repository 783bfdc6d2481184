"""``paw-tui doctor`` for Gemini CLI: is the set-up there, and would Gemini run tools unseen.

Each row is ``(status, "gemini-cli", detail)``, and one ``gemini-cli canary`` row
(:mod:`paw_tui.core.clients.canary`). Nothing is said for a repository without a ``.gemini``
folder. What fails (tools would run unseen, or every change is denied): no gate
hook on ``BeforeTool``, hooks turned off in Gemini's settings (``hooksConfig.enabled: false``,
or ``paw-tui`` among ``hooksConfig.disabled``), the folder marked "do not trust" (Gemini then
ignores the project's settings), the paw MCP server excluded (``mcp.excluded`` /
``mcp.allowed``) or disabled (``/mcp disable paw``), and a ``BeforeTool`` command that does
not get a canary write denied by the gate itself: it is run the way Gemini runs it (settings
expanded as Gemini expands them, ``.gemini/.env`` under the environment, ``bash -c``, the
hook's own ``env``), because Gemini lets the tool run on exit 1, on a timeout and on non-JSON
output with exit 0, and a deny from the command's fail-closed fallback locks every call.
"""

from __future__ import annotations

import os
import re

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import canary as canaries
from paw_tui.core.clients import commands
from paw_tui.core.clients.gemini_cli import (
    ENV_FILE,
    FOLDER,
    HOOK_NAME,
    LOCAL_FILES,
    NAME,
    SETTINGS,
    lost_variables,
    pre_tool_matcher,
    read_env_file,
)
from paw_tui.core.clients.server_off import GEMINI_ENABLEMENT, gemini_switches

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.core.clients._hooks_json import Row

REQUIRED = {"BeforeTool": "Gemini's tool calls"}
OPTIONAL = ("AfterTool", "SessionStart", "BeforeAgent", "SessionEnd")
_VARIABLE = re.compile(r"\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})")
"""How Gemini CLI 0.61.0 finds variables in settings values (``resolveEnvVarsInString``)."""


def doctor(root: str, environ: Mapping[str, str] | None = None) -> list[Row]:
    """Nothing without a ``.gemini`` folder; else the set-up's rows and the canary's."""
    env = canaries.launch_environment(environ)
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
    rows += _server_rows(root, data, home)
    local = {**read_env_file(os.path.join(root, ENV_FILE)), **env}  # the launch env wins
    rows.append(hj.reach_row(NAME, local))
    rows += _local_file_rows(root, env)
    rows.append(trust_row(root, env))
    for _group, handler in hj.gate_groups(hooks, "BeforeTool")[:1]:
        rows.append(canary_row(root, handler, local, env))
    return rows


def _hook_rows(hooks: object) -> list[Row]:
    rows = hj.events_rows(
        NAME, SETTINGS, hj.nested_entries(hooks), REQUIRED, OPTIONAL, " for all five events"
    )
    matchers = [group.get("matcher") for group, _ in hj.gate_groups(hooks, "BeforeTool")]
    narrow = hj.matcher_row(NAME, "BeforeTool", matchers, (*hj.WIDE_MATCHERS, pre_tool_matcher()))
    return [*rows, narrow] if narrow else rows


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


def _server_rows(root: str, project: Mapping[str, object], home: str) -> list[Row]:
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
    for where in gemini_switches(root, home):
        if where.endswith(GEMINI_ENABLEMENT):
            said = f"is disabled in {where} ('/mcp disable paw')"
            how = "; run '/mcp enable paw' in Gemini CLI"
        else:
            said, how = f"is turned off by mcp.excluded / mcp.allowed in {where}", ""
        rows.append(
            (hj.FAIL, NAME, f"the paw MCP server {said}: the agent cannot select an intent{how}")
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
    unignored = hj.ignore_row(NAME, root, FOLDER, LOCAL_FILES)
    if unignored and os.path.exists(os.path.join(root, ENV_FILE)):
        rows.append(unignored)
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


def hook_environment(
    handler: Mapping[str, object], local: Mapping[str, str], added: Mapping[str, str]
) -> dict[str, str]:
    """The environment Gemini CLI (and Qwen Code, its fork) gives a command hook: its own
    (``local``: the launch environment over the project's ``.env``), the hook's ``env``, then
    the variables it ``added``."""
    hook_env = handler.get("env")
    env = {**local, **(hook_env if isinstance(hook_env, dict) else {}), **added}
    return {str(k): str(v) for k, v in env.items()}


def canary(
    handler: Mapping[str, object], local: Mapping[str, str], timeout: float = canaries.WAIT_AT_MOST
) -> canaries.Canary:
    """How Gemini CLI runs a BeforeTool hook: ``bash -c`` in the project folder with its
    environment (``local``: the launch environment over ``.gemini/.env``), the hook's own
    ``env`` and the variables it adds; it refuses the tool on ``{"decision": "deny"}`` (exit
    0) or on exit 2 with nothing on stdout, and on a crash with output that is not JSON."""

    def environment(root: str, scratch: canaries.Scratch) -> dict[str, str]:
        added = {
            "GEMINI_PROJECT_DIR": root,
            "GEMINI_CWD": root,
            "GEMINI_SESSION_ID": scratch.session_id,
            "CLAUDE_PROJECT_DIR": root,
        }
        return hook_environment(handler, local, added)

    def payload(scratch: canaries.Scratch) -> dict[str, object]:
        return {
            "session_id": scratch.session_id,
            "cwd": scratch.root,
            "hook_event_name": "BeforeTool",
            "timestamp": "1970-01-01T00:00:00.000Z",
            "tool_name": "write_file",
            "tool_input": {"file_path": scratch.file_name, "content": "canary\n"},
        }

    return canaries.Canary(
        NAME,
        "Gemini CLI",
        runs_as="bash -c, in the project folder, with .gemini/.env and the hook's env",
        argv=lambda command: ["bash", "-c", command],
        environment=environment,
        payload=payload,
        refusal=refusal,
        fails_open="on exit 1, a timeout, or output that is not JSON with exit 0",
        timeout=timeout,
    )


def refusal(outcome: canaries.Outcome) -> str | None:
    """What Gemini CLI 0.61.0 tells the model when it refuses the tool on ``outcome``; None
    when it runs the tool (JSON on stdout wins over the exit code)."""
    if outcome.timed_out or outcome.code is None:
        return None
    out = outcome.stdout.strip()
    answer = outcome.json() if out else None
    if answer is not None:
        if answer.get("decision") in ("deny", "block"):
            return str(answer.get("reason") or "")
        return None
    if outcome.code == 0 or outcome.code == 1:
        return None
    return outcome.stderr.strip() or out  # exit 2, 127, ...: blocked


def canary_row(
    root: str,
    handler: Mapping[str, object],
    local: Mapping[str, str],
    launch: Mapping[str, str],
) -> Row:
    """The BeforeTool command, expanded with the ``launch`` environment as Gemini expands its
    settings, run as Gemini runs it on a write before any selection."""
    command = gemini_expand(str(handler.get("command", "")), launch)
    seconds = hj.hook_timeout([dict(handler)], unit=0.001)  # Gemini's are milliseconds
    spec = canary(handler, local, seconds or canaries.WAIT_AT_MOST)
    return canaries.run_canary(root, spec, [command])
