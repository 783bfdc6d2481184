"""The audit ledger: ``.orchestration/agent_trace.jsonl`` (DESIGN §7).

One JSON object per line, hash-chained: every line's ``prev`` is ``"sha256:" + hex`` of the
previous line's bytes (without its ``"\\n"``), the first line's is the hash of the empty
string, and ``seq`` counts 1, 2, 3... without gaps.

:meth:`Ledger.append` queues its record; the records that threads of this process queue at
once are written as one batch by one of them (group commit, :mod:`~paw_tui.core.ledger.group`),
and each call returns only when its own record is written and synced. A batch is written
under one inter-process lock (``.orchestration/.cache/agent_trace.jsonl.lock``):

1. it reads only the end of the file (one 4 KiB ``pread`` as a rule) to find the last
   complete line, its ``seq`` and its hash. There is no head cache inside the workspace:
   any cache would need this same read before it could be trusted (when those bytes are
   exactly the line this process wrote last, their ``seq``, hash and mac are not parsed
   again);
2. a torn last line (no ``"\\n"``: a writer died mid-write) is moved aside to
   ``agent_trace.jsonl.torn-<ts>``, the file is truncated to its last complete line and a
   ``ledger_repaired`` record is appended;
3. the file is compared with the head kept outside the workspace
   (:mod:`~paw_tui.core.ledger.head`); a file behind or disagreeing with it is recorded
   there as an incident, which ``verify`` keeps reporting (otherwise the next append would
   hide a truncation by simply moving the head on);
4. the batch's records, each a whole line, are written by one ``os.write`` on an
   ``O_APPEND`` descriptor and, with ``durable=True`` (the default), ``fdatasync``-ed once:
   the gate allows a tool only once its decision is recorded, so the record must outlive a
   power cut as well as a crash (~0.2-0.5 ms a sync here, shared by the batch). The
   per-intent index and the head are written afterwards without a sync: after a power cut
   they can lag the ledger (``verify`` says ``behind``), never run ahead of it, which would
   look like a truncation;
5. for each ``mutation``, the per-intent index (:mod:`~paw_tui.core.ledger.touched`) is
   updated, and then the head, once for the batch.

Any failure raises :class:`LedgerError` with one sentence naming the file and the reason;
the gate turns it into a deny. A failure to update the head or the index after the record
is written does not: the record is in, so the decision stands; it is kept in ``warnings``.

Readers never take the lock and never load the whole file to show its end: :meth:`tail`
and :meth:`recent_for_intent` read backwards in blocks under a byte budget and report a
torn last line instead of failing. Verification, export and the index are in their own
modules, imported only when used.
"""

from __future__ import annotations

import os
import stat
import time

from paw_tui.core.ledger.group import Pending, fail, group_for
from paw_tui.core.ledger.head import HeadStore
from paw_tui.core.ledger.io import (
    DEFAULT_INTENT_BYTES,
    DEFAULT_TAIL_BYTES,
    EMPTY_HASH,
    OPEN_FLAGS,
    Backwards,
    LedgerError,
    LedgerFiles,
    format_ts,
    line_hash,
    loads_record,
    os_reason,
)
from paw_tui.core.ledger.records import (
    LEDGER_REPAIRED,
    LEDGER_VERSION,
    MUTATION,
    Record,
    caller_fields,
    encode_record,
    sign_line,
    split_mac,
)
from paw_tui.core.support.locking import FileLock, LockError, LockTimeout
from paw_tui.core.workspace import layout, statedir
from paw_tui.core.workspace.machine_state import machine_dir
from paw_tui.core.workspace.secret import load_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from typing import Any

    from paw_tui.core.ledger.read import TailResult
    from paw_tui.core.support.keyed import Mac

APPEND_BLOCK = 4096
_HEADS: dict[tuple[str, str, str], HeadStore] = {}
_LAST_WRITTEN: dict[str, tuple[bytes, int, str, str]] = {}
"""Per ledger path, the last line this process wrote with its seq, hash and mac: when the
file still ends with exactly those bytes, the next append need not parse them again."""
_datasync = getattr(os, "fdatasync", os.fsync)


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def sync_file(path: str, identity: tuple[int, int]) -> None:
    """Make the records written to the ledger file ``identity`` (device, inode) at ``path``
    durable; LedgerError when ``path`` is no longer that file (its records could not be
    vouched for) or the sync fails."""
    try:
        fd = os.open(path, os.O_RDONLY | OPEN_FLAGS)
    except OSError as error:
        raise LedgerError(f"Cannot sync the audit ledger {path}: {os_reason(error)}.") from None
    try:
        if _identity(fd) != identity:
            raise LedgerError(
                f"Cannot sync the audit ledger {path}: it was replaced after records were written."
            )
        _datasync(fd)
    except OSError as error:
        raise LedgerError(f"Cannot sync the audit ledger {path}: {os_reason(error)}.") from None
    finally:
        os.close(fd)


