"""Scripted model turns: what a mock model answers, one turn per agent-loop request.

A script is a list of steps. A step is a :class:`ToolCall` (the model calls one tool), a
:class:`Parallel` (several tool calls in one answer), a :class:`Text` (a final answer that ends
the agent loop), or a callable that receives the :class:`ModelRequest` being answered and returns
one of those (or ``None`` for "end with the default text"). A whole script may also be a single
callable, consulted for every request. When the steps run out, the mock answers
``Text("(script exhausted)")`` so the client always ends.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolCall:
    """The model calls ``name`` with ``input``.

    ``kind`` matters only for Codex: ``"function"`` (a JSON-arguments function_call),
    ``"custom"`` (a freeform custom_tool_call whose input is the raw string ``input["input"]``,
    e.g. apply_patch) or ``"tool_search"`` (a tool_search_call with ``input`` as arguments);
    ``namespace`` is the Responses API namespace of a function call (Codex MCP tools loaded
    by tool_search come as ``name="probe_echo", namespace="mcp__probe"``).
    """

    name: str
    input: dict[str, Any] = field(default_factory=dict)
    kind: str = "function"
    call_id: str | None = None
    namespace: str | None = None


@dataclass(frozen=True)
class Parallel:
    """Several tool calls in one model answer."""

    calls: tuple[ToolCall, ...]


@dataclass(frozen=True)
class Text:
    """A final text answer (no tool call): the client's agent loop ends."""

    text: str


Turn = ToolCall | Parallel | Text
Step = Turn | Callable[["ModelRequest"], Turn | None]
ScriptSpec = Sequence[Step] | Callable[["ModelRequest"], Turn | None]

EXHAUSTED = Text("(script exhausted)")


@dataclass
class ModelRequest:
    """One HTTP request a client sent to the mock, as recorded.

    ``scripted`` is True for agent-loop requests (answered from the script, ``turn_index`` is
    the step used); side calls (titles, routing, token counts, …) are recorded with
    ``scripted=False``. Client mocks subclass this with readers for their wire format.
    """

    index: int
    method: str
    path: str
    headers: dict[str, str]
    raw: bytes
    body: Any
    scripted: bool = False
    turn_index: int | None = None
    reply: Turn | None = None
    status: int = 200
    at: float = 0.0

    # Overridden per client --------------------------------------------------------------
    def tool_names(self) -> list[str]:
        """Names of the tools offered to the model in this request."""
        return []

    def tool_results(self) -> list[str]:
        """Texts of the tool results sent back in this request's newest input."""
        return []

    def system_text(self) -> str:
        return ""

    def deferred_tools(self) -> list[str]:
        """Tools the client marks as deferred / loaded on demand in this request."""
        return []

    # Generic -----------------------------------------------------------------------------
    def text(self) -> str:
        """The whole body as text, for ``"needle" in req.text()`` checks."""
        return self.raw.decode("utf-8", "replace")

    def contains(self, needle: str) -> bool:
        """True when ``needle`` occurs in the body, also after JSON string escaping."""
        if needle in self.text():
            return True
        return json.dumps(needle)[1:-1] in self.text()


class Script:
    """A thread-safe cursor over a :data:`ScriptSpec`."""

    def __init__(self, spec: ScriptSpec) -> None:
        self._spec = spec
        self._next = 0
        self._lock = threading.Lock()

    @property
    def position(self) -> int:
        return self._next

    def next_turn(self, request: ModelRequest) -> tuple[int, Turn]:
        with self._lock:
            index = self._next
            self._next += 1
            if callable(self._spec):
                step: Step | None = self._spec
            elif index < len(self._spec):
                step = self._spec[index]
            else:
                return index, EXHAUSTED
        turn = step(request) if callable(step) else step
        return index, turn if turn is not None else EXHAUSTED


def tool(name: str, **arguments: Any) -> ToolCall:
    """Shorthand: ``tool("Write", file_path="/x", content="y")``."""
    return ToolCall(name, dict(arguments))
