"""One adapter per agent client: its payload in, our decision out in its own protocol.

An adapter is a module here providing ``NAME``, ``parse``, ``render``, ``deny`` and
``context_only`` (:class:`ClientAdapter`). ``parse`` builds a
:class:`~paw_tui.gate.events.GateEvent` and reads the tool's input through the catalogue
(:func:`paw_tui.gate.tool_input.read_tool_input`); ``render`` answers on the channel the client
honours. Adapters are imported only when used (``--client NAME``). An adapter whose client has
file tools also names, in ``NEW_TEXT``, the fields of each one's input that hold the text it
writes (:mod:`paw_tui.gate.new_text`): the ``mutation`` records' line ranges come from them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from paw_tui.gate.events import Answer, Decision, GateEvent

    class ClientAdapter(Protocol):
        """What every module under ``paw_tui.gate.clients`` provides."""

        NAME: str

        def parse(
            self, payload: dict[str, object], event_override: str | None = None
        ) -> GateEvent | None: ...
        def render(self, event: GateEvent, decision: Decision) -> Answer: ...
        def deny(self, reason: str) -> Answer: ...
        def context_only(self, kind: str, text: str) -> Answer: ...


ADAPTERS: dict[str, str] = {
    "claude-code": "claude_code",
    "generic": "generic",
    "gemini-cli": "gemini_cli",
    "codex": "codex",
    "cursor": "cursor",
    "copilot": "copilot",
    "vscode": "vscode",
    "cline": "cline",
    "windsurf": "windsurf",
    "kiro": "kiro",
    "qwen-code": "qwen_code",
    "opencode": "opencode",
}
"""``--client`` name -> module under ``paw_tui.gate.clients``."""


def load_adapter(name: str) -> ClientAdapter:
    """The adapter of client ``name`` (KeyError for an unknown one)."""
    module = ADAPTERS[name]
    adapter: ClientAdapter = __import__(f"paw_tui.gate.clients.{module}", fromlist=["NAME"])
    return adapter
