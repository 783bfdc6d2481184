"""``os.path.realpath`` for absolute paths, in fewer system calls where the platform allows.

``os.path.realpath`` ``lstat``s every component of a path. On Linux, where ``/proc`` is
mounted, the kernel resolves an existing path in one ``open(O_PATH)`` and
``/proc/self/fd/N`` names the result; an absent path is its resolved parent and its name,
as ``realpath`` has it. Anything else (a ``.`` or ``..`` component, a dangling link, a loop,
no ``/proc``, another platform) is left to ``os.path.realpath``, so the answer is always the
same. Standard
library only (the gate resolves through this).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def realpath(path: str, parent: Callable[[str], str] | None = None) -> str:
    """``os.path.realpath(path)`` for an absolute ``path`` (see the module docstring).

    An absent path is its parent's real path and its name; ``parent`` resolves that parent
    (a caller that remembers its answers passes its own lookup: a spec asks about dozens of
    absent names in one directory)."""
    flag = getattr(os, "O_PATH", 0)
    if not flag or "/./" in path or "/../" in path or path.endswith(("/.", "/..")):
        # ``..`` after a missing component is lexical for realpath, not for the kernel
        return os.path.realpath(path)
    try:
        fd = os.open(path, flag | os.O_CLOEXEC)
    except FileNotFoundError:
        folder, _, name = path.rpartition("/")
        if folder and name not in ("", ".", "..") and not _exists(path):
            return (parent or realpath)(folder).rstrip("/") + "/" + name  # nor a dangling link
        return os.path.realpath(path)
    except OSError:
        return os.path.realpath(path)
    try:
        found = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        found = ""
    finally:
        os.close(fd)
    if found.startswith("/") and not found.endswith(" (deleted)"):
        return found
    return os.path.realpath(path)


def _exists(path: str) -> bool:
    """Whether anything, a dangling link included, is at ``path`` (``lstat``)."""
    try:
        os.lstat(path)
    except OSError:
        return False
    return True
