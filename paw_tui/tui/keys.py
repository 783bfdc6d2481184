"""Every key of the TUI, by where it acts: the one list the help screen shows and the keymap
file is checked against. Read from the classes' real bindings, so it cannot drift.

Textual's own screen keys (tab, copy) are listed once, under "Everywhere", not again under
every screen; a system binding that another shadows (the app's ctrl+c hint, under every
screen's ctrl+c copy) is not listed at all."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from paw_tui.tui.dialogs.help import KeyRow

TYPE_CHECKING = False
if TYPE_CHECKING:
    from textual.app import App
    from textual.dom import DOMNode

__all__ = ["KeyRow", "all_bindings", "key_rows", "known_ids"]


def _sections() -> list[tuple[str, list[type[DOMNode]]]]:
    # imported here: the screens import this module's users
    from textual.containers import VerticalScroll

    from paw_tui.tui.dialogs.act_failed import ActFailed
    from paw_tui.tui.dialogs.approval import ApprovalModal
    from paw_tui.tui.dialogs.confirm import ChoiceModal, ConfirmModal
    from paw_tui.tui.dialogs.help import HelpScreen
    from paw_tui.tui.dialogs.record_detail import RecordDetail
    from paw_tui.tui.dialogs.scope_request import ScopeRequestModal
    from paw_tui.tui.screens.intent_form import IntentForm
    from paw_tui.tui.screens.main import MainScreen
    from paw_tui.tui.screens.prompt_view import PromptView
    from paw_tui.tui.screens.sessions_view import SessionsView
    from paw_tui.tui.widgets.intents_pane import IntentsPane
    from paw_tui.tui.widgets.trace_pane import TracePane
    from paw_tui.tui.widgets.trace_view import TraceView
    from paw_tui.tui.widgets.vim_table import VimDataTable

    return [
        ("Main screen", [MainScreen]),
        ("Intents", [IntentsPane, VimDataTable]),
        ("Trace", [TracePane, TraceView]),
        ("Scope and Instructions text", [VerticalScroll]),
        ("Prompt view (p)", [PromptView]),
        ("Sessions view (S)", [SessionsView]),
        ("Intent form (n, e)", [IntentForm]),
        ("Approval", [ApprovalModal]),
        ("Scope request", [ScopeRequestModal]),
        ("Confirmation", [ConfirmModal, ChoiceModal]),
        ("Record detail", [RecordDetail]),
        ("Not done (an act that could not be recorded)", [ActFailed]),
        ("Help", [HelpScreen]),
    ]


def _bindings(node: type[DOMNode]) -> list[Binding]:
    return [b for bindings in node._merge_bindings().key_to_bindings.values() for b in bindings]


def _slot(binding: Binding) -> tuple[str, str]:
    return binding.key, binding.action


def _everywhere(app: App[Any]) -> list[Binding]:
    own = [
        b
        for bindings in app._bindings.key_to_bindings.values()
        for b in bindings
        if not b.system  # Textual's ctrl+c hint: every screen's ctrl+c copies instead
    ]
    return own + _bindings(Screen)


def all_bindings(app: App[Any]) -> list[tuple[str, list[Binding]]]:
    """(section, bindings) for the whole TUI, as defined (before the keymap)."""
    sections = [("Everywhere", _everywhere(app))]
    inherited = {_slot(b) for b in _bindings(Screen)}
    for title, classes in _sections():
        seen: dict[tuple[str, str], Binding] = {}
        for cls in classes:
            for binding in _bindings(cls):
                if _slot(binding) not in inherited:
                    seen.setdefault(_slot(binding), binding)
        sections.append((title, list(seen.values())))
    return sections


def known_ids(app: App[Any]) -> dict[str, str]:
    """Every binding id the keymap may name -> its description."""
    return {
        b.id: b.description or b.action
        for _title, bindings in all_bindings(app)
        for b in bindings
        if b.id
    }


def key_rows(app: App[Any], keymap: dict[str, str]) -> list[KeyRow]:
    """Every key by section, with the keymap's overrides applied; one row per action (a
    binding spread over several keys is one row listing them)."""
    rows: list[KeyRow] = []
    for title, bindings in all_bindings(app):
        merged: dict[tuple[str, str | None], list[str]] = {}
        described: dict[tuple[str, str | None], str] = {}
        for binding in bindings:
            key = keymap.get(binding.id, binding.key) if binding.id else binding.key
            shown = [app.get_key_display(binding.with_key(k.strip())) for k in key.split(",")]
            slot = (binding.action, binding.id)
            for display in shown:
                if display not in merged.setdefault(slot, []):
                    merged[slot].append(display)
            described[slot] = binding.description or binding.action.replace("_", " ")
        for slot, displays in merged.items():
            rows.append(KeyRow(title, " ".join(displays), described[slot], slot[1]))
    return rows
