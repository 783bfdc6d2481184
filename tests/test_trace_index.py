"""The line-offset index the TUI's trace view reads the ledger through."""

from __future__ import annotations

import json
import os
from pathlib import Path

from paw_tui.core.ledger.line_index import (
    APPENDED,
    MISSING,
    RESET,
    UNCHANGED,
    TraceIndex,
    scan_head,
    scan_tail,
)


def write_records(path: Path, count: int, start: int = 1, mode: str = "w") -> None:
    with open(path, mode) as handle:
        for seq in range(start, start + count):
            decision = "deny" if seq % 3 == 0 else "allow"
            handle.write(
                json.dumps(
                    {"seq": seq, "decision": decision, "intent_id": f"INT-{seq % 2}"},
                    separators=(",", ":"),
                )
                + "\n"
            )


def seq_at(index: TraceIndex, position: int) -> object:
    """The ``seq`` of the record at ``position`` (which must be readable)."""
    record = index.record(position)
    assert record is not None
    return record["seq"]


def loaded(path: Path, tail: int = 5) -> TraceIndex:
    index = TraceIndex(str(path))
    first = scan_tail(str(path), tail)
    index.adopt(first)
    full = scan_head(str(path), first)
    assert full is not None
    index.adopt(full)
    return index


def test_tail_first_then_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    write_records(path, 100)
    tail = scan_tail(str(path), 10)
    assert len(tail.offsets) == 10 and tail.complete_from > 0
    index = TraceIndex(str(path))
    index.adopt(tail)
    assert seq_at(index, len(index) - 1) == 100  # the newest is readable at once
    assert not index.fully_indexed
    full = scan_head(str(path), tail)
    assert full is not None
    index.adopt(full)
    assert index.fully_indexed and len(index) == 100
    assert [seq_at(index, i) for i in (0, 50, 99)] == [1, 51, 100]


def test_a_small_file_is_complete_from_the_tail_scan(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    write_records(path, 3)
    tail = scan_tail(str(path), 10)
    assert list(tail.offsets)[0] == 0 and tail.complete_from == 0


def test_a_torn_last_line_is_not_indexed_until_it_is_complete(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    write_records(path, 4)
    with open(path, "a") as handle:
        handle.write('{"seq":5,"decis')
    index = loaded(path)
    assert len(index) == 4
    assert index.poll().kind == UNCHANGED
    with open(path, "a") as handle:
        handle.write('ion":"allow"}\n')
    update = index.poll()
    assert update.kind == APPENDED and update.added == 1
    index.apply(update)
    assert seq_at(index, 4) == 5


def test_poll_does_not_change_the_index_until_applied(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    write_records(path, 4)
    index = loaded(path)
    write_records(path, 3, start=5, mode="a")
    update = index.poll()
    assert len(index) == 4 and update.added == 3
    index.apply(update)
    assert len(index) == 7 and seq_at(index, 6) == 7


def test_truncation_and_replacement_reset_the_index(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    write_records(path, 10)
    index = loaded(path)
    generation = index.generation
    write_records(path, 2)  # truncated and rewritten, same inode
    assert index.poll().kind == RESET
    index.apply(index.poll())
    assert len(index) == 0 and index.generation > generation
    index = loaded(path)
    other = tmp_path / "other.jsonl"
    write_records(other, 20)
    os.replace(other, path)  # a new inode, larger than before
    assert index.poll().kind == RESET
    os.unlink(path)
    assert index.poll().kind == MISSING


def test_matching_streams_the_file(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    write_records(path, 30)
    index = loaded(path)
    rows = index.matching([b'"decision":"deny"'])
    assert rows is not None
    assert [seq_at(index, i) for i in rows] == [s for s in range(1, 31) if s % 3 == 0]
    both = index.matching([b'"decision":"deny"', b'"intent_id":"INT-0"'])
    assert both is not None
    assert [seq_at(index, i) for i in both] == [s for s in range(1, 31) if s % 6 == 0]
    assert index.matching([b"x"], should_stop=lambda: True) is None


def test_a_missing_file_then_a_new_one(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    index = TraceIndex(str(path))
    index.adopt(scan_tail(str(path)))
    assert index.poll().kind == UNCHANGED
    write_records(path, 2)
    update = index.poll()
    assert update.kind == APPENDED and update.added == 2
    index.apply(update)
    assert seq_at(index, 1) == 2
