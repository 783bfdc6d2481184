"""Mock of the Anthropic Messages API for Claude Code (``ANTHROPIC_BASE_URL``).

Agent-loop requests are the ``POST /v1/messages`` calls that offer tools; they are answered from
the script, streamed (SSE) or not as the request asks. Other ``/v1/messages`` calls (side calls
without tools, e.g. a title or a quota probe) get a short text answer and do not advance the
script. ``/v1/messages/count_tokens`` answers a rough count; anything else is a 404.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any, ClassVar

from .mockbase import NOT_FOUND, MockServer, Reply
from .script import ModelRequest, Parallel, Text, ToolCall, Turn

MODEL = "claude-sonnet-4-5"
DEFERRED_BLOCK = re.compile(
    r"deferred tools are now available via ToolSearch.*?:\n((?:[^\n]+\n)+)", re.S
)
_ids = itertools.count(1)


def _block_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(part["text"]) if "text" in part else json.dumps(part)
            for part in content
            if isinstance(part, dict)
        )
    return ""


class ClaudeRequest(ModelRequest):
    def _body(self) -> dict[str, Any]:
        return self.body if isinstance(self.body, dict) else {}

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self._body().get("messages") or [])

    @property
    def tools(self) -> list[dict[str, Any]]:
        return [t for t in self._body().get("tools") or [] if isinstance(t, dict)]

    def tool_names(self) -> list[str]:
        return [str(t.get("name")) for t in self.tools]

    def announced_deferred(self) -> list[str]:
        """Tools named only in the "deferred tools are now available via ToolSearch" reminder
        (2.1.330 sends their names, not their schemas, until ToolSearch loads them)."""
        for message in self.messages:
            match = DEFERRED_BLOCK.search(_block_text(message.get("content")))
            if match:
                return [line.strip() for line in match.group(1).splitlines() if line.strip()]
        return []

    def deferred_tools(self) -> list[str]:
        """Tools sent with ``defer_loading`` plus those only announced by name."""
        names = [str(t.get("name")) for t in self.tools if t.get("defer_loading")]
        return names + [n for n in self.announced_deferred() if n not in names]

    def system_text(self) -> str:
        return _block_text(self._body().get("system"))

    def tool_results(self) -> list[str]:
        """The tool_result blocks of the last user message (text, errors included)."""
        for message in reversed(self.messages):
            if message.get("role") != "user":
                continue
            content = message.get("content")
            if not isinstance(content, list):
                return []
            return [
                _block_text(block.get("content"))
                for block in content
                if isinstance(block, dict) and block.get("type") == "tool_result"
            ]
        return []

    def tool_result_blocks(self) -> list[dict[str, Any]]:
        for message in reversed(self.messages):
            if message.get("role") == "user" and isinstance(message.get("content"), list):
                return [
                    b
                    for b in message["content"]
                    if isinstance(b, dict) and b.get("type") == "tool_result"
                ]
        return []


def _content_blocks(turn: Turn) -> tuple[list[dict[str, Any]], str]:
    if isinstance(turn, Text):
        return [{"type": "text", "text": turn.text}], "end_turn"
    calls = turn.calls if isinstance(turn, Parallel) else (turn,)
    blocks = []
    for call in calls:
        assert isinstance(call, ToolCall)
        blocks.append(
            {
                "type": "tool_use",
                "id": call.call_id or f"toolu_mock{next(_ids):04d}",
                "name": call.name,
                "input": call.input,
            }
        )
    return blocks, "tool_use"


def _usage(output_tokens: int = 5) -> dict[str, int]:
    return {
        "input_tokens": 10,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def message_reply(turn: Turn, stream: bool, model: str = MODEL) -> Reply:
    blocks, stop_reason = _content_blocks(turn)
    message_id = f"msg_mock{next(_ids):04d}"
    if not stream:
        return Reply(
            json_body={
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": blocks,
                "stop_reason": stop_reason,
                "stop_sequence": None,
                "usage": _usage(),
            }
        )
    events: list[tuple[str | None, Any]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": message_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": _usage(1),
                },
            },
        )
    ]
    for index, block in enumerate(blocks):
        start: dict[str, Any]
        delta: dict[str, Any]
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start},
            )
        )
        events.append(
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return Reply(sse=events)


class ClaudeMock(MockServer):
    """``ANTHROPIC_BASE_URL`` = :attr:`url`."""

    request_class: ClassVar[type[ModelRequest]] = ClaudeRequest
    name: ClassVar[str] = "claude"
    side_text = "OK"

    def handle(self, request: ModelRequest) -> Reply:
        path = request.path.split("?", 1)[0]
        body = request.body if isinstance(request.body, dict) else {}
        if request.method == "HEAD" and path == "/":
            return Reply(raw=b"")  # 2.1.197 probes the base URL once at start
        if request.method == "POST" and path == "/v1/messages/count_tokens":
            return Reply(json_body={"input_tokens": max(1, len(request.raw) // 4)})
        if request.method == "POST" and path == "/v1/messages":
            stream = bool(body.get("stream"))
            model = str(body.get("model") or MODEL)
            if body.get("tools"):
                return message_reply(self.next_turn(request), stream, model)
            return message_reply(Text(self.side_text), stream, model)
        return NOT_FOUND
