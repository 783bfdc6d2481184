"""The audit ledger writer and its readers (DESIGN §7), through the library API."""

from __future__ import annotations

import calendar
import errno
import hashlib
import hmac
import json
import os
import re
import stat
from pathlib import Path
from typing import cast

import pytest

from paw_tui.core.errors import PawError
from paw_tui.core.ledger import io as ledger_io
from paw_tui.core.ledger.io import EMPTY_HASH, LedgerError
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import verify as verify_ledger
from paw_tui.core.support.locking import FileLock
from paw_tui.core.workspace.secret import key_path, load_key

TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never the real home: the head goes under the test's own directory."""
    path = tmp_path / "state"
    monkeypatch.setenv("PAW_STATE_DIR", str(path))
    return path


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    root = tmp_path / "ws"
    (root / ".orchestration").mkdir(parents=True)
    return Ledger.for_workspace(str(root))


def read_bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def sha(line: bytes) -> str:
    return "sha256:" + hashlib.sha256(line).hexdigest()


def lines_of(ledger: Ledger) -> list[bytes]:
    with open(ledger.path, "rb") as handle:
        data = handle.read()
    assert data.endswith(b"\n")
    return data[:-1].split(b"\n")


def allowed(n: int = 0, **extra: object) -> dict[str, object]:
    record: dict[str, object] = {
        "event": "tool_allowed", "session_id": "s-1", "intent_id": "INT-001", "client": "claude-code",
        "tool": "Edit", "paths": [f"src/f{n}.py"], "decision": "allow",
    }  # fmt: skip
    record.update(extra)
    return record


def seq_of(record: dict[str, object] | None) -> object:
    """The ``seq`` of a parsed record (which must be a JSON object)."""
    assert record is not None
    return record["seq"]


def assert_chain(lines: list[bytes]) -> None:
    prev = EMPTY_HASH
    for number, line in enumerate(lines, 1):
        record = json.loads(line)
        assert record["seq"] == number
        assert record["prev"] == prev
        prev = sha(line)


# -- the record format -----------------------------------------------------------------------


def test_first_record_and_exact_line(ledger: Ledger) -> None:
    clock = calendar.timegm((2026, 11, 21, 23, 54, 4)) + 0.1239
    ledger.clock = lambda: clock
    written = ledger.append({
        "event": "mutation", "session_id": "s-1", "intent_id": "INT-001", "client": "claude-code",
        "tool": "Write", "paths": ["src/a.py"], "decision": None, "reason": "",
        "content_hash": "sha256:" + "a" * 64, "ranges": [{"end_line": 9, "start_line": 1}],
        "zeta": 1, "alpha": "x", "empty": [],
    })  # fmt: skip
    assert written["seq"] == 1 and written["v"] == 1 and written["prev"] == EMPTY_HASH
    assert written["ts"] == "2026-11-21T23:54:04.123Z"
    body = (
        '{"v":1,"seq":1,"ts":"2026-11-21T23:54:04.123Z","event":"mutation","session_id":"s-1",'
        '"intent_id":"INT-001","client":"claude-code","tool":"Write","paths":["src/a.py"],'
        '"content_hash":"sha256:' + "a" * 64 + '","ranges":[{"start_line":1,"end_line":9}],'
        '"alpha":"x","zeta":1,"prev":"' + EMPTY_HASH + '"}'
    )
    # the signature: HMAC-SHA256 with the key kept outside the workspace, over the previous
    # record's mac (none for the first) and the line without its own mac, last in the line
    key = load_key(ledger.workspace_root)
    assert key is not None
    with open(key_path(ledger.workspace_root), "rb") as handle:
        raw_key = handle.read()
    signature = hmac.new(raw_key, body.encode(), hashlib.sha256).hexdigest()
    mac = f"{key.key_id}:{signature}"
    assert written["mac"] == mac
    expected = body[:-1] + f',"mac":"{mac}"}}\n'
    with open(ledger.path, encoding="utf-8") as handle:
        assert handle.read() == expected
    assert EMPTY_HASH == sha(b"")
    assert stat.S_IMODE(os.stat(key_path(ledger.workspace_root)).st_mode) == 0o600


def test_non_ascii_is_written_as_utf8_and_lone_surrogates_escaped(ledger: Ledger) -> None:
    ledger.append(allowed(paths=["src/café.py"]))
    ledger.append(allowed(paths=["bad\udcff.py"]))
    raw = read_bytes(ledger.path)
    assert "café".encode() in raw
    assert b"\\udcff" in raw
    assert_chain(lines_of(ledger))


def test_timestamps_are_rfc3339_utc_milliseconds(ledger: Ledger) -> None:
    for _ in range(3):
        assert TS_RE.match(str(ledger.append(allowed())["ts"]))


