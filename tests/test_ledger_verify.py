"""``verify``: the first bad line of the chain, and the head kept outside the workspace."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paw_tui.core.ledger import verify as verify_module
from paw_tui.core.ledger.io import EMPTY_HASH, LedgerError
from paw_tui.core.ledger.records import sign_line
from paw_tui.core.ledger.store import Ledger
from paw_tui.core.ledger.verify import verify
from paw_tui.core.ledger.verify import verify as verify_ledger
from paw_tui.core.support.keyed import Mac


@pytest.fixture(autouse=True)
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "state"
    monkeypatch.setenv("PAW_STATE_DIR", str(path))
    return path


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    root = tmp_path / "ws"
    (root / ".orchestration").mkdir(parents=True)
    return Ledger.for_workspace(str(root), durable=False)


def sha(line: bytes) -> str:
    return "sha256:" + hashlib.sha256(line).hexdigest()


def fill(ledger: Ledger, count: int) -> None:
    for n in range(count):
        ledger.append({"event": "tool_allowed", "session_id": "s", "intent_id": "INT-001",
                       "tool": "Edit", "paths": [f"src/{n}.py"], "decision": "allow"})  # fmt: skip


def read_lines(ledger: Ledger) -> list[bytes]:
    return open(ledger.path, "rb").read().split(b"\n")[:-1]


def write_lines(ledger: Ledger, lines: list[bytes]) -> None:
    with open(ledger.path, "wb") as handle:
        handle.write(b"".join(line + b"\n" for line in lines))


def saved_incidents(ledger: Ledger) -> list[dict[str, object]]:
    """The incidents kept in the ledger's saved head (which must exist)."""
    head = ledger.saved_head()
    assert head is not None
    incidents = head["incidents"]
    assert isinstance(incidents, list)
    return incidents


def chained(records: Sequence[Mapping[str, object]]) -> list[bytes]:
    """Lines with a correct chain for the given bodies (seq taken from each record)."""
    prev, lines = EMPTY_HASH, []
    for record in records:
        line = json.dumps({**record, "prev": prev}, separators=(",", ":")).encode()
        prev = sha(line)
        lines.append(line)
    return lines


def test_intact_ledger(ledger: Ledger) -> None:
    fill(ledger, 25)
    result = verify(ledger)
    assert result.ok and result.records == 25 and result.last_seq == 25
    assert result.first_bad_line is None and result.reason is None and not result.torn_tail
    assert result.head_status == "ok"
    assert "intact" in result.message and "25 records" in result.message
    assert verify_ledger(ledger).to_dict() == result.to_dict()


def test_empty_and_missing_ledger(ledger: Ledger) -> None:
    result = verify(ledger)
    assert result.ok and result.records == 0 and result.head_status == "missing"
    open(ledger.path, "wb").close()
    assert verify(ledger).ok


def test_edited_byte_names_the_line_whose_bytes_no_longer_match(ledger: Ledger) -> None:
    fill(ledger, 10)
    lines = read_lines(ledger)
    lines[4] = lines[4].replace(b'"src/4.py"', b'"src/X.py"')  # line 5, still valid JSON
    write_lines(ledger, lines)
    result = verify(ledger)
    assert not result.ok
    assert result.first_bad_line == 5
    # the edited line's own signature no longer matches (before the next line's prev does)
    assert "does not carry paw-tui's signature" in str(result.reason)
    assert result.message.startswith("Line 5 of " + ledger.path)
    assert result.records == 10
    # without the key (another machine), the chain still names the same line
    other_state = os.path.join(os.path.dirname(ledger.workspace_root), "elsewhere")
    elsewhere = Ledger(ledger.path, workspace_root=ledger.workspace_root, state_dir=other_state)
    unkeyed = verify(elsewhere)
    assert unkeyed.first_bad_line == 5 and "prev of line 6" in str(unkeyed.reason)


def test_line_that_is_not_json(ledger: Ledger) -> None:
    fill(ledger, 6)
    lines = read_lines(ledger)
    lines[2] = lines[2][:-1]  # line 3 loses its closing brace
    write_lines(ledger, lines)
    result = verify(ledger)
    assert (result.first_bad_line, result.reason) == (3, "is not valid JSON")
    assert result.records == 6


