"""``paw-tui install opencode``: paw-tui's plugin and the MCP server, in the repository.

opencode (observed with 1.18.33, ``reference/clients-observed.md`` Part 2) has no command hooks
and no folder trust: it loads every ``.opencode/plugin/*.js`` and the project's
``opencode.json`` at start, found from the start directory up to the git worktree.

- ``.opencode/plugin/paw-tui.js`` (committed): the plugin (``templates/opencode/``) asking the
  gate about every call that is not read-only for opencode (the catalogue's list, written into
  it) and throwing to refuse; the governance section in the system prompt of each turn
  (``experimental.chat.system.transform``, from the answer to the turn's ``chat.message``);
  results recorded (``tool.execute.after``); the session released when opencode exits
  (``dispose``) or deletes it. It fails closed on its own: opencode drops a plugin that throws
  while loading, waits for a hook forever and runs a tool whenever the plugin lets it.
- ``opencode.json`` (committed): ``mcp.paw``, the portable MCP command.
- ``.opencode/paw-tui.hook`` (this machine): the path of this machine's hook script, one line,
  which the plugin and the MCP command run unless ``PAW_TUI_HOOK`` is set (opencode keeps no
  machine-local settings of its own); ``.opencode/.gitignore`` keeps it out of commits, with
  what opencode itself installs there (``node_modules/``, ``package.json``, its lock files).
- the hook script, in the user state directory.

A plugin is code inside opencode's process, not a boundary: another plugin runs in the same
hooks, and the kernel boundary does not reach opencode's shell (no ``BASH_ENV`` from here).
"""

from __future__ import annotations

import json
import os
import shutil

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import canary as canaries
from paw_tui.core.clients import commands
from paw_tui.core.clients.plan import PlannedFile, SetupPlan, ignore_file, read_text
from paw_tui.core.errors import ValidationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from paw_tui.core.clients._hooks_json import Row

NAME = "opencode"
TITLE = "opencode"
FOLDER = ".opencode"
PLUGIN = os.path.join(FOLDER, "plugin", "paw-tui.js")
CONFIG = "opencode.json"
LOCAL_SETTINGS = os.path.join(FOLDER, "paw-tui.hook")
LOCAL_FILES = (
    "/paw-tui.hook",
    "/node_modules/",
    "/package.json",
    "/package-lock.json",
    "/bun.lock",
)
"""What ``.opencode/.gitignore`` keeps out of commits: ours and what opencode installs there."""
TEMPLATE = ("templates", "opencode", "paw-tui.js")
READ_ONLY_MARK = "/*READ_ONLY*/[]"


def plugin_text() -> str:
    """The plugin as this paw-tui writes it: the template with opencode's read-only tools."""
    import paw_tui
    from paw_tui.core.policy.catalogue import READ_ONLY, catalogue

    path = os.path.join(os.path.dirname(os.path.abspath(paw_tui.__file__)), *TEMPLATE)
    with open(path, encoding="utf-8") as handle:
        template = handle.read()
    names = sorted(e.name for e in catalogue().for_client(NAME) if e.kind == READ_ONLY)
    if READ_ONLY_MARK not in template:  # pragma: no cover - guards an edit of the template
        raise RuntimeError(f"{path} has lost its {READ_ONLY_MARK} mark")
    return template.replace(READ_ONLY_MARK, json.dumps(names))


def mcp_command() -> list[str]:
    """The portable MCP command, which also runs the hook script ``.opencode/paw-tui.hook``
    names (opencode starts MCP servers in the workspace, with its own environment)."""
    shell, flag, script = commands.portable_mcp_command()
    fallback = "exec paw-tui mcp --hooked"
    if not script.endswith(fallback):  # pragma: no cover - guards a change of the shared form
        raise RuntimeError(f"the portable MCP command changed its form: {script!r}")
    local = LOCAL_SETTINGS.replace(os.sep, "/")
    named = f'if [ -r {local} ]; then exec "$(cat {local})" mcp --hooked; fi; '
    return [shell, flag, script[: -len(fallback)] + named + fallback]


