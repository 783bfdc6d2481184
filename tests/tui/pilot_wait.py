"""Waiting in pilot tests: on a condition, bounded by steps, never measured by a clock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from paw_tui.tui.dialogs.decision import DecisionModal

Modal = TypeVar("Modal", bound=DecisionModal)
S = TypeVar("S", bound=Screen[Any])


async def until(pilot: Pilot[None], condition: Callable[[], object], steps: int = 400) -> None:
    """Let the app run until ``condition()`` holds (at most ``steps`` pauses)."""
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.05)
    assert condition(), "condition never held"


def on_screen(app: App[None], kind: type[S]) -> S | None:
    """The screen of ``kind`` on top, once mounted with all it composes (a pushed screen is
    on top before its widgets are: a query in between finds nothing)."""
    screen = app.screen
    return screen if isinstance(screen, kind) and screen.is_mounted else None


def modal_on_screen(app: App[None], kind: type[Modal]) -> Modal | None:
    """The decision modal of ``kind`` on screen, once composed (under load a test looked
    before its buttons were mounted and found none)."""
    return on_screen(app, kind)


async def answer(pilot: Pilot[None], key: str) -> None:
    """Press ``key`` on the decision modal on screen once it takes decisions (a key typed
    before then is set aside: paw_tui.tui.dialogs.decision)."""
    screen = pilot.app.screen
    assert isinstance(screen, DecisionModal), screen
    await until(pilot, lambda: screen.armed)
    await pilot.press(key)
