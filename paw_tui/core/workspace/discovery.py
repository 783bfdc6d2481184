"""Which directories are the workspace roots (DESIGN §1).

Order of authority: ``--workspace`` (repeatable, searched in order), else
``PAW_WORKSPACE_PATH`` (trimmed; when non-blank, the only root), else ``CLAUDE_PROJECT_DIR``
for the faces that run inside a client (gate, MCP server), else the nearest of the start
directory and its ancestors holding ``.orchestration/``, ``.paw/`` or ``.git``. The user's
home is skipped by the ancestor search: its ``.paw/`` is the user layer, not a workspace.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

WORKSPACE_ENV = "PAW_WORKSPACE_PATH"
CLIENT_PROJECT_ENV = "CLAUDE_PROJECT_DIR"
MARKER_DIRS = (".orchestration", ".paw")
MARKER_ANY = ".git"  # a directory, or a file in a worktree or submodule


def _absolute(path: str, cwd: str) -> str:
    return os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))


def is_workspace_dir(path: str) -> bool:
    """Whether ``path`` holds one of the markers that make a directory a workspace root."""
    return any(os.path.isdir(os.path.join(path, name)) for name in MARKER_DIRS) or os.path.lexists(
        os.path.join(path, MARKER_ANY)
    )


def _same_dir(a: str, b: str | None) -> bool:
    if not b:
        return False
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def find_ancestor_root(start: str, home: str | None = None) -> str | None:
    """The nearest of ``start`` and its ancestors that is a workspace, skipping ``home``."""
    current = os.path.abspath(start)
    while True:
        if is_workspace_dir(current) and not _same_dir(current, home):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def discover_roots(
    explicit: Iterable[str] = (),
    *,
    environ: Mapping[str, str] | None = None,
    cwd: str | None = None,
    home: str | None = None,
    client_project_env: bool = False,
) -> list[str]:
    """The workspace roots, absolute and in search order; empty when there are none."""
    env = os.environ if environ is None else environ
    base = cwd or os.getcwd()
    roots: list[str] = []
    for path in explicit:
        absolute = _absolute(path, base)
        if absolute not in roots:
            roots.append(absolute)
    if roots:
        return roots
    override = (env.get(WORKSPACE_ENV) or "").strip()
    if override:
        return [_absolute(override, base)]
    if client_project_env:
        project = (env.get(CLIENT_PROJECT_ENV) or "").strip()
        if project:
            return [_absolute(project, base)]
    found = find_ancestor_root(base, home)
    return [found] if found else []