@pytest.mark.parametrize(
    "bad, reason",
    [
        (b"[1, 2]", "is not a JSON object"),
        (b'{"v":1,"seq":NaN}', "is not valid JSON"),
        (b"\xff\xfe{}", "is not valid JSON"),
        (b"", "is not valid JSON"),
    ],
)
def test_other_invalid_lines(ledger: Ledger, bad: bytes, reason: str) -> None:
    fill(ledger, 3)
    lines = read_lines(ledger)
    lines.insert(1, bad)
    write_lines(ledger, lines)
    result = verify(ledger)
    assert (result.first_bad_line, result.reason) == (2, reason)
    assert result.records == 4


def test_seq_gap_with_an_intact_chain(ledger: Ledger) -> None:
    bodies = [
        {"v": 1, "seq": seq, "ts": "2026-01-01T00:00:00.000Z", "event": "tool_allowed"}
        for seq in (1, 2, 3, 5, 6)
    ]
    write_lines(ledger, chained(bodies))
    result = verify(ledger)
    assert result.first_bad_line == 4
    assert "breaks the sequence" in str(result.reason) and "expected 4" in str(result.reason)
    assert result.records == 5 and result.last_seq == 6


def test_first_line_must_chain_to_the_empty_string(ledger: Ledger) -> None:
    fill(ledger, 3)
    lines = read_lines(ledger)
    record = json.loads(lines[0])
    record["prev"] = "sha256:" + "0" * 64
    lines[0] = json.dumps(record, separators=(",", ":")).encode()
    write_lines(ledger, lines)
    result = verify(ledger)
    assert result.first_bad_line == 1 and "empty string" in str(result.reason)


def test_whitespace_around_a_line_is_still_json(ledger: Ledger) -> None:
    bodies = [{"v": 1, "seq": seq, "ts": "t", "event": "e"} for seq in (1, 2)]
    lines = chained(bodies)
    lines[0] = lines[0] + b"  "  # its hash then differs: re-chain line 2 on the new bytes
    lines[1] = json.dumps({**bodies[1], "prev": sha(lines[0])}, separators=(",", ":")).encode()
    write_lines(ledger, lines)
    assert verify(ledger).first_bad_line is None


def test_removed_line_names_the_one_before_the_gap(ledger: Ledger) -> None:
    fill(ledger, 8)
    lines = read_lines(ledger)
    del lines[3]  # line 4 gone: line 3's bytes no longer match the new line 4's prev
    write_lines(ledger, lines)
    result = verify(ledger)
    assert result.first_bad_line == 3 and "prev of line 4" in str(result.reason)


def test_torn_last_line(ledger: Ledger) -> None:
    fill(ledger, 4)
    with open(ledger.path, "ab") as handle:
        handle.write(b'{"v":1,"seq":5')
    result = verify(ledger)
    assert not result.ok and result.torn_tail
    assert result.first_bad_line == 5 and "torn" in str(result.reason)
    assert result.records == 4


def test_first_bad_line_found_across_read_blocks(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verify_module, "CHUNK", 1024 * 1024)
    bodies = [{"v": 1, "seq": seq, "ts": "2026-01-01T00:00:00.000Z", "event": "tool_allowed",
               "reason": "r" * 200} for seq in range(1, 12001)]  # fmt: skip
    lines = chained(bodies)  # ~3 MB: several 1 MiB blocks
    assert sum(map(len, lines)) > 2 * 1024 * 1024
    target = 5000
    offset = sum(len(line) + 1 for line in lines[: target - 1])
    assert offset > 1024 * 1024
    lines[target - 1] = lines[target - 1].replace(b'"r', b'"R', 1)
    write_lines(ledger, lines)
    result = verify(ledger)
    assert result.first_bad_line == target and result.records == 12000
    assert result.bytes_checked == os.path.getsize(ledger.path)


# -- the head kept outside the workspace -----------------------------------------------------


