"""The ledger's head kept outside the workspace (DESIGN §7).

A hash chain cannot show that its last lines were cut off or rewritten, so the writer also
keeps ``{seq, hash, size, ts}`` of the last line it wrote in the user state directory
(:mod:`paw_tui.core.workspace.statedir`), where an agent confined to the workspace does not write.

``<name>.head`` holds two fixed 256-byte slots, each one line of space-padded JSON with a
generation number and a check value; a write goes, in place (``pwrite``), to the slot not
holding the newest generation (not the highest ``seq``: after a truncation the head must
be able to move back, the incident file keeping the evidence).
A write torn by a crash spoils only that slot and the reader falls back to the other one,
so no rename is needed: on ext4 a rename over an existing file flushes the new file's data
first, which measured 1.4 ms, more than the rest of an append together.

``<name>.incidents.jsonl`` is append-only: one line each time a writer found the ledger
behind or disagreeing with the head (``truncated``, ``rewritten``) or the head unreadable
(``head_unreadable``). ``verify`` reports them even after the file has grown past them.
"""

from __future__ import annotations

import os

from paw_tui.core.ledger.io import OPEN_FLAGS, LedgerError, os_reason, read_at, write_at
from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)
from paw_tui.core.support.hashing import sha256_hex

SLOT = 256
SLOTS = 2
MAX_INCIDENT_BYTES = 256 * 1024


def _check(gen: int, seq: int, digest: str, size: int, ts: str) -> str:
    return sha256_hex(f"{gen}|{seq}|{digest}|{size}|{ts}".encode("utf-8"))[:16]


def encode_slot(gen: int, seq: int, digest: str, size: int, ts: str) -> bytes:
    check = _check(gen, seq, digest, size, ts)
    text = json.dumps(
        {"gen": gen, "seq": seq, "hash": digest, "size": size, "ts": ts, "check": check},
        separators=(",", ":"),
    ).encode("ascii")
    if len(text) >= SLOT:  # pragma: no cover - a hash, a timestamp and two integers
        raise ValueError("ledger head too long for its slot")
    return text.ljust(SLOT - 1) + b"\n"


def decode_slot(raw: bytes) -> dict[str, object] | None:
    """The head in one slot, or None when the slot is empty, torn or altered."""
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    gen, seq, size = value.get("gen"), value.get("seq"), value.get("size")
    digest, ts = value.get("hash"), value.get("ts")
    if type(gen) is not int or type(seq) is not int or type(size) is not int:
        return None
    if not isinstance(digest, str) or not isinstance(ts, str):
        return None
    if value.get("check") != _check(gen, seq, digest, size, ts):
        return None
    return {"gen": gen, "seq": seq, "hash": digest, "size": size, "ts": ts}


MEMO_SLOTS = 8
_UNKNOWN: dict[str, object] = {}  # a sentinel only its identity is compared with


class HeadStore:
    """The head and incident files of one ledger, in ``directory``.

    Slots this object wrote or decoded are remembered by their exact bytes (a few of them),
    so a writer appending again and again does not parse the two slots it wrote itself.
    """

    __slots__ = ("path", "incidents_path", "_memo")

    def __init__(self, directory: str, name: str) -> None:
        self.path = os.path.join(directory, name + ".head")
        self.incidents_path = os.path.join(directory, name + ".incidents.jsonl")
        self._memo: dict[bytes, dict[str, object] | None] = {}

    def _decode(self, raw: bytes) -> dict[str, object] | None:
        head = self._memo.get(raw, _UNKNOWN)  # one lookup: another thread may clear the memo
        if head is _UNKNOWN:
            head = decode_slot(raw)
            self._remember(raw, head)
        return dict(head) if isinstance(head, dict) else None

    def _remember(self, raw: bytes, head: dict[str, object] | None) -> None:
        memo = self._memo
        if len(memo) >= MEMO_SLOTS:  # keep the newest, which the file's two slots hold
            memo = self._memo = dict(list(memo.items())[-SLOTS:])
        memo[raw] = head

    def read(self) -> tuple[dict[str, object] | None, int]:
        """The newest valid head (None when there is none yet) and the slot to write next.

        Raises :class:`LedgerError` when the file holds bytes but no valid slot.
        """
        try:
            fd = os.open(self.path, os.O_RDONLY | OPEN_FLAGS)
        except FileNotFoundError:
            return None, 0
        except OSError as error:
            raise LedgerError(
                f"The ledger head {self.path} is unreadable: {os_reason(error)}."
            ) from None
        try:
            data = read_at(fd, SLOT * SLOTS, 0)
        except OSError as error:
            raise LedgerError(
                f"The ledger head {self.path} is unreadable: {os_reason(error)}."
            ) from None
        finally:
            os.close(fd)
        best, best_slot = None, -1
        for slot in range(SLOTS):
            head = self._decode(data[slot * SLOT : (slot + 1) * SLOT])
            if head is None:
                continue
            if best is None or head["gen"] > best["gen"]:  # type: ignore[operator]
                best, best_slot = head, slot
        if best is None:
            if not data.strip():
                return None, 0  # created, never written: a crash right after the first open
            raise LedgerError(
                f"The ledger head {self.path} is unreadable: no slot holds a valid head."
            )
        return best, (best_slot + 1) % SLOTS

    def write(self, slot: int, gen: int, seq: int, digest: str, size: int, ts: str) -> None:
        """Write generation ``gen`` (the newest read plus one) into ``slot``."""
        data = encode_slot(gen, seq, digest, size, ts)
        self._remember(data, {"gen": gen, "seq": seq, "hash": digest, "size": size, "ts": ts})
        flags = os.O_RDWR | os.O_CREAT | OPEN_FLAGS
        try:
            fd = os.open(self.path, flags, 0o600)
        except FileNotFoundError:
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
            fd = os.open(self.path, flags, 0o600)
        try:
            write_at(fd, data, slot * SLOT)
        finally:
            os.close(fd)

    def add_incident(self, incident: dict[str, object]) -> None:
        line = (
            json.dumps(incident, separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"
        )
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | OPEN_FLAGS
        try:
            fd = os.open(self.incidents_path, flags, 0o600)
        except FileNotFoundError:
            os.makedirs(os.path.dirname(self.incidents_path), mode=0o700, exist_ok=True)
            fd = os.open(self.incidents_path, flags, 0o600)
        try:
            os.write(fd, line)
        finally:
            os.close(fd)

    def incidents(self) -> list[dict[str, object]]:
        """The incidents recorded so far, oldest first (the first 256 KiB of them)."""
        try:
            with open(self.incidents_path, "rb") as handle:
                data = handle.read(MAX_INCIDENT_BYTES)
        except FileNotFoundError:
            return []
        except OSError as error:
            raise LedgerError(
                f"The ledger incidents {self.incidents_path} are unreadable: {os_reason(error)}."
            ) from None
        found = []
        for line in data.splitlines():
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                found.append(value)
        return found
