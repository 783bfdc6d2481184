"""Snapshot tests of the key screens on the demo workspace (textual is pinned exactly, so the
SVGs only change when the layout does). Update with ``pytest --snapshot-update``."""

from __future__ import annotations

import pytest

from paw_tui.tui.scenes import SIZE, build_app, prepare_demo, settle

# A fixed location keeps the paths shown on screen identical from run to run.
BASE = "/tmp/paw-tui-snapshots"


def _scene_app(scene: str, monkeypatch):  # type: ignore[no-untyped-def]
    for name in ("PAW_USER_HOME", "PAW_STATE_DIR", "PAW_WORKSPACE_PATH", "CLAUDE_PROJECT_DIR"):
        monkeypatch.delenv(name, raising=False)
    demo = prepare_demo(BASE)
    for name, value in demo.environ().items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot, scene)

    return build_app(scene, demo), run_before


@pytest.mark.parametrize("scene", ["main", "approval", "trace-denials"])
def test_key_screens(scene: str, snap_compare, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    app, run_before = _scene_app(scene, monkeypatch)
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("scene", ["main"])
def test_main_screen_at_80x24(scene: str, snap_compare, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    app, run_before = _scene_app(scene, monkeypatch)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