def test_gapless_seq_and_valid_chain_across_many_appends(ledger: Ledger) -> None:
    for n in range(300):
        assert ledger.append(allowed(n))["seq"] == n + 1
    lines = lines_of(ledger)
    assert len(lines) == 300
    assert_chain(lines)
    result = verify_ledger(ledger)
    assert result.ok and result.records == 300 and result.head_status == "ok"


def test_append_works_across_ledger_objects_and_creates_directories(tmp_path: Path) -> None:
    root = tmp_path / "fresh"  # no .orchestration yet
    root.mkdir()
    Ledger.for_workspace(str(root)).append(allowed())
    Ledger.for_workspace(str(root)).append(allowed())
    assert_chain(lines_of(Ledger.for_workspace(str(root))))


@pytest.mark.parametrize(
    "record, fragment",
    [
        ({"tool": "Edit"}, "no event"),
        ({"event": ""}, "no event"),
        ({"event": "x", "seq": 3}, "seq"),
        ({"event": "x", "prev": "sha256:0"}, "prev"),
        ({"event": "x", "v": 2, "ts": "now"}, "ts, v"),
        ({"event": "x", "paths": "a.py"}, "paths"),
        ({"event": "x", "paths": ["a", 1]}, "paths"),
        ({"event": "x", "ranges": [{"start_line": 0, "end_line": 1}]}, "range"),
        ({"event": "x", "ranges": [{"start_line": 5, "end_line": 4}]}, "range"),
        ({"event": "x", "ranges": [{"start_line": True, "end_line": 4}]}, "range"),
        ({"event": "x", "ranges": {"start_line": 1}}, "ranges"),
        ({"event": "x", "extra": object()}, "JSON"),
        ({"event": "x", "extra": float("nan")}, "JSON"),
    ],
)
def test_invalid_records_are_refused_and_nothing_is_written(
    ledger: Ledger, record: dict[str, object], fragment: str
) -> None:
    with pytest.raises(LedgerError) as caught:
        ledger.append(record)
    assert fragment in str(caught.value)
    assert ledger.path in str(caught.value)
    assert not os.path.exists(ledger.path) or os.path.getsize(ledger.path) == 0


