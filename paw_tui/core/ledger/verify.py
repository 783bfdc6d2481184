"""``trace verify``: check the whole chain, then compare it with the head kept outside.

The file is streamed in 4 MiB blocks and split into lines. The first bad line (1-based) is
named:

- a line whose bytes no longer match the next line's ``prev`` (for line 1: whose ``prev``
  is not the hash of the empty string);
- a line that is not valid JSON, or not a JSON object;
- a line whose ``seq`` breaks the sequence 1, 2, 3...;
- a line whose signature shows paw-tui did not write it;
- a torn last line (bytes after the last newline).

Two ways through a line, with the same verdicts. A line signed with this machine's key
takes the *fast path*, on bytes alone: paw-tui writes ``{"v":1,"seq":N,`` first and
``,"prev":"sha256:<hex>","mac":"<key id>:<hex>"}`` last, so the expected ``seq`` is a prefix
and the expected ``prev``, the key id and the place of the ``mac`` are one fixed-length slice
of the end; the MAC is then checked (HMAC-SHA256 on OpenSSL's SHA-256, the inner and outer
states copied, not rebuilt) and the line hashed for the next link. A line whose MAC this
key made is paw-tui's own encoding of a dict, so it is valid JSON without parsing it: the
MAC stands in for the JSON scan, which cost more than the rest of the checks together.
Every other line (unsigned history, another machine's key, no key here, or any line the
fast path does not accept) takes the *slow path*: parsed once by the strict JSON scanner
(``NaN`` and ``Infinity`` are not JSON), its ``prev``, ``seq`` and signature checked, then
hashed; it also says why a line is bad.

The scan then goes on, without judging, to count the records and to find the line with the
saved head's ``seq``: ``head_status`` is ``ok``, ``behind`` (the file goes further than the
head: a writer stopped between its two writes), ``missing``, ``unreadable``, ``truncated``
(the file ends before the head's ``seq``) or ``rewritten`` (that line's hash differs, or it
is gone). An incident an append recorded in the head earlier (the file was behind or
disagreed with it then) keeps being reported even once the file has grown past it.
"""

from __future__ import annotations

import gc
import json
import os
import stat
from hashlib import sha256
from hmac import compare_digest

from paw_tui.core.ledger.io import EMPTY_HASH, LedgerError
from paw_tui.core.ledger.records import MAC_CLOSE, MAC_OPEN, split_mac
from paw_tui.core.support.hashing import PREFIX as HASH_PREFIX
from paw_tui.core.support.keyed import BLOCK, Mac, same
from paw_tui.core.support.regular_file import read_regular
from paw_tui.core.workspace.secret import key_path, load_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from paw_tui.core.ledger.store import Ledger

