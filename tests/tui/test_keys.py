"""Keys that behave: zoom, `/`, tab through every field and scrollable region, text fields
that never run commands, the help screen, and a remappable keymap (DESIGN §11)."""

from __future__ import annotations

import inspect
import pkgutil
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import Input

import paw_tui.tui
from paw_tui.tui.app import PawApp
from paw_tui.tui.dialogs.help import HelpScreen
from paw_tui.tui.keys import key_rows
from paw_tui.tui.screens.main import MainScreen
from paw_tui.tui.screens.prompt_view import PromptView
from paw_tui.tui.widgets.instructions_pane import InstructionsPane
from paw_tui.tui.widgets.pane import FOCUS_MARK, Pane
from paw_tui.tui.widgets.trace_view import TraceView

from .pilot_wait import on_screen, until

SMALL = (80, 24)
WIDE = (160, 48)
# every single key the main screen, its panes or the app bind: typed into a field, each
# must land in the field as text
COMMAND_KEYS = "szpatdfcqx1234/?jkgGneS"


async def started(app: PawApp, pilot) -> MainScreen:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: app.query_one(TraceView).row_count > 0)
    # the instructions pane's widgets are built after the first paint
    await until(pilot, lambda: app.query_one(InstructionsPane).built)
    await until(pilot, lambda: app.focused is app.query_one("#intents-table"))
    return app.main


def pane_of_focus(app: PawApp) -> str | None:
    return app.main._pane_of_focus()


@pytest.mark.anyio
@pytest.mark.parametrize("size", [SMALL, WIDE])
async def test_z_zooms_the_focused_pane_and_back(
    workspace: Path, user_dir: str, size: tuple[int, int]
) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=size) as pilot:
        screen = await started(app, pilot)
        await pilot.press("4")  # the trace pane
        await pilot.press("z")
        trace = app.query_one("#trace")
        assert screen.maximized is trace
        await pilot.pause()
        assert trace.region.width == size[0] and trace.region.height >= size[1] - 2
        await pilot.press("z")
        assert screen.maximized is None
        await pilot.press("2", "z")
        assert screen.maximized is app.query_one("#intents")
        await pilot.press("escape")
        assert screen.maximized is None
        assert app.focused is app.query_one("#intents-table")


@pytest.mark.anyio
async def test_tab_stays_in_the_zoomed_pane(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=WIDE) as pilot:
        await started(app, pilot)
        await pilot.press("3", "z")
        seen = set()
        for _ in range(5):
            await pilot.press("tab")
            seen.add(pane_of_focus(app))
        assert seen == {"scope"}


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("pane", "field"),
    [
        ("2", "#intent-filter"),
        ("4", "#trace-filter"),
        ("3", "#trace-filter"),
        ("1", "#trace-filter"),
    ],
)
async def test_slash_focuses_the_panes_filter_else_the_trace_filter(
    workspace: Path, user_dir: str, pane: str, field: str
) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SMALL) as pilot:
        await started(app, pilot)
        await pilot.press(pane, "slash")
        assert app.focused is app.query_one(field)
        await pilot.pause()
        # on a narrow screen the pane holding that field is the one shown
        assert app.query_one(field).region.width > 0


@pytest.mark.anyio
@pytest.mark.parametrize("size", [SMALL, WIDE])
async def test_tab_reaches_every_field_and_scrollable_region(
    workspace: Path, user_dir: str, size: tuple[int, int]
) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=size) as pilot:
        await started(app, pilot)
        expected = [app.query_one(s) for p in app.query(Pane) for s in p.STOPS]
        for needed in ("#scope-body", "#context-scroll", "#trace-view", "#work-select"):
            assert app.query_one(needed) in expected
        seen = []
        for _ in range(len(expected)):
            await pilot.press("tab")
            await pilot.pause()
            focused = app.focused
            assert focused is not None
            seen.append(focused)
            # what has the focus is on screen, and its pane is marked by its title
            assert focused.region.width > 0 and focused.region.height > 0, focused
            pane = app.query_one(f"#{pane_of_focus(app)}", Pane)
            assert str(pane.border_title).startswith(FOCUS_MARK)
            others = [p for p in app.query(Pane) if p is not pane]
            assert not any(str(p.border_title).startswith(FOCUS_MARK) for p in others)
        assert set(seen) == set(expected)
        # and back the same way
        back = []
        for _ in range(len(expected)):
            await pilot.press("shift+tab")
            back.append(app.focused)
        assert back[:-1] == list(reversed(seen[:-1]))


