"""A trace for reading (DESIGN §11 Trace; issue 18): the day on older rows, events and tools
whole with the reason where there is width, the highlighted record's fields beside the list
on a wide screen, and filters by path, event, tool and free text that name what they do not
know."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from paw_tui.cli import main
from paw_tui.core.ledger.query import parse_filter
from paw_tui.core.ledger.records import EVENTS
from paw_tui.tui.app import PawApp
from paw_tui.tui.widgets.record_fields import RecordFields
from paw_tui.tui.widgets.trace_pane import TracePane
from paw_tui.tui.widgets.trace_view import TraceView

from .conftest import ledger_lines
from .pilot_wait import until

WIDE = (160, 48)
DAY = 24 * 3600.0


def screen_lines(view: TraceView) -> list[str]:
    return [view.render_line(y).text for y in range(view.scrollable_content_region.height)]


def text_of(app: PawApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


def set_blocked(root: Path) -> None:
    assert main(["intents", "set-status", "INT-001", "BLOCKED", "--workspace", str(root)]) == 0


@pytest.mark.anyio
async def test_rows_not_from_today_show_their_day(workspace: Path, user_dir: str) -> None:
    records = ledger_lines(workspace)
    day = str(records[-1]["ts"])[5:10]  # MM-DD
    a_week_later = time.time() + 7 * DAY
    for clock, dated in ((time.time, False), (lambda: a_week_later, True)):
        app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False, clock=clock)
        async with app.run_test(size=(100, 30)) as pilot:
            app.main.action_focus_pane("trace")
            view = app.query_one(TraceView)
            await until(pilot, lambda v=view: v.row_count == len(records))  # type: ignore[misc]
            await pilot.pause()
            shown = [line for line in screen_lines(view) if line.strip()]
            assert len(shown) == len(records)
            assert all(line.startswith(f"{day} ") == dated for line in shown), shown


@pytest.mark.anyio
async def test_zoomed_wide_trace_shows_events_tools_reasons_whole_and_the_fields(
    workspace: Path, user_dir: str
) -> None:
    set_blocked(workspace)
    records = ledger_lines(workspace)
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=WIDE) as pilot:
        view = app.query_one(TraceView)
        await until(pilot, lambda: view.row_count == len(records))
        await pilot.press("4", "z")
        pane = app.query_one(TracePane)
        await until(pilot, lambda: pane.has_class("-wide"))
        await pilot.pause()
        text = "\n".join(screen_lines(view))
        assert "intent_status_changed" in text and "…" not in text.split("intent_status")[1][:12]
        assert "mcp__paw__select_active_intent" in text
        denial = next(r for r in records if r["decision"] == "deny")
        assert str(denial["reason"])[:10] in text  # the reason, where there is width
        width = view.scrollable_content_region.width
        # no blank stretch: a line with a reason runs to the edge
        reasoned = [line for line in screen_lines(view) if "You must" in line]
        assert reasoned and all(len(line.rstrip()) == width for line in reasoned)
        # the highlighted (newest) record's fields beside the list, not its JSON
        fields = app.query_one(RecordFields)
        assert fields.region.width > 0
        body = fields.text
        assert "intent_status_changed" in body and "status_to" in body and "BLOCKED" in body
        assert "{" not in body
        # the fields follow the cursor
        await pilot.press("g")
        await until(pilot, lambda: "event: tool_denied" in fields.text)
        assert str(records[0]["paths"][0]) in fields.text  # type: ignore[index]
        # un-zoomed, the pane is too narrow for them
        await pilot.press("z")
        await until(pilot, lambda: not pane.has_class("-wide"))
        assert fields.region.width == 0


@pytest.mark.anyio
async def test_path_event_tool_and_free_text_filters(workspace: Path, user_dir: str) -> None:
    set_blocked(workspace)
    records = ledger_lines(workspace)
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=WIDE) as pilot:
        view = app.query_one(TraceView)
        await until(pilot, lambda: view.row_count == len(records))
        field = app.query_one("#trace-filter", Input)
        pane = app.query_one(TracePane)

        async def shows(text: str, expected: list[dict[str, object]]) -> None:
            field.value = text
            await until(
                pilot,
                lambda: (
                    pane.filter_text == text
                    and view.rows is not None
                    and [view.line_of(r) for r in range(view.row_count)]
                    == [records.index(r) for r in expected]
                ),
            )

        await shows("path:AUTH/a", [r for r in records if "src/auth/a.py" in r.get("paths", [])])  # type: ignore[operator]
        await shows("event:MUTATION", [r for r in records if r["event"] == "mutation"])
        await shows("tool:write", [r for r in records if r.get("tool") == "Write"])
        scoped = [r for r in records if "Scope Violation" in str(r.get("reason", ""))]
        assert scoped
        await shows("violation", scoped)  # free text: the reason
        await shows("docs/readme", scoped)  # free text: a path
        await shows(
            "SELECT_ACTIVE",  # the handshake tool's records, and reasons that name it
            [r for r in records if "select_active" in f"{r.get('tool')} {r.get('reason')}"],
        )
        # an unknown event is named, with the valid ones, not a silent "0 matches"
        field.value = "event:mutaton"
        await until(pilot, lambda: "mutaton" in text_of(app, "#trace-hint"))
        hint = text_of(app, "#trace-hint")
        assert "Did you mean mutation?" in hint and "intent_status_changed" in hint


@pytest.mark.parametrize(
    ("text", "keeps"),
    [
        ("path:src/auth", True),
        ("path:SRC/AUTH/A.PY", True),
        ("path:docs", False),
        ("event:tool_denied", True),
        ("EVENT:Tool_Denied", True),
        ("tool:WRITE", True),
        ("tool:Edit", False),
        ("scope violation", True),
        ("violation nothing-like-this", False),
        ("a.py", True),
    ],
)
def test_filter_terms_and_their_prefilter(text: str, keeps: bool) -> None:
    record: dict[str, object] = {
        "event": "tool_denied",
        "tool": "Write",
        "decision": "deny",
        "paths": ["src/auth/a.py"],
        "reason": "Scope Violation: INT-001 is not authorized ...",
    }
    wanted = parse_filter(text)
    assert wanted and not wanted.problems
    assert wanted.matches(record) is keeps
    if keeps:  # the byte pre-filter never drops a line the filter keeps
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
        assert all(needle in line for needle in wanted.needles())


def test_unknown_events_and_decisions_are_named_with_the_valid_ones() -> None:
    wanted = parse_filter("event:mutaton decision:maybe")
    assert not wanted
    event_problem, decision_problem = wanted.problems
    assert "event 'mutaton' is unknown. Did you mean mutation?" in event_problem
    assert all(event in event_problem for event in EVENTS)
    assert "allow, deny, pending, breach" in decision_problem
