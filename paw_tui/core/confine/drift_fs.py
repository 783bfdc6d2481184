"""Low-level file system helpers of :mod:`paw_tui.core.confine.drift` (standard library only).

``open_dir``, ``scandir``, ``lstat`` and ``readlink`` are module attributes that the walkers
look up once per call, so a test can wrap them (files vanishing mid-walk, unreadable
directories) without touching :mod:`os` itself. Directories are listed through a descriptor
(``scandir(fd)``, ``lstat(name, dir_fd=fd)``): the kernel then resolves one component per
entry instead of the whole path, which is most of what a ``lstat`` costs on a deep tree.
"""

from __future__ import annotations

import errno
import os
import stat

try:
    from _sha256 import sha256  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - 3.12+ names the builtin module _sha2
    try:
        from _sha2 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
    except ImportError:  # pragma: no cover - interpreters without the builtin module
        from hashlib import sha256  # type: ignore[assignment,unused-ignore]

TYPE_CHECKING = False
if TYPE_CHECKING:
    # (st_mode, st_size, st_mtime_ns, st_ctime_ns, st_ino): what a walk records per entry
    Rec = tuple[int, int, int, int, int]

scandir = os.scandir
lstat = os.lstat
readlink = os.readlink

S_IFMT = stat.S_IFMT
S_ISDIR = stat.S_ISDIR
S_ISREG = stat.S_ISREG
S_ISLNK = stat.S_ISLNK

PROT = 1  # extras flag: a protected (restorable) path
RACY = 2  # extras flag: changed so recently before the snapshot that stat alone cannot tell
STORED = 4  # extras flag: the data is a hash whose content the snapshot's store holds

O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
O_NOCTTY = getattr(os, "O_NOCTTY", 0)
O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
READ_FLAGS = os.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
DIR_FLAGS = os.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
ROOT_FLAGS = os.O_RDONLY | O_DIRECTORY | O_CLOEXEC

# open() errors meaning "not a directory (any more)": gone, replaced by a file or a symlink
NOT_A_DIR = (errno.ENOENT, errno.ENOTDIR, errno.ELOOP)

_CHUNK = 1 << 20
HASH_PREFIX = "sha256:"


def open_dir(path: str, follow: bool = False) -> int:
    """A descriptor of directory ``path``; follows a symlink at its last component only with
    ``follow`` (the workspace root)."""
    return os.open(path, ROOT_FLAGS if follow else DIR_FLAGS)


def why(exc: OSError) -> str:
    """A short reason for a failed operation: ``strerror`` or the exception's name."""
    return exc.strerror or type(exc).__name__


def rec_of(st: os.stat_result) -> Rec:
    return (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def read_regular(
    path: str, limit: int, *, dir_fd: int | None = None
) -> tuple[bytes | None, str, os.stat_result] | None:
    """``(content or None, sha256, fstat)`` of the regular file at ``path``, else None.

    Never follows a symlink at the last component and never blocks on a FIFO or device
    planted there (``O_NONBLOCK``, and the descriptor is read only after ``fstat`` says it
    is a regular file). ``content`` is None when the file holds more than ``limit`` bytes;
    the hash then covers the whole file. None when the path is missing, not a regular file
    or unreadable.
    """
    try:
        fd = os.open(path, READ_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not S_ISREG(st.st_mode):
            return None
        parts: list[bytes] = []
        total = 0
        digest = sha256()
        while True:
            block = os.read(fd, _CHUNK)
            if not block:
                break
            digest.update(block)
            if total <= limit:
                parts.append(block)
            total += len(block)
        content = b"".join(parts) if total <= limit else None
        return content, HASH_PREFIX + str(digest.hexdigest()), st
    except OSError:
        return None
    finally:
        os.close(fd)


def chain_lstat(root: str, rel: str) -> os.stat_result | None:
    """``lstat`` of ``root/rel`` reached through real directories only (no symlinked parent).

    None when the path, or a directory on the way, is missing, or a parent is a symlink or
    not a directory: the entry then cannot be reached without following a link.
    """
    lstat_ = lstat
    path = root
    parts = rel.split("/")
    for index, part in enumerate(parts):
        path = path + "/" + part
        try:
            st = lstat_(path)
        except OSError:
            return None
        if index < len(parts) - 1 and not S_ISDIR(st.st_mode):
            return None
    return st


def valid_rel(rel: str) -> bool:
    """A root-relative POSIX path with no empty, ``.`` or ``..`` component."""
    if not rel:
        return False
    for part in rel.split("/"):
        if part in ("", ".", ".."):
            return False
    return True


def parent_of(rel: str) -> str:
    return rel.rpartition("/")[0]
