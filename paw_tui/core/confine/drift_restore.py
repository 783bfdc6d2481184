"""Undoing drift on protected paths: :func:`restore` and :class:`Restored`.

Every operation goes through directory descriptors opened one component at a time with
``O_NOFOLLOW``: nothing is ever written through a symlink, whichever component an attacker
replaced. Content is written to a new file beside the target and renamed over it, so a
planted hard link, symlink or FIFO is replaced, never written into or opened.
"""

from __future__ import annotations

import os

from paw_tui.core.confine import drift_fs as fs
from paw_tui.core.confine.drift_store import fetch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.confine.drift_compare import Drift
    from paw_tui.core.confine.drift_snapshot import Snapshot

_MAX_DEPTH = 256
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | fs.O_NOFOLLOW | fs.O_CLOEXEC


class Restored:
    """The outcome of :func:`restore`.

    ``restored``: protected paths put back as the snapshot had them (created ones removed);
    ``failed``: ``(path, why)`` for those that could not be; ``parents``: directories that
    had to be made again (or a symlink put in place of one replaced by a directory) to reach
    a restored path.
    """

    __slots__ = ("restored", "failed", "parents")

    def __init__(self) -> None:
        self.restored: list[str] = []
        self.failed: list[tuple[str, str]] = []
        self.parents: list[str] = []

    def __bool__(self) -> bool:
        return bool(self.restored or self.failed)

    def __repr__(self) -> str:
        return f"Restored(restored={self.restored!r}, failed={self.failed!r})"


class _Fail(Exception):
    """An operation that cannot be done; the message says why."""


class _Missing(Exception):
    """A parent directory that is not there (nothing to remove below it)."""


def _depth(path: str) -> tuple[int, str]:
    return (path.count("/"), path)


def _lstat_at(name: str, dir_fd: int) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def _rmtree_at(name: str, dir_fd: int) -> None:
    """Remove directory ``name`` in ``dir_fd`` and all it holds, never following a symlink.

    Iterative, one descriptor per level; deeper than :data:`_MAX_DEPTH` levels it gives up
    (what it removed stays removed) rather than run out of descriptors.
    """
    top = os.open(name, fs.DIR_FLAGS, dir_fd=dir_fd)
    stack = [(dir_fd, name, top)]
    try:
        while stack:
            _, _, fd = stack[-1]
            child = None
            with os.scandir(fd) as iterator:
                for entry in iterator:
                    if entry.is_dir(follow_symlinks=False):
                        child = entry.name
                        break
                    os.unlink(entry.name, dir_fd=fd)
            if child is not None:
                if len(stack) >= _MAX_DEPTH:
                    raise _Fail(f"it is more than {_MAX_DEPTH} directories deep")
                stack.append((fd, child, os.open(child, fs.DIR_FLAGS, dir_fd=fd)))
                continue
            parent_fd, dir_name, _ = stack.pop()
            os.close(fd)
            os.rmdir(dir_name, dir_fd=parent_fd)
    finally:
        for _, _, fd in stack:
            os.close(fd)


