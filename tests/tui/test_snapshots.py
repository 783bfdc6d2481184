"""Snapshot tests of the key screens on the demo workspace (textual is pinned exactly, so the
SVGs only change when the layout does). Update with ``pytest --snapshot-update``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path, PurePath
from typing import Any, Protocol

import pytest
from textual.app import App
from textual.pilot import Pilot

from paw_tui.tui.app import PawApp

from .scenes import SCENES, build_app, prepare_demo, settle, size_of


class SnapCompare(Protocol):
    """The ``snap_compare`` fixture of pytest-textual-snapshot."""

    def __call__(
        self,
        app: str | PurePath | App[Any],
        press: Iterable[str] = (),
        terminal_size: tuple[int, int] = (80, 24),
        run_before: Callable[[Pilot[Any]], Awaitable[None] | None] | None = None,
    ) -> bool: ...


def _scene_app(
    scene: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> tuple[PawApp, Callable[[Pilot[None]], Awaitable[None]]]:
    for name in ("PAW_USER_HOME", "PAW_STATE_DIR", "PAW_WORKSPACE_PATH", "CLAUDE_PROJECT_DIR"):
        monkeypatch.delenv(name, raising=False)
    # Paths on screen are shown under ~: with HOME at this test's directory they read the
    # same on every run and machine.
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PAW_CONFIG_DIR", str(tmp_path / "config"))  # default keys and theme
    demo = prepare_demo(str(tmp_path / "demo"))
    for name, value in demo.environ().items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, scene)

    return build_app(scene, demo), run_before


@pytest.mark.parametrize("scene", SCENES)
def test_key_screens(
    scene: str, snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each scene at its size: 160x48 side by side, 80x24 one pane at a time."""
    app, run_before = _scene_app(scene, monkeypatch, tmp_path)
    assert snap_compare(app, terminal_size=size_of(scene), run_before=run_before)
