"""The layout of the policy cache (``policy.json`` in the workspace's state directory):
one intent read without the others.

A gate call needs the governance options, the protected patterns and at most the held
intent; only a denial before a selection lists the selectable intents (ids, names). So the
file, one JSON document, is laid out to be read in parts::

    {"layout":"paw-tui policy cache 2 <header end> <index end> <key id>:<mac>",
     "header":{...},"index":"<one line per intent>","intents":[
    {<intent 0 with its compiled "scope">},
    ...
    ]}

The ``layout`` string has a fixed width, so one read finds the header's and the index's byte
ranges. The header (format, key, governance, problems, compiled protected patterns, the
index's SHA-256 and the intent count) is MAC'd with the workspace key, as raw bytes. The index
holds one line per intent, ``,<id> <status> <start> <length> <record digest> <name in hex>
<line MAC>``: characters JSON never escapes, so it is searched as raw bytes. Looking up one
intent checks that line's own MAC (bound to the policy key); listing them all checks the
index's hash once. A record is trusted once its hash matches its line, and only the records a
call needs are read. An edited byte anywhere therefore fails a check, and the caller
rebuilds from the YAML (never widens).
"""

from __future__ import annotations

import os

from paw_tui.core.support import fastjson as json  # json's API without importing re (~15 ms)
from paw_tui.core.support.hashing import sha256
from paw_tui.core.support.keyed import same
from paw_tui.core.support.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import BinaryIO

    from paw_tui.core.support.keyed import Mac

TAG = "paw-tui policy cache 2"
_DOMAIN = TAG.encode() + b"\0"  # a MAC made for this file means nothing elsewhere
_LINE_DOMAIN = TAG.encode() + b" index line\0"
_WIDTH = 10  # digits of each byte position in the layout string
_PREFIX = b'{"layout":"'
_HEADER_KEY = b'","header":'
_INDEX_KEY = b',"index":'
_RECORDS_OPEN = b',"intents":[\n'
_RECORDS_SEPARATOR = b",\n"
_RECORDS_CLOSE = b"\n]}\n"
DIGEST_CHARS = 32
"""Hex digits of a record's SHA-256 kept in the index (128 bits; the index is MAC'd)."""
FIRST_READ = 16384


class CacheError(Exception):
    """The cache does not match what its signed parts say: rebuild it from the YAML."""


def _digest(data: bytes) -> str:
    return str(sha256(data).hexdigest())


def _mac(signer: Mac, header: bytes) -> str:
    return f"{signer.key_id}:{signer.hexdigest(_DOMAIN, header)}"


def _dump(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "surrogatepass"
    )


def _line_mac(signer: Mac, key: str, line: bytes) -> str:
    return str(signer.hexdigest(_LINE_DOMAIN, key.encode(), b"\0", line)[:DIGEST_CHARS])


def encode(
    header: dict[str, object],
    records: list[tuple[str, str, str, dict[str, object]]],
    signer: Mac,
    listed: Iterable[str] = (),
) -> bytes:
    """The file's bytes: ``records`` are ``(id, status, name, record)`` in file order, and
    ``header["key"]`` the policy key every index line is bound to. The lines of intents whose
    status is in ``listed`` come first (in file order), hashed on their own: what
    :meth:`CacheReader.headlines` reads."""
    key = str(header["key"])
    first = frozenset(listed)
    blobs: list[bytes] = []
    lines: list[bytes] = []
    later: list[bytes] = []
    start = 0
    for intent_id, status, name, record in records:
        blob = _dump(record)
        blobs.append(blob)
        name_hex = name.encode("utf-8", "surrogatepass").hex()
        line = f"{intent_id} {status} {start} {len(blob)} {_digest(blob)[:DIGEST_CHARS]} {name_hex}"
        encoded = line.encode("ascii")
        (lines if status in first else later).append(
            encoded + b" " + _line_mac(signer, key, encoded).encode()
        )
        start += len(blob) + len(_RECORDS_SEPARATOR)
    head = b'"' + b"".join(b"," + line for line in lines)
    index = head + b"".join(b"," + line for line in later) + b',"'
    signed = dict(
        header,
        index_sha256=_digest(index),
        listed_bytes=len(head),
        listed_sha256=_digest(head),
        count=len(records),
    )
    tail = _RECORDS_OPEN + _RECORDS_SEPARATOR.join(blobs) + _RECORDS_CLOSE
    return _assemble(signed, index + tail, signer)


