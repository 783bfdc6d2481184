"""Reading a tool call's input through the catalogue: the files it writes, the commands it runs.

Every client adapter builds a :class:`~paw_tui.gate.events.GateEvent` with the tool's name and
input, then calls :func:`read_tool_input`: a file tool the catalogue knows for that client has
its path fields read into ``event.paths``, a shell tool its command fields into
``event.command`` (and ``event.more_commands``; its working-directory field into
``event.command_cwd``), a patch its files into ``event.paths``. A tool the catalogue does not
read that way (unknown, or mutating) has the commands its input names read when the call is
decided (:func:`read_commands`: the call is then a shell call), and its paths found by
:mod:`paw_tui.gate.tool_paths`.
"""

from __future__ import annotations

import os

from paw_tui.core.policy import catalogue as catalogued
from paw_tui.core.policy.catalogue import LIST_SUFFIX, catalogue
from paw_tui.gate.events import CommandLine, PayloadError, checked_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.policy.catalogue import ToolEntry
    from paw_tui.core.policy.shell.results import ShellAnalysis
    from paw_tui.gate.events import GateEvent

AND_FLAGS = frozenset({"read_only"})
"""Flags of an analysis that hold for several commands only when they hold for each (every
other flag holds for the whole when it holds for one)."""


def read_tool_input(event: GateEvent) -> None:
    """Fill ``event.paths`` and ``event.command`` from ``event.tool_input``; PayloadError
    when a catalogued tool's input lacks what it must hold."""
    tool = event.tool or ""
    entry = catalogue().get(tool, event.client)
    if entry is None:
        return
    tool_input = event.tool_input
    if entry.kind == catalogued.FILE:
        _file_paths(event, tool, tool_input, entry.paths)
    elif entry.kind == catalogued.SHELL and entry.commands:
        _shell_commands(event, tool, entry)
    elif entry.kind == catalogued.PATCH and entry.patches:
        _patches(event, tool, entry)


def _file_paths(
    event: GateEvent, tool: str, tool_input: dict[str, object], fields: tuple[str, ...]
) -> None:
    found = False
    for spelled in fields:
        field = spelled.removesuffix(LIST_SUFFIX)
        value = tool_input.get(field)
        if value is None or value == "":
            continue
        found = True
        if spelled.endswith(LIST_SUFFIX) and isinstance(value, list):
            for index, item in enumerate(value):
                event.paths.append(checked_path(item, f"the {field}[{index}] of {tool}"))
        else:
            event.paths.append(checked_path(value, f"the {field} of {tool}"))
    if not found:
        named = " or ".join(field.removesuffix(LIST_SUFFIX) for field in fields)
        raise PayloadError(f"the {named} of {tool} is not a usable path")


def _shell_commands(event: GateEvent, tool: str, entry: ToolEntry) -> None:
    """Every command field the entry names: a string, or (``name[]``) a list of command lines,
    each analysed on its own."""
    tool_input = event.tool_input
    directory = tool_input.get(entry.cwd) if entry.cwd else None
    if directory is not None and not isinstance(directory, str):
        raise PayloadError(f"the {entry.cwd} of {tool} is not a path")
    if isinstance(directory, str) and directory.strip():
        event.command_cwd = directory
    lines: list[str] = []
    for spelled in entry.commands:
        field = spelled.removesuffix(LIST_SUFFIX)
        value = tool_input.get(field)
        if spelled.endswith(LIST_SUFFIX):
            if value is None:
                continue
            from paw_tui.gate import tool_paths  # a list of commands (Cline's) only

            try:
                reading = tool_paths.read_input({"commands": value}, None, want_paths=False)
            except ValueError as error:
                raise PayloadError(f"the {field} of {tool}: {error}") from None
            lines += [line.text for line in reading.commands]
        elif isinstance(value, str) and value.strip():
            lines.append(value)
    if not lines:
        raise PayloadError(f"{tool} has no command to run (a string)")
    event.command = lines[0]
    event.more_commands += [CommandLine(line, event.command_cwd) for line in lines[1:]]
    for line in lines:
        _patch_through_shell(event, line)


def read_commands(event: GateEvent) -> bool:
    """For a tool the catalogue does not read as a shell tool for this client: the command
    lines its input names (DESIGN §6: keys that name a command), added to ``event.command``
    and ``event.more_commands``. True when the call runs a command (it is then decided as a
    shell call). ValueError when the input holds too many strings or commands."""
    entry = catalogue().get(event.tool or "", event.client)
    if entry is not None and entry.kind == catalogued.SHELL:
        return bool(event.command)
    if entry is not None and entry.kind in (catalogued.FILE, catalogued.PATCH):
        return False  # a client's own file or patch tool runs only its declared fields
    from paw_tui.gate import tool_paths

    skip = entry.text if entry is not None else frozenset()
    found = tool_paths.read_input(event.tool_input, None, skip, want_paths=False).commands
    first = next((line for line in found if line.strict), None)
    if first is not None and not event.command:
        found.remove(first)
        event.command, event.command_cwd = first.text, first.cwd
    event.more_commands += found
    return bool(event.command and event.command.strip())


def combine_analyses(parts: list[tuple[ShellAnalysis, bool]]) -> ShellAnalysis:
    """One analysis of several command lines, each ``(analysis, strict)``: a strict line bash
    cannot parse makes the whole unparseable; a lenient one is dropped; the rest add up (lists
    joined, ``read_only`` only when every line is, any other flag when one line has it)."""
    merged = type(parts[0][0])()
    slots = [slot for slot in type(merged).__slots__ if slot != "error"]
    counted = 0
    for analysis, strict in parts:
        if analysis.error is not None:
            if strict:
                failed = type(merged)()
                failed.error = analysis.error
                return failed
            continue
        for slot in slots:
            value = getattr(analysis, slot)
            if isinstance(value, list):
                getattr(merged, slot).extend(value)
            elif isinstance(value, bool):
                held = getattr(merged, slot)
                both = held and value if counted else value
                setattr(merged, slot, both if slot in AND_FLAGS else held or value)
            elif value is not None and getattr(merged, slot) is None:
                setattr(merged, slot, value)
        counted += 1
    return merged


def _patches(event: GateEvent, tool: str, entry: ToolEntry) -> None:
    bodies = [event.tool_input.get(field) for field in entry.patches]
    present = [body for body in bodies if body is not None]
    if not present or not all(isinstance(body, str) and body.strip() for body in present):
        named = " or ".join(f"'{field}'" for field in entry.patches)
        raise PayloadError(f"{tool} has no patch (a string in {named})")
    for body in dict.fromkeys(present):  # an adapter may copy the body to a second field
        event.paths += _patch_files(tool, body)  # type: ignore[arg-type]


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
        event.paths += [checked_path(path, f"a file of the patch of {tool}") for path in paths]
