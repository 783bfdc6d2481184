"""``paw-tui install gemini-cli``: hooks and the MCP server in ``.gemini/settings.json``, this
machine's variables in ``.gemini/.env``.

- ``.gemini/settings.json`` (committed): a ``paw-tui`` command hook on ``BeforeTool`` (every
  tool but the catalogue's read-only ones), ``AfterTool`` (file and shell tools),
  ``SessionStart``, ``BeforeAgent`` and ``SessionEnd`` (timeouts in milliseconds), and the
  ``paw`` MCP server with ``"trust": true`` (Gemini otherwise asks before each call of its
  tools). Gemini reads only the settings of the folder it starts in.
- ``.gemini/.env`` (this machine): ``PAW_TUI_HOOK`` and, where the kernel offers Landlock,
  the shell's ``BASH_ENV``. Gemini loads it into its own environment in a trusted folder, so
  its hooks, its MCP servers and its shell tool see them. ``.gemini/.gitignore`` keeps it out
  of commits.
- the hook script, in the user state directory.

Two things of Gemini CLI 0.61.0 shape the hook command (both read in its source and seen with
the real binary). It expands ``$NAME`` and ``${NAME:-default}`` in every settings value when it
loads them, *before* it reads ``.env``: the shared form ``"${PAW_TUI_HOOK:-paw-tui}"`` would
become ``"paw-tui"`` for good, so this command names only ``$PAW_TUI_HOOK`` (left alone when
unset, the same value when set), ``$1`` and ``$?``. And it runs hooks as ``bash -c``, which
reads ``BASH_ENV`` too: each hook sets ``BASH_ENV`` to empty, or the gate itself would run
inside the agent's kernel boundary and could not write the ledger.
"""

from __future__ import annotations

import os

from paw_tui.core.clients import _hooks_json as hj
from paw_tui.core.clients import commands
from paw_tui.core.clients.claude_code import machine_environment, merge_hooks
from paw_tui.core.clients.plan import PlannedFile, SetupPlan, ignore_file, read_text
from paw_tui.core.errors import ValidationError
from paw_tui.core.support.regular_file import read_regular_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

NAME = "gemini-cli"
TITLE = "Gemini CLI"
FOLDER = ".gemini"
SETTINGS = os.path.join(FOLDER, "settings.json")
ENV_FILE = os.path.join(FOLDER, ".env")
LOCAL_FILES = ("/.env",)
"""What ``.gemini/.gitignore`` keeps out of commits."""
HOOK_NAME = "paw-tui"
"""How Gemini lists the hook (its start-up warning, ``hooksConfig.disabled``)."""
HOOK_TIMEOUT_MS = 10000
HOOK_ENV = {"BASH_ENV": ""}
"""The hook's own environment: no kernel boundary for the gate (see the module docstring)."""
EVENTS = {
    "BeforeTool": hj.PRE_TOOL,
    "AfterTool": hj.POST_TOOL,
    "SessionStart": hj.SESSION_START,
    "BeforeAgent": hj.PROMPT,
    "SessionEnd": hj.SESSION_END,
}
ENV_HEADER = (
    "# paw-tui: this machine's settings for Gemini CLI (written by 'paw-tui install gemini-cli')"
)


def hook_command(event: str, client: str = NAME) -> str:
    """The portable hook command in a form Gemini's settings expansion leaves intact (Qwen
    Code, its fork, expands ``$NAME`` and ``${NAME}`` the same way)."""
    command = hj.hook_command(client, event)
    head = f'"${{{commands.HOOK_ENV}:-paw-tui}}"'
    if not command.startswith(head) or "s=$?;" not in command or "s=2;" not in command:
        raise RuntimeError(f"the portable hook command changed its form: {command!r}")
    command = (
        f'set -- "${commands.HOOK_ENV}"; [ -n "$1" ] || set -- paw-tui; "$1"' + command[len(head) :]
    )
    command = command.replace("s=$?;", 'set -- "$?";').replace("s=2;", "set -- 2;")
    command = command.replace("$s", "$1")
    rest = command.replace(f"${commands.HOOK_ENV}", "").replace("$1", "").replace("$?", "")
    if "$" in rest:  # pragma: no cover - guards a change of the shared command's form
        raise RuntimeError(f"Gemini CLI would expand a variable in {command!r}")
    return command


def pre_tool_matcher(client: str = NAME) -> str:
    """Every tool but the ones the catalogue knows read-only for ``client`` (a JavaScript
    regular expression, as Gemini CLI and Qwen Code read it: look-ahead works); MCP and
    unknown tools reach the gate."""
    from paw_tui.core.policy.catalogue import READ_ONLY, catalogue

    names = sorted(e.name for e in catalogue().for_client(client) if e.kind == READ_ONLY)
    return "^(?!(" + "|".join(names) + ")$).*"


