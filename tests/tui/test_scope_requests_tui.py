"""Scope requests in the TUI (DESIGN §5, §11; issue 11 item 4): the agent's deny, its request,
the person's decision in a modal, the agent's next call, across a restart of the TUI."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.content import Content
from textual.pilot import Pilot

from paw_tui.cli import main
from paw_tui.core.confine.status import protection
from paw_tui.core.handshake.scope_requests import iter_requests, pending_requests
from paw_tui.core.ledger.store import Ledger
from paw_tui.tui.app import PawApp
from paw_tui.tui.dialogs.approval import ApprovalModal
from paw_tui.tui.dialogs.decision import DecisionModal
from paw_tui.tui.dialogs.scope_request import TITLE, ScopeRequestModal
from paw_tui.tui.widgets.trace_view import TraceView

from .conftest import approvals_required, claude, gate, ledger_lines, select, write
from .pilot_wait import answer, modal_on_screen, until

SIZE = (120, 40)
SESSION = "s1"  # holds INT-001 in the fixture's workspace
TARGET = "docs/readme.md"  # outside INT-001's scope


def ask_scope(root: Path, pattern: str, reason: str, session: str = SESSION) -> int:
    """The agent's ``request_scope_expansion`` call, performed by the gate."""
    return gate(
        root,
        claude(
            root,
            session,
            "PreToolUse",
            tool_name="mcp__paw__request_scope_expansion",
            tool_input={"pattern": pattern, "reason": reason},
        ),
    )


def intents_text(root: Path) -> str:
    return (root / ".orchestration" / "active_intents.yaml").read_text(encoding="utf-8")


def events(root: Path) -> list[object]:
    return [record.get("event") for record in ledger_lines(root)]


@pytest.mark.anyio
async def test_deny_request_restart_grant_then_the_agent_may_write(
    workspace: Path, user_dir: str
) -> None:
    assert write(workspace, SESSION, TARGET) == 2  # denied: outside the scope
    assert ask_scope(workspace, "docs/**", "the docs describe the auth change") == 0
    [request] = pending_requests(str(workspace))
    before = intents_text(workspace)

    # first run of the TUI: the request pops up; the person puts it off and quits
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: modal_on_screen(app, ScopeRequestModal))
        modal = modal_on_screen(app, ScopeRequestModal)
        assert modal is not None
        title = modal.query_one("#approval-title").render()
        assert isinstance(title, Content) and title.plain == TITLE
        facts = modal.facts
        assert (modal.request_id, facts.session_id, facts.intent_id, modal.pattern) == (
            request.id,
            SESSION,
            "INT-001",
            "docs/**",
        )
        assert facts.intent is not None and facts.intent.name == "JWT Authentication Migration"
        assert "src/auth/**" in facts.intent.owned_scope and modal.reason == request.reason
        shown = str(modal.query_one("#approval-summary").render())
        assert "JWT Authentication Migration" in shown and "docs/**" in shown
        await pilot.press("escape")
        await until(pilot, lambda: modal_on_screen(app, ScopeRequestModal) is None)
        # put off, not forgotten: the header counts what waits
        assert "1 waiting (a)" in str(app.sub_title)
    assert [r.id for r in pending_requests(str(workspace))] == [request.id]
    assert intents_text(workspace) == before
    assert write(workspace, SESSION, TARGET) == 2  # still denied: nothing decided

    # after a restart the request is there again, read from its file
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: modal_on_screen(app, ScopeRequestModal))
        await answer(pilot, "y")
        await until(pilot, lambda: not pending_requests(str(workspace)))
        await until(pilot, lambda: modal_on_screen(app, ScopeRequestModal) is None)
        await until(pilot, lambda: "waiting" not in str(app.sub_title))
    # the agent's next call passes, through the gate as the client runs it
    assert write(workspace, SESSION, TARGET) == 0
    assert intents_text(workspace) == before.replace(
        'owned_scope: ["src/auth/**", "tests/auth/**", "!src/auth/legacy/**"]',
        'owned_scope: ["src/auth/**", "tests/auth/**", "!src/auth/legacy/**", "docs/**"]',
    )
    granted = [r for r in ledger_lines(workspace) if r.get("event") == "scope_granted"]
    assert len(granted) == 1
    assert granted[0]["pattern"] == "docs/**" and granted[0]["request_id"] == request.id
    assert "(tui)" in str(granted[0]["reason"])


