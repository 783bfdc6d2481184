"""The before-state of :mod:`paw_tui.core.confine.drift`: :func:`take_snapshot`, :class:`Snapshot`.

Layout (what :meth:`Snapshot.dump` marshals, version :data:`VERSION`):

- ``dirs``: every directory the walk listed, parents before children, mapped to
  ``(mode, ino, mtime_ns, ctime_ns, recs, others)``. ``recs`` maps the name of each tracked
  child (out of scope, or protected) to its ``(mode, size, mtime_ns, ctime_ns, ino)``;
  ``others`` holds the names of the children that are not tracked (in scope, or vanished
  mid-walk), so a later listing need not ask the scope about them again. ``recs`` and
  ``others`` are None for a directory that could not be listed.
- ``pinned``: the pinned paths not reached by the walk, mapped to their record or None when
  absent.
- ``extras``: per tracked path needing more than its stat, ``(flags, nlink, data)``: the
  content (bytes) or ``sha256:`` hash (str) of a protected or racy regular file, the target
  of a symlink. With a content store, a protected file's data is its hash and ``flags``
  holds :data:`~.drift_fs.STORED`: the store (:mod:`.drift_store`) holds the content.
- ``pins``: the ``pinned`` argument, cleaned, for :func:`compare` to walk the same way.
- ``store``: the content store's directory ("" without one).
"""

from __future__ import annotations

import marshal
import os
import time

from paw_tui.core.confine import drift_fs as fs
from paw_tui.core.confine.drift_store import ContentStore

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

    from paw_tui.core.confine.drift_fs import Rec

    Pred = Callable[[str], bool]
    Extra = tuple[int, int, bytes | str | None]
    DirRec = tuple[int, int, int, int, dict[str, Rec] | None, tuple[str, ...] | None]
    # (path, stat of the directory taken before listing it, dict holding its record, key)
    Pending = tuple[str, os.stat_result, dict[str, Any] | None, str]

MAGIC = "paw-drift"
VERSION = 2
MAX_RESTORE_BYTES = 1 << 20
RACY_NS = 50_000_000
COARSE_RACY_NS = 2_000_000_000


def _never(_: str) -> bool:
    return False


class SnapshotError(ValueError):
    """A snapshot file that is missing, unreadable or not one this version wrote."""


class Snapshot:
    """What the workspace held outside the scope, and the protected files' contents."""

    __slots__ = (
        "root",
        "tag",
        "taken_ns",
        "racy_cut",
        "max_restore_bytes",
        "dirs",
        "pinned",
        "extras",
        "errors",
        "pins",
        "store",
    )

    def __init__(
        self,
        root: str,
        tag: str,
        taken_ns: int,
        racy_cut: int,
        max_restore_bytes: int,
        dirs: dict[str, DirRec],
        pinned: dict[str, Rec | None],
        extras: dict[str, Extra],
        errors: list[tuple[str, str]],
        pins: tuple[str, ...] = (),
        store: str = "",
    ) -> None:
        self.root = root
        self.tag = tag
        self.taken_ns = taken_ns
        self.racy_cut = racy_cut
        self.max_restore_bytes = max_restore_bytes
        self.dirs = dirs
        self.pinned = pinned
        self.extras = extras
        self.errors = errors
        self.pins = pins
        self.store = store

    def __len__(self) -> int:
        """The number of tracked entries."""
        count = sum(1 for rec in self.pinned.values() if rec is not None)
        for entry in self.dirs.values():
            if entry[4] is not None:
                count += len(entry[4])
        return count

    def paths(self) -> list[str]:
        """The tracked paths, sorted."""
        out = [path for path, rec in self.pinned.items() if rec is not None]
        for rel, entry in self.dirs.items():
            if entry[4] is not None:
                prefix = rel + "/" if rel else ""
                out.extend(prefix + name for name in entry[4])
        return sorted(out)

    def record(self, rel: str) -> Rec | None:
        """The ``(mode, size, mtime_ns, ctime_ns, ino)`` recorded for ``rel``, if tracked."""
        if rel in self.pinned:
            return self.pinned[rel]
        parent, _, name = rel.rpartition("/")
        entry = self.dirs.get(parent)
        if entry is None or entry[4] is None:
            return None
        return entry[4].get(name)

    def dir_mode(self, rel: str) -> int | None:
        """The mode of directory ``rel`` at snapshot time, if it was listed or tracked."""
        entry = self.dirs.get(rel)
        if entry is not None:
            return entry[0]
        rec = self.record(rel)
        if rec is not None and fs.S_ISDIR(rec[0]):
            return rec[0]
        return None

    def dump(self, path: str) -> None:
        """Write to ``path`` atomically (a temporary file beside it, then ``os.replace``)."""
        data = marshal.dumps(
            (
                MAGIC,
                VERSION,
                self.root,
                self.tag,
                self.taken_ns,
                self.racy_cut,
                self.max_restore_bytes,
                self.dirs,
                self.pinned,
                self.extras,
                self.errors,
                self.pins,
                self.store,
            ),
            4,
        )
        from paw_tui.core.support.fsutil import replace_unsynced

        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        replace_unsynced(path, data, 0o600)

    @classmethod
    def load(cls, path: str, *, strict: bool = False) -> Snapshot | None:
        """The snapshot at ``path``; None when it is missing, unreadable or corrupt.

        With ``strict`` those cases raise :class:`SnapshotError` instead, naming the file and
        what is wrong with it.
        """
        try:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError as exc:
                raise SnapshotError(f"{path}: cannot read the snapshot ({fs.why(exc)})") from exc
            try:
                value = marshal.loads(data)
            except (EOFError, ValueError, TypeError) as exc:
                raise SnapshotError(f"{path}: not a snapshot (unreadable data)") from exc
            return _from_value(value, path)
        except SnapshotError:
            if strict:
                raise
            return None


