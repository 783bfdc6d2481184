"""Readable at every size from 80x24 up, a trace filter that talks back, and the small things
(copy, an empty workspace, counts in words)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Static

from paw_tui.tui.app import PawApp
from paw_tui.tui.display import elide_middle
from paw_tui.tui.widgets.trace_line import line_cells, plain, plan_columns
from paw_tui.tui.widgets.trace_pane import TracePane
from paw_tui.tui.widgets.trace_view import TraceView

from .conftest import ledger_lines
from .pilot_wait import on_screen, until
from .test_app import text_of

PANES = ("#instructions", "#intents", "#scope", "#trace")
PATH = "src/acme_billing/observability/json_logging.py"
RECORD: dict[str, object] = {
    "seq": 7,
    "ts": "2026-11-20T09:08:12.506Z",
    "event": "tool_denied",
    "decision": "deny",
    "intent_id": "INT-005",
    "session_id": "4b2d451c-62f7-46b4-84e6-1ceb95bd447e",
    "tool": "Write",
    "paths": [PATH],
}


# -- the trace line --------------------------------------------------------------------------
def test_elide_middle_keeps_the_file_name() -> None:
    path = "src/acme_billing/observability/json_logging.py"
    assert elide_middle(path, 100) == path
    for width in (20, 25, 30, 40):
        short = elide_middle(path, width)
        assert len(short) == width and short.endswith("/json_logging.py") and "…" in short
    tiny = elide_middle(path, 10)  # the name alone is too long: its end stays
    assert len(tiny) == 10 and tiny.startswith("…") and tiny.endswith("logging.py"[-9:])


@pytest.mark.parametrize("width", [44, 50, 76, 120, 158])
def test_a_trace_line_fits_its_width_in_order_of_importance(width: int) -> None:
    line = plain(RECORD, width)
    assert len(line) <= width
    assert line.startswith("09:08:12 ")
    assert "tool_denied" in line and "json_logging.py" in line
    # time, decision, event, then the path: always, whatever the width
    assert line.index("tool_denied") < line.index("json_logging.py")
    columns = plan_columns([RECORD], width)
    if width >= 120:
        assert "INT-005" in line and "4b2d451c" in line and "Write" in line
        assert PATH in line  # the whole path once there is room
    if width < 100:
        assert "✗" in line and " deny " not in line  # a mark, not the word
    else:
        assert "deny" in line
    assert columns.subject > 0


def test_columns_are_as_wide_as_the_records_on_screen() -> None:
    short = {**RECORD, "event": "mutation", "paths": ["a.py"]}
    narrow = plan_columns([short], 120)
    wide = plan_columns([short, RECORD], 120)
    assert narrow.event == len("mutation") and wide.event == len("tool_denied")
    cells = line_cells(short, narrow)
    assert [c.part for c in cells if c.part != "gap"][:3] == ["time", "mark", "event"]


# -- sizes -----------------------------------------------------------------------------------
@pytest.mark.anyio
async def test_at_80x24_every_pane_is_a_tab_with_its_essentials(
    workspace: Path, user_dir: str
) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(TraceView)
        await until(pilot, lambda: view.row_count > 0)
        assert app.main.has_class("-narrow")
        for number, pane in enumerate(PANES, 1):
            await pilot.press(str(number))
            await pilot.pause()
            region = app.query_one(pane).region
            assert region.width >= 78 and region.height >= 16, (pane, region)
            others = [p for p in PANES if p != pane]
            assert all(app.query_one(p).region.width == 0 for p in others)
        # intents: the holder column survives at 80 columns
        await pilot.press("2")
        table = app.query_one("#intents-table", DataTable)
        await until(pilot, lambda: table.row_count == 3)
        assert str(table.get_cell("INT-001", "held")) == "s1"
        held = table.ordered_columns[2]
        assert str(held.label) == "HELD BY" and held.content_width >= 2
        # instructions: the context text has rows of its own, tokens a real estimate
        await pilot.press("1")
        await until(pilot, lambda: app.query("#layers-table"))
        layers = app.query_one("#layers-table", DataTable)
        await until(pilot, lambda: layers.row_count == 3)
        await pilot.pause()
        assert app.query_one("#context-scroll").region.height >= 5
        tokens = str(layers.get_row_at(0)[3])
        assert tokens.startswith("~") and int(tokens[1:].replace(",", "")) > 1
        # the footer offers zoom, prompt and help
        footer_keys = {b.binding.action for b in app.screen.active_bindings.values()}
        assert {"zoom", "show_prompt", "help"} <= footer_keys


@pytest.mark.anyio
async def test_at_160x48_the_four_panes_sit_side_by_side(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=(160, 48)) as pilot:
        view = app.query_one(TraceView)
        await until(pilot, lambda: view.row_count > 0)
        assert not app.main.has_class("-narrow")
        regions = [app.query_one(p).region for p in PANES]
        assert all(r.width >= 70 and r.height >= 18 for r in regions), regions
        assert regions[0].y == regions[1].y and regions[0].x < regions[1].x
        assert app.query_one("#pane-tabs").region.height == 0
        # the trace line reaches the paths and beyond, in a pane half the screen wide
        paths = ledger_lines(workspace)[-1].get("paths")
        assert isinstance(paths, list) and paths
        strip = view.render_line(view.cursor - round(view.scroll_offset.y))
        text = "".join(segment.text for segment in strip)
        assert str(paths[0]).rsplit("/", 1)[-1] in text


# -- the trace filter talks back -------------------------------------------------------------
@pytest.mark.anyio
async def test_the_trace_filter_names_what_it_cannot_use(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=(160, 48)) as pilot:
        view = app.query_one(TraceView)
        records = ledger_lines(workspace)
        await until(pilot, lambda: view.row_count == len(records))
        pane = app.query_one(TracePane)
        field = app.query_one("#trace-filter", Input)
        field.value = "intnet:INT-001"
        await until(pilot, lambda: "intnet" in text_of(app, "#trace-hint"))
        hint = text_of(app, "#trace-hint")
        assert "Did you mean intent?" in hint and "session:" in hint and "decision:" in hint
        field.value = "intent:INT-01"
        await until(pilot, lambda: "No intent 'INT-01'" in text_of(app, "#trace-hint"))
        assert "Did you mean INT-001" in text_of(app, "#trace-hint")
        field.value = "decision:maybe"
        await until(pilot, lambda: "maybe" in text_of(app, "#trace-hint"))
        assert "allow, deny, pending, breach" in text_of(app, "#trace-hint")
        # ids and session prefixes ignore case; the count is shown
        expected = [r for r in records if r.get("intent_id") == "INT-001"]
        field.value = "intent:int-001"
        await until(pilot, lambda: view.rows is not None and view.row_count == len(expected))
        assert not app.query_one("#trace-hint").display
        assert f"{len(expected)} matches" in text_of(app, "#trace-status")
        field.value = "session:S"
        s1 = [r for r in records if str(r.get("session_id", "")).startswith("s")]
        await until(pilot, lambda: view.row_count == len(s1) and pane.filter_text == "session:S")
        field.value = "decision:DENY"
        denials = [r for r in records if r.get("decision") == "deny"]
        await until(pilot, lambda: view.row_count == len(denials) and "DENY" in pane.filter_text)
        word = "match" if len(denials) == 1 else "matches"
        assert f"{len(denials)} {word}" in text_of(app, "#trace-status")


# -- small things ----------------------------------------------------------------------------
@pytest.mark.anyio
async def test_c_copies_the_selected_record(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(TraceView)
        count = len(ledger_lines(workspace))
        await until(pilot, lambda: view.row_count == count)
        await pilot.press("4", "k", "c")
        copied = json.loads(app.clipboard)
        assert copied["seq"] == count - 1
        assert any(f"record #{count - 1}" in n.message for n in app._notifications)


@pytest.mark.anyio
async def test_an_empty_workspace_says_what_to_do_next(workspace: Path, user_dir: str) -> None:
    (workspace / ".orchestration" / "agent_trace.jsonl").unlink()
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4")
        await until(pilot, lambda: "paw-tui install" in text_of(app, "#trace-hint"))
        assert "0 records" in text_of(app, "#trace-status")


@pytest.mark.anyio
async def test_one_record_is_one_record(workspace: Path, user_dir: str) -> None:
    path = workspace / ".orchestration" / "agent_trace.jsonl"
    path.write_bytes(path.read_bytes().splitlines(keepends=True)[0])
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(TraceView)
        await until(pilot, lambda: view.row_count == 1)
        status = text_of(app, "#trace-status")
        assert status.startswith("1 record ") and "records" not in status
        assert isinstance(app.query_one("#trace-status"), Static)


@pytest.mark.anyio
async def test_the_record_detail_copies_too(workspace: Path, user_dir: str) -> None:
    from paw_tui.tui.dialogs.record_detail import RecordDetail

    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(TraceView)
        count = len(ledger_lines(workspace))
        await until(pilot, lambda: view.row_count == count)
        await pilot.press("4", "enter")
        await until(pilot, lambda: on_screen(app, RecordDetail))
        await pilot.press("c")
        assert json.loads(app.clipboard)["seq"] == count


@pytest.mark.anyio
async def test_a_scope_breach_stands_out_over_its_whole_line(
    workspace: Path, user_dir: str
) -> None:
    from paw_tui.core.ledger.store import Ledger

    Ledger.for_workspace(str(workspace)).append(
        {
            "event": "scope_breach",
            "decision": "breach",
            "session_id": "s1",
            "intent_id": "INT-001",
            "tool": "Bash",
            "paths": ["docs/readme.md"],
        }
    )
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=(160, 48)) as pilot:
        view = app.query_one(TraceView)
        count = len(ledger_lines(workspace))
        await until(pilot, lambda: view.row_count == count)
        await pilot.press("4", "k")  # the cursor off the newest line, the breach
        await pilot.pause()
        top = round(view.scroll_offset.y)
        breach = view.render_line(count - 1 - top)
        allowed = view.render_line(count - 3 - top)
        breach_backgrounds = {s.style.bgcolor for s in breach if s.text.strip() and s.style}
        assert len(breach_backgrounds) == 1 and None not in breach_backgrounds
        assert "scope_breach" in "".join(s.text for s in breach)
        assert breach_backgrounds != {s.style.bgcolor for s in allowed if s.style}


@pytest.mark.parametrize(
    "text",
    ["int-005", "INT-005", "session:4B2D", "session:4b2d451c-62f7", "decision:DENY", "tool:write"],
)
def test_the_byte_prefilter_never_drops_a_match(text: str) -> None:
    from paw_tui.core.ledger.query import parse_filter

    wanted = parse_filter(text)
    assert wanted and not wanted.problems
    line = json.dumps(RECORD, separators=(",", ":")).encode()
    assert wanted.matches(RECORD)
    assert all(needle in line for needle in wanted.needles())
    other = {**RECORD, "intent_id": "INT-006", "session_id": "9c", "decision": "allow"}
    other["tool"] = "Read"
    assert not wanted.matches(other)