def post_tool_matcher(client: str = NAME) -> str:
    """The tools that write files or run commands: their results are recorded."""
    from paw_tui.core.policy.catalogue import FILE, PATCH, SHELL, catalogue

    kinds = (FILE, PATCH, SHELL)
    names = sorted(e.name for e in catalogue().for_client(client) if e.kind in kinds)
    return "^(" + "|".join(names) + ")$"


def matcher_groups(
    client: str, events: Mapping[str, str], handler: Callable[[str], dict[str, object]]
) -> dict[str, dict[str, object]]:
    """Our matcher group per hook event (``events``: event -> the gate's event), in the form
    Gemini CLI and Qwen Code read: ``handler(gate event)``, under the catalogue's matchers for
    ``client``'s pre- and post-tool events."""
    entries: dict[str, dict[str, object]] = {}
    for event, kind in events.items():
        group: dict[str, object] = {"hooks": [handler(kind)]}
        if kind == hj.PRE_TOOL:
            group = {"matcher": pre_tool_matcher(client), **group}
        elif kind == hj.POST_TOOL:
            group = {"matcher": post_tool_matcher(client), **group}
        entries[event] = group
    return entries


def gemini_hooks() -> dict[str, dict[str, object]]:
    """Our matcher group per Gemini hook event."""

    def handler(kind: str) -> dict[str, object]:
        return {
            "name": HOOK_NAME,
            "type": "command",
            "command": hook_command(kind),
            "timeout": HOOK_TIMEOUT_MS,
            "env": dict(HOOK_ENV),
        }

    return matcher_groups(NAME, EVENTS, handler)


def merge_settings(data: dict[str, object], path: str) -> dict[str, object]:
    """``.gemini/settings.json`` with our hooks and the ``paw`` server; the rest kept."""
    merged = merge_hooks(data, gemini_hooks(), path)
    return hj.merge_server(merged, "mcpServers", hj.paw_server(trust=True), path)


# --- .gemini/.env -----------------------------------------------------------------------


def env_line(name: str, value: str) -> str:
    """``NAME=value`` as Gemini's dotenv reads it back: bare when plain, else in single quotes
    (taken literally), else in double quotes (only ``\\n`` and ``\\r`` are read there)."""
    if value and all(c.isalnum() or c in "/._-+:@%,=" for c in value):
        return f"{name}={value}"
    if "'" not in value and "\n" not in value:
        return f"{name}='{value}'"
    if '"' not in value and "\\" not in value and "\n" not in value:
        return f'{name}="{value}"'
    raise ValidationError(
        f"{ENV_FILE}: the value of {name} cannot be written for dotenv: {value!r}"
    )


def _assigned(line: str) -> str | None:
    """The variable a dotenv line assigns (None for comments, blanks, anything else)."""
    text = line.strip()
    if text.startswith("export "):
        text = text[len("export ") :].lstrip()
    name, eq, _value = text.partition("=")
    name = name.strip()
    return name if eq and name and not name.startswith("#") else None


def merge_env_text(text: str | None, env: dict[str, str], header: str = ENV_HEADER) -> str:
    """``text`` (a dotenv file) with ``env`` set: our variables replaced where they are,
    missing ones added after a comment saying whose they are, every other line kept."""
    lines = (text or "").splitlines()
    out: list[str] = []
    written: set[str] = set()
    for line in lines:
        name = _assigned(line)
        if name in env:
            if name not in written:
                out.append(env_line(name, env[name]))
                written.add(name)
            continue
        out.append(line)
    missing = [name for name in env if name not in written]
    if missing:
        if header not in out:
            if out and out[-1].strip():
                out.append("")
            out.append(header)
        out += [env_line(name, env[name]) for name in missing]
    return "\n".join(out) + "\n"


