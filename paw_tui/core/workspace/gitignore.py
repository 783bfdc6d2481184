"""Keeping a path out of git: one helper for every paw-tui writer (DESIGN §2).

Whatever paw-tui writes that a team must not commit (machine-owned state under
``.orchestration/``, a client's machine-local settings such as ``.claude/settings.local.json``)
is git-ignored by the ``.gitignore`` of the directory that holds it, so the rule travels with
the directory and never touches the repository's own top-level ``.gitignore``:

- :func:`ensure_ignored` makes a directory's ``.gitignore`` list some entries: it is created
  whole when missing (never over a file another process created a moment earlier) and, when
  it lacks an entry, extended with that line at its end, atomically and under a lock kept in
  the user state directory. The person's own lines are never changed or reordered, and an
  entry they negated (``!sessions/``) is theirs to keep: it is not added again;
- :func:`ensure_path_ignored` ignores one root-relative path from its own directory
  (``.claude/settings.local.json`` -> ``.claude/.gitignore`` listing ``/settings.local.json``).

Whether git would ignore the path anyway (a global excludes file, a rule higher up) is not
asked: that would run git, and the local rule is harmless when redundant.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

GITIGNORE = ".gitignore"
LOCK_TIMEOUT = 5.0


def _forms(entry: str) -> set[str]:
    """The spellings of a line that ignore what ``entry`` does, for a directory's own
    ``.gitignore`` (a leading ``/`` anchors, a trailing ``/`` only narrows to directories)."""
    bare = entry.strip().lstrip("/").rstrip("/")
    return {bare, f"/{bare}", f"{bare}/", f"/{bare}/"}


def missing_entries(text: str, entries: Sequence[str]) -> list[str]:
    """The entries ``text`` (a ``.gitignore``) neither lists nor negates."""
    lines = {line.strip() for line in text.splitlines()}
    listed = {line for line in lines if line and not line.startswith("#")}
    missing = []
    for entry in entries:
        forms = _forms(entry)
        if forms & listed or {f"!{form}" for form in forms} & listed:
            continue
        missing.append(entry)
    return missing


def ensure_ignored(directory: str, entries: Sequence[str], *, header: str = "") -> bool:
    """Make ``directory/.gitignore`` list every one of ``entries`` (``header``: comment lines
    put above them in a new file); True when the file was written. Raises OSError when it
    cannot be read or written (callers for whom ignoring is optional catch it)."""
    from paw_tui.core.support.fsutil import create_new_file

    path = os.path.join(directory, GITIGNORE)
    if not os.path.lexists(path):
        os.makedirs(directory, exist_ok=True)
        body = "".join(f"{entry}\n" for entry in entries)
        if create_new_file(path, (header + body).encode("utf-8")):
            return True
    return _extend(path, entries)


def _extend(path: str, entries: Sequence[str]) -> bool:
    from paw_tui.core.support.fsutil import atomic_write
    from paw_tui.core.support.locking import FileLock
    from paw_tui.core.support.regular_file import read_regular

    if not missing_entries(read_regular(path).decode("utf-8", "replace"), entries):
        return False  # the common case: nothing to lock for
    with FileLock(_lock_path(path), timeout=LOCK_TIMEOUT):
        data = read_regular(path)
        missing = missing_entries(data.decode("utf-8", "replace"), entries)
        if not missing:
            return False
        if data and not data.endswith(b"\n"):
            data += b"\n"
        atomic_write(path, data + "".join(f"{entry}\n" for entry in missing).encode("utf-8"))
        return True


def _lock_path(path: str) -> str:
    """Outside the workspace (a lock file beside the ``.gitignore`` would need ignoring too)."""
    from paw_tui.core.support.hashing import sha256_hex
    from paw_tui.core.support.realpath import realpath
    from paw_tui.core.workspace.statedir import state_base_dir

    digest = sha256_hex(realpath(os.path.abspath(path)).encode("utf-8", "surrogatepass"))[:16]
    return os.path.join(state_base_dir(), "locks", f"gitignore-{digest}.lock")


def ensure_path_ignored(root: str, relative: str) -> bool:
    """Git-ignore the root-relative POSIX path ``relative`` through the ``.gitignore`` of its
    own directory (anchored to it: ``/settings.local.json``); True when that file was
    written. For paths paw-tui writes that hold one machine's details."""
    directory, _, name = relative.strip("/").rpartition("/")
    target = os.path.join(root, *directory.split("/")) if directory else root
    return ensure_ignored(target, [f"/{name}"])