def test_each_record_is_one_write_call(ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger.append(allowed())
    calls: list[bytes] = []
    real_write = os.write

    def spy(fd: int, data: bytes | memoryview) -> int:
        calls.append(bytes(data))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", spy)
    ledger.append(allowed(7))
    monkeypatch.undo()
    line = lines_of(ledger)[-1] + b"\n"
    assert [call for call in calls if call.startswith(b'{"v":1')] == [line]


# -- failures become LedgerError -------------------------------------------------------------


def test_disk_full_is_a_ledger_error_naming_file_and_reason(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger.append(allowed())
    before = read_bytes(ledger.path)
    real_write = os.write

    def full(fd: int, data: bytes | memoryview) -> int:
        if bytes(data[:6]) == b'{"v":1':
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(LedgerError) as caught:
        ledger.append(allowed())
    message = str(caught.value)
    assert isinstance(caught.value, PawError)
    assert ledger.path in message and "No space left on device" in message
    assert message.count(".") >= 1 and "\n" not in message
    monkeypatch.undo()
    assert read_bytes(ledger.path) == before


def test_short_write_is_undone(ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger.append(allowed())
    before = read_bytes(ledger.path)
    real_write = os.write

    def short(fd: int, data: bytes | memoryview) -> int:
        if bytes(data[:6]) == b'{"v":1':
            return real_write(fd, bytes(data[:10]))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", short)
    with pytest.raises(LedgerError, match="only 10 of"):
        ledger.append(allowed())
    monkeypatch.undo()
    assert read_bytes(ledger.path) == before, "no torn line left behind"
    assert ledger.append(allowed())["seq"] == 2


def test_ledger_path_replaced_by_a_directory(ledger: Ledger) -> None:
    os.makedirs(ledger.path)
    with pytest.raises(LedgerError) as caught:
        ledger.append(allowed())
    assert ledger.path in str(caught.value) and "directory" in str(caught.value)
    with pytest.raises(LedgerError):
        ledger.tail()
    with pytest.raises(LedgerError):
        verify_ledger(ledger)


def test_lock_timeout_is_a_ledger_error(ledger: Ledger) -> None:
    ledger.append(allowed())
    before = read_bytes(ledger.path)
    ledger.lock_timeout = 0.05
    with FileLock(ledger.lock_path), pytest.raises(LedgerError) as caught:
        ledger.append(allowed())
    message = str(caught.value)
    assert ledger.path in message and ledger.lock_path in message and "0.05 s" in message
    assert read_bytes(ledger.path) == before
    assert ledger.append(allowed())["seq"] == 2


def test_last_line_that_is_not_a_record_refuses_appends(ledger: Ledger) -> None:
    ledger.append(allowed())
    with open(ledger.path, "ab") as handle:
        handle.write(b"garbage\n")
    with pytest.raises(LedgerError, match="last complete line is not a ledger record"):
        ledger.append(allowed())


def test_head_failure_does_not_undo_a_written_record(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    ledger = Ledger.for_workspace(str(root), state_dir=str(tmp_path / "state"))
    os.makedirs(ledger.head_path)  # the head cannot be read or written; the key can
    assert ledger.append(allowed())["seq"] == 1
    assert any("not updated" in warning for warning in ledger.warnings)
    assert len(lines_of(ledger)) == 1


def test_a_record_that_cannot_be_signed_is_not_written(tmp_path: Path) -> None:
    """Nothing unsigned is appended: the key's directory being a file stops the append."""
    root = tmp_path / "ws"
    root.mkdir()
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    ledger = Ledger.for_workspace(str(root), state_dir=str(blocker))
    with pytest.raises(LedgerError, match="its signing key cannot be read or made"):
        ledger.append(allowed())
    assert not os.path.exists(ledger.path)


def test_head_is_kept_outside_the_workspace(ledger: Ledger, state_dir: Path) -> None:
    ledger.append(allowed())
    written = ledger.append(allowed())
    assert ledger.head_path.startswith(str(state_dir) + os.sep)
    assert not ledger.head_path.startswith(ledger.workspace_root)
    head = ledger.saved_head()
    assert head is not None
    assert head["seq"] == written["seq"] == 2
    assert head["hash"] == sha(lines_of(ledger)[-1])
    assert head["size"] == os.path.getsize(ledger.path)
    assert head["incidents"] == []


# -- torn last line --------------------------------------------------------------------------


def test_torn_tail_is_reported_then_repaired_by_the_next_append(ledger: Ledger) -> None:
    for n in range(4):
        ledger.append(allowed(n))
    good_size = os.path.getsize(ledger.path)
    torn = b'{"v":1,"seq":5,"ts":"2026-'
    with open(ledger.path, "ab") as handle:
        handle.write(torn)

    result = ledger.tail(10)
    assert [r["seq"] for r in result.records] == [1, 2, 3, 4]
    assert result.torn_tail is not None
    assert (result.torn_tail.offset, result.torn_tail.length) == (good_size, len(torn))
    assert result.end == good_size

    checked = verify_ledger(ledger)
    assert not checked.ok and checked.torn_tail
    assert checked.first_bad_line == 5 and "torn" in str(checked.reason)
    assert checked.records == 4

    written = ledger.append(allowed(9))
    assert written["seq"] == 6
    lines = lines_of(ledger)
    repaired = json.loads(lines[4])
    assert repaired["event"] == "ledger_repaired" and repaired["seq"] == 5
    assert repaired["torn_bytes"] == len(torn) and repaired["torn_offset"] == good_size
    aside = os.path.join(os.path.dirname(ledger.path), repaired["torn_file"])
    assert repaired["torn_file"].startswith("agent_trace.jsonl.torn-")
    assert read_bytes(aside) == torn
    assert_chain(lines)
    assert verify_ledger(ledger).ok


def test_file_holding_only_a_torn_fragment(ledger: Ledger) -> None:
    with open(ledger.path, "wb") as handle:
        handle.write(b'{"v":1,"se')
    result = ledger.tail()
    assert result.records == [] and result.torn_tail is not None and result.torn_tail.offset == 0
    ledger.append(allowed())
    lines = lines_of(ledger)
    assert [json.loads(line)["event"] for line in lines] == ["ledger_repaired", "tool_allowed"]
    assert_chain(lines)


# -- bounded readers -------------------------------------------------------------------------


def test_tail_returns_the_newest_records_oldest_first(ledger: Ledger) -> None:
    for n in range(30):
        ledger.append(allowed(n, intent_id="INT-001" if n % 3 else "INT-002"))
    result = ledger.tail(5)
    assert [r["seq"] for r in result.records] == [26, 27, 28, 29, 30]
    assert result.complete and result.torn_tail is None
    only = ledger.tail(4, predicate=lambda r: r.get("intent_id") == "INT-002")
    assert [r["seq"] for r in only.records] == [16, 19, 22, 25, 28][-4:]
    everything = ledger.tail(100)
    assert len(everything.records) == 30 and everything.complete
    assert ledger.tail(0).records == []


def test_tail_of_a_missing_or_empty_ledger(ledger: Ledger) -> None:
    assert ledger.tail().records == []
    open(ledger.path, "wb").close()
    result = ledger.tail()
    assert result.records == [] and result.torn_tail is None and result.complete


def test_tail_skips_lines_that_are_not_records(ledger: Ledger) -> None:
    ledger.append(allowed())
    with open(ledger.path, "ab") as handle:
        handle.write(b"not json\n[1]\n")
    result = ledger.tail()
    assert [r["seq"] for r in result.records] == [1] and result.skipped == 2


@pytest.fixture
def big_ledger(ledger: Ledger) -> Ledger:
    """~6 MB of correctly chained records, written directly (appending would be slow)."""
    prev, out = EMPTY_HASH, []
    for seq in range(1, 20001):
        intent = "INT-OLD" if seq <= 10 else f"INT-{seq % 7:03d}"
        record = {"v": 1, "seq": seq, "ts": "2026-01-01T00:00:00.000Z", "event": "tool_allowed",
                  "session_id": "s" * 40, "intent_id": intent, "tool": "Edit",
                  "paths": [f"src/pkg/module_{seq % 97}.py"], "decision": "allow",
                  "reason": "x" * 120, "prev": prev}  # fmt: skip
        line = json.dumps(record, separators=(",", ":")).encode()
        prev = sha(line)
        out.append(line)
    with open(ledger.path, "wb") as handle:
        handle.write(b"\n".join(out) + b"\n")
    assert os.path.getsize(ledger.path) > 5_000_000
    return ledger


@pytest.fixture
def read_counter(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    counted = {"bytes": 0, "calls": 0}
    real = ledger_io.read_at

    def counting(fd: int, size: int, offset: int) -> bytes:
        data = real(fd, size, offset)
        counted["bytes"] += len(data)
        counted["calls"] += 1
        return data

    monkeypatch.setattr(ledger_io, "read_at", counting)
    return counted


def test_tail_reads_a_bounded_number_of_bytes(
    big_ledger: Ledger, read_counter: dict[str, int]
) -> None:
    result = big_ledger.tail(20)
    assert [r["seq"] for r in result.records] == list(range(19981, 20001))
    assert read_counter["bytes"] == result.bytes_read <= 64 * 1024
    size = os.path.getsize(big_ledger.path)
    assert read_counter["bytes"] < size / 50


def test_tail_with_a_rare_predicate_stops_at_its_byte_budget(
    big_ledger: Ledger, read_counter: dict[str, int]
) -> None:
    result = big_ledger.tail(
        20, predicate=lambda r: r.get("intent_id") == "INT-OLD", max_bytes=300_000
    )
    assert result.records == [] and not result.complete
    assert read_counter["bytes"] == result.bytes_read == 300_000


def test_recent_for_intent_is_bounded_and_filters(
    big_ledger: Ledger, read_counter: dict[str, int]
) -> None:
    result = big_ledger.recent_for_intent("INT-003", 20)
    assert len(result.records) == 20 and result.complete
    assert all(r["intent_id"] == "INT-003" for r in result.records)
    seqs = [cast(int, r["seq"]) for r in result.records]
    assert seqs == sorted(seqs) and seqs[-1] == max(s for s in range(19990, 20001) if s % 7 == 3)
    assert read_counter["bytes"] <= 1024 * 1024
    read_counter["bytes"] = 0
    old = big_ledger.recent_for_intent("INT-OLD")  # only at the very start of the file
    assert old.records == [] and not old.complete
    assert read_counter["bytes"] == 1024 * 1024


def test_recent_for_intent_on_a_small_ledger_finds_everything(ledger: Ledger) -> None:
    for n in range(10):
        ledger.append(allowed(n, intent_id="INT-A" if n % 2 else "INT-B"))
    result = ledger.recent_for_intent("INT-A", limit=3)
    assert [r["seq"] for r in result.records] == [6, 8, 10]
    assert ledger.recent_for_intent("INT-Z").records == []
    assert ledger.recent_for_intent("INT-Z").complete


def test_iter_records_streams_with_offsets(ledger: Ledger) -> None:
    for n in range(5):
        ledger.append(allowed(n))
    with open(ledger.path, "ab") as handle:
        handle.write(b'{"torn')
    items = list(ledger.iter_records())
    assert [seq_of(record) for _, _, record in items] == [1, 2, 3, 4, 5]
    data = read_bytes(ledger.path)
    for offset, line, _ in items:
        assert data[offset : offset + len(line) + 1] == line + b"\n"
    third = items[2][0]
    assert [seq_of(record) for _, _, record in ledger.iter_records(third)] == [3, 4, 5]