CHUNK = 1024 * 1024  # 4 MiB chunks were no faster and held ~20 MB more at once
PACED_CHUNK = 128 * 1024
"""The block of a paced scan: a few milliseconds of work between two calls of ``pace``."""
_INCIDENT_STATUS = {
    "truncated": "truncated",
    "rewritten": "rewritten",
    "head_unreadable": "unreadable",
}
BAD_HEAD_STATUSES = frozenset({"truncated", "rewritten", "unreadable"})


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
# The C scanner behind JSONDecoder: parses one value at an index, returns it and its end.
_SCAN: Callable[[str, int], tuple[object, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_NOT_JSON = object()


def _parse(text: str) -> object:
    """The value of one line, or ``_NOT_JSON``."""
    try:
        value, end = _SCAN(text, 0)
        if end == len(text):
            return value
    except (StopIteration, ValueError):
        pass
    try:  # leading or trailing whitespace is still JSON
        return _DECODER.decode(text)
    except ValueError:
        return _NOT_JSON


class VerifyResult:
    """The outcome of :func:`verify`. ``ok`` is false when a line is bad or the head says
    the file was truncated or rewritten (or the head itself is unreadable)."""

    __slots__ = (
        "path", "ok", "records", "last_seq", "first_bad_line", "reason", "torn_tail",
        "head_status", "head_detail", "head_path", "incidents_path", "bytes_checked",
        "mac_status", "key_id", "signed_here", "signed_elsewhere", "unsigned",
    )  # fmt: skip

    def __init__(self, path: str) -> None:
        self.path = path
        self.ok = True
        self.records = 0
        self.last_seq: int | None = None
        self.first_bad_line: int | None = None
        self.reason: str | None = None
        self.torn_tail = False
        self.head_status = "missing"
        self.head_detail: str | None = None
        self.head_path: str | None = None
        self.incidents_path: str | None = None
        self.bytes_checked = 0
        self.mac_status = "no key"
        """``ok`` (every signed record checked), ``no key`` (this machine holds no key: the
        signatures could not be checked) or ``none`` (no record is signed)."""
        self.key_id: str | None = None
        self.signed_here = 0
        self.signed_elsewhere = 0
        """Records signed with another machine's key, before this machine's began (history
        that came with the files) or with a key passed to ``trust_keys``."""
        self.unsigned = 0
        """Records written before ledgers were signed (only before the first signed one)."""

    @property
    def message(self) -> str:
        """One sentence for a person."""
        if self.first_bad_line is not None:
            return f"Line {self.first_bad_line} of {self.path} {self.reason}."
        if self.head_status in BAD_HEAD_STATUSES:
            return f"The ledger {self.path} was {self.head_status}: {self.head_detail}."
        from paw_tui.core.support.words import count

        signed = "" if self.mac_status == "ok" else f", signatures: {self.mac_status}"
        return (
            f"The ledger {self.path} is intact: {count(self.records, 'record')}, "
            f"head {self.head_status}{signed}."
        )

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __repr__(self) -> str:
        return (
            f"VerifyResult(ok={self.ok}, records={self.records}, "
            f"first_bad_line={self.first_bad_line}, head_status={self.head_status!r})"
        )


_PROBE = b"paw-tui verify probe"
_PREV_OPEN = b',"prev":"' + HASH_PREFIX.encode("ascii")
_HEX = 64


class _FastMac:
    """The workspace key's HMAC-SHA256 on hashlib (OpenSSL: several times the builtin
    SHA-256 the gate's :class:`~paw_tui.core.support.keyed.Mac` uses to stay light), and the
    fixed layout of the end of a line this key signed."""

    __slots__ = ("inner", "outer", "key_id", "middle", "tail", "body_end", "mac_start")

    def __init__(self, key: bytes, key_id: str) -> None:
        if len(key) > BLOCK:
            key = sha256(key).digest()
        key = key.ljust(BLOCK, b"\0")
        self.inner = sha256(bytes(b ^ 0x36 for b in key))
        self.outer = sha256(bytes(b ^ 0x5C for b in key))
        self.key_id = key_id
        kid = key_id.encode("ascii")
        # ,"prev":"sha256:<64 hex>","mac":"<key id>:<64 hex>"}
        self.middle = b'"' + MAC_OPEN + kid + b":"  # between prev's hex and the mac's hex
        self.mac_start = len(kid) + 1 + _HEX + len(MAC_CLOSE)  # from the end: the mac value
        self.body_end = self.mac_start + len(MAC_OPEN)  # from the end: where the body stops
        self.tail = self.body_end + 1 + _HEX + len(_PREV_OPEN)  # from the end: ,"prev":"

    def hexdigest(self, *parts: bytes) -> str:
        inner = self.inner.copy()
        for part in parts:
            inner.update(part)
        outer = self.outer.copy()
        outer.update(inner.digest())
        return outer.hexdigest()

    @classmethod
    def of(cls, ledger: Ledger, mac: Mac) -> _FastMac | None:
        """The same key as ``mac``, read again from its file; None when that fails or does
        not give the very same MACs (the slow path then checks every line)."""
        try:
            path = key_path(ledger.workspace_root, state_base=ledger.state_base)
            key = read_regular(path)[: 4 * BLOCK]
        except OSError:
            return None
        fast = cls(key, mac.key_id)
        return fast if fast.hexdigest(b"", _PROBE) == mac.hexdigest(b"", _PROBE) else None


class _Chain:
    """The running state of the scan; :meth:`feed` takes the lines of one block."""

    __slots__ = (
        "lineno",
        "expected_seq",
        "prev",
        "last_seq",
        "bad_line",
        "reason",
        "head_seq",
        "head_line_hash",
        "mac",
        "fast",
        "trusted",
        "prev_mac",
        "mac_seen",
        "local_seen",
        "signed_here",
        "signed_elsewhere",
        "unsigned",
    )

    def __init__(
        self,
        head_seq: int | None,
        mac: Mac | None = None,
        trusted: frozenset[str] = frozenset(),
        fast: _FastMac | None = None,
    ) -> None:
        self.lineno = 0
        self.expected_seq = 1
        self.prev = EMPTY_HASH
        self.last_seq: int | None = None
        self.bad_line: int | None = None
        self.reason: str | None = None
        self.head_seq = head_seq
        self.head_line_hash: str | None = None
        self.mac = mac
        self.fast = fast
        self.trusted = trusted
        self.prev_mac = ""
        self.mac_seen = False
        self.local_seen = False
        self.signed_here = 0
        self.signed_elsewhere = 0
        self.unsigned = 0

    def _bad(self, line: int, reason: str) -> None:
        self.bad_line, self.reason = line, reason

    def feed(self, raws: list[bytes]) -> None:
        start = 0
        if self.bad_line is None:
            start = self._feed_checking(raws)
        if start < len(raws):
            self._feed_counting(raws[start:])

    def _feed_checking(self, raws: list[bytes]) -> int:
        """Check lines until the first bad one; how many good lines were consumed."""
        index, count = 0, len(raws)
        fast = self.fast
        while index < count:
            # a line this key did not sign (older, unsigned history) goes straight to the slow
            # path: setting the fast path up for every such line doubled their cost
            if fast is not None and fast.middle in raws[index]:
                index = self._feed_fast(raws, index)
                if index == count:
                    break
            if not self._check_slowly(raws[index]):
                break
            index += 1
        return index

    def _feed_fast(self, raws: list[bytes], index: int) -> int:
        """The fast path (see the module's docstring) from ``raws[index]`` on, up to the first
        line it does not accept; the index of that line. The hot loop of ``verify``: about
        twenty C calls a line, no JSON, no allocation beyond the hashes' own."""
        fast = self.fast
        assert fast is not None
        try:
            prev_mac = self.prev_mac.encode("ascii")
        except UnicodeEncodeError:
            return index
        # The line's end up to its mac's hex: ,"prev":"sha256:<prev hex>","mac":"<key id>:
        want = _PREV_OPEN + self.prev.encode("ascii")[len(HASH_PREFIX) :] + fast.middle
        expected, head_seq = self.expected_seq, self.head_seq
        inner, outer, middle = fast.inner.copy, fast.outer.copy, fast.middle
        tail, body_end, mac_start = fast.tail, -fast.body_end, -fast.mac_start
        mac_hex = -_HEX - len(MAC_CLOSE)  # the mac's hex and the closing "}
        hasher, first = sha256, expected
        for raw in raws[index:] if index else raws:
            if not (
                raw.startswith(want, len(raw) - tail)
                and raw.startswith(b'{"v":1,"seq":%d,' % expected)
            ):
                break
            signing = inner()
            signing.update(prev_mac)
            signing.update(raw[:body_end])
            signing.update(b"}")
            signed = outer()
            signed.update(signing.digest())
            if not compare_digest(signed.hexdigest().encode() + MAC_CLOSE, raw[mac_hex:]):
                break
            prev_mac = raw[mac_start:-2]
            want = _PREV_OPEN + hasher(raw).hexdigest().encode() + middle
            if expected == head_seq:
                self.head_line_hash = self._hash_in(want)
            expected += 1
        consumed = expected - first
        if consumed:
            self.lineno += consumed
            self.expected_seq, self.last_seq = expected, expected - 1
            self.prev = self._hash_in(want)
            self.prev_mac = prev_mac.decode("ascii")
            self.mac_seen = self.local_seen = True
            self.signed_here += consumed
        return index + consumed

    @staticmethod
    def _hash_in(want: bytes) -> str:
        """``sha256:<hex>`` out of the fast path's expected line end."""
        start = len(_PREV_OPEN) - len(HASH_PREFIX)
        return want[start : start + len(HASH_PREFIX) + _HEX].decode("ascii")

    def _check_slowly(self, raw: bytes) -> bool:
        """Parse and check one line; False (and the line named) when it is bad."""
        lineno = self.lineno + 1
        try:
            record = _parse(raw.decode("utf-8"))
        except UnicodeDecodeError:
            record = _NOT_JSON
        if type(record) is not dict:
            self._bad(
                lineno, "is not valid JSON" if record is _NOT_JSON else "is not a JSON object"
            )
            return False
        if record.get("prev") != self.prev:
            if lineno == 1:
                self._bad(
                    1,
                    "has a prev that is not the hash of the empty string, "
                    "as the first line's must be",
                )
            else:
                self._bad(
                    lineno - 1,
                    f"no longer matches the prev of line {lineno}: its bytes were changed",
                )
            return False
        seq = record.get("seq")
        if seq != self.expected_seq or type(seq) is not int:
            self._bad(lineno, f"breaks the sequence: seq is {seq!r}, expected {self.expected_seq}")
            return False
        problem = self._signature(raw, record.get("mac"))
        if problem is not None:
            self._bad(lineno, problem)
            return False
        self.prev = HASH_PREFIX + sha256(raw).hexdigest()
        if seq == self.head_seq:
            self.head_line_hash = self.prev
        self.lineno = lineno
        self.expected_seq = seq + 1
        self.last_seq = seq
        return True

    def _signature(self, raw: bytes, value: object) -> str | None:
        """Why the line's ``mac`` shows that paw-tui (on this machine) did not write it, or
        None; keeps the running counts."""
        if value is None:
            if self.mac_seen:
                return "carries no signature although the records before it are signed: something other than paw-tui wrote it"
            self.unsigned += 1
            return None
        if type(value) is not str:
            return "has a mac that is not a string: something other than paw-tui wrote it"
        self.mac_seen = True
        previous, self.prev_mac = self.prev_mac, value
        mac = self.mac
        key_id = value.partition(":")[0]
        if mac is None:
            return None
        if key_id == mac.key_id:
            self.local_seen = True
            signed = split_mac(raw)
            expected = (
                None if signed is None else mac.hexdigest(previous.encode("ascii"), signed[0])
            )
            if (
                signed is None
                or signed[1] != value
                or not same(value.partition(":")[2], expected or "")
            ):
                return "does not carry paw-tui's signature (its MAC does not match): something other than paw-tui wrote it"
            self.signed_here += 1
            return None
        if self.local_seen and key_id not in self.trusted:
            return (
                f"is signed with another key ({key_id}) after records signed on this machine: "
                "something other than paw-tui here wrote it (if it came from another machine, "
                f"trust that key: paw-tui trace verify --trust-key {key_id})"
            )
        self.signed_elsewhere += 1
        return None

    def _feed_counting(self, raws: list[bytes]) -> None:
        """From the first bad line on: count, and look for the head's line, judging nothing.
        ``last_seq`` is then the last integer ``seq`` seen."""
        for raw in raws:
            self.lineno += 1
            try:
                record = _parse(raw.decode("utf-8"))
            except UnicodeDecodeError:
                continue
            seq = record.get("seq") if type(record) is dict else None
            if type(seq) is not int:
                continue
            self.last_seq = seq
            if seq == self.head_seq:
                self.head_line_hash = HASH_PREFIX + sha256(raw).hexdigest()


def _compare_head(result: VerifyResult, chain: _Chain, head: dict[str, object] | None) -> None:
    if result.head_status == "unreadable":
        return
    if head is None:
        result.head_status = "missing"
        result.head_detail = f"no head is kept at {result.head_path}"
        return
    head_seq, head_hash = head.get("seq"), head.get("hash")
    last = chain.last_seq or 0
    if chain.head_line_hash is not None:
        if chain.head_line_hash != head_hash:
            result.head_status = "rewritten"
            result.head_detail = (
                f"the line with seq {head_seq} is not the one the head at {result.head_path} "
                "recorded"
            )
        elif last == head_seq:
            result.head_status = "ok"
        else:
            result.head_status = "behind"
            result.head_detail = (
                f"the head at {result.head_path} is at seq {head_seq}, the ledger at {last}"
            )
    elif head_seq == 0:
        result.head_status = "ok"
    elif last < head_seq:  # type: ignore[operator]
        result.head_status = "truncated"
        result.head_detail = (
            f"the head at {result.head_path} recorded seq {head_seq}, "
            f"but the ledger ends at seq {last}"
        )
    else:
        result.head_status = "rewritten"
        result.head_detail = (
            f"no line has the seq {head_seq} the head at {result.head_path} recorded"
        )
    incidents = head.get("incidents")
    if result.head_status in ("ok", "behind") and isinstance(incidents, list) and incidents:
        first = incidents[0] if isinstance(incidents[0], dict) else {}
        kind = _INCIDENT_STATUS.get(str(first.get("kind")), "rewritten")
        result.head_status = kind
        result.head_detail = (
            f"an append at {first.get('detected_ts')} found it {first.get('kind')} (head seq "
            f"{first.get('head_seq')}, ledger seq {first.get('file_seq')}), as recorded in "
            f"{result.incidents_path}"
        )


def verify(
    ledger: Ledger,
    *,
    trust_keys: frozenset[str] = frozenset(),
    pace: Callable[[], object] | None = None,
) -> VerifyResult:
    """Verify ``ledger``'s chain and signatures and compare it with its saved head.

    ``trust_keys`` names keys of other machines whose records may follow this machine's (a
    ledger shared through version control).

    ``pace``, for a caller that verifies in its own interpreter next to other work (the TUI,
    where a second process would cost more memory than the scan itself), is called before each
    block of :data:`PACED_CHUNK` bytes: it may sleep, so that the scan holds the interpreter
    lock in short slices only, or raise to stop the scan (the exception propagates). The
    garbage collector is then left as it is: it is the caller's."""
    result = VerifyResult(ledger.path)
    head: dict[str, object] | None = None
    try:
        result.head_path, result.incidents_path = ledger.heads.path, ledger.heads.incidents_path
        head = ledger.saved_head()  # before the file's size: a head never runs ahead of it
    except LedgerError as error:
        result.head_status, result.head_detail = "unreadable", error.message.rstrip(".")
    except OSError as error:  # no home directory to find the state directory in
        result.head_status, result.head_detail = "unreadable", str(error)
    head_seq = head.get("seq") if head is not None else None
    try:
        mac = load_key(ledger.workspace_root, state_base=ledger.state_base)
    except OSError:
        mac = None
    fast = _FastMac.of(ledger, mac) if mac is not None else None
    chain = _Chain(head_seq if type(head_seq) is int else None, mac, trust_keys, fast)
    try:
        fd = os.open(ledger.path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        fd = None
    except OSError as error:
        reason = "it is a directory" if isinstance(error, IsADirectoryError) else error.strerror
        raise LedgerError(f"Cannot read the audit ledger {ledger.path}: {reason}.") from None
    if fd is not None and not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LedgerError(f"Cannot read the audit ledger {ledger.path}: it is not a regular file.")
    if fd is not None:
        collecting = gc.isenabled() and pace is None
        if collecting:
            gc.disable()  # the scan makes ~5 containers a line and no cycles: collections only cost
        try:
            _stream(fd, chain, result, pace)
        except IsADirectoryError:
            raise LedgerError(
                f"Cannot read the audit ledger {ledger.path}: it is a directory."
            ) from None
        except OSError as error:
            raise LedgerError(
                f"Cannot read the audit ledger {ledger.path}: {error.strerror}."
            ) from None
        finally:
            if collecting:
                gc.enable()
            os.close(fd)
    result.records = chain.lineno
    result.last_seq = chain.last_seq
    result.key_id = mac.key_id if mac is not None else None
    result.signed_here, result.signed_elsewhere = chain.signed_here, chain.signed_elsewhere
    result.unsigned = chain.unsigned
    if not chain.mac_seen:
        result.mac_status = "none"
    elif mac is not None:
        result.mac_status = "ok"
    if chain.bad_line is not None and result.first_bad_line is None:
        result.first_bad_line, result.reason = chain.bad_line, chain.reason
    _compare_head(result, chain, head)
    result.ok = result.first_bad_line is None and result.head_status not in BAD_HEAD_STATUSES
    return result


def _stream(
    fd: int, chain: _Chain, result: VerifyResult, pace: Callable[[], object] | None = None
) -> None:
    remaining = os.fstat(fd).st_size
    carry = b""
    chunk = CHUNK if pace is None else PACED_CHUNK
    while remaining > 0:
        if pace is not None:
            pace()
        data = os.read(fd, min(chunk, remaining))
        if not data:
            break
        remaining -= len(data)
        result.bytes_checked += len(data)
        buf = carry + data if carry else data
        cut = buf.rfind(b"\n")
        if cut < 0:
            carry = buf
            continue
        carry = buf[cut + 1 :]
        chain.feed(buf[:cut].split(b"\n"))
    if not carry:
        return
    # Bytes after the last newline: a writer may be finishing that line right now.
    more = os.read(fd, CHUNK)
    cut = more.find(b"\n")
    if cut >= 0:
        result.bytes_checked += cut + 1
        chain.feed([carry + more[:cut]])
        return
    result.torn_tail = True
    if chain.bad_line is None:
        result.first_bad_line = chain.lineno + 1
        result.reason = f"is torn: {len(carry) + len(more)} bytes without a final newline"
