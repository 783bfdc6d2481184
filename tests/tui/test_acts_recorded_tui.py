"""Every act recorded or not done, in the TUI (DESIGN §7; issue 18 item 3): with a ledger that
cannot be appended, a status change, an approval, a release and the supervisor instruction
change nothing and say why in an error that stays until dismissed; a banner says the gate is
denying because it cannot record, and goes once it can."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Button, DataTable, Input, Static

from paw_tui.core.handshake.approvals import pending_requests
from paw_tui.core.prompt.supervisor import get_supervisor
from paw_tui.tui.app import PawApp
from paw_tui.tui.dialogs.act_failed import ActFailed
from paw_tui.tui.dialogs.approval import ApprovalModal
from paw_tui.tui.screens.prompt_view import PromptView
from paw_tui.tui.screens.sessions_view import SessionsView

from .conftest import approvals_required, select, write
from .pilot_wait import answer, on_screen, until
from .test_app import choose_blocked

SIZE = (120, 40)


def break_ledger(root: Path) -> Path:
    """The ledger replaced by a directory: no record can be appended (no chmod needed)."""
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    kept = ledger.with_suffix(".kept")
    ledger.rename(kept)
    ledger.mkdir()
    return kept


def mend_ledger(root: Path, kept: Path) -> None:
    ledger = root / ".orchestration" / "agent_trace.jsonl"
    shutil.rmtree(ledger)
    kept.rename(ledger)


async def failure_stays(app: PawApp, pilot) -> str:  # type: ignore[no-untyped-def]
    """The error on screen, after checking it outlives a while of other activity."""
    await until(pilot, lambda: on_screen(app, ActFailed))
    failed = app.screen
    assert isinstance(failed, ActFailed)
    message = failed.message
    for _ in range(20):
        await pilot.pause(0.05)
    assert app.screen is failed  # still there: it goes only when dismissed
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, ActFailed))
    return message


@pytest.mark.anyio
async def test_a_status_change_that_cannot_be_recorded_changes_nothing_and_says_so(
    workspace: Path, user_dir: str
) -> None:
    yaml_path = workspace / ".orchestration" / "active_intents.yaml"
    before = yaml_path.read_text()
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.query_one("#intents-table", DataTable).row_count == 3)
        kept = break_ledger(workspace)
        banner = app.query_one("#ledger-banner", Static)
        await until(pilot, lambda: banner.display)
        assert "denying every mutating tool" in str(banner.render())
        assert write(workspace, "s1", "src/auth/b.py") == 2  # the gate denies, as the banner says
        await choose_blocked(app, pilot, "y")
        message = await failure_stays(app, pilot)
        assert "was not done: it could not be recorded" in message
        assert yaml_path.read_text() == before
        mend_ledger(workspace, kept)
        assert write(workspace, "s1", "src/auth/b.py") == 0
        await until(pilot, lambda: not banner.display)


@pytest.mark.anyio
async def test_approve_release_and_supervisor_are_not_done_unrecorded(
    workspace: Path, user_dir: str
) -> None:
    approvals_required(workspace)
    assert select(workspace, "s2", "INT-002") == 0
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: on_screen(app, ApprovalModal))
        kept = break_ledger(workspace)
        await answer(pilot, "y")
        assert "could not be recorded" in await failure_stays(app, pilot)
        assert len(pending_requests(str(workspace))) == 1  # not approved
        # the sessions view: a release that cannot be recorded releases nothing
        await pilot.press("S")
        await until(pilot, lambda: on_screen(app, SessionsView))
        table = app.screen.query_one("#sessions-table", DataTable)
        await until(pilot, lambda: table.row_count == 2)
        await pilot.press("r")
        await pilot.press("y")
        assert "could not be recorded" in await failure_stays(app, pilot)
        await until(pilot, lambda: table.row_count == 2)
        await pilot.press("escape")
        # the supervisor instruction
        await pilot.press("p")
        await until(pilot, lambda: on_screen(app, PromptView))
        field = app.screen.query_one("#supervisor-input", Input)
        field.value = "Prefer small commits."
        app.screen.query_one("#set-global", Button).press()
        assert "could not be recorded" in await failure_stays(app, pilot)
        assert get_supervisor(str(workspace)) is None
        mend_ledger(workspace, kept)


@pytest.mark.anyio
async def test_the_forms_save_is_not_done_unrecorded_and_says_so_in_the_form(
    workspace: Path, user_dir: str
) -> None:
    from textual.widgets import TextArea

    from paw_tui.tui.screens.intent_form import IntentForm

    yaml_path = workspace / ".orchestration" / "active_intents.yaml"
    before = yaml_path.read_text()
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one("#intents-table", DataTable)
        await until(pilot, lambda: table.row_count == 3)
        kept = break_ledger(workspace)
        table.focus()
        await pilot.press("n")
        await until(pilot, lambda: on_screen(app, IntentForm))
        form = app.screen
        assert isinstance(form, IntentForm)
        form.query_one("#form-name", Input).value = "Audit export"
        form.query_one("#form-scope", TextArea).text = "src/audit/**"
        await pilot.press("ctrl+s")
        error = form.query_one("#form-error", Static)
        await until(pilot, lambda: "Not saved" in str(error.render()))
        assert "could not be recorded" in str(error.render())
        assert app.screen is form and yaml_path.read_text() == before
        mend_ledger(workspace, kept)
