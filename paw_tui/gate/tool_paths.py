"""The paths and commands a tool's input names, wherever they are in it (DESIGN §6).

For a tool that is not known to be read-only, every string in its input, nested at any depth,
is read by the key it stands under (the names below, in any case, camelCase or snake_case):

- under a key that **names a path** (``path``, ``file_path``, ``filePath``, ``destination``,
  ``paths[]``, ...) it is a path, whatever it holds: spaces, no separator, a file that does not
  exist yet; an empty one names the directory the tool runs in;
- under a key that **names a command** (``command``, ``cmd``, ``script``, ``shell``,
  ``commands[]``, ``argv[]``, a ``program`` with its ``args``) it is a shell command, analysed
  as the Bash tool's are; a key naming a working directory beside it (``cwd``, ``workdir``,
  ``directory``, ...) says where it runs;
- anywhere else it is a path when it *looks like* one: one line of at most 4,096 characters,
  not a URL, and absolute, starting with ``~``, holding a ``/`` or ``\\`` and no space, or
  naming an entry that exists in the working directory.

A ``file:/`` URL is a path under any key. Prose elsewhere (an issue body, a commit message) is
left alone; a team quiets a false alarm by classifying the tool in ``governance.yaml:
tools:``. Catalogued tools say which of their fields hold text, never read at all.
"""

from __future__ import annotations

import os

from paw_tui.gate.events import CommandLine

MAX_PATH_CHARS = 4096
MAX_STRINGS = 4096
"""Strings looked at in one input at most; a bigger input is denied (fail closed)."""
MAX_COMMANDS = 64
"""Command lines one input may carry; more is denied (each is analysed within a budget)."""

# The words of a key (split at camelCase humps, ``_``, ``-``, ``.`` and spaces, lowercased).
PATH_LAST_WORDS = frozenset(
    {"path", "paths", "pathname", "pathnames", "file", "files", "filename", "filenames",
     "filepath", "filepaths", "dirname", "dirpath", "directory", "directories", "folder",
     "folders", "notebook"}
)  # fmt: skip
"""A key whose last word is one of these names a path (``file_path``, ``targetFile``, ``outputDir``
is not: ``dir`` alone also means a direction, so it names a path only as the whole key)."""
PATH_KEYS = frozenset(
    {"dir", "dirs", "src", "source", "sources", "dest", "dst", "destination", "destinations",
     "target", "targets", "cwd", "workdir", "workingdir", "workingdirectory"}
)  # fmt: skip
"""Whole keys (words joined) that name a path."""
COMMAND_LAST_WORDS = frozenset({"command", "cmd", "script", "commandline", "cmdline"})
"""A key whose last word is one of these holds one command line (a list there is an argv)."""
COMMANDS_LAST_WORDS = frozenset({"commands", "cmds", "scripts", "commandlines"})
"""A key whose last word is one of these holds a list of command lines."""
ARGV_KEYS = frozenset({"argv"})
"""A whole command as a list of words (run without a shell)."""
ARGS_KEYS = frozenset({"args", "arguments", "argumentlist"})
"""The arguments of the program named beside them (``{"command": "rm", "args": [...]}``)."""
PROGRAM_KEYS = frozenset({"program", "executable", "exe", "binary"})
INTERPRETER_KEYS = frozenset({"shell", "interpreter"})
"""The program that runs the command beside it (``{"shell": "bash", "command": ...}``); holding
more than a program's name, it is a command itself."""
CWD_KEYS = frozenset(
    {"cwd", "workdir", "workingdir", "workingdirectory", "dir", "directory", "dirpath", "cd"}
)  # fmt: skip
"""Beside a command: the directory it runs in (a path to write only when no command is there)."""

PATH = "path"
COMMAND = "command"
COMMANDS = "commands"
ARGV = "argv"
ARGS = "args"
PROGRAM = "program"
INTERPRETER = "interpreter"
CWD = "cwd"


def key_words(key: str) -> list[str]:
    """``filePath`` -> ``['file', 'path']``; ``FILE_PATH`` and ``file-path`` likewise."""
    words: list[str] = []
    current = ""
    previous = ""
    for char in key:
        if char in "_-. /":
            if current:
                words.append(current)
            current = ""
        elif char.isupper() and current and (previous.islower() or previous.isdigit()):
            words.append(current)
            current = char
        else:
            current += char
        previous = char
    if current:
        words.append(current)
    return [word.lower() for word in words]


