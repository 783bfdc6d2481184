"""Protected files' content for drift snapshots, kept once by hash instead of in every snapshot.

A snapshot must be able to put a protected file back byte for byte, but copying every protected
file into every snapshot made each shell call pay for the largest of them (the intents file:
up to 1 MiB with 5,000 intents) three times: a read, a ``marshal`` dump, a load. The store keeps
each content once, and a snapshot holds its ``sha256:`` hash (flag :data:`~.drift_fs.STORED`).

Layout of the store directory, which must be where the agent cannot write (the workspace's
state directory, beside the snapshots: the kernel boundary never grants it to the shell):

- ``<64 hex digits>``: one content, named by its sha256; written once (a temporary file,
  synced, renamed), never modified, checked against its name again before it is restored;
- ``index``: ``marshal`` data, ``(MAGIC, VERSION, {path: (dev, ino, size, mtime_ns, ctime_ns,
  digest, stored)})``: the stamp each protected path had when it was last read, and the hash
  of what it held then (``stored``: whether that content is in the store; a file larger than
  the snapshot's limit is hashed only).

A protected file whose ``lstat`` shows the stamp its index entry recorded is not opened: the
hash stands for its content. That is git's rule for its racy index, and the one
:mod:`paw_tui.core.policy.sources` uses: any write sets a file's ctime to the current time,
which no unprivileged process can set back, so an entry is recorded only for a file whose ctime
was already before the snapshot's racy cut when it was read, and a file still showing that
stamp has not been written since. A file changed within that window is read on every snapshot
(and flagged racy, so the comparison hashes it too) until a later snapshot finds it quiet.

Contents no longer referenced by the index are kept :data:`KEEP_NS` after they stopped being
(their mtime is set then), as long as a snapshot taken before can still be compared, and are
removed by the next snapshot that changes the index after that. Nothing here is done on a call
whose protected files did not change: the index is read, and that is all.
"""

from __future__ import annotations

import os
import time

from paw_tui.core.confine import drift_fs as fs
from paw_tui.core.support.tagged_file import dump_entries, load_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    # (st_dev, st_ino, st_size, st_mtime_ns, st_ctime_ns, "sha256:<hex>", stored)
    Entry = tuple[int, int, int, int, int, str, bool]

INDEX = "index"
MAGIC = "paw-drift-store"
VERSION = 1
KEEP_NS = 24 * 3600 * 1_000_000_000
"""How long a content no longer in the index is kept (a snapshot is pruned after as long)."""

READS = "reads"
WRITTEN = "bytes_written"
INDEX_WRITES = "index_writes"
COUNTS = {READS: 0, WRITTEN: 0, INDEX_WRITES: 0}
"""Work done in this process: protected files read, content bytes written to the store, index
rewrites (tests assert on these, never on timings)."""

_HEX = frozenset("0123456789abcdef")
_NEW_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | fs.O_NOFOLLOW | fs.O_CLOEXEC


def _hex_of(digest: str) -> str | None:
    """The file name of a ``sha256:<hex>`` digest in the store, or None for anything else."""
    if not digest.startswith(fs.HASH_PREFIX):
        return None
    name = digest[len(fs.HASH_PREFIX) :]
    return name if len(name) == 64 and _HEX.issuperset(name) else None


def _valid_entry(entry: object) -> bool:
    return (
        type(entry) is tuple
        and len(entry) == 7
        and type(entry[5]) is str
        and _hex_of(entry[5]) is not None
    )


def _load_index(directory: str) -> dict[str, Entry]:
    """The index, or an empty one when it is missing or not one this version wrote."""
    found = load_entries(os.path.join(directory, INDEX), MAGIC, VERSION, _valid_entry)
    return found  # type: ignore[return-value]  # each entry checked by _valid_entry


