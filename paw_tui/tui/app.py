"""The paw-tui application: global keys, the command palette, and the main screen."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.theme import Theme

from paw_tui.tui.attention import Attention, is_text_field
from paw_tui.tui.commands import PawCommands
from paw_tui.tui.screens.main import MainScreen


class PawApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "paw-tui"
    COMMANDS = App.COMMANDS | {PawCommands}
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("q", "quit_app", "Quit", id="app.quit"),
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False, id="app.force_quit"),
    ]

    def __init__(
        self,
        root: str,
        *,
        user_dir: str | None = None,
        watch_approvals: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``clock`` (seconds since the epoch) says how long ago a request was made and which
        trace records are from today; the snapshot scenes fix it."""
        super().__init__()
        from paw_tui.core.workspace.platform import PlatformProbe, user_instructions_dir

        self.root = os.path.abspath(root)
        self.user_dir = user_dir if user_dir is not None else user_instructions_dir(PlatformProbe())
        self.watch_approvals = watch_approvals
        self.clock = clock
        self.attention = Attention()
        self.setting_problems: list[str] = []
        self._apply_settings()

    def _apply_settings(self) -> None:
        """The theme last chosen and the person's keymap. A bad keymap entry is skipped and
        named (file, line, entry) once the screen is up; the app starts regardless."""
        from paw_tui.tui.keys import known_ids
        from paw_tui.tui.settings import load_keymap, saved_theme

        theme = saved_theme()
        if theme is not None and theme in self.available_themes:
            self.theme = theme
        keymap = load_keymap(lambda: known_ids(self))
        self.setting_problems = keymap.problems
        if keymap.bindings:
            self.set_keymap(keymap.bindings)

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        for problem in self.setting_problems:
            self.notify(problem, title="Keymap", severity="error", timeout=20, markup=False)

    def _remember_theme(self, theme: Theme) -> None:
        from paw_tui.tui.settings import save_theme

        problem = save_theme(theme.name)
        if problem:
            self.notify(problem, severity="warning", markup=False)

    def action_help(self) -> None:
        from paw_tui.tui.dialogs.help import HelpScreen
        from paw_tui.tui.keys import key_rows
        from paw_tui.tui.settings import keymap_path

        if not isinstance(self.screen, HelpScreen):
            rows = key_rows(self, dict(self._keymap))
            self.push_screen(HelpScreen(rows, keymap_path()))

    def get_default_screen(self) -> MainScreen:
        return MainScreen(
            self.root,
            self.user_dir,
            watch_approvals=self.watch_approvals,
            attention=self.attention,
            clock=self.clock,
        )

    async def on_event(self, event: events.Event) -> None:
        # Every key the person presses, before it goes anywhere: a request that arrives
        # while they type waits (paw_tui.tui.attention).
        if isinstance(event, events.Key) and not event.is_forwarded:
            self.attention.note_key(event.time)
        await super().on_event(event)

    @property
    def main(self) -> MainScreen:
        """The main screen (under any modal or view pushed on top of it)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, MainScreen)
        return screen

    def action_quit_app(self) -> None:
        if is_text_field(self.focused):
            return
        self.exit()


def run_app(root: str, *, user_dir: str | None = None) -> int:
    import sys

    # Background threads (indexing a large ledger) hand the GIL back sooner, so the screen
    # keeps up with the live tail.
    sys.setswitchinterval(0.001)
    PawApp(root, user_dir=user_dir).run()
    return 0
