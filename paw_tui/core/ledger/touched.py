"""The per-intent index of touched files: ``.orchestration/.cache/intents/<safe id>.jsonl``.

For every intent, the paths its ``mutation`` records named, each with the latest such
record's ``seq``, ``ts`` and (when the record names exactly one path, so the hash is that
file's) its whole-file ``content_hash``. :func:`load_index` returns it folded:
``{"v": 1, "intent_id", "seq": <last mutation applied>, "files": {path: {...}}}``.

On disk each intent's file is a small append-only log: a header line
``{"v": 1, "intent_id": ..., "size": <bytes when last compacted>}`` then one entry line per
path and mutation, the later entry for a path winning. The writer appends under the ledger
lock (:func:`note_append`) with one ``O_APPEND`` write, reading only the header, and
rewrites the file compacted (one line per path) once it has grown past twice its compacted
size plus 4 KiB: an append costs no rename (on ext4 a rename over a file flushes it first,
~1.4 ms) and a read stays proportional to the number of paths.

:func:`rebuild_index` rebuilds every file from the ledger and folds to the same result. The
index is machine-owned and can lag the ledger (a crash between the two writes, a deleted
``.cache``): ``_index.json`` says from which ``seq`` on it is complete (``base_seq`` 0: from
the start), and :func:`index_status` reports it, so a caller that can afford a full scan
(the TUI, the ``trace`` commands) knows when to rebuild.
"""

from __future__ import annotations

import os

from paw_tui.core.ledger.io import OPEN_FLAGS, LedgerError, read_at, write_state_file
from paw_tui.core.ledger.read import iter_records
from paw_tui.core.ledger.records import MUTATION
from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)
from paw_tui.core.support.hashing import sha256_hex
from paw_tui.core.support.locking import FileLock, LockError
from paw_tui.core.support.regular_file import read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.core.ledger.io import LedgerFiles as Ledger
    from paw_tui.core.ledger.records import Record

    Index = dict[str, object]

INDEX_DIRNAME = "intents"
META_NAME = "_index.json"
SUFFIX = ".jsonl"
COMPACT_SLACK = 4096  # bytes a log may grow past twice its compacted size
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
_NAME_CHARS = 64


def index_dir(ledger: Ledger) -> str:
    return os.path.join(ledger.cache_dir, INDEX_DIRNAME)


def safe_name(intent_id: str) -> str:
    """A file name for ``intent_id``: readable, and unique even where names ignore case or
    forbid ``:`` (a short hash of the exact id follows the sanitised id)."""
    readable = "".join(ch if ch in _SAFE else "_" for ch in intent_id[:_NAME_CHARS])
    digest = sha256_hex(intent_id.encode("utf-8", "surrogatepass"))[:12]
    return f"{readable.lstrip('.') or '_'}-{digest}{SUFFIX}"


def index_path(ledger: Ledger, intent_id: str) -> str:
    return os.path.join(index_dir(ledger), safe_name(intent_id))


def _line(data: dict[str, object]) -> bytes:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8", "surrogatepass") + b"\n"


def entries(record: Record) -> tuple[str, list[dict[str, object]]] | None:
    """The intent and the index entries of one ledger record (None when it adds none)."""
    if record.get("event") != MUTATION:
        return None
    intent_id, seq, paths = record.get("intent_id"), record.get("seq"), record.get("paths")
    if (
        not isinstance(intent_id, str)
        or not intent_id
        or type(seq) is not int
        or not isinstance(paths, list)
    ):
        return None
    content_hash = record.get("content_hash") if len(paths) == 1 else None
    ts = record.get("ts")
    found = []
    for path in paths:
        if isinstance(path, str):
            entry: dict[str, object] = {"path": path, "seq": seq}
            if isinstance(ts, str):
                entry["ts"] = ts
            if isinstance(content_hash, str):
                entry["content_hash"] = content_hash
            found.append(entry)
    return intent_id, found


def _empty(intent_id: str) -> Index:
    return {"v": 1, "intent_id": intent_id, "seq": 0, "files": {}}


def _fold(index: Index, entry: dict[str, object]) -> None:
    files = index["files"]
    path, seq = entry.get("path"), entry.get("seq")
    if not isinstance(files, dict) or not isinstance(path, str) or type(seq) is not int:
        return
    files[path] = {key: value for key, value in entry.items() if key != "path"}
    if seq > index["seq"]:  # type: ignore[operator]
        index["seq"] = seq


def apply_record(indexes: dict[str, Index], record: Record) -> str | None:
    """Fold one ledger record into ``indexes`` (intent id -> index); the intent it touched."""
    found = entries(record)
    if found is None:
        return None
    intent_id, items = found
    index = indexes.get(intent_id)
    if index is None:
        index = indexes[intent_id] = _empty(intent_id)
    for entry in items:
        _fold(index, entry)
    return intent_id


