"""SHA-256 without importing hashlib.

``hashlib`` loads the OpenSSL binding (~5 ms), a fifth of the gate's whole budget; the
builtin ``_sha2`` (3.12+) or ``_sha256`` (3.11) module imports in well under a millisecond.
"""

from __future__ import annotations

import sys

# Named by version: a failed import searches every path entry (about 0.1 ms in a hook).
try:
    if sys.version_info >= (3, 12):
        from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]
    else:
        from _sha256 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]
except ImportError:  # pragma: no cover - interpreters without the builtin module
    from hashlib import sha256  # type: ignore[assignment,unused-ignore]

PREFIX = "sha256:"
__all__ = ["PREFIX", "content_hash", "sha256", "sha256_hex"]


def sha256_hex(data: bytes) -> str:
    return str(sha256(data).hexdigest())


def content_hash(data: bytes) -> str:
    """``sha256:<hex>``: the one hash format of the ledger and the indexes."""
    return PREFIX + str(sha256(data).hexdigest())