def key_role(key: str) -> str | None:
    """What a string under ``key`` is (:data:`PATH`, :data:`COMMAND`, ...), or None: judged by
    what it looks like."""
    words = key_words(key)
    if not words:
        return None
    whole = "".join(words)
    last = words[-1]
    if whole in CWD_KEYS:
        return CWD
    if whole in INTERPRETER_KEYS:
        return INTERPRETER
    if whole in ARGV_KEYS:
        return ARGV
    if whole in ARGS_KEYS:
        return ARGS
    if whole in PROGRAM_KEYS:
        return PROGRAM
    if last in COMMANDS_LAST_WORDS or whole in COMMANDS_LAST_WORDS:
        return COMMANDS
    if last in COMMAND_LAST_WORDS or whole in COMMAND_LAST_WORDS:
        return COMMAND
    if last in PATH_LAST_WORDS or whole in PATH_LAST_WORDS or whole in PATH_KEYS:
        return PATH
    if whole.endswith(("path", "paths", "filename", "filenames")):
        return PATH
    return None


def file_url_path(text: str) -> str | None:
    """The path a ``file:`` URL names (``file:///a%20b`` -> ``/a b``, ``file:/a``), or None
    (``File: notes`` is prose)."""
    if text[:6].lower() != "file:/":
        return None
    from urllib.parse import unquote

    rest = text[5:]
    if rest.startswith("//"):
        host, _, tail = rest[2:].partition("/")
        # another host's file is a UNC path: outside the workspace, and denied as such
        rest = "/" + tail if host.lower() in ("", "localhost") else rest
    return unquote(rest)


def looks_like_a_path(text: str, cwd: str | None) -> bool:
    """The heuristic for a string under a key that says nothing (see the module's docstring)."""
    if not text or len(text) > MAX_PATH_CHARS or "\n" in text or "://" in text:
        return False
    if text[0] in "/~" or (len(text) > 2 and text[1] == ":" and text[2] in "/\\"):
        return True
    if ("/" in text or "\\" in text) and " " not in text.strip():
        return True
    if cwd is None or text in (".", "..") or "\0" in text:
        return False
    try:
        return os.path.lexists(os.path.join(cwd, text))
    except (OSError, ValueError):
        return False


class InputReading:
    """What one tool input names: ``paths`` (``(path, where)``, ``where`` showing the key path,
    such as ``edits[0].target.file``) and ``commands`` (:class:`CommandLine`)."""

    __slots__ = ("paths", "commands")

    def __init__(self) -> None:
        self.paths: list[tuple[str, str]] = []
        self.commands: list[CommandLine] = []


def read_input(
    value: object,
    cwd: str | None,
    skip_keys: frozenset[str] = frozenset(),
    *,
    want_paths: bool = True,
) -> InputReading:
    """Every path and command in ``value`` (see the module's docstring); keys in ``skip_keys``
    hold text, at any depth, and are not looked at. ValueError when the input holds too many
    strings or commands. Without ``want_paths`` only the commands are read (no file system
    access)."""
    found = InputReading()
    stack: list[tuple[object, str, bool]] = [(value, "", False)]
    seen = 0
    while stack:
        item, where, named = stack.pop()
        if isinstance(item, str):
            seen += 1
            if seen > MAX_STRINGS:
                raise ValueError(f"the tool input holds more than {MAX_STRINGS} strings")
            if want_paths:
                path = _as_path(item, cwd, named)
                if path is not None:
                    found.paths.append((path, where or "(the input)"))
        elif isinstance(item, dict):
            roles = {key: key_role(str(key)) for key in item if key not in skip_keys}
            taken = _commands_of(item, roles, where, found, stack)
            for key in reversed(list(roles)):
                if key in taken:
                    continue
                role = roles[key]
                stack.append((item[key], _at(where, key), named or role in (PATH, CWD)))
        elif isinstance(item, list):
            for index in range(len(item) - 1, -1, -1):
                stack.append((item[index], f"{where}[{index}]", named))
        if len(found.commands) > MAX_COMMANDS:
            raise ValueError(f"the tool input holds more than {MAX_COMMANDS} commands")
    return found


def _at(where: str, key: object) -> str:
    return f"{where}.{key}" if where else str(key)


