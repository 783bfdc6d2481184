"""Reading a tool call's input through the catalogue: the files it writes, the command it runs.

Every client adapter builds a :class:`~paw_tui.gate.events.GateEvent` with the tool's name and
input, then calls :func:`read_tool_input`: a catalogued file tool's path fields become
``event.paths``, a shell tool's command field ``event.command`` (and its working-directory
field ``event.command_cwd``), a patch's files ``event.paths``. An uncatalogued tool keeps a
string ``command`` field as its command; its path-like strings are found later
(:mod:`paw_tui.gate.tool_paths`).
"""

from __future__ import annotations

import os

from paw_tui.core.policy import catalogue as catalogued
from paw_tui.core.policy.catalogue import catalogue
from paw_tui.gate.events import PayloadError, checked_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.gate.events import GateEvent


def read_tool_input(event: GateEvent) -> None:
    """Fill ``event.paths`` and ``event.command`` from ``event.tool_input``; PayloadError
    when a catalogued tool's input lacks what it must hold."""
    tool = event.tool or ""
    tool_input = event.tool_input
    entry = catalogue().get(tool)
    if entry is None:
        command = tool_input.get("command")
        if isinstance(command, str):
            event.command = command
        return
    if entry.kind == catalogued.FILE:
        _file_paths(event, tool, tool_input, entry.paths)
    elif entry.kind == catalogued.SHELL and entry.command is not None:
        command = tool_input.get(entry.command)
        if not isinstance(command, str) or not command.strip():
            raise PayloadError(f"{tool} has no command to run (a string)")
        event.command = command
        directory = tool_input.get(entry.cwd) if entry.cwd else None
        if isinstance(directory, str) and directory.strip():
            event.command_cwd = directory
        _patch_through_shell(event, command)
    elif entry.kind == catalogued.PATCH and entry.patch is not None:
        body = tool_input.get(entry.patch)
        if not isinstance(body, str) or not body.strip():
            raise PayloadError(f"{tool} has no patch (a string in '{entry.patch}')")
        event.paths = _patch_files(tool, body)


def _file_paths(
    event: GateEvent, tool: str, tool_input: dict[str, object], fields: tuple[str, ...]
) -> None:
    found = False
    for spelled in fields:
        field = spelled.removesuffix("[]")
        value = tool_input.get(field)
        if value is None or value == "":
            continue
        found = True
        if spelled.endswith("[]") and isinstance(value, list):
            for index, item in enumerate(value):
                event.paths.append(checked_path(item, f"the {field}[{index}] of {tool}"))
        else:
            event.paths.append(checked_path(value, f"the {field} of {tool}"))
    if not found:
        named = " or ".join(field.removesuffix("[]") for field in fields)
        raise PayloadError(f"the {named} of {tool} is not a usable path")


def _patch_files(tool: str, body: str) -> list[str]:
    from paw_tui.gate.patch import PatchError, patch_paths

    try:
        paths = patch_paths(body)
    except PatchError as error:
        raise PayloadError(f"the patch of {tool} cannot be read ({error})") from None
    return [checked_path(path, f"a file of the patch of {tool}") for path in paths]


def _patch_through_shell(event: GateEvent, command: str) -> None:
    """``apply_patch <<'EOF'`` through a shell (Codex applies it itself): its files are
    checked too, relative to a ``cd DIR &&`` before it."""
    if "apply_patch" not in command and "applypatch" not in command:
        return
    from paw_tui.gate.patch import PatchError
    from paw_tui.gate.patch_shell import shell_patch_paths

    tool = event.tool or "shell"
    try:
        paths = shell_patch_paths(command)
    except PatchError as error:
        raise PayloadError(f"the patch of {tool} cannot be read ({error})") from None
    if paths is not None:
        if event.command_cwd:  # the shell runs there (Codex sends its workdir as the cwd)
            directory = os.path.expanduser(event.command_cwd)
            paths = [os.path.join(directory, path) for path in paths]
        event.paths = [checked_path(path, f"a file of the patch of {tool}") for path in paths]


def text_fields(tool: str) -> frozenset[str]:
    """Fields of a catalogued tool that hold text, never a path."""
    entry = catalogue().get(tool)
    return entry.text if entry is not None else frozenset()
