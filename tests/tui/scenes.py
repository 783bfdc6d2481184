"""Reproducible scenes of the real app on the demo workspace, for the snapshot tests and the
README screenshots (``scripts/screenshots.py`` imports this module). Each scene is the app plus the steps
that bring it to the state shown; nothing is drawn by hand."""

from __future__ import annotations

import os
import shutil

from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from paw_tui.core.workspace.demo import DemoWorkspace, copy_demo_workspace
from paw_tui.tui.app import PawApp
from paw_tui.tui.dialogs.approval import ApprovalModal
from paw_tui.tui.screens.intent_form import IntentForm
from paw_tui.tui.screens.sessions_view import SessionsView
from paw_tui.tui.widgets.trace_view import TraceView

from .pilot_wait import modal_on_screen

WIDE = (160, 48)
SMALL = (80, 24)
SIZE = WIDE  # the default for a scene not listed below
# scene -> terminal size; the README shows each of these
SIZES = {
    "main": WIDE,
    "main-80x24": SMALL,
    "trace-80x24": SMALL,
    "help-80x24": SMALL,
    "approval": WIDE,
    "approval-80x24": SMALL,
    "trace-denials": WIDE,
    "intent-form": WIDE,
    "intent-form-80x24": SMALL,
    "sessions": WIDE,
    "sessions-80x24": SMALL,
}
SCENES = tuple(SIZES)
DEMO_NOW = 1795195800.0
"""2026-11-20 17:30 UTC, just after the demo's day: the clock of every scene, so ages ("asked
38 min ago") and days in the trace read the same on every run."""


def size_of(scene: str) -> tuple[int, int]:
    return SIZES.get(scene, SIZE)


def approval_scene(scene: str) -> bool:
    return scene.startswith("approval")


def prepare_demo(base: str) -> DemoWorkspace:
    """A fresh copy of the demo at ``base`` (a fixed path keeps the pictures stable)."""
    if os.path.isdir(base):
        shutil.rmtree(base)
    os.makedirs(base)
    demo = copy_demo_workspace(base)
    for name, value in demo.environ().items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    return demo


def build_app(scene: str, demo: DemoWorkspace) -> PawApp:
    user_dir = os.path.join(demo.user_home, ".paw", "instructions")
    return PawApp(
        demo.root,
        user_dir=user_dir,
        watch_approvals=approval_scene(scene),
        clock=lambda: DEMO_NOW,
    )


async def opened(pilot: Pilot[None], scene: str) -> bool:
    """Whether the scene's form or view is on screen and filled; opens it when it is not."""
    app = pilot.app
    if scene.startswith("intent-form"):
        form = app.screen
        if not isinstance(form, IntentForm):
            await pilot.press("e")  # the form on the highlighted intent, INT-001
            return False
        return "covers" in str(form.query_one("#form-preview").render())
    if not isinstance(app.screen, SessionsView):
        await pilot.press("S")
        return False
    return app.screen.query_one("#sessions-table", DataTable).row_count > 0


async def settle(pilot: Pilot[None], scene: str) -> None:
    """Run until the scene is complete: data loaded, chain verified, modal composed."""
    app = pilot.app
    assert isinstance(app, PawApp)
    for _ in range(200):
        await pilot.pause(0.05)
        view = app.query_one(TraceView)
        status = str(app.query_one("#trace-status").render())
        ready = view.row_count > 0 and "verifying" not in status and "indexing" not in status
        tables = app.query("#layers-table").results(DataTable)
        ready = ready and any(table.row_count > 0 for table in tables)
        ready = ready and "…" not in str(app.sub_title).split("shell:")[-1]  # protection probed
        if approval_scene(scene):
            modal = modal_on_screen(app, ApprovalModal)
            # as the person sees it once it takes decisions
            ready = ready and modal is not None and modal.armed
        if scene == "trace-denials" and ready:
            if "match" not in status:
                # the trace zoomed to the whole screen: every column of its lines
                await app.main.run_action("trace_denials")
                await pilot.press("4", "z")
                continue
        if ready and scene.startswith(("intent-form", "sessions")):
            ready = await opened(pilot, scene)
        if ready:
            break
    if scene == "trace-80x24":
        await pilot.press("4")
    if scene == "help-80x24":
        await pilot.press("question_mark")
    for screen in app.screen_stack:
        for field in screen.query(Input):
            field.cursor_blink = False
        for area in screen.query("TextArea"):
            area.cursor_blink = False  # type: ignore[attr-defined]
    await pilot.pause(0.1)
    # A table whose column widths grew with rows added in the same frame as an earlier paint
    # can keep that paint's header line (seen in one run in five under load): paint every
    # table and screen again before the picture is taken.
    for screen in app.screen_stack:
        for table in screen.query(DataTable):
            table.refresh()
        screen.refresh(repaint=True)
    await pilot.pause(0.1)
