"""Command-palette entries, titled "group: Action"."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

ENTRIES: tuple[tuple[str, str, str], ...] = (
    ("intent: Approve", "review the pending intent selections", "review_approvals"),
    ("intent: New", "the intent form for a new intent (n)", "new_intent"),
    ("intent: Edit", "the intent form on the highlighted intent (e)", "edit_intent"),
    ("intent: Set status", "change the highlighted intent's status", "change_status"),
    ("session: Show sessions", "live sessions; release one (S)", "show_sessions"),
    ("intent: Filter trace", "show only the highlighted intent's records", "trace_intent"),
    ("trace: Toggle tail", "follow the newest record, or stop", "toggle_tail"),
    ("trace: Show denials", "only records with decision deny", "trace_denials"),
    ("trace: Clear filter", "every record", "trace_clear"),
    ("trace: Verify chain", "check the hash chain again", "verify_chain"),
    (
        "prompt: Show assembled prompt",
        "each prompt layer with its source and size; set the supervisor",
        "show_prompt",
    ),
    ("pane: Zoom", "the focused pane on the whole screen, or back (z)", "zoom"),
    ("help: Keys", "every key by pane, with the ids a keymap file uses (?)", "app.help"),
    ("pane: Instructions", "focus the instructions pane", "focus_pane('instructions')"),
    ("pane: Intents", "focus the intents pane", "focus_pane('intents')"),
    ("pane: Scope", "focus the scope pane", "focus_pane('scope')"),
    ("pane: Trace", "focus the trace pane", "focus_pane('trace')"),
)


class PawCommands(Provider):
    """The main screen's actions, whatever is on top of it (the palette, a modal)."""

    def _run(self, action: str) -> Callable[[], Awaitable[object]]:
        main_screen = self.app.screen_stack[0]  # the base screen: the main one
        return partial(main_screen.run_action, action)

    async def discover(self) -> Hits:
        for title, help_text, action in ENTRIES:
            yield DiscoveryHit(title, self._run(action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, action in ENTRIES:
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), self._run(action), help=help_text)
