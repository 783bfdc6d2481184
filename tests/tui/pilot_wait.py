"""Waiting in pilot tests: on a condition, bounded by steps, never measured by a clock."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot


async def until(pilot: Pilot[None], condition: Callable[[], object], steps: int = 200) -> None:
    """Let the app run until ``condition()`` holds (at most ``steps`` pauses)."""
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.05)
    assert condition(), "condition never held"
