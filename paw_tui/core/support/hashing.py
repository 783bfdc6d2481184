"""SHA-256 without importing hashlib.

``hashlib`` loads the OpenSSL binding (~5 ms), a fifth of the gate's whole budget; the
builtin ``_sha2`` (3.12+) or ``_sha256`` (3.11) module imports in well under a millisecond.
"""

from __future__ import annotations

import os
import stat
import sys

from paw_tui.core.support.regular_file import READ_FLAGS

# Named by version: a failed import searches every path entry (about 0.1 ms in a hook).
try:
    if sys.version_info >= (3, 12):
        from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]
    else:
        from _sha256 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
except ImportError:  # pragma: no cover - interpreters without the builtin module
    from hashlib import sha256  # type: ignore[assignment,unused-ignore]

PREFIX = "sha256:"
__all__ = ["PREFIX", "content_hash", "hash_regular_file", "sha256", "sha256_hex"]

FILE_CHUNK = 1 << 20
LARGE_FILE = 8 << 20
"""Past this many bytes OpenSSL's SHA-256 (``hashlib``) repays the ~5 ms its import costs."""


def sha256_hex(data: bytes) -> str:
    return str(sha256(data).hexdigest())


def content_hash(data: bytes) -> str:
    """``sha256:<hex>``: the one hash format of the ledger and the indexes."""
    return PREFIX + str(sha256(data).hexdigest())


def hash_regular_file(path: str) -> tuple[str, os.stat_result, os.stat_result] | None:
    """``("sha256:<hex>", stat before, stat after)`` of the regular file at ``path`` (symlinks
    followed), the stats taken on the open descriptor around the read; None when no regular
    file is there (nothing else is ever opened: a device or FIFO could block or act). Raises
    OSError when the file exists but cannot be read."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        fd = os.open(path, READ_FLAGS)  # never blocks: a FIFO swapped in after the stat
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return None
    try:
        before = os.fstat(fd)
        if not stat.S_ISREG(before.st_mode):
            return None  # replaced since the stat
        if before.st_size > LARGE_FILE:
            import hashlib

            digest = hashlib.sha256()
        else:
            digest = sha256()
        while block := os.read(fd, FILE_CHUNK):
            digest.update(block)
        after = os.fstat(fd)
    finally:
        os.close(fd)
    return PREFIX + str(digest.hexdigest()), before, after
