"""The after-side of :mod:`paw_tui.core.confine.drift`: :func:`compare` and :class:`Drift`.

A directory whose ``(ino, mtime_ns, ctime_ns)`` are those of the snapshot, and whose ctime
was not racy then, still holds the same names (creating, removing or renaming an entry
updates both times), so it is not listed again: only its tracked children are ``lstat``-ed
by name. Any other directory is listed and its names diffed against the snapshot's.
"""

from __future__ import annotations

import os

from paw_tui.core.confine import drift_fs as fs
from paw_tui.core.confine.drift_snapshot import unless_pinned

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.core.confine.drift_fs import Rec
    from paw_tui.core.confine.drift_snapshot import Extra, Snapshot

    Pred = Callable[[str], bool]


class Drift:
    """What changed outside the scope between a snapshot and now.

    ``created``, ``modified`` and ``deleted`` are sorted root-relative POSIX paths (a
    created or deleted directory is listed, and so is each tracked entry in it);
    ``protected`` is the subset of those paths that are protected (restorable);
    ``reasons`` says, per modified path, what changed: ``type``, ``mode``, ``content``,
    ``replaced`` (a new inode), ``metadata`` (only the ctime moved: links, owner, a reset
    mtime), ``target`` (a symlink's) or ``hard link`` (a protected file now shares its
    inode), comma-separated. ``unreadable`` lists ``(path, why)`` for what could not be
    checked.
    """

    __slots__ = ("created", "modified", "deleted", "protected", "reasons", "unreadable")

    def __init__(
        self,
        created: list[str],
        modified: list[str],
        deleted: list[str],
        protected: set[str],
        reasons: dict[str, str],
        unreadable: list[tuple[str, str]],
    ) -> None:
        self.created = created
        self.modified = modified
        self.deleted = deleted
        self.protected = protected
        self.reasons = reasons
        self.unreadable = unreadable

    def __bool__(self) -> bool:
        return bool(self.created or self.modified or self.deleted)

    def __repr__(self) -> str:
        return (
            f"Drift(created={self.created!r}, modified={self.modified!r}, "
            f"deleted={self.deleted!r}, protected={sorted(self.protected)!r})"
        )

    def paths(self) -> list[str]:
        """Every drifted path, sorted."""
        return sorted({*self.created, *self.modified, *self.deleted})


