"""``paw-tui doctor`` for opencode: is the plugin there, current, and does it load and refuse.

opencode drops a plugin that fails to load without a word (observed with 1.18.33: a throw at
load time is in its log only, a syntax error not even there), and then nothing is governed. So
besides the files, the check loads the committed plugin the way opencode's runtime does (an ES
module, with node when it is on the PATH) and calls its ``tool.execute.before`` on a write
before any selection, in a scratch copy of the intents: it must throw the gate's own refusal,
not the plugin's "could not run" fallback and not nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import canary, commands
from paw_tui.core.clients.ignore import unignored
from paw_tui.core.clients.opencode import (
    CONFIG,
    FOLDER,
    LOCAL_FILES,
    LOCAL_SETTINGS,
    NAME,
    PLUGIN,
    plugin_text,
)
from paw_tui.core.clients.plan import read_text
from paw_tui.core.errors import ValidationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    Row = tuple[str, str, str]

RUNNER = """\
const module = await import(process.argv[2]);
const plugin = Object.values(module).find((value) => typeof value === "function");
const hooks = await plugin({ directory: process.argv[3], worktree: process.argv[3] });
let thrown = null;
try {
  await hooks["tool.execute.before"](
    { tool: "write", sessionID: "paw-doctor-canary", callID: "canary" },
    { args: { filePath: "canary.txt", content: "x" } },
  );
} catch (error) {
  thrown = String((error && error.message) || error);
}
console.log(JSON.stringify({ thrown }));
"""


def check(root: str, environ: Mapping[str, str] | None = None) -> list[Row]:
    env = dict(os.environ if environ is None else environ)
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
    left = unignored(root, FOLDER, LOCAL_FILES)
    if left:
        rows.append((hj.WARN, NAME, f"{FOLDER}/.gitignore does not ignore {', '.join(left)}"))
    rows.append(load_row(root, path, {**env, commands.HOOK_ENV: hook} if hook else env))
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


def load_row(root: str, plugin: str, env: Mapping[str, str]) -> Row:
    node = shutil.which("node", path=env.get("PATH"))
    if node is None:
        return (
            hj.WARN,
            NAME,
            "node is not on the PATH, so the plugin could not be loaded here to check it "
            "(opencode drops a plugin that fails to load without a word)",
        )
    with tempfile.TemporaryDirectory(prefix="paw-doctor-opencode-") as folder:
        module = os.path.join(folder, "paw-tui.mjs")
        shutil.copyfile(plugin, module)  # an ES module whatever package.json says
        runner = os.path.join(folder, "runner.mjs")
        with open(runner, "w", encoding="utf-8") as handle:
            handle.write(RUNNER)
        outcome = canary.run(
            root, lambda scratch: [node, runner, module, scratch], lambda _scratch: {}, env
        )

    def refused(outcome: canary.Outcome) -> bool:
        try:
            thrown = json.loads(outcome.stdout.strip().splitlines()[-1]).get("thrown")
        except (ValueError, IndexError, AttributeError):
            return False
        return isinstance(thrown, str) and bool(thrown)

    return canary.judge(
        NAME,
        "plugin's tool.execute.before",
        outcome,
        refused,
        "a plugin that does not load or throw lets opencode run every tool",
    )