class _Restorer:
    __slots__ = ("before", "root_fd", "out", "counter")

    def __init__(self, before: Snapshot, root_fd: int, out: Restored) -> None:
        self.before = before
        self.root_fd = root_fd
        self.out = out
        self.counter = 0

    def open_dir(self, rel: str, *, create: bool) -> int:
        """A descriptor of directory ``rel``, walked with ``O_NOFOLLOW`` from the root.

        With ``create``, a missing directory is made (mode from the snapshot), and a symlink
        standing where the snapshot had a directory is replaced by one.
        """
        fd = os.dup(self.root_fd)
        done = ""
        try:
            for part in rel.split("/") if rel else ():
                done = done + "/" + part if done else part
                try:
                    child = os.open(part, fs.DIR_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    if not create:
                        raise _Missing(done) from None
                    child = self.make_dir(fd, part, done)
                except OSError as exc:  # ELOOP / ENOTDIR: a symlink or a file stands there
                    st = _lstat_at(part, fd)
                    if st is None or fs.S_ISDIR(st.st_mode):
                        raise _Fail(f"cannot open {done}: {fs.why(exc)}") from None
                    if not (create and fs.S_ISLNK(st.st_mode)):
                        raise _Fail(f"{done} is not a directory") from None
                    if self.before.dir_mode(done) is None:
                        raise _Fail(
                            f"{done} is a symlink; the snapshot has no directory there"
                        ) from None
                    os.unlink(part, dir_fd=fd)
                    child = self.make_dir(fd, part, done)
                os.close(fd)
                fd = child
        except BaseException:
            os.close(fd)
            raise
        return fd

    def make_dir(self, fd: int, part: str, rel: str) -> int:
        mode = self.before.dir_mode(rel)
        os.mkdir(part, 0o700, dir_fd=fd)
        child = os.open(part, fs.DIR_FLAGS, dir_fd=fd)
        os.fchmod(child, (mode if mode is not None else 0o755) & 0o7777)
        self.out.parents.append(rel)
        return child

    def remove(self, rel: str) -> None:
        """Remove the entry created at ``rel`` (a directory with everything in it)."""
        parent, _, name = rel.rpartition("/")
        try:
            pfd = self.open_dir(parent, create=False)
        except _Missing:
            return
        try:
            st = _lstat_at(name, pfd)
            if st is None:
                return
            if fs.S_ISDIR(st.st_mode):
                _rmtree_at(name, pfd)
            else:
                os.unlink(name, dir_fd=pfd)
        finally:
            os.close(pfd)

    def put(self, rel: str) -> None:
        """Make ``rel`` what the snapshot recorded (content, symlink target, mode)."""
        rec = self.before.record(rel)
        if rec is None:
            raise _Fail("not in the snapshot")
        extra = self.before.extras.get(rel)
        data = extra[2] if extra is not None else None
        mode = rec[0]
        if extra is not None and extra[0] & fs.STORED and type(data) is str:
            data = fetch(self.before.store, data)
            if data is None:
                raise _Fail("its copy in the snapshot's store is missing or damaged")
        if fs.S_ISREG(mode) and type(data) is not bytes:
            if type(data) is str:
                raise _Fail(
                    f"larger than {self.before.max_restore_bytes} bytes when the snapshot "
                    "was taken: only its hash was kept"
                )
            raise _Fail("its content could not be read when the snapshot was taken")
        if fs.S_ISLNK(mode) and type(data) is not str:
            raise _Fail("its target could not be read when the snapshot was taken")
        if not (fs.S_ISREG(mode) or fs.S_ISLNK(mode) or fs.S_ISDIR(mode)):
            raise _Fail("a special file (FIFO, socket, device) is not recreated")
        parent, _, name = rel.rpartition("/")
        pfd = self.open_dir(parent, create=True)
        try:
            cur = _lstat_at(name, pfd)
            if fs.S_ISDIR(mode):
                if cur is not None and not fs.S_ISDIR(cur.st_mode):
                    os.unlink(name, dir_fd=pfd)
                    cur = None
                if cur is None:
                    os.mkdir(name, 0o700, dir_fd=pfd)
                dfd = os.open(name, fs.DIR_FLAGS, dir_fd=pfd)
                try:
                    os.fchmod(dfd, mode & 0o7777)
                finally:
                    os.close(dfd)
                return
            tmp = self.temp(pfd, rec, data)
            try:
                if cur is not None and fs.S_ISDIR(cur.st_mode):
                    _rmtree_at(name, pfd)
                os.replace(tmp, name, src_dir_fd=pfd, dst_dir_fd=pfd)
            except BaseException:
                try:
                    os.unlink(tmp, dir_fd=pfd)
                except OSError:
                    pass
                raise
        finally:
            os.close(pfd)

    def temp(self, pfd: int, rec: tuple[int, int, int, int, int], data: bytes | str | None) -> str:
        """A new entry beside the target holding the recorded file or symlink."""
        while True:
            self.counter += 1
            tmp = f".paw-restore.{os.getpid()}.{self.counter}.tmp"
            try:
                if type(data) is str:
                    os.symlink(data, tmp, dir_fd=pfd)
                    return tmp
                fd = os.open(tmp, _WRITE_FLAGS, 0o600, dir_fd=pfd)
                break
            except FileExistsError:
                continue
        try:
            view = memoryview(data if type(data) is bytes else b"")
            while view:
                view = view[os.write(fd, view) :]
            os.fchmod(fd, rec[0] & 0o7777)
            os.utime(fd, ns=(rec[2], rec[2]))
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            os.unlink(tmp, dir_fd=pfd)
            raise
        os.close(fd)
        return tmp


def restore(before: Snapshot, drift: Drift, root: str) -> Restored:
    """Undo ``drift`` on protected paths from ``before``; see :mod:`.drift`."""
    out = Restored()
    protected = drift.protected
    removals = sorted((path for path in drift.created if path in protected), key=_depth)
    puts = sorted(
        (path for path in (*drift.modified, *drift.deleted) if path in protected), key=_depth
    )
    if not removals and not puts:
        return out
    root = os.path.abspath(root)
    if root != before.root:
        raise ValueError(f"the snapshot is of {before.root!r}, not {root!r}")
    root_fd = os.open(root, os.O_RDONLY | fs.O_DIRECTORY | fs.O_CLOEXEC)
    try:
        worker = _Restorer(before, root_fd, out)
        removed: list[str] = []
        stuck: list[str] = []
        for path in removals:
            if any(path.startswith(done + "/") for done in removed):
                out.restored.append(path)  # went with a created directory above it
                continue
            above = [top for top in stuck if path.startswith(top + "/")]
            if above:
                out.failed.append((path, f"inside {above[0]}, which could not be removed"))
                continue
            if not fs.valid_rel(path):
                out.failed.append((path, "not a valid relative path"))
                continue
            try:
                worker.remove(path)
            except _Fail as exc:
                out.failed.append((path, str(exc)))
                stuck.append(path)
                continue
            except OSError as exc:
                out.failed.append((path, f"cannot remove it: {fs.why(exc)}"))
                stuck.append(path)
                continue
            removed.append(path)
            out.restored.append(path)
        for path in puts:
            if not fs.valid_rel(path):
                out.failed.append((path, "not a valid relative path"))
                continue
            try:
                worker.put(path)
            except _Fail as exc:
                out.failed.append((path, str(exc)))
                continue
            except OSError as exc:
                out.failed.append((path, f"cannot restore it: {fs.why(exc)}"))
                continue
            out.restored.append(path)
    finally:
        os.close(root_fd)
    return out
