"""App-wide messages: results of background workers, and what one pane tells the others."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class IntentHighlighted(Message):
    """The intents pane moved its cursor to ``intent_id`` (None: no intents)."""

    intent_id: str | None


@dataclass
class StateChanged(Message):
    """Something a human did changed the orchestration state: panes reload."""

    reason: str = ""
