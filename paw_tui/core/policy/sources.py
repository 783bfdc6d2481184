"""Reading the two human-owned policy files for the compiled cache: bytes, limits and stamps.

The cache is keyed by the files' content. Hashing a 2,000-intent file costs about 1 ms on
every gate call, so the cache also records each file's *stamp* (size, mtime, ctime, inode,
device), and a call whose files carry the recorded stamps skips the read and the hash. That
is sound only for a stamp taken when the file had been quiet for a while (the rule git uses
for its index): any write to a file sets its ctime to the current time, which no unprivileged
process can set back, so a file whose ctime was already ``RACY_NS`` old when it was read, and
which still shows the same stamp, has not been written since. A file changed within that
window gets no stamp, and its key is its hash until a later call finds it quiet. POSIX only:
Windows reports the creation time as ``st_ctime``.
"""

from __future__ import annotations

import os
import time

from paw_tui.core.support.regular_file import open_regular_fd
from paw_tui.core.workspace import layout

MAX_SOURCE_BYTES = 1024 * 1024
"""The largest intents (or governance) file the gate compiles within a hook's time budget
(about 0.3 s per MiB with libyaml). Larger, it is refused before it is parsed."""
MAX_SOURCE_BYTES_PURE = 256 * 1024
"""The same limit where PyYAML runs without libyaml (about 8x slower)."""
TOO_LARGE = (
    "it is larger than the {limit} a gate call can compile within the hook's time budget{why}; "
    "move COMPLETED and ABANDONED intents out of it"
)
RACY_NS = 2_000_000_000
"""How long a file must have been unchanged before its stamp can stand for its content."""
MISSING = "missing"
STAMPS = os.name == "posix"

Stamp = list[int] | str


class Source:
    """One policy file as read: ``data`` (None when missing), a ``problem`` when it cannot be
    used, and its ``stamp`` (None when it changed too recently to have one)."""

    __slots__ = ("data", "problem", "stamp")

    def __init__(self, data: bytes | None, problem: str | None, stamp: Stamp | None) -> None:
        self.data = data
        self.problem = problem
        self.stamp = stamp


def _stamp(info: os.stat_result) -> list[int]:
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]


def read_source(path: str, shown: str) -> Source:
    """The file's bytes, and a problem when it cannot be read (or is too large to compile)."""
    started = time.time_ns()
    try:
        fd = open_regular_fd(path)  # never blocks: a planted FIFO must not hang the gate
        try:
            info = os.fstat(fd)
            chunks = []
            size = 0
            while size <= MAX_SOURCE_BYTES:  # a read may return less than asked
                chunk = os.read(fd, MAX_SOURCE_BYTES + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            data = b"".join(chunks)
            after = os.fstat(fd)
        finally:
            os.close(fd)
    except (FileNotFoundError, NotADirectoryError):
        return Source(None, None, MISSING)
    except OSError as exc:
        from paw_tui.core.support.textfile import describe_os_error

        return Source(b"", f"{shown}: cannot be read: {describe_os_error(exc, path)}", None)
    if len(data) > MAX_SOURCE_BYTES:
        return Source(b"", f"{shown}: {TOO_LARGE.format(limit='1 MiB', why='')}", None)
    stamp = _stamp(after)
    quiet = STAMPS and stamp == _stamp(info) and after.st_ctime_ns < started - RACY_NS
    return Source(data, None, stamp if quiet else None)


def current_stamps(root: str) -> list[Stamp] | None:
    """Both files' stamps now, from two ``stat`` calls (None where stamps are not used)."""
    if not STAMPS:
        return None
    stamps: list[Stamp] = []
    for name in (layout.INTENTS, layout.GOVERNANCE):
        try:
            stamps.append(_stamp(os.stat(layout.at(root, name))))
        except (FileNotFoundError, NotADirectoryError):
            stamps.append(MISSING)
        except OSError:
            return None
    return stamps


def too_large_for_pure_yaml(intents: bytes | None, governance: bytes | None) -> str | None:
    """Without libyaml the limit is lower: refuse before a parse that would outlast the hook."""
    if max(len(intents or b""), len(governance or b"")) <= MAX_SOURCE_BYTES_PURE:
        return None
    import yaml

    if getattr(yaml, "__with_libyaml__", False):
        return None
    shown = layout.INTENTS if len(intents or b"") > MAX_SOURCE_BYTES_PURE else layout.GOVERNANCE
    why = " (PyYAML runs here without libyaml)"
    return f"{shown}: {TOO_LARGE.format(limit='256 KiB', why=why)}"
