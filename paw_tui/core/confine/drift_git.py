"""What drift detection pins inside ``.git``: everything that makes git run a program or read
another repository (DESIGN §6, layer 3), found in the repository's layout
(``gitrepository-layout(5)``) once per snapshot.

``.git`` is writable inside the kernel boundary (``git commit`` needs it) and is never walked
whole (objects, refs and the index are git's own, written by every commit). For each git
directory of the workspace (``.git`` itself, each submodule's under ``.git/modules/``, nested,
each linked worktree's under ``.git/worktrees/``) these are pinned, watched for creation,
change and removal, and put back:

- :data:`PINNED_FILES`: ``config`` and ``config.worktree`` (aliases, ``core.fsmonitor``,
  ``core.hooksPath``, ``core.sshCommand``, filters, diff and merge drivers, ``include.path``:
  programs git runs, files it reads), ``commondir`` (another git directory whose config and
  hooks are then used), ``objects/info/alternates`` and ``objects/info/http-alternates``
  (objects read from another repository); a linked worktree's git directory takes all but
  its own ``config.worktree``, ``info/`` and ``gitdir`` (its way back to its checkout) from
  the common one, and pins those (:data:`WORKTREE_PINS`);
- :data:`PINNED_TREES`, walked one level, everything in them restored: ``hooks/`` (programs
  git runs), ``info/`` (``attributes`` chooses the filter and diff programs a path goes
  through; ``exclude``, ``sparse-checkout``, ``grafts`` change what git sees and writes),
  ``branches/`` and ``remotes/`` (old-style remote URLs: another repository read);
- :data:`CONTAINERS`: ``modules/`` and ``worktrees/``: a git directory that appears in them
  (a submodule's or a worktree's, with a config and hooks of its own) is removed whole, and
  the known ones are pinned as above;
- a checked-out submodule's ``.git`` file (``gitdir: …``, read from its ``core.worktree``),
  pinned even where the scope owns the directory holding it. The workspace's own ``.git``
  file, when the workspace is a linked worktree or a submodule, is a protected file of the
  root and restored as such.

Left unpinned, because git writes them in ordinary use and none runs a program or reads
another repository: ``HEAD`` (a symbolic ref git checks), ``index``, ``refs/``, ``packed-refs``,
``logs/``, ``objects/`` but its two alternates files, ``shallow``, ``FETCH_HEAD`` and the rest.
"""

from __future__ import annotations

import os

GIT = ".git"
PINNED_FILES = (
    "config",
    "config.worktree",
    "commondir",
    "objects/info/alternates",
    "objects/info/http-alternates",
)
PINNED_TREES = ("hooks", "info", "branches", "remotes")
CONTAINERS = ("modules", "worktrees")
WORKTREE_PINS = ("commondir", "gitdir", "config.worktree", "info")
"""A linked worktree's git directory takes its config, hooks, objects and modules from the
common one (its ``commondir``, pinned); these are its own."""
MAX_GIT_DIRS = 256
"""Directories under ``modules/`` and ``worktrees/`` looked at, at most (a bound on a hostile
layout: what lies beyond is not pinned, though a new one in a watched container is still
removed)."""
MAX_DEPTH = 8
"""How deep submodules nest (``modules/a/modules/b/...``) before the search stops."""


def git_dir_pins(git_dir: str, worktree: bool = False) -> list[str]:
    """The pinned paths of the git directory ``git_dir`` (root-relative); ``worktree`` for a
    linked worktree's (under ``worktrees/``)."""
    names = WORKTREE_PINS if worktree else (*PINNED_FILES, *PINNED_TREES, *CONTAINERS)
    return [f"{git_dir}/{name}" for name in names]


def _is_git_dir(path: str) -> bool:
    return os.path.lexists(os.path.join(path, "HEAD")) or os.path.isfile(
        os.path.join(path, "config")
    )


def _subdirs(path: str) -> list[str]:
    try:
        with os.scandir(path) as entries:
            return sorted(e.name for e in entries if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(65536)
    except OSError:
        return ""


def _inside(root: str, target: str) -> str | None:
    relative = os.path.relpath(os.path.normpath(target), root).replace(os.sep, "/")
    return None if relative in (".", "..") or relative.startswith("../") else relative


def _checkout_git_file(root: str, git_dir: str) -> str | None:
    """The root-relative ``.git`` file of the checkout a submodule's or worktree's git
    directory serves (a worktree's ``gitdir`` file, a submodule's ``core.worktree``), when
    it lies in the workspace."""
    directory = os.path.join(root, git_dir)
    pointer = _read(os.path.join(directory, "gitdir")).strip()
    if pointer:
        return _inside(root, os.path.join(directory, pointer))
    for line in _read(os.path.join(directory, "config")).splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key.strip().lower() == "worktree":
            checkout = _inside(root, os.path.join(directory, value.strip().strip('"')))
            return f"{checkout}/{GIT}" if checkout is not None else None
    return None


def git_pins(root: str) -> tuple[str, ...]:
    """Every pinned path of the workspace at ``root`` (root-relative, ``.git`` first).

    Nothing when ``.git`` is not a directory (a ``.git`` file is the root's protected file).
    """
    top = os.path.join(root, GIT)
    if not os.path.isdir(top) or os.path.islink(top):
        return ()
    pins = git_dir_pins(GIT)
    found = 0
    # (git directory or plain directory inside a container, its container, depth): module
    # names may hold slashes, so a directory under modules/ is a git directory or holds them
    stack = [(f"{GIT}/{container}", container, 0) for container in CONTAINERS]
    while stack:
        parent, container, depth = stack.pop()
        for name in _subdirs(os.path.join(root, parent)):
            if found >= MAX_GIT_DIRS:
                return tuple(pins)
            found += 1
            rel = f"{parent}/{name}"
            if not _is_git_dir(os.path.join(root, rel)):
                if depth < MAX_DEPTH:
                    pins.append(rel)  # a plain directory of a container: watched as one
                    stack.append((rel, container, depth + 1))
                continue
            worktree = container == "worktrees"
            pins.extend(git_dir_pins(rel, worktree))
            checkout = _checkout_git_file(root, rel)
            if checkout is not None:
                pins.append(checkout)
            if depth < MAX_DEPTH and not worktree:
                stack.extend((f"{rel}/{inner}", inner, depth + 1) for inner in CONTAINERS)
    return tuple(pins)


def covered(path: str, pinset: frozenset[str]) -> bool:
    """Whether ``path`` is pinned or lies under a pinned directory (so it is put back)."""
    while path:
        if path in pinset:
            return True
        path = path.rpartition("/")[0]
    return False