def test_cut_off_last_lines_are_detected_through_the_head(ledger: Ledger, state_dir: Path) -> None:
    fill(ledger, 10)
    lines = read_lines(ledger)
    write_lines(ledger, lines[:8])  # the chain of what is left is perfect
    result = verify(ledger)
    assert result.first_bad_line is None
    assert not result.ok and result.head_status == "truncated"
    assert "seq 10" in str(result.head_detail) and "seq 8" in str(result.head_detail)
    assert result.head_path is not None and result.head_path.startswith(str(state_dir))
    assert "truncated" in result.message


def test_truncation_stays_reported_after_later_appends(ledger: Ledger) -> None:
    fill(ledger, 10)
    write_lines(ledger, read_lines(ledger)[:6])
    fill(ledger, 7)  # the file is now longer than before the cut, chain intact
    assert read_lines(ledger)[-1].startswith(b'{"v":1,"seq":13,')
    result = verify(ledger)
    assert result.first_bad_line is None
    assert not result.ok and result.head_status == "truncated"
    assert "head seq 10, ledger seq 6" in str(result.head_detail)
    incidents = saved_incidents(ledger)
    assert [item["kind"] for item in incidents] == ["truncated"]


def test_rewritten_last_line_is_detected_through_the_head(ledger: Ledger) -> None:
    fill(ledger, 5)
    lines = read_lines(ledger)
    lines[-1] = lines[-1].replace(b'"allow"', b'"deny"')
    write_lines(ledger, lines)
    result = verify(ledger)
    assert result.first_bad_line == 5 and "signature" in str(result.reason)
    assert not result.ok and result.head_status == "rewritten"
    fill(ledger, 1)  # the writer sees it too, and records the incident
    assert [item["kind"] for item in saved_incidents(ledger)] == ["rewritten"]


def test_forged_rewrite_followed_by_extra_lines_is_caught_by_the_writer(ledger: Ledger) -> None:
    fill(ledger, 5)
    lines = read_lines(ledger)
    bodies = [json.loads(line) for line in lines]
    bodies[4]["decision"] = "deny"  # rewrite line 5 and re-chain, then add lines 6-7
    bodies += [{**bodies[4], "seq": 6}, {**bodies[4], "seq": 7}]
    for body in bodies:
        body.pop("prev")
    write_lines(ledger, chained(bodies))
    assert verify(ledger).head_status == "rewritten"
    fill(ledger, 1)
    incidents = saved_incidents(ledger)
    assert incidents[0]["kind"] == "rewritten" and incidents[0]["head_seq"] == 5
    result = verify(ledger)
    assert result.first_bad_line is not None and result.head_status == "rewritten"


def test_head_behind_the_file_is_fine(ledger: Ledger) -> None:
    """A writer that stopped between its record and its head (a signed record the head
    does not know yet) is not an incident."""
    fill(ledger, 3)
    last = read_lines(ledger)[-1]
    extra = json.dumps(
        {"v": 1, "seq": 4, "ts": "t", "event": "manual", "prev": sha(last)}, separators=(",", ":")
    )
    previous_mac = str(json.loads(last)["mac"])
    signed, _mac = sign_line(extra.encode(), previous_mac, ledger.signer)
    with open(ledger.path, "ab") as handle:
        handle.write(signed + b"\n")
    result = verify(ledger)
    assert result.ok and result.head_status == "behind"


def test_missing_head_is_reported_but_not_a_failure(ledger: Ledger, tmp_path: Path) -> None:
    fill(ledger, 3)
    other = Ledger(
        ledger.path, workspace_root=ledger.workspace_root, state_dir=str(tmp_path / "elsewhere")
    )
    result = verify(other)
    assert result.ok and result.head_status == "missing"


def test_deleted_ledger_with_a_head_is_truncated(ledger: Ledger) -> None:
    fill(ledger, 3)
    os.unlink(ledger.path)
    result = verify(ledger)
    assert not result.ok and result.head_status == "truncated" and result.records == 0
    fill(ledger, 1)
    assert saved_incidents(ledger)[0]["kind"] == "truncated"


