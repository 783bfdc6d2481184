"""Text an agent chose (its session id, a folder it made under ``.paw/work/``) is shown as
written in the TUI's tables, pickers, dialogs and notifications, never read as markup
(DESIGN §7): a session id ``[/]x`` stopped the app with a markup error, and ``[b]..[/b]``
would have shown as something it is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Label, Select

from paw_tui.tui.app import PawApp
from paw_tui.tui.dialogs.confirm import ConfirmModal
from paw_tui.tui.screens.prompt_view import PromptView
from paw_tui.tui.screens.sessions_view import SessionsView

from .conftest import ledger_lines, select
from .pilot_wait import on_screen, until

SESSION = "[/]x[b]"
WORK_ITEM = "[red]w"


def options(picker: Select[str]) -> list[str]:
    return [str(prompt) for prompt, _ in picker._options]


def toasts(app: PawApp) -> list[str]:
    """The notifications on screen, as they render."""
    from textual.widgets._toast import Toast

    return [toast.render().plain for toast in app.screen.query(Toast)]


@pytest.mark.anyio
async def test_a_session_id_and_a_work_folder_made_of_markup_show_as_written(
    workspace: Path, user_dir: str
) -> None:
    assert select(workspace, SESSION, "INT-002") == 0
    (workspace / ".paw" / "work" / WORK_ITEM).mkdir()
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        table = app.query_one("#intents-table", DataTable)
        await until(pilot, lambda: table.row_count == 3)
        await until(pilot, lambda: str(table.get_cell("INT-002", "held")) == SESSION)
        work = app.query_one("#work-select", Select)
        await until(pilot, lambda: WORK_ITEM in options(work))
        # the sessions view, its confirmation and what it says once done
        await pilot.press("S")
        await until(pilot, lambda: on_screen(app, SessionsView))
        sessions = app.screen.query_one("#sessions-table", DataTable)
        await until(pilot, lambda: sessions.row_count == 2)
        assert SESSION in [str(sessions.get_cell(SESSION, "session"))]
        sessions.move_cursor(row=sessions.get_row_index(SESSION))
        await pilot.press("r")
        await until(pilot, lambda: on_screen(app, ConfirmModal))
        question = str(app.screen.query_one(Label).render())
        assert question == f"Release session {SESSION}? It frees INT-002."
        await pilot.press("y")
        await until(pilot, lambda: sessions.row_count == 1)
        await until(
            pilot, lambda: any(n.message == f"Released {SESSION}." for n in app._notifications)
        )
        await pilot.press("escape")
        # the prompt view's session picker
        assert select(workspace, SESSION, "INT-002") == 0
        await pilot.press("p")
        await until(pilot, lambda: on_screen(app, PromptView))
        picker = app.screen.query_one("#prompt-session", Select)
        await until(pilot, lambda: SESSION in options(picker))
    released = [r for r in ledger_lines(workspace) if r["event"] == "session_released"]
    assert released and released[-1]["session_id"] == SESSION


@pytest.mark.anyio
async def test_what_a_decision_on_a_markup_session_says_is_shown_as_written(
    workspace: Path, user_dir: str
) -> None:
    from .conftest import approvals_required
    from .pilot_wait import answer, modal_on_screen

    approvals_required(workspace)
    assert select(workspace, SESSION, "INT-002") == 0
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await until(pilot, lambda: app.main.approvals.open_request is not None)
        await answer(pilot, "y")
        told = f"Approved INT-002 for session {SESSION}."
        await until(pilot, lambda: told in toasts(app))


@pytest.mark.anyio
async def test_the_scope_pane_shows_an_intent_s_control_characters_escaped(
    workspace: Path, user_dir: str
) -> None:
    """The Scope pane shows an intent with the decision modals' lines (one renderer), its
    text escaped as theirs is: a YAML ``\\e`` reached the terminal as ESC."""
    from textual.widgets import Static

    intents = workspace / ".orchestration" / "active_intents.yaml"
    intents.write_text(
        intents.read_text().replace(
            "description: Move the API from Basic Auth to JWT.",
            'description: "Move the API\\e[2J to JWT."',
        )
    )
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=(120, 40)) as pilot:
        details = app.query_one("#scope-details", Static)
        await until(pilot, lambda: "INT-001" in str(details.render()))
        shown = str(details.render())
        assert "Move the API\\x1b[2J to JWT." in shown
        assert "\x1b" not in shown
        assert "  0  src/auth/**" in shown and "Constraints" in shown


@pytest.mark.anyio
async def test_a_scope_request_whose_reason_holds_an_escape_sequence_is_shown_escaped(
    workspace: Path, user_dir: str
) -> None:
    """The reason is the agent's: kept as ``\\x1b[2J`` (printable), whose ``[2J`` the
    modal's markup read as the start of a tag, and the next tag stopped the app."""
    from textual.widgets import Static

    from paw_tui.tui.dialogs.scope_request import ScopeRequestModal

    from .pilot_wait import answer, modal_on_screen
    from .test_scope_requests_tui import ask_scope

    assert ask_scope(workspace, "docs/**", "clear \x1b[2J the [screen") == 0
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: modal_on_screen(app, ScopeRequestModal))
        summary = app.screen.query_one("#approval-summary", Static)
        await until(pilot, lambda: "Reason given" in str(summary.render()))
        assert "Reason given: clear \\x1b[2J the [screen" in str(summary.render())
        await answer(pilot, "n")
        await until(pilot, lambda: not isinstance(app.screen, ScopeRequestModal))
