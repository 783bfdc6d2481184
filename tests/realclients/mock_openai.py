"""Mock of the OpenAI Chat Completions API, which Copilot CLI (BYOK), Cline, opencode and Qwen
Code all speak (``POST {base}/chat/completions``).

Agent-loop requests are the ones that offer ``tools``; they follow the script and are answered
as SSE ``chat.completion.chunk``s: the role, the text or one ``tool_calls`` delta per call, a
``finish_reason``, a usage chunk (the clients ask for it with ``stream_options``), then
``data: [DONE]``. A request without tools (opencode's title call) is a side call and gets a short
text; a non-streaming request gets one ``chat.completion`` object. ``GET .../models`` answers a
one-model list; anything else is a 404.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from typing import Any, ClassVar

from .mockbase import NOT_FOUND, MockServer, Reply
from .script import ModelRequest, Parallel, Text, ToolCall, Turn

_ids = itertools.count(1)
DEFERRED_LINE = re.compile(r'^- "([A-Za-z0-9_.-]+)": ', re.MULTILINE)
MODEL = "mock-model"


def _content_text(content: Any) -> str:
    """A message's content as text (a string, or a list of ``{type: text, text}`` parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(part.get("text", "")) if isinstance(part, dict) else str(part) for part in content
        )
    return "" if content is None else json.dumps(content)


class OpenAIRequest(ModelRequest):
    def _body(self) -> dict[str, Any]:
        return self.body if isinstance(self.body, dict) else {}

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [m for m in self._body().get("messages") or [] if isinstance(m, dict)]

    @property
    def tools(self) -> list[dict[str, Any]]:
        return [t for t in self._body().get("tools") or [] if isinstance(t, dict)]

    def tool_names(self) -> list[str]:
        names = []
        for tool in self.tools:
            function = tool.get("function")
            names.append(str(function.get("name") if isinstance(function, dict) else tool))
        return names

    def system_text(self) -> str:
        return "\n".join(
            _content_text(m.get("content")) for m in self.messages if m.get("role") == "system"
        )

    def deferred_tools(self) -> list[str]:
        """Tools announced by name only, to be loaded with ``tool_search`` (Qwen Code lists them
        as ``- "name": "description"`` lines in a system reminder of the first user message)."""
        for text in self.user_texts():
            if "tool_search" in text and "<system-reminder>" in text:
                return DEFERRED_LINE.findall(text)
        return []

    def user_texts(self) -> list[str]:
        return [_content_text(m.get("content")) for m in self.messages if m.get("role") == "user"]

    def tool_results(self) -> list[str]:
        """The ``tool`` messages answering the newest assistant message's tool calls."""
        messages = self.messages
        last = max(
            (
                n
                for n, m in enumerate(messages)
                if m.get("role") == "assistant" and m.get("tool_calls")
            ),
            default=-1,
        )
        if last < 0:
            return []
        ids = {c.get("id") for c in messages[last]["tool_calls"] if isinstance(c, dict)}
        return [
            _content_text(m.get("content"))
            for m in messages[last + 1 :]
            if m.get("role") == "tool" and m.get("tool_call_id") in ids
        ]

    def after_results(self) -> list[str]:
        """Texts of the messages after the newest tool results (context a hook added there)."""
        messages = self.messages
        last = max((n for n, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
        return [
            _content_text(m.get("content")) for m in messages[last + 1 :] if m.get("role") != "tool"
        ]


def _chunk(delta: dict[str, Any] | None, finish: str | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "chatcmpl-mock",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": MODEL,
        "choices": []
        if delta is None
        else [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }
    body.update(extra)
    return body


def _calls(turn: Turn) -> list[ToolCall]:
    calls = turn.calls if isinstance(turn, Parallel) else (turn,)
    return [call for call in calls if isinstance(call, ToolCall)]


def _call_id(call: ToolCall) -> str:
    return call.call_id or f"call_mock{next(_ids):04d}"


USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def stream_reply(turn: Turn) -> Reply:
    events: list[tuple[str | None, Any]] = [(None, _chunk({"role": "assistant", "content": ""}))]
    if isinstance(turn, Text):
        events.append((None, _chunk({"content": turn.text})))
        finish = "stop"
    else:
        for index, call in enumerate(_calls(turn)):
            delta = {
                "tool_calls": [
                    {
                        "index": index,
                        "id": _call_id(call),
                        "type": "function",
                        "function": {"name": call.name, "arguments": json.dumps(call.input)},
                    }
                ]
            }
            events.append((None, _chunk(delta)))
        finish = "tool_calls"
    events.append((None, _chunk({}, finish)))
    events.append((None, _chunk(None, usage=USAGE)))
    events.append((None, "[DONE]"))
    return Reply(sse=events)


def completion_reply(turn: Turn) -> Reply:
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if isinstance(turn, Text):
        message["content"] = turn.text
        finish = "stop"
    else:
        message["tool_calls"] = [
            {
                "id": _call_id(call),
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.input)},
            }
            for call in _calls(turn)
        ]
        finish = "tool_calls"
    return Reply(
        json_body={
            "id": "chatcmpl-mock",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": MODEL,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": USAGE,
        }
    )


class OpenAIMock(MockServer):
    """Base URL for the clients: :attr:`url` + ``/v1``."""

    request_class: ClassVar[type[ModelRequest]] = OpenAIRequest
    name: ClassVar[str] = "openai"
    side_text = "Mock session"

    def handle(self, request: ModelRequest) -> Reply:
        path = request.path.split("?", 1)[0].rstrip("/")
        body = request.body if isinstance(request.body, dict) else {}
        if request.method == "POST" and path.endswith("/chat/completions"):
            turn: Turn = self.next_turn(request) if body.get("tools") else Text(self.side_text)
            return stream_reply(turn) if body.get("stream") else completion_reply(turn)
        if request.method == "GET" and path.endswith("/models"):
            model = {"id": MODEL, "object": "model", "created": 0, "owned_by": "mock"}
            return Reply(json_body={"object": "list", "data": [model]})
        return NOT_FOUND