def test_unreadable_head(ledger: Ledger) -> None:
    fill(ledger, 3)
    with open(ledger.head_path, "r+b") as handle:
        data = handle.read()
        handle.seek(0)
        handle.write(data.replace(b'"seq"', b'"SEQ"'))
    result = verify(ledger)
    assert not result.ok and result.head_status == "unreadable"
    fill(ledger, 1)  # the writer starts a new head and keeps the incident
    assert any("unreadable" in warning for warning in ledger.warnings)
    result = verify(ledger)
    assert result.head_status == "unreadable" and "head_unreadable" in str(result.head_detail)


def test_a_torn_head_slot_falls_back_to_the_other_slot(ledger: Ledger) -> None:
    fill(ledger, 4)
    with open(ledger.head_path, "r+b") as handle:
        data = bytearray(handle.read())
        newest = 0 if b'"seq":4' in data[:256] else 256
        data[newest + 20 : newest + 40] = b" " * 20  # the slot being written was torn
        handle.seek(0)
        handle.write(bytes(data))
    result = verify(ledger)
    assert result.ok and result.head_status == "behind"
    fill(ledger, 1)
    assert verify(ledger).head_status == "ok"


def test_directory_in_place_of_the_ledger(ledger: Ledger) -> None:
    os.makedirs(ledger.path)
    with pytest.raises(LedgerError, match="directory"):
        verify(ledger)