@pytest.mark.anyio
async def test_typing_in_any_field_is_text_never_a_command(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await started(app, pilot)
        fields = list(screen.query(Input))
        assert len(fields) >= 4
        for field in fields:
            field.value = ""
            screen._focus(field)
            await pilot.pause()
            assert app.focused is field
            await pilot.press(*COMMAND_KEYS)
            await pilot.pause()
            assert field.value == COMMAND_KEYS, field.id
            assert app.screen is screen and screen.maximized is None and app.is_running
            field.value = ""
        # the prompt view: the main screen's keys are not its keys
        await pilot.press("escape", "p")
        await until(pilot, lambda: on_screen(app, PromptView))
        view = app.screen
        before = screen.focused
        following = app.query_one(TraceView).following
        supervisor = view.query_one("#supervisor-input", Input)
        supervisor.focus()
        await pilot.pause()
        await pilot.press(*COMMAND_KEYS)
        await pilot.pause()
        assert supervisor.value == COMMAND_KEYS
        assert app.screen is view and app.is_running
        # off the field, a main-screen key does nothing here either
        view.query_one("#prompt-layers").focus()
        await pilot.press("z", "s", "t", "d", "f", "slash")
        await pilot.pause()
        assert app.screen is view and screen.maximized is None
        assert screen.focused is before and app.query_one(TraceView).following == following


def _every_binding_class() -> list[type[DOMNode]]:
    """Every class of the TUI package that declares bindings of its own."""
    found: dict[str, type[DOMNode]] = {}
    for info in pkgutil.walk_packages(paw_tui.tui.__path__, "paw_tui.tui."):
        module = __import__(info.name, fromlist=["_"])
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, DOMNode)
                and cls.__module__ == module.__name__
                and cls.__dict__.get("BINDINGS")
            ):
                found[cls.__qualname__] = cls
    return list(found.values())


@pytest.mark.anyio
async def test_help_lists_every_key_of_every_screen_and_pane(
    workspace: Path, user_dir: str
) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SMALL) as pilot:
        await started(app, pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: on_screen(app, HelpScreen))
        shown = "\n".join(str(s.render()) for s in app.screen.query(".help-section"))
        rows = key_rows(app, {})
        classes = _every_binding_class()
        assert len(classes) >= 8
        for cls in classes:
            for binding in cls.BINDINGS:
                assert isinstance(binding, Binding)
                described = [r for r in rows if r.description == binding.description]
                assert described, (cls.__name__, binding)
                for key in binding.key.split(","):
                    display = app.get_key_display(binding.with_key(key))
                    assert any(display in r.keys.split() for r in described), (cls, key)
                assert binding.description in shown
        # the ids a keymap file uses are listed too
        assert "trace.tail" in shown and "main.zoom" in shown
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen))


@pytest.mark.anyio
async def test_a_keymap_file_remaps_keys(workspace: Path, user_dir: str, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    (config / "keymap.yaml").write_text("# mine\nmain.zoom: Z\ntrace.tail: T\n")
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = await started(app, pilot)
        await pilot.press("z")
        assert screen.maximized is None  # z is no longer zoom
        await pilot.press("Z")
        assert screen.maximized is not None
        await pilot.press("Z", "4")
        view = app.query_one(TraceView)
        assert view.following
        await pilot.press("T")
        assert not view.following
        rows = key_rows(app, app._keymap)
        assert [r.keys for r in rows if r.binding_id == "main.zoom"] == ["Z"]
        assert not app.setting_problems


@pytest.mark.anyio
async def test_a_bad_keymap_is_named_and_the_app_still_starts(
    workspace: Path, user_dir: str, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    path = config / "keymap.yaml"
    path.write_text("trace.tial: T\nmain.zoom: ctlr+z\nmain.prompt: [p]\ntrace.denials: D\n")
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=WIDE) as pilot:
        await started(app, pilot)
        problems = app.setting_problems
        assert len(problems) == 3
        assert all(str(path) in p for p in problems)
        assert "line 1" in problems[0] and "trace.tial" in problems[0]
        assert "trace.tail" in problems[0]  # did you mean
        assert "line 2" in problems[1] and "ctlr" in problems[1]
        assert "line 3" in problems[2] and "main.prompt" in problems[2]
        shown = [n.message for n in app._notifications]
        assert all(any(p == m for m in shown) for p in problems)
        assert app._keymap == {"trace.denials": "D"}  # the good entry still applies
    path.write_text("main.zoom: [unclosed\n")
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=WIDE) as pilot:
        await started(app, pilot)
        assert len(app.setting_problems) == 1
        assert str(path) in app.setting_problems[0]
        assert "not valid YAML" in app.setting_problems[0]
        await pilot.press("z")
        assert app.main.maximized is not None  # defaults in force


@pytest.mark.anyio
async def test_the_theme_is_remembered(workspace: Path, user_dir: str, tmp_path: Path) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SMALL) as pilot:
        await started(app, pilot)
        assert app.theme != "nord"
        app.theme = "nord"
        await pilot.pause()
    assert (tmp_path / "config" / "tui.json").exists()
    again = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with again.run_test(size=SMALL) as pilot:
        await started(again, pilot)
        assert again.theme == "nord"


@pytest.mark.anyio
async def test_zoom_and_help_are_in_the_palette(workspace: Path, user_dir: str) -> None:
    from .test_app import run_from_palette

    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SMALL) as pilot:
        screen = await started(app, pilot)
        await run_from_palette(app, pilot, "pane: Zoom")
        await until(pilot, lambda: screen.maximized is app.query_one("#intents"))
        assert "zoomed" in str(app.query_one("#intents", Pane).border_title)
        await run_from_palette(app, pilot, "help: Keys")
        await until(pilot, lambda: on_screen(app, HelpScreen))


@pytest.mark.anyio
async def test_a_click_on_a_tab_shows_its_pane(workspace: Path, user_dir: str) -> None:
    app = PawApp(str(workspace), user_dir=user_dir, watch_approvals=False)
    async with app.run_test(size=SMALL) as pilot:
        await started(app, pilot)
        await pilot.click("#tab-trace")
        await until(pilot, lambda: pane_of_focus(app) == "trace")
        await pilot.pause()
        assert app.query_one("#trace").region.width > 0
        assert app.query_one("#intents").region.width == 0