class _Comparer:
    __slots__ = (
        "before",
        "root",
        "in_scope",
        "restorable",
        "skip_dirs",
        "owned_dirs",
        "created",
        "modified",
        "deleted",
        "protected",
        "unreadable",
    )

    def __init__(
        self, before: Snapshot, root: str, in_scope: Pred, restorable: Pred, skip: Pred, owned: Pred
    ) -> None:
        self.before = before
        self.root = root
        self.in_scope = in_scope
        self.restorable = restorable
        self.skip_dirs = skip
        self.owned_dirs = owned
        self.created: set[str] = set()
        self.modified: dict[str, str] = {}
        self.deleted: set[str] = set()
        self.protected: set[str] = set()
        self.unreadable: list[tuple[str, str]] = []

    def run(self) -> None:
        dirs = self.before.dirs
        check = {path for path, extra in self.before.extras.items() if extra[0] & fs.RACY}
        dead: set[str] = set()
        for rel, (_, ino, mtime, ctime, recs, others) in dirs.items():
            fd = self.open_listed(rel, dead)
            if fd is None:
                continue
            if fd < 0:  # gone, or no longer a directory: every entry tracked in it is gone
                dead.add(rel)
                prefix = rel + "/" if rel else ""
                for name, rec in (recs or {}).items():
                    self.gone(prefix + name, rec)
                continue
            try:
                if recs is None or others is None:
                    self.unreadable.append((rel, "not listed when the snapshot was taken"))
                    continue
                st = os.fstat(fd)
                unmoved = st.st_ino == ino and st.st_mtime_ns == mtime and st.st_ctime_ns == ctime
                listing = (
                    None if unmoved and ctime < self.before.racy_cut else self.listing(rel, fd)
                )
                self.check_dir(rel, fd, recs, listing, check)
                if listing is not None:
                    self.new_names(rel + "/" if rel else "", listing, recs, others)
            finally:
                os.close(fd)
        self.check_pinned(check)

    def open_listed(self, rel: str, dead: set[str]) -> int | None:
        """A descriptor of the listed directory ``rel``; -1 when it is gone (or not a directory
        any more, or reached only through a symlink), None when it cannot be opened."""
        if rel:
            parent = rel.rpartition("/")[0]
            if parent in dead:
                return -1
            # a pinned directory (its parent not walked) is reached through real dirs only
            if parent not in self.before.dirs and fs.chain_lstat(self.root, rel) is None:
                return -1
        try:
            return fs.open_dir(self.root + "/" + rel) if rel else fs.open_dir(self.root, True)
        except OSError as exc:
            if exc.errno in fs.NOT_A_DIR:
                return -1
            self.unreadable.append((rel, fs.why(exc)))
            return None

    def listing(self, rel: str, fd: int) -> dict[str, bool] | None:
        """``{name: is a directory}`` in directory ``fd``; None (noted) if it cannot be read."""
        try:
            with fs.scandir(fd) as iterator:
                return {entry.name: entry.is_dir(follow_symlinks=False) for entry in iterator}
        except OSError as exc:  # the tracked names are still checked one by one
            self.unreadable.append((rel, fs.why(exc)))
            return None

    def check_dir(
        self,
        rel: str,
        fd: int,
        recs: dict[str, Rec],
        listing: dict[str, bool] | None,
        check: set[str],
    ) -> None:
        """Compare each tracked entry of directory ``fd`` with its record (the hot loop)."""
        prefix = rel + "/" if rel else ""
        lstat = fs.lstat
        gone = self.gone
        for name, rec in recs.items():
            if listing is not None and name not in listing:
                gone(prefix + name, rec)
                continue
            try:
                cur = lstat(name, dir_fd=fd)
            except FileNotFoundError:
                gone(prefix + name, rec)
                continue
            except OSError as exc:
                self.unreadable.append((prefix + name, fs.why(exc)))
                continue
            if (cur.st_mode, cur.st_size, cur.st_mtime_ns, cur.st_ctime_ns, cur.st_ino) != rec or (
                check and prefix + name in check
            ):
                self.examine(prefix + name, name, fd, rec, cur)

    def new_names(
        self, prefix: str, listing: dict[str, bool], recs: dict[str, Rec], others: tuple[str, ...]
    ) -> None:
        """Classify the names of a re-listed directory that the snapshot did not track."""
        known = set(others)
        dirs = self.before.dirs
        for name, sub in listing.items():
            if name in recs:
                continue
            path = prefix + name
            if name not in known:
                protected = self.restorable(path)
                if protected or not self.in_scope(path):
                    self.born(path, protected)
            if sub and path not in dirs and not self.owned_dirs(path) and not self.skip_dirs(path):
                self.walk_new(path)

    def walk_new(self, top: str) -> None:
        """Report every tracked entry under the new (or newly walkable) directory ``top``."""
        open_dir = fs.open_dir
        scandir = fs.scandir
        in_scope = self.in_scope
        restorable = self.restorable
        owned = self.owned_dirs
        skip = self.skip_dirs
        stack = [top]
        while stack:
            rel = stack.pop()
            try:
                fd = open_dir(self.root + "/" + rel)
                try:
                    with scandir(fd) as iterator:
                        listing = [
                            (entry.name, entry.is_dir(follow_symlinks=False)) for entry in iterator
                        ]
                finally:
                    os.close(fd)
            except OSError as exc:
                if exc.errno not in fs.NOT_A_DIR:
                    self.unreadable.append((rel, fs.why(exc)))
                continue
            for name, sub in listing:
                path = rel + "/" + name
                protected = restorable(path)
                if protected or not in_scope(path):
                    self.born(path, protected)
                if sub and not owned(path) and not skip(path):
                    stack.append(path)

    def check_pinned(self, check: set[str]) -> None:
        root = self.root
        for rel, rec in self.before.pinned.items():
            st = fs.chain_lstat(root, rel)
            if rec is None:
                if st is None:
                    continue
                protected = self.restorable(rel)
                if protected or not self.in_scope(rel):
                    self.born(rel, protected)
                if fs.S_ISDIR(st.st_mode) and rel not in self.before.dirs:
                    self.walk_new(rel)
            elif st is None:
                self.gone(rel, rec)
            elif fs.rec_of(st) != rec or rel in check:
                self.examine(rel, root + "/" + rel, None, rec, st)

    def born(self, path: str, protected: bool) -> None:
        self.created.add(path)
        if protected:
            self.protected.add(path)

    def gone(self, path: str, rec: Rec) -> None:
        self.deleted.add(path)
        extra = self.before.extras.get(path)
        if extra is not None and extra[0] & fs.PROT:
            self.protected.add(path)

    def examine(
        self, path: str, name: str, dir_fd: int | None, rec: Rec, cur: os.stat_result
    ) -> None:
        """Decide whether a tracked entry whose stat moved (or that was racy) changed.

        ``name`` is the entry's name in directory ``dir_fd`` (its path when that is None).
        """
        extra = self.before.extras.get(path)
        flags = extra[0] if extra is not None else 0
        old = rec[0]
        new = cur.st_mode
        reasons: list[str] = []
        if fs.S_IFMT(old) != fs.S_IFMT(new):
            reasons.append("type")
        elif fs.S_ISDIR(new):
            if old != new:
                reasons.append("mode")
        elif flags & fs.PROT and extra is not None:
            self.protected_reasons(name, dir_fd, rec, cur, extra, reasons)
        elif fs.S_ISLNK(new):
            if self.target(name, dir_fd) != (extra[2] if extra is not None else None):
                reasons.append("target")
            elif fs.rec_of(cur) != rec:
                reasons.append("replaced")
        else:
            self.plain_reasons(name, dir_fd, rec, cur, extra, reasons)
        if reasons:
            self.modified[path] = ", ".join(reasons)
            if flags & fs.PROT:
                self.protected.add(path)
            if (
                reasons[0] == "type"
                and fs.S_ISDIR(new)
                and path not in self.before.dirs
                and not self.owned_dirs(path)
                and not self.skip_dirs(path)
            ):
                self.walk_new(path)  # a file became a directory: what it holds is new

    @staticmethod
    def plain_reasons(
        name: str,
        dir_fd: int | None,
        rec: Rec,
        cur: os.stat_result,
        extra: Extra | None,
        reasons: list[str],
    ) -> None:
        """Why a tracked file (not protected, not a symlink or directory) counts as modified."""
        if rec[0] != cur.st_mode:
            reasons.append("mode")
        if cur.st_size != rec[1] or cur.st_mtime_ns != rec[2]:
            reasons.append("content")
        elif cur.st_ino != rec[4]:
            reasons.append("replaced")
        elif extra is not None and extra[0] & fs.RACY and type(extra[2]) is str:
            found = fs.read_regular(name, 0, dir_fd=dir_fd)
            if found is None or found[1] != extra[2]:
                reasons.append("content")
        if not reasons and cur.st_ctime_ns != rec[3]:
            reasons.append("metadata")

    def protected_reasons(
        self,
        name: str,
        dir_fd: int | None,
        rec: Rec,
        cur: os.stat_result,
        extra: Extra,
        reasons: list[str],
    ) -> None:
        new = cur.st_mode
        _, nlink, data = extra
        if fs.S_ISLNK(new):
            if self.target(name, dir_fd) != data:
                reasons.append("target")
            return
        if (rec[0] & 0o7777) != (new & 0o7777):
            reasons.append("mode")
        if not fs.S_ISREG(new):
            if cur.st_ino != rec[4]:
                reasons.append("replaced")
            return
        found = fs.read_regular(name, self.before.max_restore_bytes, dir_fd=dir_fd)
        if found is None:
            reasons.append("content")  # vanished or turned special since the lstat
        elif type(data) is bytes:
            if found[0] != data:
                reasons.append("content")
        elif type(data) is str:
            if found[1] != data:
                reasons.append("content")
        elif cur.st_size != rec[1] or cur.st_mtime_ns != rec[2]:
            reasons.append("content")
        if cur.st_nlink > 1 and (cur.st_ino != rec[4] or cur.st_nlink > nlink):
            reasons.append("hard link")

    @staticmethod
    def target(name: str, dir_fd: int | None) -> str | None:
        try:
            return fs.readlink(name, dir_fd=dir_fd)
        except OSError:
            return None


def compare(
    before: Snapshot,
    root: str,
    *,
    in_scope: Pred,
    restorable: Pred,
    skip_dirs: Pred | None = None,
    owned_dirs: Pred | None = None,
) -> Drift:
    """What changed outside the scope since ``before``; see :mod:`.drift`.

    The callables must be those the snapshot was taken with: they are asked only about
    paths the snapshot did not see.
    """
    root = os.path.abspath(root)
    if root != before.root:
        raise ValueError(f"the snapshot is of {before.root!r}, not {root!r}")
    comparer = _Comparer(
        before,
        root,
        in_scope,
        restorable,
        unless_pinned(skip_dirs, before.pins),
        unless_pinned(owned_dirs, before.pins),
    )
    comparer.run()
    return Drift(
        sorted(comparer.created),
        sorted(comparer.modified),
        sorted(comparer.deleted),
        comparer.protected,
        comparer.modified,
        comparer.unreadable,
    )