@pytest.mark.anyio
async def test_deny_in_the_modal_is_recorded_and_the_scope_stays(
    workspace: Path, user_dir: str
) -> None:
    assert ask_scope(workspace, "docs/**", "wants the docs") == 0
    before = intents_text(workspace)
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: modal_on_screen(app, ScopeRequestModal))
        await answer(pilot, "n")
        await until(pilot, lambda: not pending_requests(str(workspace)))
    [decided] = list(iter_requests(str(workspace)))
    assert decided.state == "denied"
    assert intents_text(workspace) == before
    assert events(workspace).count("scope_denied") == 1
    assert write(workspace, SESSION, TARGET) == 2


@pytest.mark.anyio
async def test_a_request_decided_at_the_cli_closes_its_modal(
    workspace: Path, user_dir: str
) -> None:
    assert ask_scope(workspace, "docs/**", "wants the docs") == 0
    [request] = pending_requests(str(workspace))
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: modal_on_screen(app, ScopeRequestModal))
        assert main(["scope", "grant", request.id, "--workspace", str(workspace)]) == 0
        await until(pilot, lambda: modal_on_screen(app, ScopeRequestModal) is None)
        assert app.is_running
        # a request filed while the TUI runs pops up without a key press
        assert ask_scope(workspace, "notes/**", "more") == 0
        await until(
            pilot,
            lambda: (
                (m := modal_on_screen(app, ScopeRequestModal)) is not None
                and m.pattern == "notes/**"
            ),
        )
    assert write(workspace, SESSION, TARGET) == 0


@pytest.mark.anyio
async def test_approvals_and_scope_requests_take_turns(workspace: Path, user_dir: str) -> None:
    """Two kinds of pending request: one modal at a time, the other after it, and ``a``
    brings back what was put off."""
    assert ask_scope(workspace, "docs/**", "wants the docs") == 0
    approvals_required(workspace)
    assert select(workspace, "s2", "INT-002") == 0  # waits for approval
    app = PawApp(str(workspace), user_dir=user_dir)
    async with app.run_test(size=SIZE) as pilot:

        def decision_modal() -> type | None:
            modal = modal_on_screen(app, DecisionModal)
            return type(modal) if modal is not None else None

        await until(pilot, decision_modal)
        first = decision_modal()
        assert len(app.screen_stack) == 2  # the main screen and one modal, never two
        await pilot.press("escape")
        await until(pilot, lambda: decision_modal() not in (None, first))
        assert len(app.screen_stack) == 2
        await pilot.press("escape")
        await until(pilot, lambda: decision_modal() is None)
        await pilot.press("a")
        await until(pilot, decision_modal)
        seen: set[type | None] = set()
        for _ in range(2):
            await until(pilot, decision_modal)
            shown = decision_modal()
            seen.add(shown)
            await answer(pilot, "y")

            def moved_on(shown: type | None = shown) -> bool:
                return decision_modal() != shown

            await until(pilot, moved_on)
        assert seen == {ApprovalModal, ScopeRequestModal}
        await until(pilot, lambda: not pending_requests(str(workspace)))
    assert write(workspace, SESSION, TARGET) == 0
    assert "approval_granted" in events(workspace)


@pytest.mark.anyio
async def test_header_names_the_active_shell_protection(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        kind = protection(str(workspace)).kind
        await until(pilot, lambda: f"shell: {kind}" in str(app.sub_title))


@pytest.mark.anyio
async def test_a_scope_breach_stands_out_with_what_was_undone(
    workspace: Path, user_dir: str
) -> None:
    Ledger.for_workspace(str(workspace)).append(
        {
            "event": "scope_breach",
            "session_id": SESSION,
            "intent_id": "INT-001",
            "tool": "Bash",
            "decision": "breach",
            "paths": ["docs/x.md", ".claude/settings.json"],
            "restored": [".claude/settings.json"],
            "reason": "2 path(s) changed outside the scope by a shell command",
        }
    )
    assert write(workspace, SESSION, "src/auth/b.py") == 0  # the cursor's line, after it
    newest = len(ledger_lines(workspace)) - 1
    breach_row = newest - 1
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(TraceView)
        await until(pilot, lambda: view.row_count == newest + 1)
        await pilot.pause()
        lines = {
            row: view.render_line(row - round(view.scroll_offset.y))
            for row in range(newest - 3, newest + 1)
        }
        breach = view.get_component_rich_style("trace-view--breach")
        assert "undone: .claude/settings.json" in lines[breach_row].text
        assert breach.bgcolor is not None
        assert all(
            segment.style and segment.style.bgcolor == breach.bgcolor
            for segment in lines[breach_row]
        )
        for row, strip in lines.items():
            if row != breach_row:  # the records around it do not
                assert not any(s.style and s.style.bgcolor == breach.bgcolor for s in strip)
