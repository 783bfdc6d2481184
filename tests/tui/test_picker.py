"""The instructions pane's pickers are built after the first paint; quitting while one is
being mounted removes its parts first, and a picker that lost them sets up nothing (Textual's
Select would fail looking for them and the app would end with a traceback)."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App, ComposeResult

from paw_tui.tui.widgets.instructions_pane import Picker


class OnePicker(App[None]):
    def compose(self) -> ComposeResult:
        yield Picker([("a", "a")], id="picker")


@pytest.mark.anyio
async def test_a_picker_that_lost_its_parts_sets_up_nothing() -> None:
    app = OnePicker()
    async with app.run_test() as pilot:
        picker = app.query_one(Picker)
        await picker.query_one("SelectOverlay").remove()
        picker.post_message(events.Mount())  # as a mount that arrives during the teardown
        await pilot.pause()
        assert app.is_running and app.return_code is None
