"""One adapter per agent client: its payload in, our decision out in its own protocol."""

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