def _note_failure(ledger: Ledger, error: BaseException, event: object) -> None:
    """Leave the mark of a failed append in the state directory, for ``doctor`` and the
    TUI's banner (:mod:`~paw_tui.core.ledger.health`); only a failure pays for it."""
    from paw_tui.core.ledger.failures import failure_path, note_failure

    try:
        path = failure_path(ledger.head_path, ledger.path)
    except OSError:  # no state directory to be found: nowhere to leave it
        return
    note_failure(path, format_ts(ledger.clock()), str(error), event)


class Ledger(LedgerFiles):
    """The ledger at ``path`` for the workspace at ``workspace_root``.

    ``state_dir`` is the base of the state kept outside the workspace, as ``PAW_STATE_DIR``
    is (by default that variable, else the platform's user state directory). Constructing a
    ledger does no I/O.
    """

    __slots__ = ("state_base", "clock", "durable", "warnings", "unsynced", "_heads", "_mac")

    def __init__(
        self,
        path: str,
        *,
        workspace_root: str,
        state_dir: str | None = None,
        lock_timeout: float = 5.0,
        clock: Callable[[], float] = time.time,
        durable: bool = True,
        signer: Mac | None = None,
    ) -> None:
        super().__init__(path, workspace_root=workspace_root, lock_timeout=lock_timeout)
        self.state_base = state_dir
        self.clock = clock
        self.durable = durable
        self.warnings: list[str] = []  # what went wrong after a record was written
        self.unsynced: tuple[int, int] | None = None
        """Not durable: the file (device, inode) this ledger's records were last written to
        and not synced; whoever made it non-durable syncs that file (:func:`sync_file`)
        before anyone acts on those records."""
        self._heads: HeadStore | None = None
        self._mac: Mac | None = signer

    @property
    def signer(self) -> Mac:
        """The workspace's signing key (created on first use); LedgerError when it cannot
        be had: a record that cannot be signed is not written."""
        if self._mac is None:
            try:
                self._mac = load_key(self.workspace_root, create=True, state_base=self.state_base)
            except OSError as error:
                raise LedgerError(
                    f"Cannot append to the audit ledger {self.path}: its signing key cannot be "
                    f"read or made ({os_reason(error)})."
                ) from None
            assert self._mac is not None
        return self._mac

    @classmethod
    def for_workspace(cls, workspace_root: str, **options: Any) -> Ledger:
        """The workspace's ``.orchestration/agent_trace.jsonl`` (``options`` as for the class)."""
        return cls(
            layout.at(workspace_root, layout.LEDGER), workspace_root=workspace_root, **options
        )

    def __repr__(self) -> str:
        return f"Ledger({self.path!r}, workspace_root={self.workspace_root!r})"

    # -- the head kept outside the workspace -------------------------------------------------

    @property
    def heads(self) -> HeadStore:
        """The head and incident files (OSError when no home directory can be found).

        One :class:`HeadStore` per workspace, state base and ledger name in the process:
        the workspace's key (its real path hashed) is resolved once, not on every append."""
        if self._heads is None:
            base = self.state_base if self.state_base is not None else statedir.state_base_dir()
            key = (self.workspace_root, base, os.path.basename(self.path))
            heads = _HEADS.get(key)
            if heads is None:
                directory = statedir.workspace_state_dir(self.workspace_root, base=base)
                heads = _HEADS[key] = HeadStore(directory, key[2])
            self._heads = heads
        return self._heads

    @property
    def head_path(self) -> str:
        return self.heads.path

    def saved_head(self) -> dict[str, object] | None:
        """``{seq, hash, size, ts, incidents}`` kept outside the workspace, or None.

        Raises :class:`LedgerError` when it exists but cannot be read.
        """
        heads = self.heads
        head, _slot = heads.read()
        incidents = heads.incidents()
        if head is None and not incidents:
            return None
        result = dict(head) if head is not None else {"seq": 0, "hash": EMPTY_HASH, "size": 0}
        result["incidents"] = incidents
        return result

    def _check_head(
        self, head: dict[str, object], fd: int, size: int, seq: int, last: str
    ) -> str | None:
        """``truncated`` or ``rewritten`` when the file is behind or disagrees with ``head``."""
        head_seq, head_hash, head_size = head["seq"], head["hash"], head["size"]
        assert type(head_seq) is int and type(head_size) is int
        if seq < head_seq:
            return "truncated"
        if seq == head_seq:
            return None if last == head_hash else "rewritten"
        if head_seq == 0:
            return None
        if not 0 < head_size <= size:
            return "rewritten"
        # The file went on past the head: the line ending at head_size must be the head's.
        pieces = Backwards(fd, head_size, APPEND_BLOCK).pieces()
        after = next(pieces, (0, b"?"))[1]
        line = next(pieces, (0, b""))[1]
        return None if after == b"" and line_hash(line) == head_hash else "rewritten"

    # -- appending ---------------------------------------------------------------------------

    def append(self, record: Mapping[str, object]) -> Record:
        """Append one record; return it as written (with ``v``, ``seq``, ``ts``, ``prev``).

        ``record`` needs ``event``; ``v``, ``seq``, ``ts`` and ``prev`` are the ledger's.
        Keys whose value is None or empty are left out; unknown keys follow the known ones.
        It returns once the record is in the file and, when ``durable``, synced to disk;
        threads appending at once share one lock and one sync (see :class:`_Group`).
        """
        try:
            fields = caller_fields(record)
        except ValueError as error:
            raise LedgerError(f"Cannot append to the audit ledger {self.path}: {error}.") from None
        try:  # a record that cannot be signed is refused before anything is touched
            signer = self.signer
        except LedgerError as error:
            _note_failure(self, error, fields.get("event"))
            raise
        pending = Pending(self, fields)
        group = group_for(self._batch_key(signer.key_id))
        if group.enqueue(pending):
            group.lead(self._commit)
        else:
            group.wait(pending, self._commit)  # until its batch is written, or it leads one
        if pending.error is not None:
            _note_failure(self, pending.error, fields.get("event"))
            raise pending.error
        assert pending.result is not None
        return pending.result

    def _batch_key(self, key_id: str) -> tuple[object, ...]:
        """What two ledgers must share for their records to be written in one batch (the
        head's place follows from the root, ``state_base`` and the process's environment)."""
        return (
            self.path, self.workspace_root, self.state_base, key_id, self.clock, self.durable,
            self.lock_timeout,
        )  # fmt: skip

    def _commit(self, take: Callable[[], list[Pending]]) -> None:
        """Take the lock, then the batch (``take``), and write it with one write and one
        sync; every entry ends with its ``result`` or its ``error``; warnings about the
        batch reach every caller in it."""
        seen = len(self.warnings)
        batch: list[Pending] = []
        try:
            batch = self._commit_locked(take)
        finally:
            news = self.warnings[seen:]
            if news:
                for owner in {id(p.owner): p.owner for p in batch if p.owner is not self}.values():
                    assert isinstance(owner, Ledger)
                    owner.warnings.extend(news)

    def _commit_locked(self, take: Callable[[], list[Pending]]) -> list[Pending]:
        if self.path == layout.at(self.workspace_root, layout.LEDGER):
            try:
                machine_dir(self.workspace_root, layout.CACHE)  # the lock's; git-ignored
            except OSError:
                pass  # taking the lock says why, below
        lock = FileLock(self.lock_path, timeout=self.lock_timeout)
        try:
            lock.acquire()
        except LockTimeout:
            batch = take()
            fail(batch, LedgerError(
                f"Cannot append to the audit ledger {self.path}: the lock {self.lock_path} "
                f"could not be taken within {self.lock_timeout:g} s."
            ))  # fmt: skip
            return batch
        except LockError as error:
            batch = take()
            fail(batch, LedgerError(
                f"Cannot append to the audit ledger {self.path}: {error.message}"
            ))  # fmt: skip
            return batch
        batch = take()
        try:
            self._append_locked(batch)
        except LedgerError as error:
            fail(batch, error)
        except OSError as error:
            # Windows reports a directory opened for writing as "Permission denied".
            reason = "it is a directory" if os.path.isdir(self.path) else os_reason(error)
            fail(batch, LedgerError(f"Cannot append to the audit ledger {self.path}: {reason}."))
        finally:
            lock.release()
        return batch

    def _open_for_append(self) -> tuple[int, int]:
        """The ledger open for appending, and its size."""
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | OPEN_FLAGS
        try:
            fd = os.open(self.path, flags, 0o644)
        except FileNotFoundError:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            fd = os.open(self.path, flags, 0o644)
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise LedgerError(
                f"Cannot append to the audit ledger {self.path}: it is not a regular file."
            )
        return fd, info.st_size

    def _append_locked(self, batch: list[Pending]) -> None:
        head, slot, incident = self._head_for_append()
        fd, size = self._open_for_append()
        try:
            pieces = Backwards(fd, size, APPEND_BLOCK).pieces()
            torn_offset, torn = next(pieces)
            last_line = next(pieces, None) if size else None
            seq, last, last_mac = 0, EMPTY_HASH, ""
            known = _LAST_WRITTEN.get(self.path)
            if last_line is not None and known is not None and known[0] == last_line[1]:
                seq, last, last_mac = known[1], known[2], known[3]
            elif last_line is not None:
                previous = loads_record(last_line[1])
                value = previous.get("seq") if previous is not None else None
                if type(value) is not int:
                    raise LedgerError(
                        f"Cannot append to the audit ledger {self.path}: its last complete line "
                        "is not a ledger record (run 'paw-tui trace verify')."
                    )
                seq, last = value, line_hash(last_line[1])
                signed = split_mac(last_line[1])
                last_mac = signed[1] if signed is not None else ""
            first_seq = seq
            complete = torn_offset if torn else size
            if head is not None:
                incident = self._check_head(head, fd, complete, seq, last) or incident
            now = self.clock()
            ts = format_ts(now)
            if torn:
                size, seq, last, last_mac = self._repair(
                    fd, torn_offset, torn, now, ts, seq, last, last_mac
                )
            start_seq = seq
            lines: list[bytes] = []
            written: list[tuple[Pending, Record]] = []
            for pending in batch:
                try:
                    record, line, last_mac = self._sign(pending.fields, seq + 1, ts, last, last_mac)
                except LedgerError as error:
                    pending.error = error  # this record alone: the others go on
                    continue
                seq, last = seq + 1, line_hash(line)
                lines.append(line)
                written.append((pending, record))
            if lines:
                size = self._write(fd, b"\n".join(lines) + b"\n", size)
                _LAST_WRITTEN[self.path] = (lines[-1], seq, last, last_mac)
            identity = None if self.durable else _identity(fd)
            for previous_seq, (pending, record) in enumerate(written, start_seq):
                pending.result = record
                if identity is not None:
                    owner = pending.owner
                    assert isinstance(owner, Ledger)
                    owner.unsynced = identity
                if record.get("event") == MUTATION or previous_seq == 0:
                    owner = pending.owner
                    assert isinstance(owner, Ledger)
                    owner._note_index(record, previous_seq)
        finally:
            os.close(fd)
        if seq != first_seq or incident is not None:
            self._after_write(head, slot, incident, seq, last, size, ts, first_seq)

    def _head_for_append(self) -> tuple[dict[str, object] | None, int, str | None]:
        """The saved head, the slot to write next, and an incident when it is unreadable
        (the head is then written afresh: refusing every append over a file outside the
        workspace would stop all work, and the incident keeps the evidence)."""
        try:
            head, slot = self.heads.read()
        except (LedgerError, OSError) as error:
            self.warnings.append(str(error))
            return None, 0, "head_unreadable"
        return head, slot, None

    def _after_write(
        self,
        head: dict[str, object] | None,
        slot: int,
        incident: str | None,
        seq: int,
        last: str,
        size: int,
        ts: str,
        first_seq: int,
    ) -> None:
        try:
            heads = self.heads
            if incident is not None:
                heads.add_incident({
                    "kind": incident, "detected_ts": ts, "ledger": self.path,
                    "head_seq": head["seq"] if head else None,
                    "head_hash": head["hash"] if head else None,
                    "file_seq": first_seq,
                })  # fmt: skip
            generation = head["gen"] if head is not None else 0
            heads.write(slot, generation + 1, seq, last, size, ts)  # type: ignore[operator]
        except OSError as error:
            self.warnings.append(
                f"The ledger head for {self.path} was not updated: {os_reason(error)}."
            )

    def _sign(
        self, fields: Mapping[str, object], seq: int, ts: str, prev: str, prev_mac: str
    ) -> tuple[Record, bytes, str]:
        """The record with ``seq``, ``ts``, ``prev`` and ``mac``, its line, and its mac."""
        record: Record = {"v": LEDGER_VERSION, "seq": seq, "ts": ts}
        record.update(fields)
        record["prev"] = prev
        try:
            body = encode_record(record)
        except ValueError as error:
            raise LedgerError(f"Cannot append to the audit ledger {self.path}: {error}.") from None
        line, mac = sign_line(body, prev_mac, self.signer)
        record["mac"] = mac
        return record, line, mac

    def _write(self, fd: int, data: bytes, size: int) -> int:
        """Append ``data`` (whole lines) with one write, synced when durable; the new size."""
        written = os.write(fd, data)
        if written != len(data):
            try:  # leave no torn line behind when that can be helped
                os.ftruncate(fd, size)
            except OSError:
                pass
            raise LedgerError(
                f"Cannot append to the audit ledger {self.path}: only {written} of "
                f"{len(data)} bytes could be written (is the disk full?)."
            )
        if self.durable:
            _datasync(fd)
        return size + len(data)

    def _repair(
        self,
        fd: int,
        offset: int,
        torn: bytes,
        now: float,
        ts: str,
        seq: int,
        last: str,
        last_mac: str,
    ) -> tuple[int, int, str, str]:
        """Move a torn last line aside, truncate, and record ``ledger_repaired``."""
        stamp = (
            time.strftime("%Y%m%dT%H%M%S", time.gmtime(int(now))) + f"{int(now * 1000) % 1000:03d}Z"
        )
        base = f"{self.path}.torn-{stamp}"
        aside, counter = base, 1
        while True:
            try:
                out = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL | OPEN_FLAGS, 0o644)
                break
            except FileExistsError:
                counter += 1
                aside = f"{base}-{counter}"
        try:
            view = memoryview(torn)
            while view:
                view = view[os.write(out, view) :]
            os.fsync(out)
        finally:
            os.close(out)
        os.ftruncate(fd, offset)
        name = os.path.basename(aside)
        fields = {
            "event": LEDGER_REPAIRED,
            "reason": f"moved {len(torn)} torn bytes at offset {offset} to {name}",
            "torn_bytes": len(torn), "torn_file": name, "torn_offset": offset,
        }  # fmt: skip
        record, line, mac = self._sign(fields, seq + 1, ts, last, last_mac)
        size = self._write(fd, line + b"\n", offset)
        if seq == 0:
            self._note_index(record, 0)
        return size, seq + 1, line_hash(line), mac

    def _note_index(self, record: Record, previous_seq: int) -> None:
        from paw_tui.core.ledger import touched

        try:
            touched.note_append(self, record, previous_seq)
        except (OSError, ValueError) as error:
            self.warnings.append(
                f"The intent index under {self.cache_dir} was not updated: {error}."
            )

    # -- reading (paw_tui.core.ledger.read) -------------------------------------------------

    def tail(
        self,
        n: int = 20,
        *,
        predicate: Callable[[Record], bool] | None = None,
        max_bytes: int = DEFAULT_TAIL_BYTES,
    ) -> TailResult:
        """The last ``n`` records (those matching ``predicate``), oldest first, reading at
        most ``max_bytes`` from the end. Lines that are not JSON objects are skipped."""
        from paw_tui.core.ledger.read import tail

        return tail(self.path, n, predicate=predicate, max_bytes=max_bytes)

    def recent_for_intent(
        self, intent_id: str, limit: int = 20, *, max_bytes: int = DEFAULT_INTENT_BYTES
    ) -> TailResult:
        """The latest ``limit`` records of ``intent_id`` found in the last ``max_bytes``."""
        from paw_tui.core.ledger.read import recent_for_intent

        return recent_for_intent(self.path, intent_id, limit, max_bytes=max_bytes)

    def iter_lines(self, start: int = 0) -> Iterator[tuple[int, bytes]]:
        """Every complete line from byte ``start`` on, as ``(offset, bytes without "\\n")``,
        read forwards in 1 MiB blocks; a torn last line is not yielded."""
        from paw_tui.core.ledger.read import iter_lines

        return iter_lines(self.path, start)

    def iter_records(self, start: int = 0) -> Iterator[tuple[int, bytes, Record | None]]:
        """:meth:`iter_lines` with each line parsed (None when it is not a JSON object)."""
        from paw_tui.core.ledger.read import iter_records

        return iter_records(self.path, start)
