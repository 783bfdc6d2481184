"""``paw-tui install qwen-code``: hooks and the MCP server in ``.qwen/settings.json``, this
machine's variables in ``.qwen/.env``.

Qwen Code (a Gemini CLI fork) reads hooks in **Claude Code's** protocol, only from the
``.qwen/`` of the folder it starts in (observed with 0.24.4, ``reference/clients-observed.md``
Part 2); Gemini-named events (``BeforeTool``) never run there, without a warning.

- ``.qwen/settings.json`` (committed): the portable hook command on ``PreToolUse`` (every tool
  but the catalogue's read-only ones), ``PostToolUse`` (file and shell tools), ``SessionStart``,
  ``UserPromptSubmit``, ``Stop`` (a headless run ends with it: no ``SessionEnd``) and
  ``SessionEnd``; timeouts in seconds. The ``paw`` MCP server, trusted (no confirmation per
  call).
- ``.qwen/.env`` (this machine, ignored by ``.qwen/.gitignore``): ``PAW_TUI_HOOK``; Qwen loads it
  into its environment, so its hooks, MCP servers and shell tool see it. Not ``BASH_ENV``: Qwen
  scrubs it (with ``LD_PRELOAD``, ``ZDOTDIR``, ``BASH_FUNC_*``) from every child's environment,
  so the kernel boundary cannot reach its shell; the command parser and drift detection hold
  Qwen's shell commands.
- the hook script, in the user state directory.

Qwen lets a tool run when a hook exits 1, 127 (even with stderr text), times out or prints
broken JSON: the portable command turns every such exit into a deny. Qwen expands ``$NAME`` and
``${NAME}`` in settings values, so the command has Gemini's form (only ``$PAW_TUI_HOOK``,
``$1`` and ``$?``). Folder trust (``security.folderTrust.enabled``) is **off** by default: any
folder's ``.qwen/settings.json`` hooks and MCP servers run without asking.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import canary as canaries
from paw_tui.core.clients import commands
from paw_tui.core.clients.claude_code import merge_hooks
from paw_tui.core.clients.claude_doctor import pre_tool_payload
from paw_tui.core.clients.gemini_cli import (
    hook_command,
    matcher_groups,
    merge_env_text,
    pre_tool_matcher,
    read_env_file,
)
from paw_tui.core.clients.gemini_doctor import gemini_expand, hook_environment
from paw_tui.core.clients.plan import PlannedFile, SetupPlan, ignore_file, read_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.core.clients._hooks_json import Row

NAME = "qwen-code"
TITLE = "Qwen Code"
FOLDER = ".qwen"
SETTINGS = os.path.join(FOLDER, "settings.json")
ENV_FILE = os.path.join(FOLDER, ".env")
LOCAL_FILES = ("/.env",)
"""What ``.qwen/.gitignore`` keeps out of commits."""
HOOK_TIMEOUT = 30
"""Seconds; the gate answers well within it (a slow gate is an open gate)."""
EVENTS = {
    "PreToolUse": hj.PRE_TOOL,
    "PostToolUse": hj.POST_TOOL,
    "SessionStart": hj.SESSION_START,
    "UserPromptSubmit": hj.PROMPT,
    "Stop": hj.SESSION_END,
    "SessionEnd": hj.SESSION_END,
}


def qwen_hooks() -> dict[str, dict[str, object]]:
    """Our matcher group per Qwen hook event (``Stop`` ends the session, as ``SessionEnd``)."""

    def handler(kind: str) -> dict[str, object]:
        return {"type": "command", "command": hook_command(kind, NAME), "timeout": HOOK_TIMEOUT}

    return matcher_groups(NAME, EVENTS, handler)


def merge_settings(data: dict[str, object], path: str) -> dict[str, object]:
    merged = merge_hooks(data, qwen_hooks(), path)
    return hj.merge_server(merged, "mcpServers", hj.paw_server(trust=True), path)


def trust_step(root: str) -> str:
    return (
        "Qwen Code's folder trust (security.folderTrust.enabled) is off by default: every "
        "folder's .qwen/settings.json hooks and MCP servers run without asking, so a clone's "
        "hooks run too. If you turn it on, trust this folder (start 'qwen' here and accept, or "
        f'add "{os.path.abspath(root)}": "TRUST_FOLDER" to ~/.qwen/trustedFolders.json): in an '
        "untrusted folder Qwen runs no project hooks, and nothing is governed."
    )


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    settings = os.path.join(root, SETTINGS)
    result.files.append(
        hj.json_plan(settings, lambda d: merge_settings(d, settings), allow_comments=True)
    )
    env_path = os.path.join(root, ENV_FILE)
    env_before = read_text(env_path)
    env = {commands.HOOK_ENV: commands.hook_script_path()}
    header = f"# paw-tui: this machine's settings for {TITLE} (written by 'paw-tui install {NAME}')"
    result.files.append(PlannedFile(env_path, env_before, merge_env_text(env_before, env, header)))
    result.files.append(ignore_file(root, FOLDER, LOCAL_FILES, NAME))
    result.files.append(hj.hook_script_file())
    hj.add_boundary_note(result.notes, TITLE)
    result.notes.append(
        ".qwen/.env holds this machine's paths and is ignored by .qwen/.gitignore: commit "
        ".qwen/settings.json and .qwen/.gitignore, not .qwen/.env."
    )
    result.steps += [
        trust_step(root),
        "Start Qwen Code from this folder: it reads only the .qwen/ of the folder it starts in. "
        "The agent reaches select_active_intent through tool_search (Qwen defers MCP tools).",
        "A headless run ('qwen PROMPT') ends with Stop, which releases the session; in an "
        "interactive session each turn does, and the agent selects its intent again on the "
        "next prompt.",
        "Run 'paw-tui doctor' to check the set-up.",
    ]
    return result


# --- doctor: would Qwen run tools unseen here ---------------------------------------------
# Failures: no gate hook on PreToolUse (with only Gemini-named hooks, a Gemini install copied
# over: Qwen never runs them; a warning for a matcher narrower than install's), hooks switched
# off (disableAllHooks), folder trust on with this
# folder untrusted (Qwen then runs no project hook), and a PreToolUse command that does not
# deny a canary write when run as Qwen runs it (bash -c, .qwen/.env under the environment).

GEMINI_EVENTS = ("BeforeTool", "AfterTool", "BeforeAgent")


def doctor(root: str, environ: Mapping[str, str] | None = None) -> list[Row]:
    env = canaries.launch_environment(environ)
    if not os.path.isdir(os.path.join(root, FOLDER)):
        return []
    data, missing = hj.doctor_config(root, SETTINGS, NAME, TITLE)
    if data is None:
        return missing
    hooks = data.get("hooks")
    rows = hj.events_rows(
        NAME,
        SETTINGS,
        hj.nested_entries(hooks),
        {"PreToolUse": "Qwen's tool calls"},
        ("PostToolUse", "UserPromptSubmit", "Stop"),
    )
    matchers = [group.get("matcher") for group, _ in hj.gate_groups(hooks, "PreToolUse")]
    narrow = hj.matcher_row(
        NAME, "PreToolUse", matchers, (*hj.WIDE_MATCHERS, pre_tool_matcher(NAME))
    )
    rows += [narrow] if narrow else []
    if any(hj.gate_groups(hooks, event) for event in GEMINI_EVENTS):
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
    unignored = hj.ignore_row(NAME, root, FOLDER, LOCAL_FILES)
    if unignored and os.path.exists(os.path.join(root, ENV_FILE)):
        rows.append(unignored)
    rows.append(trust_row(root, user, env))
    for _group, handler in hj.gate_groups(hooks, "PreToolUse")[:1]:
        rows.append(canary_row(root, handler, local, env))
    return rows


def _json(path: str) -> dict[str, object]:
    data, _problem = hj.read_config(path)
    return data or {}


def qwen_home(env: Mapping[str, str]) -> str:
    return os.path.join(env.get("HOME") or os.path.expanduser("~"), ".qwen")


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
    folder = os.path.realpath(root)
    if folder_trust(folder, _json(os.path.join(qwen_home(env), "trustedFolders.json"))):
        return (hj.OK, NAME, "this folder is trusted in ~/.qwen/trustedFolders.json")
    return (
        hj.FAIL,
        NAME,
        "folder trust is on and this folder is not trusted: Qwen runs none of its hooks "
        f'(add "{folder}": "TRUST_FOLDER" to ~/.qwen/trustedFolders.json)',
    )


def folder_trust(folder: str, rules: Mapping[str, object]) -> bool | None:
    """Whether Qwen Code 0.24.4 trusts ``folder`` (a real path) by its ``trustedFolders.json``
    ``rules`` (``trust-precedence.ts``): ``TRUST_PARENT`` trusts the rule's parent, the deepest
    folder holding ``folder`` wins, ``DO_NOT_TRUST`` over a trust as deep; None with no rule.
    Gemini CLI, which it forked, lets the longest rule win instead
    (:func:`~paw_tui.core.clients.gemini_doctor.folder_trust`)."""
    levels = {"TRUST_FOLDER": True, "TRUST_PARENT": True, "DO_NOT_TRUST": False}
    best, verdict = -1, None
    for rule, level in rules.items():
        if level not in levels:
            continue
        place = os.path.realpath(os.path.dirname(rule) if level == "TRUST_PARENT" else rule)
        if folder != place and not folder.startswith(os.path.join(place, "")):
            continue
        depth = len([part for part in place.split(os.sep) if part])
        if depth > best or (depth == best and levels[str(level)] is False):
            best, verdict = depth, levels[str(level)]
    return verdict


def canary_row(
    root: str, handler: Mapping[str, object], local: Mapping[str, str], launch: Mapping[str, str]
) -> Row:
    """The PreToolUse command, expanded with the ``launch`` environment as Qwen expands its
    settings (as Gemini CLI does), run as Qwen runs it on a ``write_file``."""
    command = gemini_expand(str(handler.get("command", "")), launch)
    spec = canary(handler, local, hj.hook_timeout([dict(handler)]) or float(HOOK_TIMEOUT))
    return canaries.run_canary(root, spec, [command])


def canary(
    handler: Mapping[str, object], local: Mapping[str, str], timeout: float = float(HOOK_TIMEOUT)
) -> canaries.Canary:
    """How Qwen Code 0.24.4 runs a PreToolUse hook: ``bash -c`` in the project folder, with
    its environment (``local``: the launch environment over ``.qwen/.env``), the hook's own
    ``env`` and the variables it adds; the payload is Claude Code's, with Qwen's tool."""

    def environment(root: str, scratch: canaries.Scratch) -> dict[str, str]:
        added = {
            "QWEN_CODE_SESSION_ID": scratch.session_id,
            "QWEN_PROJECT_DIR": root,
            "CLAUDE_PROJECT_DIR": root,
            "GEMINI_PROJECT_DIR": root,
        }
        return hook_environment(handler, local, added)

    def payload(scratch: canaries.Scratch) -> dict[str, object]:
        write = {"file_path": scratch.file_path, "content": "canary\n"}
        return pre_tool_payload(
            scratch,
            "write_file",
            write,
            timestamp="1970-01-01T00:00:00.000Z",
            permission_mode="yolo",
        )

    return canaries.Canary(
        NAME,
        TITLE,
        runs_as="bash -c, in the project folder, with .qwen/.env and the hook's env",
        argv=lambda command: ["bash", "-c", command],
        environment=environment,
        payload=payload,
        refusal=refusal,
        fails_open="on exit 1 or 127, a timeout, or output that is not JSON with exit 0",
        timeout=timeout,
    )


def refusal(outcome: canaries.Outcome) -> str | None:
    """What Qwen Code 0.24.4 tells the model when it refuses the tool on ``outcome``: exit 2's
    stderr, or the reason of a JSON ``permissionDecision`` of ``deny`` (or ``ask``, which a
    headless run cannot answer), a ``decision`` of ``deny`` or ``block`` or ``continue:
    false`` with exit 0; None when it runs the tool."""
    if outcome.timed_out or outcome.code is None:
        return None
    if outcome.code == 2:
        return outcome.stderr.strip()
    answer = outcome.json() if outcome.code == 0 else None
    if answer is None:
        return None
    specific = answer.get("hookSpecificOutput")
    if isinstance(specific, dict) and specific.get("permissionDecision") in ("deny", "ask"):
        return str(specific.get("permissionDecisionReason") or "")
    if answer.get("decision") in ("deny", "block"):
        return str(answer.get("reason") or "")
    if answer.get("continue") is False:
        return str(answer.get("stopReason") or "")
    return None
