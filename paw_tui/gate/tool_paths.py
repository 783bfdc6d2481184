"""The paths a tool's input names, wherever they are in it (DESIGN §6).

For a tool that is not known to be read-only, every string in its input, nested at any depth,
that *names a path* is scope-checked like a ``file_path``: an MCP file server's ``path`` or
``destination``, an edit's ``target.file``. A string names a path when it is one line of at
most 4,096 characters, is not a URL, and is absolute, starts with ``~``, holds a ``/`` or
``\\`` and no space, or names an entry that exists in the working directory. Prose (an issue
body, a commit message) is left alone; a team quiets a false alarm by classifying the tool in
``governance.yaml: tools:``.
"""

from __future__ import annotations

import os

MAX_PATH_CHARS = 4096
MAX_STRINGS = 4096
"""Strings looked at in one input at most; a bigger input is denied (fail closed)."""


def _names_a_path(text: str, cwd: str | None) -> bool:
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


def paths_in(
    value: object, cwd: str | None, skip_keys: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    """``(path, where)`` for every string in ``value`` that names a path; ``where`` shows the
    key path (``edits[0].target.file``); keys in ``skip_keys`` are text, at any depth, and not
    looked at. ValueError when the input holds too many strings."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[object, str]] = [(value, "")]
    seen = 0
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            seen += 1
            if seen > MAX_STRINGS:
                raise ValueError(f"the tool input holds more than {MAX_STRINGS} strings")
            if _names_a_path(item, cwd):
                found.append((item, where or "(the input)"))
        elif isinstance(item, dict):
            for key in reversed(list(item)):
                if key in skip_keys:
                    continue
                stack.append((item[key], f"{where}.{key}" if where else str(key)))
        elif isinstance(item, list):
            for index in range(len(item) - 1, -1, -1):
                stack.append((item[index], f"{where}[{index}]"))
    return found
