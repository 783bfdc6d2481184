"""The TUI shows a broken ``governance.yaml`` where it shows a broken intents file."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from paw_tui.tui.app import PawApp

from .pilot_wait import until
from .test_app import SIZE


@pytest.mark.anyio
async def test_a_governance_typo_is_shown_in_the_intents_pane(
    workspace: Path, user_dir: str
) -> None:
    (workspace / ".orchestration" / "governance.yaml").write_text("aproval: required\n")
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SIZE) as pilot:
        problems = app.query_one("#intent-problems", Static)
        await until(pilot, lambda: problems.display and "aproval" in str(problems.render()))
        shown = str(problems.render())
        assert "Orchestration state unavailable: .orchestration/governance.yaml:1:" in shown
        assert "did you mean 'approval'?" in shown
