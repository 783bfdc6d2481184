"""The TUI only reads until a person acts (DESIGN §2): opened on a repository that never ran
``paw-tui init``, with real ``git``, it writes nothing inside the workspace."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from paw_tui.tui.app import PawApp
from paw_tui.tui.widgets.trace_pane import TracePane

from .pilot_wait import until

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(root: Path, *argv: str) -> str:
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    return subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *argv],
        cwd=root, env=env, capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip


@pytest.mark.anyio
async def test_the_tui_writes_nothing_in_a_repository_that_never_ran_init(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    monkeypatch.setenv("PAW_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("PAW_USER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PAW_CONFIG_DIR", str(tmp_path / "config"))
    git(root, "init", "-q")
    (root / "README.md").write_text("# app\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    app = PawApp(str(root), user_dir=str(tmp_path / "home" / ".paw" / "instructions"))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: bool(app.query(TracePane)))
        await pilot.press("2", "3", "4", "1")  # every pane shown once
        await pilot.pause(0.2)
    assert git(root, "status", "--porcelain", "-uall", "--ignored") == ""
    assert sorted(p.name for p in root.iterdir()) == [".git", "README.md"]