def _assemble(header: dict[str, object], rest: bytes, signer: Mac) -> bytes:
    """The layout string, the signed header, then ``rest``: the index and the records."""
    header_bytes = _dump(header)
    mac = _mac(signer, header_bytes)
    width = len(TAG) + 2 * (_WIDTH + 1) + 1 + len(mac)
    header_start = len(_PREFIX) + width + len(_HEADER_KEY)
    header_end = header_start + len(header_bytes)
    index_end = header_end + len(_INDEX_KEY) + rest.index(_RECORDS_OPEN)
    layout = f"{TAG} {header_end:0{_WIDTH}d} {index_end:0{_WIDTH}d} {mac}".encode()
    assert len(layout) == width
    return b"".join((_PREFIX, layout, _HEADER_KEY, header_bytes, _INDEX_KEY, rest))


class IndexLine:
    """One intent as the index lists it (a line without its MAC)."""

    __slots__ = ("id", "status", "start", "length", "digest")

    def __init__(self, line: bytes) -> None:
        fields = line.decode("ascii").split(" ")
        if len(fields) != 6:
            raise CacheError("malformed index line")
        self.id, self.status, start, length, self.digest, _name_hex = fields
        try:
            self.start = int(start)
            self.length = int(length)
        except ValueError:
            raise CacheError("malformed index line") from None


def headline(line: bytes) -> tuple[str, str, str]:
    """``(id, status, name)`` of an index line."""
    try:
        intent_id, status, _start, _length, _digest_, name_hex, _mac = line.split(b" ")
        name = bytes.fromhex(name_hex.decode("ascii")).decode("utf-8", "surrogatepass")
        return intent_id.decode("ascii"), status.decode("ascii"), name
    except ValueError:
        raise CacheError("malformed index line") from None


