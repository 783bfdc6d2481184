"""Drift detection: what a shell command changed outside its intent's scope, and undoing it
on protected paths.

Every shell call under an intent is bracketed. Before it (PreToolUse, one process)::

    snap = take_snapshot(root, in_scope=..., restorable=..., skip_dirs=..., owned_dirs=...,
                         pinned=git_pins(root), store=state_dir + "/store")
    snap.dump(state_path)               # outside the workspace; atomic

After it (PostToolUse, another process)::

    snap = Snapshot.load(state_path)    # None: missing or corrupt (strict=True raises)
    drift = compare(snap, root, in_scope=..., restorable=..., skip_dirs=..., owned_dirs=...)
    if drift:                           # created / modified / deleted, sorted
        done = restore(snap, drift, root)   # protected paths only

API
---
``take_snapshot(root, *, in_scope, restorable, skip_dirs=None, owned_dirs=None, pinned=(),
max_restore_bytes=1 MiB, racy_ns=50 ms, tag="", store=None) -> Snapshot``
    Walks ``root`` with ``os.scandir`` (iteratively, never following a symlink) and records
    every entry that is out of scope or protected: ``(mode, size, mtime_ns, ctime_ns, ino)``,
    plus a symlink's target, and a protected regular file's content (its hash only when it
    holds more than ``max_restore_bytes``). The callables get root-relative POSIX paths
    without a trailing slash, directories included; names that are not UTF-8 arrive
    ``surrogateescape``-decoded, as ``os.fsdecode`` gives them.

    - ``in_scope(path)``: the intent may write there; such an entry is not tracked.
    - ``restorable(path)``: a protected path; tracked (even when in scope), undone by
      :func:`restore`.
    - ``owned_dirs(dir)``: everything below ``dir`` is in scope and nothing below it is
      protected, so it is not walked (the pruning that makes a wide scope cheap).
    - ``skip_dirs(dir)``: never walked (``.git``, ``node_modules``...); the directory itself
      is still tracked when out of scope.
    - ``pinned``: paths tracked even inside a skipped or owned directory, e.g.
      ``(".git/config", ".git/hooks")`` with ``.git`` skipped (the gate's list:
      :func:`.drift_git.git_pins`). A pinned directory is always
      walked (``skip_dirs`` / ``owned_dirs`` do not apply to it, but do below it); a missing
      pinned path is watched for creation. Pinned paths are reached through real
      directories only: a symlinked parent makes them absent. The snapshot keeps the list.
    - ``racy_ns``: an entry whose ctime is this close to the start of the walk (or later) is
      "racy": its timestamps could stay equal through a change made in the same clock tick,
      so its directory is listed again and its content hashed (up to ``max_restore_bytes``).
      Two seconds when the file system has whole-second timestamps.
    - ``tag``: any string kept with the snapshot (e.g. the tool call id) for the caller.
    - ``store``: a directory (where the agent cannot write, like the snapshot) keeping
      protected files' contents once, by hash (:mod:`.drift_store`); the snapshot then holds
      hashes, and a protected file whose stamp ``(size, mtime_ns, ctime_ns, ino, dev)``
      did not move since its content was stored, and was quiet then, is not read at all.
      Without it, protected contents are kept in the snapshot itself.

``Snapshot.dump(path)`` / ``Snapshot.load(path, *, strict=False) -> Snapshot | None``
    ``marshal`` data, written to a temporary file beside ``path`` and renamed over it.
    ``load`` returns None when the file is missing, unreadable, corrupt or of another
    format version; with ``strict=True`` it raises :class:`SnapshotError` naming the file
    and the fault. ``len(snap)``, ``snap.paths()``, ``snap.errors`` (``(path, why)`` for
    what could not be read) help callers and tests.

``compare(before, root, *, in_scope, restorable, skip_dirs=None, owned_dirs=None) -> Drift``
    The same callables as the snapshot's (they are asked only about paths it did not see).
    ``Drift.created`` / ``modified`` / ``deleted``: sorted paths; ``Drift.protected``: the
    protected ones among them; ``Drift.reasons[path]``: why a path counts as modified;
    ``Drift.unreadable``: ``(path, why)`` for what could not be checked. A tracked entry is
    modified when its type, mode, size, mtime, ctime or inode moved (a directory: its type
    or mode); a protected file only when its type, mode, content or symlink target differ,
    or it became a hard link (``nlink > 1`` with a new inode or more links). A protected
    file is read (and hashed) only when its stat moved or it was racy.

``restore(before, drift, root) -> Restored``
    For protected paths only: a created entry is removed (a directory with its content); a
    modified or deleted one is put back from the snapshot, content and mode (and mtime),
    by writing a new file beside it and renaming it over whatever stands there: a symlink,
    hard link or FIFO planted there is replaced, never written through. Directories are
    opened one component at a time with ``O_NOFOLLOW``; a missing parent is made again, and
    a symlink standing where the snapshot had a directory is replaced by a directory.
    Content kept in a store is checked against its hash before it is written back (a
    missing or damaged copy is a failure, never restored).
    ``Restored.restored`` / ``failed`` (``(path, why)``) / ``parents``.

Cost
----
The walk costs one ``lstat`` per tracked entry and per walked directory, one ``open`` and
one ``scandir`` per walked directory, and two callable calls per listed name; in-scope
files cost a name only. :func:`compare` does not list a directory whose ``(ino, mtime_ns,
ctime_ns)`` did not move (creating, removing or renaming a name updates them): it
``lstat``-s the tracked names in it directly, relative to the directory's descriptor; the
callables are asked only about new names. The ``lstat`` system calls are most of either
side; ``bench/drift.py`` measures both (10,000 files, 8,600 of them tracked: about 40 ms
before, 25 ms after, on a 2-core VM; a scope owning all but the protected paths: under 1 ms).
With a store, the protected files cost one ``lstat`` each and one read of the store's small
index per snapshot, whatever their size: a file is read, hashed and (when its content is
new) copied only after it changed.

The code is split: :mod:`.drift_fs` (file system helpers, the seams tests wrap),
:mod:`.drift_snapshot`, :mod:`.drift_store` (protected contents by hash),
:mod:`.drift_compare`, :mod:`.drift_restore`; :mod:`.drift_git` says what of ``.git`` the
gate pins.

Known limits
------------
- Content changes are seen through ``lstat`` (size, mtime, ctime, inode): a change that
  keeps all four is missed. ctime cannot be set back by an unprivileged process, so only
  a change within the same timestamp tick as the snapshot's own ``lstat`` could, and those
  ("racy") entries are re-listed and hashed. A file written faster than timestamps move
  by a concurrent process, racy and larger than ``max_restore_bytes``, or a file system
  that does not update ctime (some FUSE / network mounts) can still hide a change.
- Everything that changes while the command runs is attributed to it, including changes
  made by other processes (an editor, a dev server, a second concurrent command).
- A touched-but-identical file (``touch``, ``chmod`` to the same mode, a new hard link to
  it) counts as modified (``metadata``); a protected file rewritten identically does not.
- Contents of directories that could not be listed, of skipped and owned directories, and
  of directories behind symlinks are not covered (a symlink is tracked as a symlink).
- The snapshot file and the content store must be kept where the agent cannot write: they
  are not signed (a stored content is checked against the snapshot's hash, nothing more).
- A directory deeper than ``PATH_MAX`` (4,096 bytes of path) is reported in
  ``Snapshot.errors`` / ``Drift.unreadable``, not walked; :func:`restore` removes a created
  directory at most 256 levels deep.
- Racy entries are hashed on both sides: a process rewriting many files just before the
  snapshot makes it read them.
- A protected special file (FIFO, socket, device) is reported but not recreated, nor is a
  protected file larger than ``max_restore_bytes`` (reported with that reason).
- POSIX only: directories are listed and restored through descriptors (``scandir(fd)``,
  ``dir_fd``, ``O_NOFOLLOW``).
"""

from __future__ import annotations

from paw_tui.core.confine.drift_compare import Drift, compare
from paw_tui.core.confine.drift_restore import Restored, restore
from paw_tui.core.confine.drift_snapshot import (
    MAX_RESTORE_BYTES,
    Snapshot,
    SnapshotError,
    take_snapshot,
)

__all__ = [
    "MAX_RESTORE_BYTES",
    "Drift",
    "Restored",
    "Snapshot",
    "SnapshotError",
    "compare",
    "restore",
    "take_snapshot",
]