def mcp_entry() -> dict[str, object]:
    return {"type": "local", "command": mcp_command(), "enabled": True}


def merge_config(data: dict[str, object], path: str) -> dict[str, object]:
    merged = dict(data)
    servers = merged.get("mcp", {})
    if not isinstance(servers, dict):
        raise ValidationError(f"'mcp' in {path} is not an object; nothing was changed.")
    current = servers.get(commands.SERVER_NAME)
    entry = {**(current if isinstance(current, dict) else {}), **mcp_entry()}
    merged["mcp"] = {**servers, commands.SERVER_NAME: entry}
    merged.setdefault("$schema", "https://opencode.ai/config.json")
    return merged


def plugin_file(root: str) -> PlannedFile:
    path = os.path.join(root, PLUGIN)
    before = read_text(path)
    if before is not None and "paw-tui" not in before:
        raise ValidationError(
            f"{path} is a plugin that is not paw-tui's: move it aside and install again; "
            "nothing was changed."
        )
    return PlannedFile(path, before, plugin_text())


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    result.files.append(plugin_file(root))
    config = os.path.join(root, CONFIG)
    result.files.append(
        hj.json_plan(config, lambda d: merge_config(d, config), allow_comments=True)
    )
    local = os.path.join(root, LOCAL_SETTINGS)
    result.files.append(PlannedFile(local, read_text(local), commands.hook_script_path() + "\n"))
    result.files.append(ignore_file(root, FOLDER, LOCAL_FILES, NAME))
    result.files.append(hj.hook_script_file())
    hj.add_boundary_note(result.notes, TITLE)
    result.notes.append(
        f"{LOCAL_SETTINGS} names this machine's paw-tui and is ignored by .opencode/.gitignore: "
        f"commit {PLUGIN}, {CONFIG} and .opencode/.gitignore."
    )
    result.steps += [
        "opencode has no trust step: it loads .opencode/plugin/ and opencode.json of any "
        "repository it starts in (a clone's plugins run too).",
        "Start opencode anywhere in this repository. On a teammate's clone without "
        f"'paw-tui install opencode', the plugin runs ${commands.HOOK_ENV} or the paw-tui on "
        "the PATH, and refuses every tool call, saying why, where there is neither.",
        "opencode drops a plugin that fails to load without a word: run 'paw-tui doctor', "
        "which loads it and checks that it refuses a write without an intent.",
    ]
    return result


# --- doctor: is the plugin there, current, and does it load and refuse -------------------
# opencode drops a plugin that fails to load without a word (observed with 1.18.33: a throw at
# load time is in its log only, a syntax error not even there). So besides the files, the
# canary (:mod:`paw_tui.core.clients.canary`) loads the committed plugin as an ES module, the
# way opencode's runtime does, in node when it is on the PATH, and calls its
# tool.execute.before on a write before any selection: the plugin must throw, and the gate
# must have recorded the deny (a throw of the plugin's "could not run" fallback is not one).

RUNNER = """\
import { readFileSync } from "node:fs";
const source = readFileSync(process.argv[1], "utf8");
const { directory, input, output } = JSON.parse(readFileSync(0, "utf8"));
const module = await import(
  "data:text/javascript;base64," + Buffer.from(source).toString("base64")
);
const plugin = Object.values(module).find((value) => typeof value === "function");
const hooks = await plugin({ directory, worktree: process.cwd() });
let thrown = null;
try {
  await hooks["tool.execute.before"](input, output);
} catch (error) {
  thrown = String((error && error.message) || error);
  console.error(thrown);
}
console.log(JSON.stringify({ thrown }));
"""
"""Loads the plugin file named by its argument (as a ``data:`` URL: an ES module whatever a
``package.json`` beside it says, as opencode's runtime reads it) with opencode's plugin
context, and calls ``tool.execute.before`` with the call on stdin; prints what it threw (as
JSON on stdout, and as text on stderr for the row)."""


