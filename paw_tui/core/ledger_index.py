"""The per-intent index of touched files: ``.orchestration/.cache/intents/<safe id>.json``.

Each file holds ``{"v": 1, "intent_id": ..., "seq": <last mutation applied>, "files":
{path: {"content_hash", "seq", "ts"}}}``: for every path a ``mutation`` record of the intent
named, the latest record's sequence number, time and (when the record names exactly one
path, so the hash is that file's) the whole-file ``content_hash``.

The ledger writer updates it under the ledger lock after each ``mutation`` append
(:func:`note_append`); :func:`rebuild_index` rebuilds every file from the ledger and gives
the same result. The index is machine-owned and can lag the ledger (a crash between the two
writes, a deleted ``.cache``): ``_index.json`` says from which ``seq`` on it is complete
(``base_seq`` 0 means from the start), and :func:`index_status` reports it so a caller that
can afford a full scan (the TUI, ``trace`` commands) knows when to rebuild.
"""

from __future__ import annotations

import json
import os

from paw_tui.core.ledger import EVENT_MUTATION
from paw_tui.core.ledger_io import LedgerError, sha256_hex, write_state_file
from paw_tui.core.locking import FileLock, LockError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from paw_tui.core.ledger import Ledger, Record

INDEX_DIRNAME = "intents"
META_NAME = "_index.json"
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
_NAME_CHARS = 64


def index_dir(ledger: Ledger) -> str:
    return os.path.join(ledger.cache_dir, INDEX_DIRNAME)


def safe_name(intent_id: str) -> str:
    """A file name for ``intent_id``: readable, and unique even where names ignore case or
    forbid ``:`` (a short hash of the exact id follows the sanitised id)."""
    readable = "".join(ch if ch in _SAFE else "_" for ch in intent_id[:_NAME_CHARS])
    digest = sha256_hex(intent_id.encode("utf-8", "surrogatepass"))[:12]
    return f"{readable.lstrip('.') or '_'}-{digest}.json"


def index_path(ledger: Ledger, intent_id: str) -> str:
    return os.path.join(index_dir(ledger), safe_name(intent_id))


def _dump(data: dict[str, object]) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8", "surrogatepass"
    )


def _empty(intent_id: str) -> dict[str, object]:
    return {"v": 1, "intent_id": intent_id, "seq": 0, "files": {}}


def apply_record(indexes: dict[str, dict[str, object]], record: Record) -> str | None:
    """Fold one ledger record into ``indexes`` (intent id -> index); the intent it touched."""
    if record.get("event") != EVENT_MUTATION:
        return None
    intent_id, seq = record.get("intent_id"), record.get("seq")
    paths = record.get("paths")
    if not isinstance(intent_id, str) or not intent_id or type(seq) is not int:
        return None
    if not isinstance(paths, list):
        return None
    index = indexes.get(intent_id)
    if index is None:
        index = indexes[intent_id] = _empty(intent_id)
    files = index["files"]
    assert isinstance(files, dict)
    content_hash = record.get("content_hash") if len(paths) == 1 else None
    for path in paths:
        if not isinstance(path, str):
            continue
        entry: dict[str, object] = {"seq": seq}
        if isinstance(record.get("ts"), str):
            entry["ts"] = record["ts"]
        if isinstance(content_hash, str):
            entry["content_hash"] = content_hash
        files[path] = entry
    index["seq"] = seq
    return intent_id


def _load(path: str) -> dict[str, object] | None:
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return None  # a broken index entry is rebuilt from this record on
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        return None
    return data


def _clear(directory: str) -> None:
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return
    for name in names:
        if name.endswith(".json"):
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                pass


def note_append(ledger: Ledger, record: Record, previous_seq: int) -> None:
    """Keep the index in step with one appended record (the caller holds the ledger lock)."""
    directory = index_dir(ledger)
    meta = os.path.join(directory, META_NAME)
    if previous_seq == 0:  # a new ledger: whatever was indexed belonged to an older one
        _clear(directory)
        os.makedirs(directory, exist_ok=True)
        write_state_file(meta, _dump({"v": 1, "base_seq": 0}))
    intent_id = record.get("intent_id")
    if record.get("event") != EVENT_MUTATION or not isinstance(intent_id, str) or not intent_id:
        return
    path = os.path.join(directory, safe_name(intent_id))
    index = _load(path)
    if index is None:
        if not os.path.exists(meta):  # indexing starts now: older mutations are not in it
            os.makedirs(directory, exist_ok=True)
            seq = record.get("seq")
            write_state_file(meta, _dump({"v": 1, "base_seq": max(int(seq) - 1, 0) if type(seq) is int else 0}))
        index = _empty(intent_id)
    indexes = {intent_id: index}
    apply_record(indexes, record)
    os.makedirs(directory, exist_ok=True)
    write_state_file(path, _dump(indexes[intent_id]))


def index_status(ledger: Ledger) -> str:
    """``complete`` (built from the first record), ``partial`` (started later: older
    mutations are missing until :func:`rebuild_index`) or ``absent``."""
    try:
        with open(os.path.join(index_dir(ledger), META_NAME), "rb") as handle:
            meta = json.loads(handle.read())
    except (OSError, ValueError):
        return "absent"
    if isinstance(meta, dict) and meta.get("base_seq") == 0:
        return "complete"
    return "partial"


def load_index(ledger: Ledger, intent_id: str) -> dict[str, object] | None:
    """The stored index of ``intent_id``, or None."""
    return _load(index_path(ledger, intent_id))


def _scan(ledger: Ledger, indexes: dict[str, dict[str, object]], start: int) -> int:
    """Fold the records from byte ``start`` on; the offset after the last complete line."""
    end = start
    for offset, line, record in ledger.iter_records(start):
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
        raise LedgerError(f"Cannot rebuild the intent index of {ledger.path}: {error.message}") from None
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
                write_state_file(os.path.join(directory, safe_name(intent_id)), _dump(index))
            write_state_file(os.path.join(directory, META_NAME), _dump({"v": 1, "base_seq": 0}))
        except OSError as error:
            reason = error.strerror or str(error)
            raise LedgerError(f"Cannot write the intent index under {directory}: {reason}.") from None
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
        return {"path": self.path, "content_hash": self.content_hash, "seq": self.seq,
                "ts": self.ts, "status": self.status}  # fmt: skip

    def __repr__(self) -> str:
        return f"TouchedFile({self.path!r}, {self.status}, seq={self.seq})"


def file_sha256(path: str) -> str | None:
    """``"sha256:<hex>"`` of a regular file's bytes; None when there is no regular file
    there. Raises OSError when it exists but cannot be read."""
    import hashlib

    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as handle:
            return "sha256:" + hashlib.file_digest(handle, "sha256").hexdigest()
    except FileNotFoundError:
        return None


def touched_files(ledger: Ledger, intent_id: str) -> list[TouchedFile]:
    """The files ``intent_id`` changed according to its index, newest first."""
    index = load_index(ledger, intent_id)
    if index is None:
        return []
    files = index["files"]
    assert isinstance(files, dict)
    result = []
    for path, entry in files.items():
        if not isinstance(entry, dict):
            continue
        recorded = entry.get("content_hash")
        recorded = recorded if isinstance(recorded, str) else None
        seq = entry.get("seq")
        ts = entry.get("ts")
        try:
            current = file_sha256(os.path.join(ledger.workspace_root, path))
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
            TouchedFile(path, recorded, seq if type(seq) is int else 0, ts if isinstance(ts, str) else None, status)
        )
    result.sort(key=lambda item: (-item.seq, item.path))
    return result
