"""The TUI through Textual's pilot: every pane, the approval flow, the live trace."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select, Static

from paw_tui.core.context.format import format_context
from paw_tui.core.context.tool import get_context
from paw_tui.core.handshake.approvals import pending_requests
from paw_tui.core.ledger.store import Ledger
from paw_tui.tui.app import PawApp
from paw_tui.tui.dialogs.approval import TITLE, ApprovalModal
from paw_tui.tui.dialogs.confirm import ChoiceModal, ConfirmModal
from paw_tui.tui.dialogs.record_detail import RecordDetail
from paw_tui.tui.widgets.trace_pane import TracePane
from paw_tui.tui.widgets.trace_view import TraceView

from .conftest import approvals_required, claude, gate, ledger_lines, select, write
from .pilot_wait import answer, modal_on_screen, on_screen, until

SIZE = (140, 44)


def text_of(app: PawApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


def trace_rows(app: PawApp) -> list[dict[str, object] | None]:
    view = app.query_one(TraceView)
    return [view.index.record(view.line_of(row)) for row in range(view.row_count)]


@pytest.mark.anyio
async def test_first_intent_is_highlighted_and_scope_is_filled(
    workspace: Path, user_dir: str
) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one("#intents-table", DataTable)
        await until(pilot, lambda: table.row_count == 3)
        assert table.cursor_row == 0
        await until(pilot, lambda: "INT-001" in text_of(app, "#scope-details"))
        details = text_of(app, "#scope-details")
        for expected in (
            "src/auth/**",
            "!src/auth/legacy/**",
            "Must not use external auth providers",
            "Unit tests in tests/auth/ pass",
        ):
            assert expected in details
        # the holder of INT-001 is shown
        assert str(table.get_cell("INT-001", "held")) == "s1"
        # touched files come from the ledger index, with their recorded hash
        await until(pilot, lambda: "src/auth/a.py" in text_of(app, "#scope-touched"))
        recorded = next(r for r in ledger_lines(workspace) if r["event"] == "mutation")
        digest = str(recorded["content_hash"]).split(":")[1][:10]
        assert digest in text_of(app, "#scope-touched")


@pytest.mark.anyio
async def test_intent_filter_narrows_as_you_type(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one("#intents-table", DataTable)
        await until(pilot, lambda: table.row_count == 3)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"invoice")
        await until(pilot, lambda: table.row_count == 1)
        assert table.get_row_at(0)[0] == "INT-002"
        # the scope pane follows the highlighted (only) intent
        await until(pilot, lambda: "INT-002" in text_of(app, "#scope-details"))
        # q types into the field instead of quitting
        await pilot.press("q")
        assert app.is_running
        assert app.query_one("#intent-filter", Input).value == "invoiceq"


@pytest.mark.anyio
async def test_vim_keys_move_through_the_intents(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one("#intents-table", DataTable)
        await until(pilot, lambda: table.row_count == 3)
        table.focus()
        await pilot.press("j", "j")
        assert table.cursor_row == 2
        await until(pilot, lambda: "INT-003" in text_of(app, "#scope-details"))
        await pilot.press("k")
        assert table.cursor_row == 1


@pytest.mark.anyio
async def test_path_tester_names_the_deciding_pattern(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "INT-001" in text_of(app, "#scope-details"))
        field = app.query_one("#scope-test", Input)
        field.value = "src/auth/jwt.py"
        await until(pilot, lambda: "allow" in text_of(app, "#scope-result"))
        assert "#0 'src/auth/**'" in text_of(app, "#scope-result")
        field.value = "src/auth/legacy/old.py"
        await until(pilot, lambda: "deny" in text_of(app, "#scope-result"))
        assert "excluded" in text_of(app, "#scope-result") and "!src/auth/legacy/**" in text_of(
            app, "#scope-result"
        )
        field.value = ".orchestration/active_intents.yaml"
        await until(pilot, lambda: "protected" in text_of(app, "#scope-result"))


@pytest.mark.anyio
async def test_instruction_layers_and_exact_context_text(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.query("#layers-table"))  # built after the first paint
        layers = app.query_one("#layers-table", DataTable)
        await until(pilot, lambda: layers.row_count == 3)
        statuses = {str(layers.get_row_at(i)[0]): str(layers.get_row_at(i)[1]) for i in range(3)}
        # "Claude Code" is first alphabetically and has both layers
        assert statuses == {"workspace": "WINS", "user": "SHADOWED", "agent defaults": "SHADOWED"}
        expected = format_context(
            get_context(
                "auth-system", "Claude Code", roots=[str(workspace)], user_instructions_dir=user_dir
            )
        )
        await until(pilot, lambda: text_of(app, "#context-text") == expected)
        # a user-only agent wins from the user layer; an empty file is EMPTY
        field = app.query_one("#agent-input", Input)
        field.value = "Codex"
        await until(
            pilot, lambda: str(layers.get_row_at(0)[1]) == "MISSING" and layers.row_count == 3
        )
        assert str(layers.get_row_at(1)[1]) == "WINS"
        field.value = "Empty Agent"
        await until(pilot, lambda: str(layers.get_row_at(0)[1]) == "EMPTY")
        assert str(layers.get_row_at(2)[1]) == "WINS"


@pytest.mark.anyio
async def test_trace_first_paint_shows_the_newest_record(workspace: Path, user_dir: str) -> None:
    records = ledger_lines(workspace)
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(TraceView)
        await until(pilot, lambda: view.row_count == len(records))
        assert view.cursor == len(records) - 1

        def newest_in_view() -> bool:
            top = round(view.scroll_offset.y)
            return top <= view.cursor < top + view.scrollable_content_region.height

        await until(pilot, newest_in_view)
        status = text_of(app, "#trace-status")
        assert f"{len(records)} records" in status
        await until(pilot, lambda: "chain: verified" in text_of(app, "#trace-status"))


@pytest.mark.anyio
async def test_live_tail_shows_a_new_record_without_a_key_press(
    workspace: Path, user_dir: str
) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(TraceView)
        before = len(ledger_lines(workspace))
        await until(pilot, lambda: view.row_count == before)
        appended = threading.Thread(
            target=lambda: Ledger.for_workspace(str(workspace)).append(
                {
                    "event": "tool_allowed",
                    "session_id": "live",
                    "intent_id": "INT-001",
                    "decision": "allow",
                    "tool": "Write",
                }
            )
        )
        appended.start()
        appended.join()
        await until(pilot, lambda: view.row_count == before + 1)
        newest = view.index.record(view.line_of(view.row_count - 1))
        assert newest is not None and newest["session_id"] == "live"
        assert view.cursor == view.row_count - 1  # still following


@pytest.mark.anyio
async def test_new_records_hint_while_scrolled_up(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(TraceView)
        count = len(ledger_lines(workspace))
        await until(pilot, lambda: view.row_count == count)
        view.focus()
        await pilot.press("g")
        assert view.cursor == 0 and not view.following
        ledger = Ledger.for_workspace(str(workspace))
        for _ in range(3):
            ledger.append({"event": "tool_allowed", "session_id": "bg", "decision": "allow"})
        await until(pilot, lambda: "3 new" in text_of(app, "#trace-status"))
        assert view.cursor == 0
        await pilot.press("G")
        await until(pilot, lambda: "new" not in text_of(app, "#trace-status"))
        assert view.following


@pytest.mark.anyio
async def test_trace_filters(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(TraceView)
        all_records = ledger_lines(workspace)
        await until(pilot, lambda: view.row_count == len(all_records))
        await app.main.run_action("trace_denials")
        denials = [r for r in all_records if r.get("decision") == "deny"]
        await until(pilot, lambda: view.rows is not None and view.row_count == len(denials))
        assert all(r is not None and r["decision"] == "deny" for r in trace_rows(app))
        app.query_one(TracePane).set_filter("session:s1 decision:allow")
        expected = [
            r for r in all_records if r.get("session_id") == "s1" and r.get("decision") == "allow"
        ]
        await until(
            pilot,
            lambda: (
                view.rows is not None
                and view.row_count == len(expected)
                and all(r is not None and r["session_id"] == "s1" for r in trace_rows(app))
            ),
        )
        # a new matching record joins the filtered view, a non-matching one does not
        assert write(workspace, "s1", "src/auth/b.py") == 0
        assert write(workspace, "s1", "elsewhere.txt") == 2
        await until(pilot, lambda: view.row_count == len(expected) + 1)
        await app.main.run_action("trace_clear")
        await until(
            pilot, lambda: view.rows is None and view.row_count == len(ledger_lines(workspace))
        )


@pytest.mark.anyio
async def test_truncated_or_replaced_ledger_is_reloaded(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(TraceView)
        path = workspace / ".orchestration" / "agent_trace.jsonl"
        lines = path.read_bytes().splitlines(keepends=True)
        await until(pilot, lambda: view.row_count == len(lines))
        replacement = path.with_suffix(".new")
        replacement.write_bytes(b"".join(lines[:2]))
        os.replace(replacement, path)  # another inode
        await until(pilot, lambda: view.row_count == 2)
        path.write_bytes(lines[0])  # truncated in place
        await until(pilot, lambda: view.row_count == 1)
        first = view.index.record(0)
        assert first is not None
        assert first["seq"] == 1


@pytest.mark.anyio
async def test_enter_opens_the_record_detail(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(TraceView)
        count = len(ledger_lines(workspace))
        await until(pilot, lambda: view.row_count == count)
        view.focus()
        await pilot.press("enter")
        await until(pilot, lambda: on_screen(app, RecordDetail))
        detail = app.screen
        assert isinstance(detail, RecordDetail) and detail.record is not None
        assert detail.record["seq"] == count
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, RecordDetail))


@pytest.mark.anyio
async def test_approval_flow_end_to_end(workspace: Path, user_dir: str) -> None:
    approvals_required(workspace)
    assert select(workspace, "s2", "INT-002") == 0  # accepted, now pending approval
    assert write(workspace, "s2", "src/billing/pdf.py") == 2  # awaits human approval
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: modal_on_screen(app, ApprovalModal))
        modal = app.screen
        assert isinstance(modal, ApprovalModal)
        title = modal.query_one("#approval-title").render()
        assert isinstance(title, Content)
        assert title.plain == TITLE
        assert modal.facts.session_id == "s2" and modal.facts.intent_id == "INT-002"
        # a summary for a person, not the intent context block
        shown = str(modal.query_one("#approval-summary").render())
        assert "Invoice PDF export" in shown and "src/billing/**" in shown
        assert "<intent_context" not in shown
        await answer(pilot, "y")
        await until(pilot, lambda: not pending_requests(str(workspace)))
        await until(pilot, lambda: not isinstance(app.screen, ApprovalModal))
    # the gate sees the approval at once
    assert write(workspace, "s2", "src/billing/pdf.py") == 0
    events = [r["event"] for r in ledger_lines(workspace)]
    assert "approval_granted" in events
    assert (
        "Invoice PDF export" in (workspace / ".orchestration" / "active_intents.yaml").read_text()
    )
    assert (
        "status: IN_PROGRESS"
        in (workspace / ".orchestration" / "active_intents.yaml").read_text().split("INT-002")[1]
    )


@pytest.mark.anyio
async def test_reject_frees_the_intent_and_escape_leaves_it_pending(
    workspace: Path, user_dir: str
) -> None:
    approvals_required(workspace)
    assert select(workspace, "s2", "INT-002") == 0
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: modal_on_screen(app, ApprovalModal))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ApprovalModal))
        assert len(pending_requests(str(workspace))) == 1
        await pilot.press("a")  # review the pending ones again
        await until(pilot, lambda: modal_on_screen(app, ApprovalModal))
        await answer(pilot, "n")
        await until(pilot, lambda: not pending_requests(str(workspace)))
    assert write(workspace, "s2", "src/billing/pdf.py") == 2  # rejected: no intent
    assert select(workspace, "s3", "INT-002") == 0  # the intent is free again
    assert "approval_rejected" in [r["event"] for r in ledger_lines(workspace)]


@pytest.mark.anyio
async def test_a_request_decided_elsewhere_closes_its_modal(workspace: Path, user_dir: str) -> None:
    from paw_tui.cli import main

    approvals_required(workspace)
    assert select(workspace, "s2", "INT-002") == 0
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: modal_on_screen(app, ApprovalModal))
        assert main(["approvals", "approve", "--session", "s2", "--workspace", str(workspace)]) == 0
        await until(pilot, lambda: not isinstance(app.screen, ApprovalModal))
        assert app.is_running


async def choose_blocked(app: PawApp, pilot: Pilot[None], answer: str) -> None:
    """Open the status dialog on the first intent (IN_PROGRESS), where the chooser starts;
    pick BLOCKED (the next one), answer the confirmation."""
    from textual.widgets import OptionList

    table = app.query_one("#intents-table", DataTable)
    await until(pilot, lambda: table.row_count == 3)
    table.focus()
    await pilot.press("s")
    await until(pilot, lambda: on_screen(app, ChoiceModal))
    choices = app.screen.query_one("#choices", OptionList)
    assert choices.highlighted == 1  # IN_PROGRESS, the intent's status now
    await pilot.press("down", "enter")
    await until(pilot, lambda: on_screen(app, ConfirmModal))
    await pilot.press(answer)
    await until(pilot, lambda: not isinstance(app.screen, (ChoiceModal, ConfirmModal)))


@pytest.mark.anyio
async def test_status_change_needs_a_confirmation(workspace: Path, user_dir: str) -> None:
    yaml_path = workspace / ".orchestration" / "active_intents.yaml"
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        await choose_blocked(app, pilot, "y")
        await until(pilot, lambda: "status: BLOCKED" in yaml_path.read_text().split("INT-002")[0])
    assert any(r["event"] == "intent_status_changed" for r in ledger_lines(workspace))


@pytest.mark.anyio
async def test_status_change_can_be_declined(workspace: Path, user_dir: str) -> None:
    yaml_path = workspace / ".orchestration" / "active_intents.yaml"
    before = yaml_path.read_text()
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        await choose_blocked(app, pilot, "n")
        # declined: the dialog is gone and no status change was even started
        assert not [worker for worker in app.workers if worker.group == "intents-status"]
    assert yaml_path.read_text() == before
    assert not any(r["event"] == "intent_status_changed" for r in ledger_lines(workspace))


async def run_from_palette(app: PawApp, pilot: Pilot[None], title: str) -> None:
    """Open the command palette, type the entry's title, and run the highlighted hit."""
    from textual.command import CommandList, CommandPalette

    await pilot.press("ctrl+p")
    await until(pilot, lambda: on_screen(app, CommandPalette))
    await pilot.press(*title)
    palette = app.screen
    await until(
        pilot,
        lambda: (
            palette.query("CommandList")
            and palette.query_one("CommandList", CommandList).option_count > 0
        ),
    )
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, CommandPalette))


