"""Every record of the ledger is reachable in the trace view (DESIGN §11, issue 11 item 5),
and the first paint does not wait for the whole ledger to be indexed (issue 12 item 7).

The ledgers here are larger than what the first (tail) scan reads, so the older records
exist only once the background scan has been adopted."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from paw_tui.core.ledger import line_index
from paw_tui.core.ledger.store import Ledger
from paw_tui.tui.app import PawApp
from paw_tui.tui.widgets import trace_pane
from paw_tui.tui.widgets.trace_view import TraceView

from .pilot_wait import until

SIZE = (120, 36)
RECORDS = 3000


def big_ledger(root: Path, count: int) -> None:
    """``count`` plain records (seq 1..count) in place of the fixture's ledger."""
    path = root / ".orchestration" / "agent_trace.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        for seq in range(1, count + 1):
            record = {
                "v": 1,
                "seq": seq,
                "ts": "2026-01-01T00:00:00Z",
                "event": "tool_allowed" if seq % 4 else "tool_denied",
                "decision": "allow" if seq % 4 else "deny",
                "session_id": f"s{seq % 7}",
                "intent_id": "INT-001",
                "tool": "Write",
                "paths": [f"src/auth/file{seq}.py"],
            }
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")


def seq_at_row(view: TraceView, row: int) -> object:
    record = view.index.record(view.line_of(row))
    return None if record is None else record.get("seq")


def top_row(view: TraceView) -> int:
    return round(view.scroll_offset.y)


def newest_visible(view: TraceView, newest: int) -> bool:
    if not view.row_count:
        return False
    top = top_row(view)
    bottom = view.row_count - 1
    return seq_at_row(view, bottom) == newest and top <= bottom < top + view.size.height


@pytest.mark.anyio
async def test_g_and_paging_reach_the_first_record_of_a_few_thousand(
    workspace: Path, user_dir: str
) -> None:
    big_ledger(workspace, RECORDS)
    assert RECORDS > trace_pane.FIRST_PAINT_LINES  # the older records come from the full scan
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(TraceView)
        await until(pilot, lambda: view.index.fully_indexed and view.row_count == RECORDS)
        await until(pilot, lambda: newest_visible(view, RECORDS))
        # what the index holds in memory: one 4-byte offset per record, no record
        assert len(view.index.offsets) == RECORDS and view.index.offsets.itemsize == 4
        view.focus()
        await pilot.press("g")
        await until(pilot, lambda: top_row(view) == 0)
        assert view.cursor == 0 and seq_at_row(view, 0) == 1
        await pilot.press("G")
        await until(pilot, lambda: newest_visible(view, RECORDS))
        assert view.following
        # page by page from the newest to the oldest, as a person scrolling back would
        pages = RECORDS // max(1, view.size.height - 1) + 2
        for _ in range(pages):
            await pilot.press("pageup")
        await until(pilot, lambda: top_row(view) == 0 and view.cursor == 0)
        assert seq_at_row(view, top_row(view)) == 1


@pytest.mark.anyio
async def test_first_paint_reads_only_the_tail_and_appends_during_the_scan_are_kept(
    workspace: Path, user_dir: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The newest record is on screen while the full scan is held back, having parsed no
    more records than fit the screen; records appended meanwhile survive the adoption of
    the full index, and the cursor stays on the record it was on."""
    big_ledger(workspace, RECORDS)
    release = threading.Event()
    started = threading.Event()
    real_scan_head = line_index.scan_head

    def held_scan_head(*args, **kwargs):  # type: ignore[no-untyped-def]
        started.set()
        release.wait(30)
        return real_scan_head(*args, **kwargs)

    monkeypatch.setattr(trace_pane, "scan_head", held_scan_head)
    parsed: list[int] = []
    real_record = line_index.TraceIndex.record

    def counting_record(self: line_index.TraceIndex, index: int) -> dict[str, object] | None:
        if index not in self._cache:
            parsed.append(index)
        return real_record(self, index)

    monkeypatch.setattr(line_index.TraceIndex, "record", counting_record)
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            view = app.query_one(TraceView)
            await until(pilot, lambda: started.is_set() and newest_visible(view, RECORDS))
            assert not view.index.fully_indexed
            assert len(view.index) <= trace_pane.FIRST_PAINT_LINES
            assert len(parsed) <= 2 * SIZE[1], f"{len(parsed)} records parsed before first paint"
            # a record appended while the older lines are still being indexed
            Ledger.for_workspace(str(workspace)).append(
                {"event": "tool_allowed", "session_id": "live", "decision": "allow"}
            )
            await until(pilot, lambda: newest_visible(view, RECORDS + 1))
            view.focus()
            await pilot.press("up", "up")
            held = seq_at_row(view, view.cursor)
            assert held == RECORDS - 1 and not view.following
            release.set()
            await until(pilot, lambda: view.index.fully_indexed)
            await until(pilot, lambda: view.row_count == RECORDS + 1)
            assert seq_at_row(view, view.cursor) == held  # the same record under the cursor
            top = top_row(view)
            assert top <= view.cursor < top + view.size.height
            assert [seq_at_row(view, row) for row in (0, 1, RECORDS)] == [1, 2, RECORDS + 1]
    finally:
        release.set()


@pytest.mark.anyio
async def test_a_filter_set_before_the_older_records_arrive_covers_them(
    workspace: Path, user_dir: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    big_ledger(workspace, RECORDS)
    release = threading.Event()
    real_scan_head = line_index.scan_head

    def held_scan_head(*args, **kwargs):  # type: ignore[no-untyped-def]
        release.wait(30)
        return real_scan_head(*args, **kwargs)

    monkeypatch.setattr(trace_pane, "scan_head", held_scan_head)
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            view = app.query_one(TraceView)
            await until(pilot, lambda: newest_visible(view, RECORDS))
            app.query_one(trace_pane.TracePane).set_filter("decision:deny")
            tail_denials = len(view.index) // 4
            await until(pilot, lambda: view.rows is not None and view.row_count >= tail_denials)
            release.set()
            await until(pilot, lambda: view.index.fully_indexed)
            await until(pilot, lambda: view.rows is not None and view.row_count == RECORDS // 4)
            seqs = [seq_at_row(view, row) for row in range(view.row_count)]
            assert seqs == list(range(4, RECORDS + 1, 4))
    finally:
        release.set()


def test_offsets_widen_when_the_ledger_outgrows_the_compact_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offsets are held in 4 bytes while the file is under 4 GiB (a limit lowered here to a
    few records): lines appended past it, and older lines joined to such an index, keep
    every record readable."""
    monkeypatch.setattr(line_index, "COMPACT_LIMIT", 300)
    path = tmp_path / "t.jsonl"

    def write(first: int, count: int, mode: str) -> None:
        with open(path, mode) as handle:
            for seq in range(first, first + count):
                handle.write(json.dumps({"seq": seq, "pad": "x" * 20}) + "\n")

    write(1, 5, "w")  # about 200 bytes: compact
    index = line_index.TraceIndex(str(path))
    tail = line_index.scan_tail(str(path), 3)
    index.adopt(tail)
    assert index.offsets.typecode == line_index.COMPACT and not index.fully_indexed
    write(6, 10, "a")  # past the limit
    index.apply(index.poll())
    assert len(index) == 13
    head = line_index.scan_head(str(path), tail)  # the older lines, compact, joined in front
    assert head is not None and head.offsets.typecode == line_index.COMPACT
    assert index.adopt(head) == 2
    assert index.fully_indexed and len(index) == 15
    assert [(index.record(i) or {}).get("seq") for i in range(15)] == list(range(1, 16))
