"""Nothing on screen goes stale (DESIGN §11; issue 18 item 5): the chain status follows the
records that arrive, the touched files follow the highlighted intent's new records, and the
empty trace's hint follows an install."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from paw_tui.cli import main
from paw_tui.tui.app import PawApp
from paw_tui.tui.widgets.trace_view import TraceView

from .conftest import new_workspace, select, write, write_done
from .pilot_wait import until

SIZE = (140, 44)


def text_of(app: PawApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


@pytest.fixture
def empty_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return new_workspace(tmp_path, monkeypatch, "fresh")


@pytest.mark.anyio
async def test_the_chain_status_and_the_empty_hint_follow_what_happens(
    empty_workspace: Path, user_dir: str
) -> None:
    root = empty_workspace
    app = PawApp(str(root), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "chain: no records yet" in text_of(app, "#trace-status"))
        await until(pilot, lambda: "paw-tui install claude-code" in text_of(app, "#trace-hint"))
        # installed: the hint stops asking for it and says what comes next
        assert main(["install", "claude-code", "--workspace", str(root)]) == 0
        await until(pilot, lambda: "Set up here: claude-code" in text_of(app, "#trace-hint"))
        assert "paw-tui install" not in text_of(app, "#trace-hint")
        # records arrive: the chain is checked again, the hint goes
        assert write(root, "s9", "src/auth/x.py") == 2
        assert select(root, "s9", "INT-001") == 0
        view = app.query_one(TraceView)
        await until(pilot, lambda: view.row_count == 2)
        await until(pilot, lambda: "chain: verified" in text_of(app, "#trace-status"), steps=300)
        assert not app.query_one("#trace-hint").display
        # and again after more
        assert write(root, "s9", "src/auth/x.py") == 0
        await until(pilot, lambda: view.row_count == 3)
        status = text_of(app, "#trace-status")  # never a bare "verified" over new records
        assert "newer)" in status or "verifying" in status, status
        await until(
            pilot,
            lambda: (
                "chain: verified" in text_of(app, "#trace-status")
                and "newer" not in text_of(app, "#trace-status")
            ),
            steps=300,
        )


@pytest.mark.anyio
async def test_touched_files_follow_new_records_without_moving_the_highlight(
    workspace: Path, user_dir: str
) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "src/auth/a.py" in text_of(app, "#scope-touched"))
        table = app.query_one("#intents-table", DataTable)
        row = table.cursor_row
        assert write(workspace, "s1", "src/auth/b.py") == 0
        assert write_done(workspace, "s1", "src/auth/b.py") == 0
        await until(pilot, lambda: "src/auth/b.py" in text_of(app, "#scope-touched"))
        assert table.cursor_row == row