@pytest.mark.anyio
async def test_palette_commands_run_their_actions(workspace: Path, user_dir: str) -> None:
    from paw_tui.tui.commands import ENTRIES

    titles = [title for title, _, _ in ENTRIES]
    assert "intent: Approve" in titles and "trace: Toggle tail" in titles
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        pane = app.query_one(TracePane)
        await until(pilot, lambda: len(pane.index) > 0)
        await run_from_palette(app, pilot, "trace: Toggle tail")
        await until(pilot, lambda: not pane.view.following)
        await run_from_palette(app, pilot, "trace: Toggle tail")
        await until(pilot, lambda: pane.view.following)
        await run_from_palette(app, pilot, "intent: Filter trace")
        await until(pilot, lambda: pane.filter.terms == (("intent_id", "INT-001"),))


@pytest.mark.anyio
async def test_prompt_view_lists_each_layer_and_sets_the_supervisor(
    workspace: Path, user_dir: str
) -> None:
    from paw_tui.core.prompt.supervisor import get_supervisor
    from paw_tui.tui.screens.prompt_view import PromptView

    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.focused is not None)
        await pilot.press("p")
        await until(pilot, lambda: on_screen(app, PromptView))
        view = app.screen
        layers = view.query_one("#prompt-layers", DataTable)
        await until(pilot, lambda: layers.row_count >= 1)
        assert str(layers.get_row_at(0)[1]) == "governance"
        assert "select_active_intent" in str(view.query_one("#prompt-text", Static).render())
        view.query_one("#prompt-session", Select).value = "s1"  # s1 holds INT-001
        await until(
            pilot,
            lambda: layers.row_count >= 2 and str(layers.get_row_at(1)[1]) == "intent context",
        )
        view.query_one("#supervisor-input", Input).value = "Prefer small commits."
        view.query_one("#supervisor-input", Input).focus()
        await pilot.press("enter")
        await until(
            pilot,
            lambda: any(
                str(layers.get_row_at(i)[1]) == "supervisor instruction"
                for i in range(layers.row_count)
            ),
        )
        assert get_supervisor(str(workspace), "s1") == "Prefer small commits."
        assert "<supervisor_instruction>" in str(view.query_one("#prompt-text", Static).render())
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, PromptView))
