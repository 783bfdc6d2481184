"""Keeping the machine-local files an install writes out of commits (DESIGN §2).

Each client keeps this machine's settings in a file of its own folder (``.claude/
settings.local.json``, ``.gemini/.env``, ``.qwen/.env``, ...) or writes machine state into the
workspace itself (opencode's ``.opencode/node_modules/`` and the ``package.json`` it installs
into). The install adds them to a ``.gitignore`` *in that folder*: one small file the team
commits, scoped to the folder, that never touches the repository's own ``.gitignore``. An entry
already there (with or without its leading ``/``) is left as it is; the rest of the file is kept.
"""

from __future__ import annotations

import os

from paw_tui.core.clients.plan import PlannedFile, read_text

IGNORE_FILE = ".gitignore"


def _listed(lines: list[str], entry: str) -> bool:
    bare = entry.lstrip("/")
    return any(line.strip().lstrip("/") == bare for line in lines)


def merge_ignore(text: str | None, entries: tuple[str, ...], client: str) -> str:
    """``text`` (a ``.gitignore``; None when absent) with each of ``entries`` listed."""
    lines = (text or "").splitlines()
    missing = [entry for entry in entries if not _listed(lines, entry)]
    if not missing:
        return text if text is not None and text.endswith("\n") else "\n".join(lines) + "\n"
    if not lines:
        lines = [
            f"# this machine's files (written by 'paw-tui install {client}'): never commit them"
        ]
    return "\n".join([*lines, *missing]) + "\n"


def ignore_plan(root: str, folder: str, entries: tuple[str, ...], client: str) -> PlannedFile:
    """``<root>/<folder>/.gitignore`` ignoring ``entries`` (relative to that folder)."""
    path = os.path.join(root, folder, IGNORE_FILE)
    before = read_text(path)
    return PlannedFile(path, before, merge_ignore(before, entries, client))


def unignored(root: str, folder: str, entries: tuple[str, ...]) -> list[str]:
    """The ``entries`` that ``<root>/<folder>/.gitignore`` does not list (all when absent)."""
    try:
        text = read_text(os.path.join(root, folder, IGNORE_FILE))
    except Exception:  # an unreadable file ignores nothing we can tell
        text = None
    lines = (text or "").splitlines()
    return [entry for entry in entries if not _listed(lines, entry)]
