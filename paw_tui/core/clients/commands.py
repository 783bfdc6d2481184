"""The commands a client's configuration runs: the gate as a hook, paw-tui as an MCP server.

A file a team commits (``.claude/settings.json``, ``.gemini/settings.json``,
``.codex/hooks.json``, ...) must work on every clone, so it never holds this machine's paths.
It holds the *portable hook command*::

    "${PAW_TUI_HOOK:-paw-tui}" gate --client claude-code; s=$?; ...; exit $s

``PAW_TUI_HOOK`` names this machine's *hook script* (written by ``install`` in the user state
directory: this installation's Python running the gate's launcher, the fast path), set where
the client keeps machine-local settings (``.claude/settings.local.json``'s ``env``, ...). On a
clone where nobody ran ``install``, the ``paw-tui`` on the PATH runs the gate; where there is
none, the command denies (exit 2) and says why, instead of the exit 127 every client treats as
"let the tool run". Any exit but 0 and 2 (a crash) becomes a deny the same way.
"""

from __future__ import annotations

import os
import sys

from paw_tui.core.workspace import statedir

HOOK_ENV = "PAW_TUI_HOOK"
HOOK_SCRIPT = "hook"
RESIDENT_DIRECTORY = "resident"
"""Beside the hook script: the resident gate's socket, proof file and lock
(:mod:`paw_tui.gate.resident`); never writable by the confined shell."""
RESIDENT_OPTION = "--resident"
"""The launcher's option naming that directory (after ``--code-cache PATH``): the hook script
passes it, and with it the hook asks the resident gate first."""
SERVER_NAME = "paw"
LAUNCHER = os.path.join("paw_tui", "gate", "launch.py")
GATE_CODE = "from paw_tui.gate.main import run; run()"  # what older installs ran


def launcher_path() -> str:
    """This installation's ``paw_tui/gate/launch.py``."""
    import paw_tui

    return os.path.join(os.path.dirname(os.path.abspath(paw_tui.__file__)), "gate", "launch.py")


def gate_command(client: str = "claude-code") -> list[str]:
    """This machine's direct hook command: its Python running the gate's launcher.

    Not the ``paw-tui`` console script: pip's launcher imports ``re`` (~15 ms, most of a
    hook's budget on every tool call). ``-I -S`` skip ``site`` and the environment; the
    launcher finds the package from its own location (:mod:`paw_tui.gate.launch`).
    """
    return [os.path.abspath(sys.executable), "-I", "-S", launcher_path(), "--client", client]


def hook_script_path(state_base: str | None = None) -> str:
    """Where ``install`` writes this machine's hook script."""
    base = statedir.state_base_dir() if state_base is None else state_base
    return os.path.join(base, HOOK_SCRIPT)


def resident_directory(state_base: str | None = None) -> str:
    """The resident gate's directory of this machine's installation."""
    return os.path.join(os.path.dirname(hook_script_path(state_base)), RESIDENT_DIRECTORY)


SHEBANG_LIMIT = 127
"""The longest ``#!`` line every Linux reads whole (older kernels cut at 127 bytes)."""


def hook_script_text(state_base: str | None = None) -> str:
    """The hook script: this machine's paw-tui, taking ``paw-tui``'s arguments; ``gate`` runs
    the gate's launcher with the gate's code cache beside the script (the fast path), anything
    else (``mcp``) ``python -m paw_tui``.

    A Python script run by its ``#!`` line, so a hook call starts one process, not a shell
    and then Python; where the interpreter's path cannot go in a ``#!`` line (too long, or
    holding a space), a shell script doing the same."""
    from paw_tui.core.clients.plan import shell_join
    from paw_tui.core.support.code_cache import CACHE_NAME, OPTION

    python = os.path.abspath(sys.executable)
    cache = os.path.join(os.path.dirname(hook_script_path(state_base)), CACHE_NAME)
    resident = resident_directory(state_base)
    launcher = launcher_path()
    shebang = f"#!{python} -IS"
    if len(shebang) <= SHEBANG_LIMIT and not any(c.isspace() for c in python):
        site = os.path.dirname(os.path.dirname(os.path.dirname(launcher)))
        return (
            f"{shebang}\n"
            "# paw-tui for this machine's installation (written by 'paw-tui install').\n"
            "import sys\n"
            'if sys.argv[1:2] == ["gate"]:\n'
            f"    sys.argv[1:2] = [{OPTION!r}, {cache!r}, {RESIDENT_OPTION!r}, {resident!r}]\n"
            f"    sys.path.append({site!r})\n"
            "    from paw_tui.gate.launch import main\n"
            "\n"
            "    main()\n"
            "else:\n"
            "    import os\n"
            "\n"
            f'    os.execv({python!r}, [{python!r}, "-m", "paw_tui", *sys.argv[1:]])\n'
        )
    direct = shell_join([python, "-I", "-S", launcher, OPTION, cache, RESIDENT_OPTION, resident])
    return (
        "#!/bin/sh\n"
        "# paw-tui for this machine's installation (written by 'paw-tui install').\n"
        'if [ "$1" = gate ]; then shift; exec ' + direct + ' "$@"; fi\n'
        f'exec {shell_join([python, "-m", "paw_tui"])} "$@"\n'
    )


def fallback_reason(client: str) -> str:
    """What the portable command says when it denies without the gate (``$s``: its exit)."""
    return (
        "paw-tui policy: the paw-tui gate could not run here (exit $s). Install paw-tui and "
        f"run 'paw-tui install {client}' in this repository; denying (fail closed)."
    )


def portable_hook_command(client: str, stdout_deny: str | None = None) -> str:
    """The hook command a committed file holds (see the module docstring).

    ``stdout_deny`` (a ``printf`` format whose one ``%s`` is the reason) also writes the
    fallback's deny on stdout, for a client that shows the model only that (Copilot CLI reads
    an exit 2's reason from stdout, never from stderr)."""
    reason = fallback_reason(client)
    also = f"printf '{stdout_deny}\\n' \"{reason}\"; " if stdout_deny else ""
    return (
        f'"${{{HOOK_ENV}:-paw-tui}}" gate --client {client}; s=$?; '
        '[ "$s" = 0 ] || [ "$s" = 2 ] || { '
        f'echo "{reason}" >&2; {also}'
        "s=2; }; exit $s"
    )


def portable_mcp_command() -> list[str]:
    """The MCP server's command for a committed file: this machine's paw-tui when the
    client's local settings name it, else the ``paw-tui`` on the PATH. Written without
    ``${...}``: Claude Code expands that form in ``.mcp.json`` itself, from its own
    environment, before the local settings' ``env`` applies."""
    return [
        "sh",
        "-c",
        f'if [ -n "${HOOK_ENV}" ]; then exec "${HOOK_ENV}" mcp --hooked; fi; '
        "exec paw-tui mcp --hooked",
    ]


def is_gate_command(command: str) -> bool:
    """Whether a hook command runs paw-tui's gate (any form an install wrote)."""
    return (
        HOOK_ENV in command
        or " gate --client " in command
        or GATE_CODE in command
        or LAUNCHER in command
    )


def paw_command() -> list[str]:
    """How to run this installation's paw-tui: its console script, else ``python -m``."""
    bindir = os.path.dirname(os.path.abspath(sys.executable))
    for name in ("paw-tui", "paw-tui.exe"):
        candidate = os.path.join(bindir, name)
        if os.path.isfile(candidate):
            return [candidate]
    return [os.path.abspath(sys.executable), "-m", "paw_tui"]