def shadowed_env_file(root: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The ``.env`` file Gemini loaded before ``.gemini/.env`` existed, if any: it loads only
    the first it finds (``.gemini/.env`` then ``.env`` in each folder up from where it
    starts, then ``~/.gemini/.env`` and ``~/.env``), so that one's variables stop applying."""
    env = os.environ if environ is None else environ
    home = env.get("GEMINI_CLI_HOME") or os.path.expanduser("~")
    directory = os.path.abspath(root)
    candidates = [os.path.join(directory, ".env")]
    while True:
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
        candidates += [os.path.join(directory, ".gemini", ".env"), os.path.join(directory, ".env")]
    candidates += [os.path.join(home, ".gemini", ".env"), os.path.join(home, ".env")]
    return next((path for path in candidates if os.path.isfile(path)), None)


def lost_variables(root: str, environ: Mapping[str, str] | None = None) -> tuple[str, list[str]]:
    """The ``.env`` file ``.gemini/.env`` hides from Gemini and the variables of it that Gemini
    no longer gets here (set neither in ``.gemini/.env`` nor in the environment); ``("", [])``
    when nothing is lost."""
    env = os.environ if environ is None else environ
    shadowed = shadowed_env_file(root, env)
    if shadowed is None:
        return "", []
    ours = read_env_file(os.path.join(root, ENV_FILE))
    names = [name for name in read_env_file(shadowed) if name not in ours and name not in env]
    return (shadowed, names) if names else ("", [])


def read_env_file(path: str) -> dict[str, str]:
    """``NAME=value`` lines of a dotenv file (quotes removed); empty when it is absent."""
    values: dict[str, str] = {}
    try:
        lines = read_regular_text(path).splitlines()
    except (OSError, UnicodeDecodeError):
        return values
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        text = text.removeprefix("export ").lstrip()
        name, eq, value = text.partition("=")
        if not eq:
            continue
        values[name.strip()] = _env_value(value.strip())
    return values


def _env_value(value: str) -> str:
    """A dotenv value as Gemini's dotenv reads it: single quotes literal, double quotes with
    ``\\n`` and ``\\r`` read as line breaks."""
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1]
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace("\\n", "\n").replace("\\r", "\r")
    return value


# --- the plan ---------------------------------------------------------------------------


def trust_step(root: str) -> str:
    return (
        "Trust this folder in Gemini CLI: Gemini ignores .gemini/settings.json and "
        ".gemini/.env in an untrusted folder (so nothing is governed) and, with -p, exits 55. "
        "Start 'gemini' here and choose 'Trust folder' when it asks, or add "
        f'"{os.path.abspath(root)}": "TRUST_FOLDER" to ~/.gemini/trustedFolders.json; '
        "for one headless run, GEMINI_CLI_TRUST_WORKSPACE=true."
    )


def plan(root: str) -> SetupPlan:
    result = SetupPlan(NAME)
    settings = os.path.join(root, SETTINGS)
    planned = hj.json_plan(settings, lambda d: merge_settings(d, settings), allow_comments=True)
    result.files.append(planned)
    text = read_text(settings) or ""
    if planned.changed and any(line.lstrip().startswith("//") for line in text.splitlines()):
        result.notes.append(
            f"{SETTINGS} held // comments: they are not kept (the file is written as JSON)."
        )
    env_path = os.path.join(root, ENV_FILE)
    env_before = read_text(env_path)
    env = machine_environment(root)
    result.files.append(PlannedFile(env_path, env_before, merge_env_text(env_before, env)))
    result.files.append(ignore_file(root, FOLDER, LOCAL_FILES, NAME))
    result.files.append(hj.hook_script_file())
    shadowed, lost = lost_variables(root) if env_before is None else ("", [])
    if lost:
        result.notes.append(
            f"Gemini CLI loads only the first .env file it finds: .gemini/.env now comes "
            f"before {shadowed}, so Gemini no longer reads {', '.join(lost)} from it here. Move "
            "them into .gemini/.env or export them in your shell."
        )
    if "BASH_ENV" in env:
        result.notes.append(
            "Gemini CLI gives .gemini/.env's BASH_ENV to every bash it starts: the agent's "
            "shell commands run inside the kernel boundary, and so do your own '!' shell-mode "
            "commands and any other hook or MCP server started through bash -c (paw-tui's "
            "hooks set BASH_ENV to empty)."
        )
    result.notes.append(
        ".gemini/.env holds this machine's paths and is ignored by .gemini/.gitignore: "
        "commit .gemini/settings.json and .gemini/.gitignore, not .gemini/.env."
    )
    result.steps += [
        trust_step(root),
        "Gemini warns once that this workspace has project hooks ('paw-tui'); they run. "
        "The paw MCP server is trusted in .gemini/settings.json, so its tools run without "
        "asking; /mcp lists it (if it was ever turned off with '/mcp disable paw', run "
        "'/mcp enable paw': without it every change is denied).",
        "Start Gemini CLI from this folder: it reads only the .gemini/ of the folder it "
        "starts in, so a session started in a subfolder is not governed.",
        "Run 'paw-tui doctor' to check the set-up.",
    ]
    return result
