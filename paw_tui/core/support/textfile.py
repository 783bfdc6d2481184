"""Reading one small text file into a status value: ``{exists, content, error, path}``.

A missing file is normal (``exists`` false, no error). Every other failure keeps
``exists`` true with empty content and a message in ``error``, so a caller loading several
files still gets the others (DESIGN §3). The byte reader is injectable because tests cannot
make a file unreadable with chmod when they run as root.
"""

from __future__ import annotations

import errno
import os

from paw_tui.core.support.regular_file import open_regular_fd

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs ~25 ms at import; the hot paths never pay for it
    from collections.abc import Callable

    ReadBytes = Callable[[str, int], bytes]

MAX_FILE_BYTES = 1024 * 1024
_BOM = b"\xef\xbb\xbf"
EMPTY_FILE = "file is empty"


class FileTooLargeError(OSError):
    """The file is over the size limit; ``size`` is its length in bytes."""

    def __init__(self, size: int) -> None:
        super().__init__(errno.EFBIG, "file too large")
        self.size = size


class FileStatus:
    """What loading one file produced. ``error`` is None when the file loaded cleanly."""

    __slots__ = ("path", "exists", "content", "error")

    def __init__(
        self, path: str, exists: bool = False, content: str = "", error: str | None = None
    ) -> None:
        self.path = path
        self.exists = exists
        self.content = content
        self.error = error

    def to_dict(self) -> dict[str, object]:
        return {
            "exists": self.exists,
            "content": self.content,
            "error": self.error,
            "path": self.path,
        }

    @property
    def has_content(self) -> bool:
        return bool(self.content)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FileStatus):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        return (
            f"FileStatus(path={self.path!r}, exists={self.exists!r}, "
            f"content={self.content[:40]!r}, error={self.error!r})"
        )


def read_bytes_limited(path: str, limit: int) -> bytes:
    """Read a regular file of at most ``limit`` bytes (opened as
    :mod:`~paw_tui.core.support.regular_file` opens every file: never blocking, regular files
    only)."""
    fd = open_regular_fd(path)
    try:
        info = os.fstat(fd)
        if info.st_size > limit:
            raise FileTooLargeError(info.st_size)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, limit + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # the file grew while we read it
            raise FileTooLargeError(max(total, os.fstat(fd).st_size))
        return b"".join(chunks)
    finally:
        os.close(fd)


def decode_text(data: bytes) -> str:
    """Strict UTF-8 without a BOM, every line ending made ``\\n``, trimmed.

    Raises UnicodeDecodeError whose ``start`` is the offset in ``data`` (BOM included).
    """
    offset = 0
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
        offset = len(_BOM)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnicodeDecodeError(
            "utf-8", b"\0" * offset + data, exc.start + offset, exc.end + offset, exc.reason
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def describe_os_error(exc: OSError, path: str) -> str:
    """One lower-case phrase naming the reason and the path, for ``Failed to read ...``."""
    if isinstance(exc, FileTooLargeError):
        return f"file is larger than the 1 MiB limit ({exc.size} bytes)"
    if isinstance(exc, PermissionError):
        return f"permission denied: {path}"
    if isinstance(exc, IsADirectoryError):
        return f"is a directory: {path}"
    reason = exc.strerror or str(exc) or type(exc).__name__
    return f"{reason[:1].lower()}{reason[1:]}: {path}"


def load_text_file(path: str, what: str, read_bytes: ReadBytes | None = None) -> FileStatus:
    """Load ``path`` as the file called ``what`` in messages (``custom instructions``)."""
    reader = read_bytes or read_bytes_limited
    try:
        data = reader(path, MAX_FILE_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return FileStatus(path)
    except OSError as exc:
        return FileStatus(path, True, "", f"Failed to read {what}: {describe_os_error(exc, path)}")
    if len(data) > MAX_FILE_BYTES:  # an injected reader may ignore the limit
        return FileStatus(
            path,
            True,
            "",
            f"Failed to read {what}: {describe_os_error(FileTooLargeError(len(data)), path)}",
        )
    try:
        content = decode_text(data)
    except UnicodeDecodeError as exc:
        bad = exc.object[exc.start]
        return FileStatus(
            path,
            True,
            "",
            f"Failed to read {what}: not valid UTF-8 (byte 0x{bad:02x} at offset {exc.start})",
        )
    if not content:
        return FileStatus(path, True, "", EMPTY_FILE)
    return FileStatus(path, True, content, None)


def read_source_text(path: str) -> str | None:
    """A source file's text with its lines kept (line numbers stay true): strict UTF-8, BOM
    dropped, CRLF and lone CR made LF, not trimmed. None when the file is absent; OSError when
    it cannot be read (over 1 MiB included) and UnicodeDecodeError (``start`` counts from the
    first byte after a BOM) when it is not UTF-8: callers word the message for their file."""
    try:
        data = read_bytes_limited(path, MAX_FILE_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")


def find_case_insensitive(directory: str, name: str) -> str:
    """``directory/name``, or the entry whose name matches it case-insensitively.

    The exact name wins when it exists; among several case variants the first in sorted
    order is taken, so the choice never depends on directory order.
    """
    exact = os.path.join(directory, name)
    if os.path.lexists(exact):
        return exact
    try:
        entries = os.listdir(directory)
    except OSError:
        return exact
    folded = name.casefold()
    matches = sorted(entry for entry in entries if entry.casefold() == folded)
    return os.path.join(directory, matches[0]) if matches else exact