def _from_value(value: object, path: str) -> Snapshot:
    if not (type(value) is tuple and len(value) >= 2 and value[0] == MAGIC):
        raise SnapshotError(f"{path}: not a snapshot (wrong header)")
    if value[1] != VERSION:
        raise SnapshotError(f"{path}: snapshot format {value[1]!r}, expected {VERSION}")
    if len(value) != 13:
        raise SnapshotError(f"{path}: not a snapshot (wrong header)")
    (_, _, root, tag, taken_ns, racy_cut, limit, dirs, pinned, extras, errors, pins, store) = value
    ok = (
        type(root) is str
        and type(tag) is str
        and type(taken_ns) is int
        and type(racy_cut) is int
        and type(limit) is int
        and type(dirs) is dict
        and type(pinned) is dict
        and type(extras) is dict
        and type(errors) is list
        and type(pins) is tuple
        and type(store) is str
        and all(type(pin) is str for pin in pins)
        and all(_valid_dir(key, entry) for key, entry in dirs.items())
        and all(
            type(key) is str and (rec is None or _valid_rec(rec)) for key, rec in pinned.items()
        )
        and all(
            type(key) is str and type(extra) is tuple and len(extra) == 3
            for key, extra in extras.items()
        )
    )
    if not ok:
        raise SnapshotError(f"{path}: not a snapshot (malformed content)")
    return Snapshot(root, tag, taken_ns, racy_cut, limit, dirs, pinned, extras, errors, pins, store)


def _valid_rec(rec: object) -> bool:
    return type(rec) is tuple and len(rec) == 5


def _valid_dir(key: object, entry: object) -> bool:
    if type(key) is not str or type(entry) is not tuple or len(entry) != 6:
        return False
    recs, others = entry[4], entry[5]
    if recs is None:
        return others is None
    if type(recs) is not dict or type(others) is not tuple:
        return False
    values = recs.values()  # C-level loops: this runs over every record on each load
    return not values or (set(map(type, values)) == {tuple} and set(map(len, values)) == {5})


