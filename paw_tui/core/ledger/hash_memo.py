"""Files' sha256 remembered by stamp, so a file that did not change is not read again.

``intent_map.md`` says of every touched file whether it still has the hash the ledger
recorded, and it is rebuilt after every mutation: hashing every touched file each time made
a call's cost grow with the project's history. A memo keeps, per path, the stamp (size,
mtime, ctime, inode, device) the file had when it was hashed, and a file still showing that
stamp is taken to hold the same bytes. That is the rule :mod:`paw_tui.core.policy.sources`
uses (git's racy-index rule): any write sets a file's ctime to the current time, which no
unprivileged process can set back, so a stamp is recorded only when the file's ctime was
already :data:`~paw_tui.core.policy.sources.RACY_NS` old when it was read; a file written
within that window is hashed on every call until one finds it quiet.

The memo lives in the workspace's state directory, outside what an agent's confined shell
may write, so a human-read map cannot be made to say "unchanged" through it. It is
``marshal`` data, ``(MAGIC, VERSION, {path: (size, mtime_ns, ctime_ns, ino, dev, digest)})``;
a missing, torn or foreign memo is an empty one (everything is hashed once more).
"""

from __future__ import annotations

import os
import stat
import time

from paw_tui.core.policy.sources import RACY_NS, STAMPS
from paw_tui.core.support.hashing import hash_regular_file
from paw_tui.core.support.tagged_file import dump_entries, load_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    # (st_size, st_mtime_ns, st_ctime_ns, st_ino, st_dev, "sha256:<hex>")
    Entry = tuple[int, int, int, int, int, str]

MAGIC = "paw-hash-memo"
VERSION = 1
HASHES = "hashes"
SAVES = "saves"
COUNTS = {HASHES: 0, SAVES: 0}
"""Work done in this process: files read and hashed, memo rewrites (tests assert on these,
never on timings)."""


def _stamp(info: os.stat_result) -> tuple[int, int, int, int, int]:
    return (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


def _valid_entry(entry: object) -> bool:
    return (
        type(entry) is tuple
        and len(entry) == 6
        and all(type(part) is int for part in entry[:5])
        and type(entry[5]) is str
    )


def _load(path: str) -> dict[str, Entry]:
    found = load_entries(path, MAGIC, VERSION, _valid_entry)
    return found  # type: ignore[return-value]  # each entry checked by _valid_entry


class HashMemo:
    """One render's use of the memo: :meth:`sha256` per file, then :meth:`save`."""

    __slots__ = ("path", "racy_cut", "old", "new")

    def __init__(self, path: str) -> None:
        self.path = path
        self.racy_cut = time.time_ns() - RACY_NS
        self.old = _load(path) if STAMPS else {}
        self.new: dict[str, Entry] = {}

    def sha256(self, path: str) -> str | None:
        """``"sha256:<hex>"`` of the regular file at ``path`` (symlinks followed); None when
        there is no regular file there; OSError when it exists but cannot be read: the
        contract of :func:`paw_tui.core.ledger.touched.file_sha256`."""
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return None  # as os.path.isfile says False
        if not stat.S_ISREG(info.st_mode):
            return None
        known = self.old.get(path)
        if known is not None and known[:5] == _stamp(info) and info.st_ctime_ns < self.racy_cut:
            self.new[path] = known
            return known[5]
        hashed = hash_regular_file(path)
        if hashed is None:
            return None  # gone, or replaced since the stat: as if nothing regular were there
        COUNTS[HASHES] += 1
        found, before, after = hashed
        stamp = _stamp(after)
        if STAMPS and stamp == _stamp(before) and after.st_ctime_ns < self.racy_cut:
            self.new[path] = (*stamp, found)  # quiet when read: its stamp can stand for it
        return found

    def save(self) -> None:
        """Rewrite the memo when an entry changed; entries not used this time are dropped
        (files no longer in any intent's index). A memo that cannot be written is not an
        error: the files are hashed again next time."""
        if self.new == self.old or not STAMPS:
            return
        from paw_tui.core.support.fsutil import replace_unsynced

        try:
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
            replace_unsynced(self.path, dump_entries(MAGIC, VERSION, self.new), 0o600)  # type: ignore[arg-type]
        except OSError:
            return
        COUNTS[SAVES] += 1