def _header(data: bytes) -> dict[str, object] | None:
    """The header line at the start of ``data``, when it is ours."""
    try:
        header = json.loads(data.split(b"\n", 1)[0])
    except ValueError:
        return None
    if (
        not isinstance(header, dict)
        or header.get("v") != 1
        or not isinstance(header.get("intent_id"), str)
    ):
        return None
    return header


def _read(path: str) -> Index | None:
    """The folded index in ``path``; None when the file is missing or its header is not
    ours (it is then started afresh)."""
    try:
        data = read_regular(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    header = _header(data)
    if header is None:
        return None
    index = _empty(str(header["intent_id"]))
    for line in data.split(b"\n")[1:]:
        if not line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # a line torn by a crash: the ledger still has the record
        if isinstance(entry, dict):
            _fold(index, entry)
    return index


def _compacted(index: Index) -> bytes:
    """Header plus one line per path, oldest first. The header records its own file size,
    so an appender knows when the log has outgrown it without reading the entries."""
    files = index["files"]
    assert isinstance(files, dict)
    ordered = sorted(files.items(), key=lambda item: (item[1].get("seq", 0), item[0]))
    body = b"".join(_line({"path": path, **entry}) for path, entry in ordered)
    base = len(body)
    while True:  # the header's length depends on the number it holds
        header = _line({"v": 1, "intent_id": index["intent_id"], "size": base})
        if len(header) + len(body) == base:
            return header + body
        base = len(header) + len(body)


def _rewrite(path: str, index: Index) -> None:
    write_state_file(path, _compacted(index))


def _clear(directory: str) -> None:
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return
    for name in names:
        if name.endswith((SUFFIX, ".json")):
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                pass


def _write_meta(directory: str, base_seq: int) -> None:
    os.makedirs(directory, exist_ok=True)
    write_state_file(os.path.join(directory, META_NAME), _line({"v": 1, "base_seq": base_seq}))


def _append_entries(path: str, intent_id: str, items: list[dict[str, object]]) -> bool:
    """Append to an existing log of ``intent_id`` with one write, or compact it when it has
    grown past twice its compacted size (plus 4 KiB). False when there is no usable log.
    Only the header and the last byte are read."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | OPEN_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        return False
    try:
        size = os.fstat(fd).st_size
        header = _header(read_at(fd, 1024, 0)) if size else None
        base = header.get("size") if header is not None else None
        if header is None or header["intent_id"] != intent_id or type(base) is not int:
            return False
        data = b"".join(_line(entry) for entry in items)
        if size + len(data) <= 2 * base + COMPACT_SLACK:
            if read_at(fd, 1, size - 1) != b"\n":
                data = b"\n" + data  # after an entry torn by a crash, start a new line
            os.write(fd, data)
            return True
    finally:
        os.close(fd)
    index = _read(path)
    if index is None:
        return False
    for entry in items:
        _fold(index, entry)
    _rewrite(path, index)
    return True


def note_append(ledger: Ledger, record: Record, previous_seq: int) -> None:
    """Keep the index in step with one appended record (the caller holds the ledger lock)."""
    directory = index_dir(ledger)
    if previous_seq == 0:  # a new ledger: whatever was indexed belonged to an older one
        _clear(directory)
        _write_meta(directory, 0)
    found = entries(record)
    if found is None:
        return
    intent_id, items = found
    path = os.path.join(directory, safe_name(intent_id))
    if _append_entries(path, intent_id, items):
        return
    if not os.path.exists(os.path.join(directory, META_NAME)):
        _write_meta(directory, max(previous_seq, 0))  # older mutations are not in it
    index = _empty(intent_id)
    for entry in items:
        _fold(index, entry)
    _rewrite(path, index)


def index_status(ledger: Ledger) -> str:
    """``complete`` (built from the first record), ``partial`` (started later: older
    mutations are missing until :func:`rebuild_index`) or ``absent``."""
    try:
        meta = json.loads(read_regular(os.path.join(index_dir(ledger), META_NAME)))
    except (OSError, ValueError):
        return "absent"
    if isinstance(meta, dict) and meta.get("base_seq") == 0:
        return "complete"
    return "partial"


def load_index(ledger: Ledger, intent_id: str) -> Index | None:
    """The stored index of ``intent_id``, folded, or None."""
    index = _read(index_path(ledger, intent_id))
    if index is None or index["intent_id"] != intent_id:
        return None
    return index


def _scan(ledger: Ledger, indexes: dict[str, dict[str, object]], start: int) -> int:
    """Fold the records from byte ``start`` on; the offset after the last complete line."""
    end = start
    for offset, line, record in iter_records(ledger.path, start):
        end = offset + len(line) + 1
        if record is not None:
            apply_record(indexes, record)
    return end


def rebuild_index(ledger: Ledger) -> int:
    """Rebuild every intent's index from the ledger; the number of intents indexed.

    The full scan runs without the lock; the lock is held only to fold in what was appended
    meanwhile and to write the files, so the gate is not kept waiting.
    """
    indexes: dict[str, dict[str, object]] = {}
    scanned = _scan(ledger, indexes, 0)
    lock = FileLock(ledger.lock_path, timeout=ledger.lock_timeout)
    try:
        lock.acquire()
    except LockError as error:
        raise LedgerError(
            f"Cannot rebuild the intent index of {ledger.path}: {error.message}"
        ) from None
    try:
        try:
            size = os.stat(ledger.path).st_size
        except FileNotFoundError:
            size = 0
        if size < scanned:  # truncated or repaired meanwhile: start again, under the lock
            indexes = {}
            scanned = _scan(ledger, indexes, 0)
        else:
            scanned = _scan(ledger, indexes, scanned)
        directory = index_dir(ledger)
        try:
            _clear(directory)
            os.makedirs(directory, exist_ok=True)
            for intent_id, index in indexes.items():
                _rewrite(os.path.join(directory, safe_name(intent_id)), index)
            _write_meta(directory, 0)
        except OSError as error:
            reason = error.strerror or str(error)
            raise LedgerError(
                f"Cannot write the intent index under {directory}: {reason}."
            ) from None
    finally:
        lock.release()
    return len(indexes)


class TouchedFile:
    """One file an intent changed: the hash the ledger recorded and how the file is now.

    ``status``: ``unchanged`` (same sha256 now), ``changed``, ``deleted`` (missing now) or
    ``unknown`` (the ledger recorded no hash for it, and it exists).
    """

    __slots__ = ("path", "content_hash", "seq", "ts", "status")

    def __init__(
        self, path: str, content_hash: str | None, seq: int, ts: str | None, status: str
    ) -> None:
        self.path = path
        self.content_hash = content_hash
        self.seq = seq
        self.ts = ts
        self.status = status

    @property
    def changed(self) -> bool:
        """True unless the file is known to be as the ledger last recorded it."""
        return self.status != "unchanged"

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "content_hash": self.content_hash,
            "seq": self.seq,
            "ts": self.ts,
            "status": self.status,
            "changed": self.changed,
        }

    def __repr__(self) -> str:
        return f"TouchedFile({self.path!r}, {self.status}, seq={self.seq})"


def file_sha256(path: str) -> str | None:
    """``"sha256:<hex>"`` of a regular file's bytes; None when there is no regular file
    there. Raises OSError when it exists but cannot be read."""
    from paw_tui.core.support.hashing import hash_regular_file

    found = hash_regular_file(path)
    return found[0] if found is not None else None


def touched_files(
    ledger: Ledger,
    intent_id: str,
    limit: int | None = None,
    *,
    hasher: Callable[[str], str | None] = file_sha256,
) -> list[TouchedFile]:
    """The files ``intent_id`` changed according to its index, newest first; with ``limit``,
    only the newest ``limit`` of them are hashed and returned (a bounded context block).
    ``hasher`` hashes a file as :func:`file_sha256` does (a memo can skip unchanged ones)."""
    index = load_index(ledger, intent_id)
    if index is None:
        return []
    files = index["files"]
    assert isinstance(files, dict)

    def newest_first(item: tuple[str, dict[str, object]]) -> tuple[int, str]:
        seq = item[1].get("seq")
        return (-seq if type(seq) is int else 0, item[0])

    newest = sorted(
        ((path, entry) for path, entry in files.items() if isinstance(entry, dict)),
        key=newest_first,
    )
    result = []
    for path, entry in newest[:limit]:
        recorded = entry.get("content_hash")
        recorded = recorded if isinstance(recorded, str) else None
        seq = entry.get("seq")
        ts = entry.get("ts")
        try:
            current = hasher(os.path.join(ledger.workspace_root, path))
        except OSError:
            current = ""  # there but unreadable: whether it changed is unknown
        if current == "":
            status = "unknown"
        elif current is None:
            status = "deleted"
        elif recorded is None:
            status = "unknown"
        else:
            status = "unchanged" if current == recorded else "changed"
        result.append(
            TouchedFile(
                path,
                recorded,
                seq if type(seq) is int else 0,
                ts if isinstance(ts, str) else None,
                status,
            )
        )
    return result
