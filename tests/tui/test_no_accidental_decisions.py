"""Approvals are never decided by accident (DESIGN §11; issue 18): a request that arrives
while a text field has the focus or while the person types waits, announced; no key typed
before a decision modal was on screen decides it; the modal reads like a summary."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.widgets import DataTable, Input, Static

from paw_tui.core.handshake.approvals import pending_requests
from paw_tui.tui.app import PawApp
from paw_tui.tui.dialogs.approval import TITLE, ApprovalModal
from paw_tui.tui.dialogs.decision import ARM_DELAY
from paw_tui.tui.screens.prompt_view import PromptView

from .conftest import approvals_required, ledger_lines, select
from .pilot_wait import answer, modal_on_screen, on_screen, until

SIZE = (100, 30)
DECISIONS = ("approval_granted", "approval_rejected")


def decided(root: Path) -> list[object]:
    return [r["event"] for r in ledger_lines(root) if r["event"] in DECISIONS]


@pytest.mark.anyio
async def test_a_selection_arriving_while_typing_in_a_field_waits_and_yes_stays_text(
    workspace: Path, user_dir: str
) -> None:
    approvals_required(workspace)
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.query_one("#intents-table", DataTable).row_count == 3)
        await pilot.press("p")
        await until(pilot, lambda: on_screen(app, PromptView))
        field = app.screen.query_one("#supervisor-input", Input)
        field.focus()
        await pilot.press(*"I think ")
        # mid-sentence, an agent's selection arrives and waits for a person's approval
        assert select(workspace, "s2", "INT-002") == 0
        await until(pilot, lambda: app.main.approvals.pending)
        await pilot.press(*"yes")
        await pilot.pause()
        # the field kept the focus and every key; nothing was decided
        assert isinstance(app.screen, PromptView)
        assert app.focused is field and field.value == "I think yes"
        assert decided(workspace) == []
        assert len(pending_requests(str(workspace))) == 1
        # announced: the header's count and a notification
        assert "1 waiting (a)" in str(app.sub_title)
        assert any("waits for you" in str(n.title) for n in app._notifications)
        # leaving the field (and the view) lets the request take the screen
        await pilot.press("escape")
        await until(pilot, lambda: modal_on_screen(app, ApprovalModal))
        modal = modal_on_screen(app, ApprovalModal)
        assert modal is not None
        await until(pilot, lambda: app.focused is modal.query_one("#later"))  # the safe default
        await answer(pilot, "n")
        await until(pilot, lambda: not pending_requests(str(workspace)))
    assert decided(workspace) == ["approval_rejected"]


@pytest.mark.anyio
async def test_keys_typed_before_the_modal_was_on_screen_decide_nothing(
    workspace: Path, user_dir: str
) -> None:
    approvals_required(workspace)
    assert select(workspace, "s2", "INT-002") == 0
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        typed_before = events.Key("y", "y")  # pressed before anything was painted
        await until(pilot, lambda: modal_on_screen(app, ApprovalModal))
        modal = modal_on_screen(app, ApprovalModal)
        assert modal is not None
        title = modal.query_one("#approval-title", Static).render()
        assert str(title) == TITLE
        app.post_message(typed_before)  # delivered late, as a key queued by a busy app is
        await until(pilot, lambda: modal.armed_at != float("inf"))  # first painted
        for key, character in (("y", "y"), ("tab", "\t"), ("enter", "\r")):
            # typed right after it appeared: stamped inside the window, so however slowly
            # this machine delivers them, they were typed before a person could read it
            typed = events.Key(key, character)
            typed.time = modal.armed_at - ARM_DELAY / 2
            app.post_message(typed)
        await until(pilot, lambda: len(modal.ignored) >= 4 or app.screen is not modal)
        assert modal_on_screen(app, ApprovalModal) is modal
        assert modal.ignored == ["y", "y", "tab", "enter"]
        assert "typed before" in str(modal.query_one("#decision-note", Static).render())
        assert decided(workspace) == [] and len(pending_requests(str(workspace))) == 1
        await answer(pilot, "y")
        await until(pilot, lambda: not pending_requests(str(workspace)))
    assert decided(workspace) == ["approval_granted"]


@pytest.mark.anyio
async def test_the_modal_is_a_summary_with_dependencies_client_and_age(
    workspace: Path, user_dir: str
) -> None:
    intents = workspace / ".orchestration" / "active_intents.yaml"
    intents.write_text(
        intents.read_text().replace(
            '    owned_scope: ["src/billing/**"]\n',
            '    owned_scope: ["src/billing/**"]\n    depends_on: ["INT-001"]\n'
            '    constraints: ["Amounts in integer cents"]\n',
        )
    )
    approvals_required(workspace)
    assert select(workspace, "s2", "INT-002") == 0
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: modal_on_screen(app, ApprovalModal))
        modal = modal_on_screen(app, ApprovalModal)
        assert modal is not None
        shown = str(modal.query_one("#approval-summary", Static).render())
        for expected in (
            "Session s2 (claude-code) asked just now",
            "INT-002 · Invoice PDF export · PENDING",
            "Export invoices as PDF.",
            "src/billing/**",
            "Amounts in integer cents",
            "⚠ Depends on INT-001, which is IN_PROGRESS, not finished.",
            "INT-001 JWT Authentication Migration — IN_PROGRESS (not finished)",
        ):
            assert expected in shown, expected
        assert "<intent_context" not in shown and "<owned_scope>" not in shown
        await pilot.press("escape")


@pytest.mark.anyio
async def test_an_intent_awaiting_approval_is_marked_so_in_the_intents_pane(
    workspace: Path, user_dir: str
) -> None:
    approvals_required(workspace)
    assert select(workspace, "s2", "INT-002") == 0
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one("#intents-table", DataTable)
        await until(pilot, lambda: table.row_count == 3)
        await until(pilot, lambda: str(table.get_cell("INT-002", "held")) == "awaits s2")
        assert str(table.get_cell("INT-001", "held")) == "s1"  # approved: held
        # at 80 columns the header keeps the count, the path gives way
        await until(pilot, lambda: "1 waiting (a)" in str(app.sub_title))
        await until(pilot, lambda: modal_on_screen(app, ApprovalModal))
        await answer(pilot, "y")
        await until(pilot, lambda: str(table.get_cell("INT-002", "held")) == "s2")
        assert "waiting" not in str(app.sub_title)