class _Walker:
    """Lists directories top-down with an explicit stack (no recursion limit)."""

    __slots__ = (
        "root",
        "in_scope",
        "restorable",
        "skip_dirs",
        "owned_dirs",
        "limit",
        "racy_cut",
        "dirs",
        "extras",
        "errors",
        "pins",
        "store",
    )

    def __init__(
        self,
        root: str,
        in_scope: Pred,
        restorable: Pred,
        skip_dirs: Pred,
        owned_dirs: Pred,
        limit: int,
        racy_cut: int,
        store: ContentStore | None = None,
    ) -> None:
        self.root = root
        self.in_scope = in_scope
        self.restorable = restorable
        self.skip_dirs = skip_dirs
        self.owned_dirs = owned_dirs
        self.limit = limit
        self.racy_cut = racy_cut
        self.dirs: dict[str, DirRec] = {}
        self.extras: dict[str, Extra] = {}
        self.errors: list[tuple[str, str]] = []
        self.store = store

    def walk(self, stack: list[Pending]) -> None:
        scandir = fs.scandir
        close = os.close
        in_scope = self.in_scope
        restorable = self.restorable
        pruned_owned = self.owned_dirs
        pruned_skip = self.skip_dirs
        ifmt, ifdir, ifreg, iflnk = 0o170000, 0o040000, 0o100000, 0o120000
        dirs = self.dirs
        errors = self.errors
        racy_cut = self.racy_cut
        while stack:
            rel, dst, holder, key = stack.pop()
            fd = self.open(rel, dst, holder, key)
            if fd is None:
                continue
            prefix = rel + "/" if rel else ""
            recs: dict[str, Rec] = {}
            others: list[str] = []
            try:
                with scandir(fd) as iterator:
                    for entry in iterator:
                        name = entry.name
                        path = prefix + name
                        protected = restorable(path)
                        if not protected and in_scope(path):
                            others.append(name)
                            if (
                                entry.is_dir(follow_symlinks=False)
                                and not pruned_owned(path)
                                and not pruned_skip(path)
                            ):
                                try:
                                    st = entry.stat(follow_symlinks=False)
                                except OSError:
                                    continue
                                stack.append((path, st, None, name))
                            continue
                        try:
                            st = entry.stat(follow_symlinks=False)
                        except FileNotFoundError:
                            continue
                        except OSError as exc:
                            errors.append((path, fs.why(exc)))
                            others.append(name)
                            continue
                        mode = st.st_mode
                        ctime = st.st_ctime_ns
                        recs[name] = (mode, st.st_size, st.st_mtime_ns, ctime, st.st_ino)
                        kind = mode & ifmt
                        if kind == ifdir:
                            if protected:
                                self.extras[path] = (fs.PROT, st.st_nlink, None)
                            if not pruned_owned(path) and not pruned_skip(path):
                                stack.append((path, st, recs, name))
                        elif protected or kind == iflnk or (ctime >= racy_cut and kind == ifreg):
                            self.extra(path, name, fd, st, protected)
            except OSError as exc:  # the listing itself failed (EIO, a revoked mount...)
                errors.append((rel, fs.why(exc)))
                dirs[rel] = (dst.st_mode, dst.st_ino, dst.st_mtime_ns, dst.st_ctime_ns, None, None)
                continue
            finally:
                close(fd)
            dirs[rel] = (
                dst.st_mode,
                dst.st_ino,
                dst.st_mtime_ns,
                dst.st_ctime_ns,
                recs,
                tuple(others),
            )

    def open(
        self, rel: str, dst: os.stat_result, holder: dict[str, Any] | None, key: str
    ) -> int | None:
        """A descriptor of directory ``rel`` to list, or None (and why, when it matters)."""
        root = self.root
        try:
            return fs.open_dir(root + "/" + rel) if rel else fs.open_dir(root, True)
        except OSError as exc:
            if exc.errno in fs.NOT_A_DIR:
                if holder is not None:  # gone or replaced mid-walk: as if never seen
                    holder.pop(key, None)
                return None
            self.errors.append((rel, fs.why(exc)))
            self.dirs[rel] = (dst.st_mode, dst.st_ino, dst.st_mtime_ns, dst.st_ctime_ns, None, None)
            return None

    def extra(
        self, rel: str, name: str, dir_fd: int | None, st: os.stat_result, protected: bool
    ) -> None:
        """Record what a protected, symlink or racy entry needs beyond its stat.

        ``name`` is the entry's name in the directory ``dir_fd`` (or its path, without one).
        """
        mode = st.st_mode
        flags = fs.PROT if protected else 0
        if st.st_ctime_ns >= self.racy_cut:
            flags |= fs.RACY
        data: bytes | str | None = None
        if fs.S_ISLNK(mode):
            try:
                data = fs.readlink(name, dir_fd=dir_fd)
            except OSError:
                data = None
        elif fs.S_ISREG(mode):
            if protected and self.store is not None:
                data, stored = self.store.ref(rel, name, dir_fd, st)
                self.extras[rel] = (flags | stored, st.st_nlink, data)
                return
            if not protected and st.st_size > self.limit:
                return  # racy and too big to hash on every call: stat only (a known limit)
            found = fs.read_regular(name, self.limit, dir_fd=dir_fd)
            if found is not None:
                data = found[0] if protected and found[0] is not None else found[1]
        self.extras[rel] = (flags, st.st_nlink, data)