# -- any single changed byte is found --------------------------------------------------------


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_changed_byte_is_detected_at_its_line_or_the_one_before(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    """Changing one byte of line k is reported at line k (its bytes, JSON or seq), at line
    k - 1 (when the byte was in k's own prev), or, for the last line, by the head."""
    root = tmp_path_factory.mktemp("ws")
    ledger = Ledger.for_workspace(str(root), durable=False, state_dir=str(root / "state"))
    count = data.draw(st.integers(min_value=1, max_value=6), label="records")
    for n in range(count):
        ledger.append({"event": "tool_allowed", "intent_id": "INT-1", "paths": [f"p{n}"], "n": n})
    lines = read_lines(ledger)
    k = data.draw(st.integers(min_value=1, max_value=count), label="line")
    position = data.draw(st.integers(min_value=0, max_value=len(lines[k - 1]) - 1), label="byte")
    old = lines[k - 1][position]
    new = data.draw(
        st.integers(min_value=0, max_value=255).filter(lambda b: b != old), label="value"
    )
    changed = bytearray(lines[k - 1])
    changed[position] = new
    lines[k - 1] = bytes(changed)
    write_lines(ledger, lines)
    result = verify(ledger)
    assert not result.ok
    if result.first_bad_line is None:
        assert k == count and result.head_status == "rewritten"
    else:
        assert result.first_bad_line in (k - 1, k) or (k == 1 and result.first_bad_line == 1)


def test_a_ledger_shared_between_machines(tmp_path: Path) -> None:
    """History signed elsewhere before this machine's records is accepted; a record signed
    with another key after them is named, until that key is trusted."""
    root = tmp_path / "ws"
    (root / ".orchestration").mkdir(parents=True)
    here = Ledger.for_workspace(str(root), state_dir=str(tmp_path / "here"), durable=False)
    there = Ledger.for_workspace(str(root), state_dir=str(tmp_path / "there"), durable=False)
    for _ in range(2):
        there.append({"event": "tool_allowed", "session_id": "a"})  # a teammate's history
    here.append({"event": "tool_allowed", "session_id": "b"})
    result = verify(here)
    assert result.ok and result.mac_status == "ok"
    assert (result.signed_elsewhere, result.signed_here) == (2, 1)
    there.append({"event": "tool_allowed", "session_id": "a"})  # after ours: line 4
    result = verify(here)
    assert not result.ok and result.first_bad_line == 4
    other_key = there.signer.key_id
    assert f"--trust-key {other_key}" in str(result.reason)
    trusted = verify(here, trust_keys=frozenset({other_key}))
    assert trusted.ok and trusted.signed_elsewhere == 3


def test_a_forged_record_fails_even_when_well_chained(ledger: Ledger) -> None:
    """An attacker can compute seq and prev, but not the signature: the forged line is named,
    and stays named after paw-tui appends past it."""
    fill(ledger, 3)
    last = read_lines(ledger)[-1]
    forged = {"v": 1, "seq": 4, "ts": "t", "event": "approval_granted", "prev": sha(last)}
    for mac in (None, json.loads(last)["mac"]):  # no signature, then a copied one
        lines = read_lines(ledger)[:3]
        body = dict(forged, mac=mac) if mac else forged
        lines.append(json.dumps(body, separators=(",", ":")).encode())
        write_lines(ledger, lines)
        ledger.append({"event": "tool_allowed", "session_id": "s"})
        result = verify(ledger)
        assert not result.ok and result.first_bad_line == 4, result.reason


# -- the fast path for lines signed here: the same verdicts without parsing JSON -------------


class _Parses:
    """Counts the lines ``verify`` parses as JSON (the slow path)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = verify_module._parse

        def counting(text: str) -> object:
            self.count += 1
            return real(text)

        monkeypatch.setattr(verify_module, "_parse", counting)


def _slow_only(ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """``verify`` with the fast path turned off: every line parsed and checked one by one."""
    with monkeypatch.context() as patch:
        patch.setattr(verify_module._FastMac, "of", classmethod(lambda cls, ledger, mac: None))
        return verify(ledger).to_dict()


def test_lines_signed_here_are_checked_without_parsing_them(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verify_module, "CHUNK", 4096)  # many blocks, lines cut across them
    fill(ledger, 300)
    parses = _Parses(monkeypatch)
    result = verify(ledger)
    assert result.ok and result.records == 300 and result.signed_here == 300
    assert result.head_status == "ok" and result.mac_status == "ok"
    assert parses.count == 0, "every line was taken on the fast path"
    assert _slow_only(ledger, monkeypatch) == result.to_dict()
    assert parses.count == 300, "the slow path parses each line once"


def test_a_ledger_without_the_key_here_is_checked_line_by_line(
    ledger: Ledger, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(ledger, 20)
    elsewhere = Ledger(
        ledger.path, workspace_root=ledger.workspace_root, state_dir=str(tmp_path / "no-key")
    )
    parses = _Parses(monkeypatch)
    result = verify(elsewhere)
    assert result.ok and result.records == 20 and result.mac_status == "no key"
    assert parses.count == 20


def _tamper(lines: list[bytes], how: str, k: int) -> list[bytes]:
    lines = list(lines)
    if how == "edited":
        lines[k - 1] = lines[k - 1].replace(b"src/", b"lib/", 1)
    elif how == "dropped":
        del lines[k - 1]
    elif how == "reordered":
        lines[k - 1], lines[k] = lines[k], lines[k - 1]
    elif how == "forged tail":
        last = json.loads(lines[-1])
        forged = {"v": 1, "seq": last["seq"] + 1, "ts": last["ts"], "event": "approval_granted",
                  "prev": sha(lines[-1]), "mac": last["mac"]}  # fmt: skip
        lines.append(json.dumps(forged, separators=(",", ":")).encode())
    elif how == "resigned with another key":
        lines[k - 1] = sign_line(lines[k - 1].rsplit(b',"mac":', 1)[0] + b"}", "", _other_key())[0]
    return lines


def _other_key() -> Mac:
    return Mac(b"\x01" * 32)


@pytest.mark.parametrize(
    ("how", "k", "bad_line", "reason"),
    [
        ("edited", 4, 4, "does not carry paw-tui's signature"),
        ("dropped", 4, 3, "no longer matches the prev of line 4"),
        ("reordered", 4, 3, "no longer matches the prev of line 4"),
        ("forged tail", 0, 9, "does not carry paw-tui's signature"),
        ("resigned with another key", 5, 5, "is signed with another key"),
    ],
)
def test_tampering_is_named_the_same_on_both_paths(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch, how: str, k: int, bad_line: int, reason: str
) -> None:
    fill(ledger, 8)
    write_lines(ledger, _tamper(read_lines(ledger), how, k))
    result = verify(ledger)
    assert not result.ok
    assert result.first_bad_line == bad_line, result.reason
    assert reason in str(result.reason)
    assert _slow_only(ledger, monkeypatch) == result.to_dict()


def test_a_half_written_tail_is_reported_then_repaired(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill(ledger, 6)
    whole = read_lines(ledger)
    with open(ledger.path, "ab") as handle:
        handle.write(whole[-1][: len(whole[-1]) // 2])  # a writer died mid-line
    parses = _Parses(monkeypatch)
    result = verify(ledger)
    assert result.torn_tail and result.records == 6 and result.first_bad_line == 7
    assert parses.count == 0, "the complete lines before it still took the fast path"
    assert _slow_only(ledger, monkeypatch) == result.to_dict()
    ledger.append({"event": "tool_allowed", "session_id": "s"})  # moves the torn bytes aside
    repaired = verify(ledger)
    assert repaired.ok and repaired.records == 8 and not repaired.torn_tail


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_both_paths_agree_on_any_changed_byte(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    root = tmp_path_factory.mktemp("ws")
    ledger = Ledger.for_workspace(str(root), durable=False, state_dir=str(root / "state"))
    for n in range(4):
        ledger.append({"event": "tool_allowed", "paths": [f"p{n}"], "n": n})
    lines = read_lines(ledger)
    k = data.draw(st.integers(min_value=1, max_value=4), label="line")
    position = data.draw(st.integers(min_value=0, max_value=len(lines[k - 1]) - 1), label="byte")
    value = data.draw(st.integers(min_value=0, max_value=255), label="value")
    changed = bytearray(lines[k - 1])
    changed[position] = value
    lines[k - 1] = bytes(changed)
    write_lines(ledger, lines)
    fast = verify(ledger).to_dict()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verify_module._FastMac, "of", classmethod(lambda cls, ledger, mac: None))
        slow = verify(ledger).to_dict()
    assert fast == slow


def test_a_line_restored_after_an_append_chained_to_its_forgery_is_named(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every signature holds, but line 6 chains to a version of line 5 that is gone: only
    the hash link shows it (the fast path checks it too)."""
    fill(ledger, 5)
    lines = read_lines(ledger)
    original = lines[-1]
    write_lines(ledger, [*lines[:-1], original.replace(b"src/", b"lib/", 1)])
    ledger.append({"event": "tool_allowed", "session_id": "s"})  # chains to the forgery
    lines = read_lines(ledger)
    write_lines(ledger, [*lines[:4], original, lines[5]])
    result = verify(ledger)
    assert result.first_bad_line == 5
    assert "no longer matches the prev of line 6" in str(result.reason)
    assert _slow_only(ledger, monkeypatch) == result.to_dict()


def test_a_signed_line_that_breaks_the_sequence_is_named(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Signed with the real key (as a faulty writer would), chained right, seq wrong."""
    fill(ledger, 3)
    lines = read_lines(ledger)
    last_mac = json.loads(lines[-1])["mac"]
    body = json.dumps(
        {"v": 1, "seq": 5, "ts": "2026-01-01T00:00:00.000Z", "event": "tool_allowed",
         "prev": sha(lines[-1])}, separators=(",", ":"),
    ).encode()  # fmt: skip
    write_lines(ledger, [*lines, sign_line(body, last_mac, ledger.signer)[0]])
    result = verify(ledger)
    assert result.first_bad_line == 4 and "seq is 5, expected 4" in str(result.reason)
    assert _slow_only(ledger, monkeypatch) == result.to_dict()


def test_unsigned_history_goes_straight_to_the_slow_path(
    ledger: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines from before records were signed: checked line by line, and the fast path is not
    set up again for each of them (that doubled their cost); the signed lines after them
    still take it."""
    history = chained(
        [{"v": 1, "seq": n, "ts": "2026-01-01T00:00:00Z", "event": "tool_allowed"}
         for n in range(1, 201)]
    )  # fmt: skip
    write_lines(ledger, history)
    fill(ledger, 30)  # signed here, chained to the history
    attempts: list[int] = []
    real = verify_module._Chain._feed_fast

    def counted(self: object, raws: list[bytes], index: int) -> int:
        attempts.append(index)
        return real(self, raws, index)  # type: ignore[arg-type]

    monkeypatch.setattr(verify_module._Chain, "_feed_fast", counted)
    result = verify(ledger)
    assert result.ok and result.records == 230 and result.signed_here == 30
    assert len(attempts) <= 2, attempts  # the signed run, not once per unsigned line
