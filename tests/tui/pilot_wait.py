"""Waiting in pilot tests: on a condition, bounded by steps, never measured by a clock."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from textual.app import App
from textual.pilot import Pilot

from paw_tui.tui.dialogs.decision import DecisionModal

Modal = TypeVar("Modal", bound=DecisionModal)


async def until(pilot: Pilot[None], condition: Callable[[], object], steps: int = 400) -> None:
    """Let the app run until ``condition()`` holds (at most ``steps`` pauses)."""
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.05)
    assert condition(), "condition never held"


def modal_on_screen(app: App[None], kind: type[Modal]) -> Modal | None:
    """The decision modal of ``kind`` on screen, once composed: its summary and its last
    button are mounted (a container is in the DOM before the children composed inside it;
    under load a test looked in that gap and found no buttons)."""
    screen = app.screen
    if not isinstance(screen, kind):
        return None
    for inner in ("#approval-context #approval-summary", "#approval-buttons #later"):
        found = screen.query(inner)
        if not found or not found.first().is_mounted:
            return None
    return screen


async def answer(pilot: Pilot[None], key: str) -> None:
    """Press ``key`` on the decision modal on screen once it takes decisions (a key typed
    before then is set aside: paw_tui.tui.dialogs.decision)."""
    screen = pilot.app.screen
    assert isinstance(screen, DecisionModal), screen
    await until(pilot, lambda: screen.armed)
    await pilot.press(key)
