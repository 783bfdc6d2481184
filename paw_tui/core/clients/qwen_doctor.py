"""``paw-tui doctor`` for Qwen Code: would Qwen run tools unseen here.

Nothing is said for a repository without a ``.qwen`` folder. Failures: no gate hook on
``PreToolUse`` (with only Gemini-named hooks, a Gemini install copied over: Qwen never runs
them), hooks switched off (``disableAllHooks``), folder trust turned on with this folder not
trusted (Qwen then runs no project hook), and a ``PreToolUse`` command that does not deny a
canary write when run as Qwen runs it (``bash -c``, ``.qwen/.env`` under the environment, the
hook's own ``env``): Qwen lets the tool run on exit 1 or 127, a timeout and broken JSON.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import canary
from paw_tui.core.clients.gemini_cli import read_env_file
from paw_tui.core.clients.gemini_doctor import gemini_expand
from paw_tui.core.clients.ignore import unignored
from paw_tui.core.clients.qwen_code import ENV_FILE, FOLDER, LOCAL_FILES, NAME, SETTINGS, TITLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    Row = tuple[str, str, str]

GEMINI_EVENTS = ("BeforeTool", "AfterTool", "BeforeAgent")


def check(root: str, environ: Mapping[str, str] | None = None) -> list[Row]:
    env = dict(os.environ if environ is None else environ)
    if not os.path.isdir(os.path.join(root, FOLDER)):
        return []
    data, missing = hj.doctor_config(root, SETTINGS, NAME, TITLE)
    if data is None:
        return missing
    hooks = data.get("hooks")
    rows = hj.events_rows(
        NAME,
        SETTINGS,
        _claude_shaped(hooks),
        {"PreToolUse": "Qwen's tool calls"},
        ("PostToolUse", "UserPromptSubmit", "Stop"),
    )
    if any(hj.gate_entries(_claude_shaped(hooks), e) for e in GEMINI_EVENTS):
        rows.append(
            (hj.WARN, NAME, f"{SETTINGS} has Gemini-named gate hooks: Qwen Code never runs them")
        )
    user = _json(os.path.join(qwen_home(env), "settings.json"))
    for where, settings in ((SETTINGS, data), ("~/.qwen/settings.json", user)):
        if settings.get("disableAllHooks") is True:
            rows.append((hj.FAIL, NAME, f"{where} sets disableAllHooks: tool calls run unseen"))
    rows.append(hj.server_row(NAME, root, SETTINGS, "mcpServers"))
    local = {**read_env_file(os.path.join(root, ENV_FILE)), **env}
    rows.append(hj.reach_row(NAME, local))
    left = unignored(root, FOLDER, LOCAL_FILES)
    if left and os.path.exists(os.path.join(root, ENV_FILE)):
        rows.append((hj.WARN, NAME, f"{FOLDER}/.gitignore does not ignore {', '.join(left)}"))
    rows.append(trust_row(root, user, env))
    for handler in _handlers(hooks, "PreToolUse")[:1]:
        rows.append(canary_row(root, handler, local, env))
    return rows


def _json(path: str) -> dict[str, object]:
    data, _problem = hj.read_config(path)
    return data or {}


def qwen_home(env: Mapping[str, str]) -> str:
    return os.path.join(env.get("HOME") or os.path.expanduser("~"), ".qwen")


def _claude_shaped(hooks: object) -> dict[str, list[object]]:
    """``hooks`` with each matcher group's handlers flattened, for the shared event rows."""
    flat: dict[str, list[object]] = {}
    for event, groups in hooks.items() if isinstance(hooks, dict) else []:
        for group in groups if isinstance(groups, list) else []:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            flat.setdefault(event, []).extend(handlers if isinstance(handlers, list) else [])
    return flat


def _handlers(hooks: object, event: str) -> list[dict[str, object]]:
    return hj.gate_entries(_claude_shaped(hooks), event)


def trust_row(root: str, user: Mapping[str, object], env: Mapping[str, str]) -> Row:
    security = user.get("security")
    trust = security.get("folderTrust") if isinstance(security, dict) else None
    if not (isinstance(trust, dict) and trust.get("enabled") is True):
        return (
            hj.WARN,
            NAME,
            "Qwen's folder trust is off (its default): any clone's .qwen/settings.json hooks "
            "and MCP servers run without asking",
        )
    trusted = _json(os.path.join(qwen_home(env), "trustedFolders.json"))
    folder = os.path.realpath(root)
    for path, level in trusted.items():
        inside = folder == os.path.realpath(path) or folder.startswith(
            os.path.join(os.path.realpath(path), "")
        )
        if inside and level in ("TRUST_FOLDER", "TRUST_PARENT"):
            return (hj.OK, NAME, "this folder is trusted in ~/.qwen/trustedFolders.json")
    return (
        hj.FAIL,
        NAME,
        "folder trust is on and this folder is not trusted: Qwen runs none of its hooks "
        f'(add "{folder}": "TRUST_FOLDER" to ~/.qwen/trustedFolders.json)',
    )


def canary_row(
    root: str, handler: Mapping[str, object], local: Mapping[str, str], launch: Mapping[str, str]
) -> Row:
    """The PreToolUse command as Qwen runs it, on a ``write_file`` before any selection."""
    command = gemini_expand(str(handler.get("command", "")), launch)
    hook_env = handler.get("env")
    env = {**local, **(hook_env if isinstance(hook_env, dict) else {})}

    def payload(scratch: str) -> dict[str, object]:
        return {
            "session_id": canary.SESSION,
            "cwd": scratch,
            "hook_event_name": "PreToolUse",
            "tool_name": "write_file",
            "tool_input": {"file_path": os.path.join(scratch, "canary.txt"), "content": "x"},
        }

    outcome = canary.run(root, ["bash", "-c", command], payload, env)
    return canary.judge(
        NAME,
        "PreToolUse",
        outcome,
        canary.claude_denied,
        "Qwen runs a tool on exit 1 or 127, a timeout or broken JSON",
    )
