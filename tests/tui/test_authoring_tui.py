"""Intents from the TUI (DESIGN §11; issue 18 item 1): ``n`` and ``e`` open the intent form,
whose scope field previews the files it covers and flags patterns that cover nothing or name a
protected path; saving goes through the core's validated, recorded edit, and a refusal is
shown in the form with nothing saved. The sessions view lists live sessions and releases
one after a confirmation."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Select, Static, TextArea

from paw_tui.tui.app import PawApp
from paw_tui.tui.dialogs.confirm import ConfirmModal
from paw_tui.tui.screens.intent_form import IntentForm
from paw_tui.tui.screens.sessions_view import SessionsView

from .conftest import ledger_lines
from .pilot_wait import on_screen, until

SIZE = (100, 36)


def intents_yaml(root: Path) -> str:
    return (root / ".orchestration" / "active_intents.yaml").read_text()


def text_of(screen: object, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())  # type: ignore[attr-defined]


async def open_form(app: PawApp, pilot, key: str) -> IntentForm:  # type: ignore[no-untyped-def]
    table = app.query_one("#intents-table", DataTable)
    await until(pilot, lambda: table.row_count == 3)
    table.focus()
    await pilot.press(key)
    await until(pilot, lambda: on_screen(app, IntentForm))
    form = app.screen
    assert isinstance(form, IntentForm)
    await until(pilot, lambda: app.focused is form.query_one("#form-name"))
    return form


@pytest.mark.anyio
async def test_n_creates_an_intent_with_a_live_scope_preview_and_refusals_in_the_form(
    workspace: Path, user_dir: str
) -> None:
    before = intents_yaml(workspace)
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(app, pilot, "n")
        assert form.query_one("#form-id", Input).value == "INT-004"  # proposed
        assert form.query_one("#form-status", Select).value == "PENDING"
        await pilot.press(*"Billing export")
        scope = form.query_one("#form-scope", TextArea)
        scope.focus()
        await pilot.press(*"src/auth/**", "enter", *"docs/none/**", "enter", *".git/**")
        await until(pilot, lambda: "covers 1 file: src/auth/a.py" in text_of(form, "#form-preview"))
        preview = text_of(form, "#form-preview")
        assert "'docs/none/**' covers no file yet" in preview
        assert "'.git/**'" in preview and "agents never write" in preview
        # saving is refused whole, in the form, naming the field; nothing is written
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Not saved" in text_of(form, "#form-error"))
        assert "protected path" in text_of(form, "#form-error")
        assert scope.has_class("-invalid")
        assert isinstance(app.screen, IntentForm)
        assert intents_yaml(workspace) == before
        assert "intent_created" not in [r["event"] for r in ledger_lines(workspace)]
        # fixed, it saves through the core: the file, and its record
        scope.text = "src/auth/**\ndocs/none/**"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, IntentForm))
    assert "id: INT-004" in intents_yaml(workspace) and "Billing export" in intents_yaml(workspace)
    assert before.splitlines()[0] == intents_yaml(workspace).splitlines()[0]
    created = [r for r in ledger_lines(workspace) if r["event"] == "intent_created"]
    assert len(created) == 1 and created[0]["intent_id"] == "INT-004"


@pytest.mark.anyio
async def test_e_edits_the_highlighted_intent_and_the_status_starts_on_its_own(
    workspace: Path, user_dir: str
) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(app, pilot, "e")
        assert form.query_one("#form-id", Input).disabled  # an id never changes
        assert form.query_one("#form-id", Input).value == "INT-001"
        assert form.query_one("#form-status", Select).value == "IN_PROGRESS"
        assert "src/auth/**" in form.query_one("#form-scope", TextArea).text
        name = form.query_one("#form-name", Input)
        name.value = ""
        await pilot.press(*"JWT auth, take two")
        form.query_one("#form-depends", Input).value = "INT-404"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Not saved" in text_of(form, "#form-error"))
        assert "INT-404" in text_of(form, "#form-error")
        assert form.query_one("#form-depends").has_class("-invalid")
        form.query_one("#form-depends", Input).value = "INT-002"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, IntentForm))
        table = app.query_one("#intents-table", DataTable)
        await until(pilot, lambda: "take two" in str(table.get_cell("INT-001", "name")))
    edited = [r for r in ledger_lines(workspace) if r["event"] == "intent_edited"]
    fields = edited[0]["fields"]
    assert len(edited) == 1 and isinstance(fields, list) and set(fields) == {"name", "depends_on"}
    assert "take two" in intents_yaml(workspace)


@pytest.mark.anyio
async def test_the_sessions_view_lists_live_sessions_and_releases_one(
    workspace: Path, user_dir: str
) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.query_one("#intents-table", DataTable).row_count == 3)
        await pilot.press("S")
        await until(pilot, lambda: on_screen(app, SessionsView))
        view = app.screen
        table = view.query_one("#sessions-table", DataTable)
        await until(pilot, lambda: table.row_count == 1)
        row = [str(cell) for cell in table.get_row_at(0)]
        assert row[:4] == ["s1", "claude-code", "INT-001", "holds its intent"]
        assert row[5] == "just now"
        await pilot.press("r")
        await until(pilot, lambda: on_screen(app, ConfirmModal))
        confirm = app.screen
        assert isinstance(confirm, ConfirmModal) and "It frees INT-001" in confirm.question
        await pilot.press("n")  # declined: nothing happens
        await until(pilot, lambda: app.screen is view)
        assert "session_released" not in [r["event"] for r in ledger_lines(workspace)]
        await pilot.press("r")
        await until(pilot, lambda: on_screen(app, ConfirmModal))
        await pilot.press("y")
        await until(pilot, lambda: table.row_count == 0)
        assert "No live session" in text_of(view, "#sessions-empty")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, SessionsView))
        table = app.query_one("#intents-table", DataTable)
        await until(pilot, lambda: str(table.get_cell("INT-001", "held")) == "-")
    released = [r for r in ledger_lines(workspace) if r["event"] == "session_released"]
    assert len(released) == 1 and released[0]["session_id"] == "s1"


@pytest.mark.anyio
async def test_a_refusal_marks_the_field_it_is_about_not_one_its_words_name(
    workspace: Path, user_dir: str
) -> None:
    """A name holding a control character and the word owned_scope: the name is marked (the
    form once matched the words of the message, and marked the scope)."""
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        form = await open_form(app, pilot, "e")
        form.query_one("#form-name", Input).value = "fix owned_scope\x07"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Not saved" in text_of(form, "#form-error"))
        assert form.query_one("#form-name").has_class("-invalid")
        assert not form.query_one("#form-scope").has_class("-invalid")