def doctor(root: str, environ: Mapping[str, str] | None = None) -> list[Row]:
    env = canaries.launch_environment(environ)
    path = os.path.join(root, PLUGIN)
    try:
        text = read_text(path)
    except ValidationError as exc:
        return [(hj.FAIL, NAME, str(exc))]
    if text is None:
        if os.path.exists(os.path.join(root, FOLDER)):
            return [(hj.WARN, NAME, f"no {PLUGIN}: run 'paw-tui install opencode' to govern it")]
        return []
    rows: list[Row] = []
    if text != plugin_text():
        rows.append(
            (
                hj.WARN,
                NAME,
                f"{PLUGIN} is not the one this paw-tui writes: run 'paw-tui install opencode'",
            )
        )
    else:
        rows.append((hj.OK, NAME, f"{PLUGIN} is paw-tui's current plugin"))
    rows.append(hj.server_row(NAME, root, CONFIG, "mcp"))
    hook = _hook(root, env)
    rows.append(hj.reach_row(NAME, {**env, commands.HOOK_ENV: hook} if hook else env))
    unignored = hj.ignore_row(NAME, root, FOLDER, LOCAL_FILES)
    if unignored:
        rows.append(unignored)
    rows.append(canary_row(root, path, env))
    return rows


def _hook(root: str, env: Mapping[str, str]) -> str | None:
    """What the plugin runs here: ``PAW_TUI_HOOK``, else the hook script the local file names."""
    if env.get(commands.HOOK_ENV):
        return env[commands.HOOK_ENV]
    try:
        named = (read_text(os.path.join(root, LOCAL_SETTINGS)) or "").strip()
    except ValidationError:
        return None
    return named or None


def canary_row(root: str, plugin: str, env: Mapping[str, str]) -> Row:
    """The committed plugin, loaded in node as opencode loads it, on a ``write``."""
    node = shutil.which("node", path=env.get("PATH"))
    if node is None:
        return (
            hj.WARN,
            f"{NAME} canary",
            "node is not on the PATH, so the plugin could not be loaded here to check it "
            "(opencode drops a plugin that fails to load without a word)",
        )
    return canaries.run_canary(root, canary(node, env), [plugin])


def canary(node: str, env: Mapping[str, str]) -> canaries.Canary:
    """How opencode 1.18.33 runs its plugins' ``tool.execute.before``: in its own process
    (its whole environment: ``env``), ``directory`` the folder it started in and ``worktree`` the
    repository, ``(input {tool, sessionID, callID}, output {args})``; a throw refuses the call
    and its message is the tool's result. The ``directory`` given is the scratch workspace
    (the folder the plugin runs the gate in), the ``worktree`` this one (where the plugin
    reads ``.opencode/paw-tui.hook``)."""

    def payload(scratch: canaries.Scratch) -> dict[str, object]:
        return {
            "directory": scratch.root,
            "input": {"tool": "write", "sessionID": scratch.session_id, "callID": scratch.nonce},
            "output": {"args": {"filePath": scratch.file_path, "content": "canary\n"}},
        }

    return canaries.Canary(
        NAME,
        TITLE,
        runs_as="loaded as an ES module in node, with opencode's environment",
        argv=lambda plugin: [node, "--input-type=module", "-e", RUNNER, plugin],
        environment=lambda _root, _scratch: dict(env),
        payload=payload,
        refusal=refusal,
        fails_open="when the plugin fails to load or does not throw",
        timeout=canaries.WAIT_AT_MOST,
        hook="the committed plugin's tool.execute.before",
        noun="the plugin",
    )


def refusal(outcome: canaries.Outcome) -> str | None:
    """What opencode tells the model when the plugin refuses the call (the message thrown, the
    tool's result verbatim); None when the plugin did not load or did not throw."""
    if outcome.timed_out or outcome.code != 0:
        return None
    lines = outcome.stdout.strip().splitlines()
    try:
        thrown = json.loads(lines[-1]).get("thrown") if lines else None
    except (ValueError, AttributeError):
        return None
    return thrown if isinstance(thrown, str) else None
