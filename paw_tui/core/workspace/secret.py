"""The workspace's signing key: kept outside the workspace, in the state directory.

Ledger records, the policy cache and the session and approval records carry an HMAC-SHA256
made with it (:mod:`paw_tui.core.support.keyed`), so a record something else wrote is told
apart from one paw-tui wrote. The key is created on first use (32 random bytes, mode 0600,
in a 0700 directory) next to the ledger's head, in the directory
:func:`~paw_tui.core.workspace.statedir.workspace_state_dir` names for the workspace.

What it protects, and what it cannot: an agent confined by the kernel boundary can neither
read nor write the state directory, so it cannot sign what it forges. An agent running
unconfined as the same user can read the key, like every other file of that user; only the
boundary closes that.
"""

from __future__ import annotations

import os

from paw_tui.core.support.keyed import KEY_BYTES, Mac
from paw_tui.core.workspace import statedir

KEY_FILE = "signing.key"
# O_NONBLOCK: a FIFO planted as the key must not hang the gate; regular files ignore it
_OPEN_FLAGS = (
    getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
)


def key_path(root: str, *, state_base: str | None = None) -> str:
    return os.path.join(statedir.workspace_state_dir(root, base=state_base), KEY_FILE)


def _read(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    except FileNotFoundError:
        return None
    try:
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != KEY_BYTES:
        raise OSError(f"the signing key {path} is not {KEY_BYTES} bytes long")
    return data


def load_key(root: str, *, create: bool = False, state_base: str | None = None) -> Mac | None:
    """The workspace's key; None when there is none and ``create`` is false.

    Raises OSError when it cannot be read or (with ``create``) made.
    """
    path = key_path(root, state_base=state_base)
    data = _read(path)
    if data is not None or not create:
        return Mac(data) if data is not None else None
    directory = os.path.dirname(path)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    temp = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _OPEN_FLAGS, 0o600)
    try:
        os.write(fd, os.urandom(KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(temp, path)  # never replaces a key another process made a moment ago
    except FileExistsError:
        pass
    finally:
        os.unlink(temp)
    data = _read(path)
    if data is None:
        raise OSError(f"the signing key {path} could not be created")
    return Mac(data)