class CacheReader:
    """An open, signed cache file whose parts are checked as they are read."""

    __slots__ = ("header", "_file", "_signer", "_index_at", "_index_end", "_index", "_checked")

    def __init__(
        self,
        file: BinaryIO,
        signer: Mac,
        header: dict[str, object],
        index_at: int,
        index_end: int,
    ) -> None:
        self.header = header
        self._file = file
        self._signer = signer
        self._index_at = index_at
        self._index_end = index_end
        self._index: bytes | None = None
        self._checked = False

    @classmethod
    def open(cls, path: str, signer: Mac) -> CacheReader | None:
        """The cache at ``path`` when its header carries this key's MAC; None when it is
        missing, torn, foreign or edited (the caller then rebuilds it)."""
        try:
            file = open_regular(path)  # kept open: the records are read later
        except OSError:
            return None
        try:
            reader = cls._read(file, signer)
        except (OSError, ValueError, CacheError):
            reader = None
        if reader is None:
            file.close()
        return reader

    @classmethod
    def _read(cls, file: BinaryIO, signer: Mac) -> CacheReader | None:
        data = file.read(FIRST_READ) or b""
        mac_width = len(signer.key_id) + 1 + 64  # "<key id>:<hex HMAC-SHA256>"
        width = len(TAG) + 2 * (_WIDTH + 1) + 1 + mac_width
        header_start = len(_PREFIX) + width + len(_HEADER_KEY)
        if len(data) < header_start or not data.startswith(_PREFIX + TAG.encode() + b" "):
            return None
        layout = data[len(_PREFIX) : len(_PREFIX) + width].decode("ascii")
        if data[len(_PREFIX) + width : header_start] != _HEADER_KEY:
            return None
        fields = layout[len(TAG) + 1 :].split(" ")
        if len(fields) != 3:
            return None
        header_end, index_end = int(fields[0]), int(fields[1])
        if not header_start < header_end < index_end:
            return None
        while len(data) < header_end:
            more = file.read(header_end - len(data))
            if not more:
                return None
            data += more
        header_bytes = data[header_start:header_end]
        if not same(fields[2], _mac(signer, header_bytes)):
            return None  # edited, or made with another key: rebuild it
        header = json.loads(header_bytes)
        if not isinstance(header, dict):
            return None
        return cls(file, signer, header, header_end + len(_INDEX_KEY), index_end)

    def close(self) -> None:
        self._file.close()

    def with_header(self, header: dict[str, object], signer: Mac) -> bytes:
        """This file's bytes under another header (same index and records), signed anew."""
        self._file.seek(self._index_at)
        rest = self._file.read() or b""
        return _assemble(header, rest, signer)

    @property
    def count(self) -> int:
        count = self.header.get("count")
        if not isinstance(count, int):
            raise CacheError("no intent count")
        return count

    def _read_at(self, at: int, length: int) -> bytes:
        # pread where there is one: one call instead of a seek and a read, and no shared file
        # position, so threads sharing a policy (a Governor's) read records safely
        pread = getattr(os, "pread", None)
        if pread is None:  # pragma: no cover - Windows
            self._file.seek(at)
        chunks = []
        while length > 0:
            chunk = pread(self._file.fileno(), length, at) if pread else self._file.read(length)
            if not chunk:
                break
            chunks.append(chunk)
            at += len(chunk)
            length -= len(chunk)
        return b"".join(chunks)

    def _raw_index(self) -> bytes:
        """The index's bytes, quotes included (read on first use)."""
        if self._index is None:
            length = self._index_end - self._index_at
            data = self._read_at(self._index_at, length)
            tail = self._read_at(self._index_end, len(_RECORDS_OPEN))
            if len(data) != length or tail != _RECORDS_OPEN or not data.startswith(b'",'):
                raise CacheError("the index is not where the header says")
            self._index = data
        return self._index

    def find(self, intent_id: str) -> IndexLine | None:
        """The index line of ``intent_id``: a byte search, then that line's own MAC."""
        if not intent_id or not intent_id.isascii() or " " in intent_id or "," in intent_id:
            return None
        index = self._raw_index()
        at = index.find(b"," + intent_id.encode() + b" ")
        if at < 0:
            return None
        end = index.find(b",", at + 1)
        line, _, mac = index[at + 1 : end].rpartition(b" ")
        if not same(mac.decode("ascii"), _line_mac(self._signer, str(self.header["key"]), line)):
            raise CacheError(f"the index line of {intent_id} is not signed")
        return IndexLine(line)

    def _lines(self) -> list[bytes]:
        """The index's lines, the whole index checked against the header's hash once."""
        index = self._raw_index()
        if not self._checked:
            if not same(str(self.header.get("index_sha256")), _digest(index)):
                raise CacheError("the index does not match its signed hash")
            self._checked = True
        return [line for line in index[2:-2].split(b",") if line]

    def lines(self) -> Iterator[IndexLine]:
        """Every index line, in file order."""
        lines = [IndexLine(line.rpartition(b" ")[0]) for line in self._lines()]
        return iter(sorted(lines, key=lambda line: line.start))

    def listed_lines(self) -> list[bytes]:
        """The index lines listed first (the selectable intents), in file order, checked
        against their own hash: what a message listing them needs, without reading the rest
        of the index or a record. :func:`headline` reads one."""
        size = self.header.get("listed_bytes")
        if not isinstance(size, int) or not 0 < size <= self._index_end - self._index_at:
            raise CacheError("no listed part")
        # only that part is read (the whole index is when an intent is looked up)
        head = (
            self._index[:size] if self._index is not None else self._read_at(self._index_at, size)
        )
        if not same(str(self.header.get("listed_sha256")), _digest(head)):
            raise CacheError("the listed part of the index does not match its signed hash")
        return head[2:].split(b",") if size > 1 else []

    def record(self, line: IndexLine) -> dict[str, object]:
        """The intent record an index line points at, checked against its hash."""
        records_at = self._index_end + len(_RECORDS_OPEN)
        return self._verified(line, self._read_at(records_at + line.start, line.length))

    def records(self) -> Iterator[dict[str, object]]:
        """Every intent record, in file order, each checked against its hash (the records
        part read at once: what reusing a whole cache needs)."""
        lines = list(self.lines())
        if not lines:
            return
        records_at = self._index_end + len(_RECORDS_OPEN)
        data = self._read_at(records_at, max(line.start + line.length for line in lines))
        for line in lines:
            yield self._verified(line, data[line.start : line.start + line.length])

    def _verified(self, line: IndexLine, data: bytes) -> dict[str, object]:
        if len(data) != line.length or not same(_digest(data)[:DIGEST_CHARS], line.digest):
            raise CacheError(f"the record of {line.id} does not match its signed hash")
        record = json.loads(data)
        if not isinstance(record, dict) or record.get("id") != line.id:
            raise CacheError(f"the record of {line.id} is not that intent")
        return record
