"""The spec file: what the gate tells the launcher a confined shell may write.

A tiny line format, read as bytes so any file name the kernel accepts survives (no ``json``
to import on the launcher's path)::

    paw-tui-confine 1
    # comment lines and blank lines are ignored
    dir /abs/path/of/a/writable/tree
    file /abs/path/of/one/writable/file
    tmpdir /abs/path/of/the/private/TMPDIR

One keyword, one space, an absolute path running to the end of the line (spaces kept, no
quoting). A path holding a newline cannot be written (``ValueError``). ``tmpdir`` (at most one)
names the shell's private temporary directory: the launcher creates it (mode 0700) when
missing, grants it, and exports ``TMPDIR`` to it. The writer is atomic (temporary file +
``os.replace``, mode 0600) so a launcher never reads half a spec; it does not fsync (a spec
is rewritten before every shell call, durability buys nothing).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

HEADER = b"paw-tui-confine 1"


class Spec:
    """A parsed spec: ``rules`` as ``(path, is_directory)`` and the optional ``tmpdir``."""

    __slots__ = ("rules", "tmpdir")

    def __init__(self, rules: list[tuple[bytes, bool]], tmpdir: bytes | None) -> None:
        self.rules = rules
        self.tmpdir = tmpdir

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Spec) and (self.rules, self.tmpdir) == (other.rules, other.tmpdir)

    def __repr__(self) -> str:
        return f"Spec(rules={self.rules!r}, tmpdir={self.tmpdir!r})"


def render_spec(
    dirs: Iterable[str], files: Iterable[str], tmpdir: str | None = None, comment: str = ""
) -> bytes:
    """The spec's bytes for these absolute directories, files and private temp directory."""
    lines = [HEADER]
    if comment:
        lines.extend(b"# " + _path(line, check_absolute=False) for line in comment.splitlines())
    lines.extend(b"dir " + _path(path) for path in dirs)
    lines.extend(b"file " + _path(path) for path in files)
    if tmpdir is not None:
        lines.append(b"tmpdir " + _path(tmpdir))
    return b"\n".join(lines) + b"\n"


def _path(path: str, check_absolute: bool = True) -> bytes:
    raw = os.fsencode(path)
    if b"\n" in raw or b"\0" in raw:
        raise ValueError(f"a confinement spec cannot hold a path with a newline: {path!r}")
    if check_absolute and not raw.startswith(b"/"):
        raise ValueError(f"a confinement spec holds absolute paths only: {path!r}")
    return raw


def parse_spec(data: bytes) -> Spec:
    """Parse spec bytes; ``ValueError`` names the first bad line."""
    lines = data.split(b"\n")
    if lines[0].rstrip(b"\r") != HEADER:
        raise ValueError("not a paw-tui confinement spec (bad first line)")
    rules: list[tuple[bytes, bool]] = []
    tmpdir: bytes | None = None
    for number, line in enumerate(lines[1:], start=2):
        if not line or line.startswith(b"#"):
            continue
        keyword, _, path = line.partition(b" ")
        if not path.startswith(b"/"):
            raise ValueError(f"spec line {number}: expected an absolute path")
        if keyword == b"dir":
            rules.append((path, True))
        elif keyword == b"file":
            rules.append((path, False))
        elif keyword == b"tmpdir" and tmpdir is None:
            tmpdir = path
        else:
            raise ValueError(f"spec line {number}: unexpected {keyword.decode(errors='replace')!r}")
    return Spec(rules, tmpdir)


def write_spec(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, mode 0600 (the directory must exist), unless the
    file already holds exactly that (most shell calls of a session compute the same set, and a
    rename costs more than the comparison). The writer's side only: the launcher never imports
    what this uses."""
    import stat

    from paw_tui.core.support.fsutil import replace_unsynced

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        fd = -1
    if fd >= 0:
        try:
            info = os.fstat(fd)
            same = (
                stat.S_ISREG(info.st_mode)
                and stat.S_IMODE(info.st_mode) == 0o600
                and info.st_size == len(data)
                and os.read(fd, len(data) + 1) == data
            )
        finally:
            os.close(fd)
        if same:
            return
    replace_unsynced(path, data, 0o600)