def unless_pinned(pruned: Pred | None, pins: Iterable[str]) -> Pred:
    """``pruned``, except that a pinned directory is always walked."""
    if pruned is None:
        return _never
    pinset = frozenset(pins)
    if not pinset:
        return pruned
    test = pruned

    def pruned_unless_pinned(path: str) -> bool:
        return path not in pinset and test(path)

    return pruned_unless_pinned


def _clean_pinned(pinned: Iterable[str]) -> list[str]:
    out: list[str] = []
    for raw in pinned:
        rel = raw.strip("/")
        if fs.valid_rel(rel) and rel not in out:
            out.append(rel)
    return out


def take_snapshot(
    root: str,
    *,
    in_scope: Pred,
    restorable: Pred,
    skip_dirs: Pred | None = None,
    owned_dirs: Pred | None = None,
    pinned: Iterable[str] = (),
    max_restore_bytes: int = MAX_RESTORE_BYTES,
    racy_ns: int = RACY_NS,
    tag: str = "",
    store: str | None = None,
) -> Snapshot:
    """Record the workspace under ``root`` outside the scope; see :mod:`.drift`."""
    start = time.time_ns()
    root = os.path.abspath(root)
    root_st = os.stat(root)
    if not fs.S_ISDIR(root_st.st_mode):
        raise NotADirectoryError(f"{root}: not a directory")
    if root_st.st_mtime_ns % 1_000_000_000 == 0 and root_st.st_ctime_ns % 1_000_000_000 == 0:
        racy_ns = max(racy_ns, COARSE_RACY_NS)  # whole-second timestamps: a coarse file system
    pins = _clean_pinned(pinned)
    racy_cut = start - racy_ns
    contents = ContentStore(store, racy_cut, max_restore_bytes) if store else None
    walker = _Walker(
        root,
        in_scope,
        restorable,
        unless_pinned(skip_dirs, pins),
        unless_pinned(owned_dirs, pins),
        max_restore_bytes,
        racy_cut,
        contents,
    )
    walker.walk([("", root_st, None, "")])
    pinned_recs: dict[str, Rec | None] = {}
    dirs = walker.dirs
    for rel in pins:
        parent = fs.parent_of(rel)
        if rel in dirs or (parent in dirs and dirs[parent][4] is not None):
            continue  # reached by the walk
        protected = restorable(rel)
        if not protected and in_scope(rel):
            continue
        st = fs.chain_lstat(root, rel)
        if st is None:
            pinned_recs[rel] = None
            continue
        pinned_recs[rel] = fs.rec_of(st)
        if fs.S_ISDIR(st.st_mode):
            if protected:
                walker.extras[rel] = (fs.PROT, st.st_nlink, None)
            walker.walk([(rel, st, pinned_recs, rel)])
            if rel not in pinned_recs:  # vanished mid-walk: absent
                pinned_recs[rel] = None
        elif protected or fs.S_ISLNK(st.st_mode) or st.st_ctime_ns >= walker.racy_cut:
            walker.extra(rel, root + "/" + rel, None, st, protected)
    if contents is not None:
        try:
            contents.save()
        except OSError:
            pass  # the snapshot stands; the next one reads the protected files again
    return Snapshot(
        root,
        tag,
        start,
        walker.racy_cut,
        max_restore_bytes,
        dirs,
        pinned_recs,
        walker.extras,
        walker.errors,
        tuple(pins),
        store or "",
    )