class ContentStore:
    """One snapshot's use of the store: :meth:`ref` per protected file, then :meth:`save`."""

    __slots__ = ("directory", "racy_cut", "limit", "old", "new", "names")

    def __init__(self, directory: str, racy_cut: int, limit: int) -> None:
        self.directory = directory
        self.racy_cut = racy_cut
        self.limit = limit
        self.old = _load_index(directory)
        self.new: dict[str, Entry] = {}
        self.names: set[str] | None = None  # the store's file names, listed once when needed

    def ref(
        self, rel: str, name: str, dir_fd: int | None, st: os.stat_result
    ) -> tuple[bytes | str | None, int]:
        """``(data, flags)`` to keep in the snapshot for the protected regular file ``rel``.

        ``data`` is its hash with :data:`~.drift_fs.STORED` in ``flags`` when the store holds
        its content; its hash alone when it is larger than the limit; its content when the
        store could not be written (the snapshot then carries it, as without a store); None
        when it could not be read. ``name`` is its name in directory ``dir_fd`` (its path
        without one); ``st`` its ``lstat`` from the walk.
        """
        stamp = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        known = self.old.get(rel)
        if (
            known is not None
            and known[:5] == stamp
            and st.st_ctime_ns < self.racy_cut
            and (not known[6] or self.holds(known[5]))
        ):
            self.new[rel] = known
            return known[5], fs.STORED if known[6] else 0
        COUNTS[READS] += 1
        found = fs.read_regular(name, self.limit, dir_fd=dir_fd)
        if found is None:
            return None, 0
        content, digest, opened = found
        stored = False
        if content is not None:
            try:
                self.put(digest, content)
                stored = True
            except OSError:
                return content, 0
        now = (opened.st_dev, opened.st_ino, opened.st_size, opened.st_mtime_ns)
        if now + (opened.st_ctime_ns,) == stamp and opened.st_ctime_ns < self.racy_cut:
            self.new[rel] = (*stamp, digest, stored)  # quiet: its stamp can stand for it
        return digest, fs.STORED if stored else 0

    def holds(self, digest: str) -> bool:
        if self.names is None:
            try:
                self.names = set(os.listdir(self.directory))
            except OSError:
                self.names = set()
        name = _hex_of(digest)
        return name is not None and name in self.names

    def put(self, digest: str, content: bytes) -> None:
        """Make the store hold ``content`` under ``digest`` (already there: kept longer)."""
        name = _hex_of(digest)
        if name is None:  # pragma: no cover - read_regular always gives a sha256 digest
            raise OSError(f"not a store digest: {digest!r}")
        path = os.path.join(self.directory, name)
        if self.holds(digest):
            try:
                os.utime(path)  # a prune running now must not take what this snapshot uses
                return
            except FileNotFoundError:
                pass
        os.makedirs(self.directory, mode=0o700, exist_ok=True)
        temp = os.path.join(self.directory, f".{name}.{os.getpid()}.tmp")
        try:
            os.unlink(temp)  # left by a process of the same id that died mid-write
        except FileNotFoundError:
            pass
        fd = os.open(temp, _NEW_FLAGS, 0o600)
        try:
            view = memoryview(content)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)  # snapshots to come rely on it, unlike a snapshot itself
        except BaseException:
            os.close(fd)
            os.unlink(temp)
            raise
        os.close(fd)
        os.replace(temp, path)
        COUNTS[WRITTEN] += len(content)
        if self.names is not None:
            self.names.add(name)

    def save(self) -> None:
        """Rewrite the index when a protected file's stamp changed; then prune the store."""
        if self.new == self.old:
            return
        from paw_tui.core.support.fsutil import replace_unsynced

        os.makedirs(self.directory, mode=0o700, exist_ok=True)
        data = dump_entries(MAGIC, VERSION, self.new)  # type: ignore[arg-type]
        replace_unsynced(os.path.join(self.directory, INDEX), data, 0o600)
        COUNTS[INDEX_WRITES] += 1
        kept = {entry[5] for entry in self.new.values()}
        for entry in self.old.values():
            name = _hex_of(entry[5])
            if entry[5] not in kept and name is not None:
                try:
                    os.utime(os.path.join(self.directory, name))  # retired now: kept KEEP_NS
                except OSError:
                    pass
        prune(self.directory, {_hex_of(digest) for digest in kept})


def prune(directory: str, kept: set[str | None]) -> None:
    """Remove contents not in ``kept`` and untouched for :data:`KEEP_NS`, and stale temps."""
    cutoff = time.time_ns() - KEEP_NS
    try:
        with os.scandir(directory) as iterator:
            for entry in iterator:
                name = entry.name
                if name == INDEX or name in kept:
                    continue
                try:
                    if entry.stat(follow_symlinks=False).st_mtime_ns < cutoff:
                        os.unlink(entry.path)
                except OSError:
                    continue
    except OSError:
        pass


def fetch(directory: str, digest: str) -> bytes | None:
    """The content the store holds for ``digest``, checked against it; None when it is
    missing, not a regular file, or does not match (damaged or tampered with)."""
    name = _hex_of(digest)
    if not directory or name is None:
        return None
    found = fs.read_regular(os.path.join(directory, name), 1 << 62)
    if found is None or found[1] != digest:
        return None
    return found[0]