def _as_path(text: str, cwd: str | None, named: bool) -> str | None:
    url = file_url_path(text) if text[:6].lower() == "file:/" else None
    if url is not None:
        return url
    if named:
        return text or "."  # an empty path is where the tool runs (a server's root, often)
    return text if looks_like_a_path(text, cwd) else None


def _program_name(word: str) -> str:
    return os.path.basename(word.strip()).rstrip("0123456789.")


def _names_an_interpreter(value: str) -> bool:
    """``bash``, ``/usr/bin/python3``: one word naming a shell or an interpreter."""
    from paw_tui.gate.shell_writes import INTERPRETERS, SHELLS  # not on a Write's path

    name = _program_name(value)
    return len(value.split()) == 1 and (name in SHELLS or name in INTERPRETERS)


def _strings(value: object) -> list[str] | None:
    if isinstance(value, list) and value and all(isinstance(word, str) for word in value):
        return value
    return None


def _quoted(words: list[str]) -> str:
    import shlex

    return shlex.join(words)


def _commands_of(
    item: dict[object, object],
    roles: dict[object, str | None],
    where: str,
    found: InputReading,
    stack: list[tuple[object, str, bool]],
) -> set[object]:
    """The command lines one object holds, added to ``found``; returns the keys they took
    (with their arguments and working directory), which are not read as paths."""
    lines: list[tuple[str, bool]] = []
    taken: set[object] = set()
    interpreter: str | None = None
    program: str | None = None
    for key, role in roles.items():
        value = item[key]
        words = _strings(value)
        if role == INTERPRETER and isinstance(value, str) and _names_an_interpreter(value):
            interpreter = value.strip()  # the program that runs the commands beside it
        elif role in (COMMAND, PROGRAM, INTERPRETER, ARGV) and isinstance(value, str):
            if program is None and role != ARGV:
                program = value  # may take the args beside it
            elif value.strip():
                lines.append((value, True))
        elif role in (COMMAND, ARGV) and words is not None:
            lines.append((_quoted(words), True))  # an argv: run without a shell
        elif role == COMMANDS and isinstance(value, (str, list)):
            lines += _listed(value, _at(where, key), stack)
        else:
            continue
        taken.add(key)
    if program is not None and program.strip():
        args = next((w for k, r in roles.items() if r == ARGS and (w := _strings(item[k]))), None)
        if args is not None:
            taken.update(k for k, r in roles.items() if r == ARGS)
        lines += _program_lines(program, args)
    if lines:
        taken.update(key for key, role in roles.items() if role == CWD)
        _add(found, lines, interpreter, [item[k] for k, r in roles.items() if r == CWD])
    return taken


def _listed(
    value: str | list[object], where: str, stack: list[tuple[object, str, bool]]
) -> list[tuple[str, bool]]:
    """The command lines of a list of them: strings, argv lists; an object (``{command,
    args}``) is read on its own."""
    lines: list[tuple[str, bool]] = []
    for index, entry in enumerate([value] if isinstance(value, str) else value):
        words = _strings(entry)
        if isinstance(entry, str):
            if entry.strip():
                lines.append((entry, True))
        elif words is not None:
            lines.append((_quoted(words), True))
        else:
            stack.append((entry, f"{where}[{index}]", False))
    return lines


def _program_lines(program: str, args: list[str] | None) -> list[tuple[str, bool]]:
    """A program with its arguments: run without a shell (each word as given), or joined into
    a shell line as some servers do (a line bash cannot parse runs nothing there, so that
    reading is dropped when it does not parse), and the program's own text as a command line
    run with the arguments as ``$1``... when it is more than a word."""
    if args is None:
        return [(program, True)]
    lines = [(_quoted([program, *args]), True), (" ".join([program, *args]), False)]
    if len(program.split()) > 1:
        lines.append((program, True))
    return lines


def _add(
    found: InputReading,
    lines: list[tuple[str, bool]],
    interpreter: str | None,
    directories: list[object],
) -> None:
    """``lines`` into ``found``, run by ``interpreter`` (code for it, when it is no shell) in
    each directory named beside them."""
    from paw_tui.gate.shell_writes import SHELLS

    if interpreter is not None and _program_name(interpreter) not in SHELLS:
        lines = [(_quoted([interpreter, "-c", line]), strict) for line, strict in lines]
    named = [d for d in directories if isinstance(d, str) and d.strip()]
    for directory in dict.fromkeys(named) or [None]:
        found.commands += [CommandLine(line, directory, strict) for line, strict in lines]
