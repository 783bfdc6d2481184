"""Mock of the OpenAI Responses API for Codex (a ``[model_providers.mock]`` in config.toml).

Agent-loop requests are ``POST /v1/responses`` calls that offer tools; they follow the script
and are answered as SSE: ``response.created``, one ``response.output_item.done`` per output item
(``message``, ``function_call``, ``custom_tool_call`` or ``tool_search_call``), then
``response.completed``. A ``/v1/responses`` call without tools (a side call) gets a short text.
``GET /v1/models`` answers an empty model list; anything else is a 404.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, ClassVar

from .mockbase import NOT_FOUND, MockServer, Reply
from .script import ModelRequest, Parallel, Text, ToolCall, Turn

_ids = itertools.count(1)
CALL_TYPES = ("function_call", "custom_tool_call", "tool_search_call", "local_shell_call")
OUTPUT_TYPES = ("function_call_output", "custom_tool_call_output", "tool_search_output")


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, dict):
        if "content" in output:
            return _output_text(output["content"])
        return json.dumps(output)
    if isinstance(output, list):
        return "\n".join(
            str(p.get("text", "")) if isinstance(p, dict) and "text" in p else json.dumps(p)
            for p in output
        )
    return json.dumps(output)


class CodexRequest(ModelRequest):
    def _body(self) -> dict[str, Any]:
        return self.body if isinstance(self.body, dict) else {}

    @property
    def input_items(self) -> list[dict[str, Any]]:
        return [i for i in self._body().get("input") or [] if isinstance(i, dict)]

    @property
    def tools(self) -> list[dict[str, Any]]:
        return [t for t in self._body().get("tools") or [] if isinstance(t, dict)]

    def tool_names(self) -> list[str]:
        """Names of the tools offered; a ``namespace`` tool's members as ``<ns><name>``."""
        names: list[str] = []
        for tool in self.tools:
            if tool.get("type") == "namespace" and isinstance(tool.get("tools"), list):
                prefix = str(tool.get("name") or "")
                names.extend(
                    prefix + str(t.get("name")) for t in tool["tools"] if isinstance(t, dict)
                )
            else:
                names.append(str(tool.get("name") or tool.get("type")))
        return names

    def deferred_tools(self) -> list[str]:
        return [str(t.get("name") or t.get("type")) for t in self.tools if t.get("defer_loading")]

    def system_text(self) -> str:
        return str(self._body().get("instructions") or "")

    def developer_texts(self) -> list[str]:
        """Texts of the developer (and system) messages in ``input``."""
        texts = []
        for item in self.input_items:
            if item.get("type") == "message" and item.get("role") in ("developer", "system"):
                texts.append(_output_text(item.get("content")))
        return texts

    def tool_results(self) -> list[str]:
        """Outputs answering the newest group of tool calls (one model answer's calls)."""
        items = self.input_items
        last_call = max((n for n, i in enumerate(items) if i.get("type") in CALL_TYPES), default=-1)
        if last_call < 0:
            return []
        first = last_call
        while first > 0 and items[first - 1].get("type") in CALL_TYPES:
            first -= 1
        call_ids = {items[n].get("call_id") for n in range(first, last_call + 1)}
        results = []
        for item in items[last_call + 1 :]:
            if item.get("type") in OUTPUT_TYPES and item.get("call_id") in call_ids:
                value = item.get("output") if "output" in item else item.get("tools")
                results.append(_output_text(value))
        return results


def _item(call: ToolCall) -> dict[str, Any]:
    number = next(_ids)
    call_id = call.call_id or f"call_mock{number:04d}"
    if call.kind == "custom":
        return {
            "type": "custom_tool_call",
            "id": f"ctc_mock{number:04d}",
            "call_id": call_id,
            "name": call.name,
            "input": str(call.input.get("input", "")),
            "status": "completed",
        }
    if call.kind == "tool_search":
        return {
            "type": "tool_search_call",
            "id": f"tsc_mock{number:04d}",
            "call_id": call_id,
            "execution": "client",
            "status": "completed",
            "arguments": call.input,
        }
    item = {
        "type": "function_call",
        "id": f"fc_mock{number:04d}",
        "call_id": call_id,
        "name": call.name,
        "arguments": json.dumps(call.input),
        "status": "completed",
    }
    if call.namespace:
        item["namespace"] = call.namespace
    return item


def output_items(turn: Turn) -> list[dict[str, Any]]:
    if isinstance(turn, Text):
        return [
            {
                "type": "message",
                "role": "assistant",
                "id": f"msg_mock{next(_ids):04d}",
                "status": "completed",
                "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
            }
        ]
    calls = turn.calls if isinstance(turn, Parallel) else (turn,)
    return [_item(call) for call in calls if isinstance(call, ToolCall)]


def response_reply(turn: Turn) -> Reply:
    response_id = f"resp_mock{next(_ids):04d}"
    events: list[tuple[str | None, Any]] = [
        ("response.created", {"type": "response.created", "response": {"id": response_id}})
    ]
    for item in output_items(turn):
        events.append(
            ("response.output_item.done", {"type": "response.output_item.done", "item": item})
        )
    events.append(
        (
            "response.completed",
            {
                "type": "response.completed",
                "response": {
                    "id": response_id,
                    "usage": {
                        "input_tokens": 10,
                        "input_tokens_details": {"cached_tokens": 0},
                        "output_tokens": 5,
                        "output_tokens_details": {"reasoning_tokens": 0},
                        "total_tokens": 15,
                    },
                },
            },
        )
    )
    return Reply(sse=events)


class CodexMock(MockServer):
    """Provider ``base_url`` = :attr:`url` + ``/v1``."""

    request_class: ClassVar[type[ModelRequest]] = CodexRequest
    name: ClassVar[str] = "codex"
    side_text = "OK"

    def handle(self, request: ModelRequest) -> Reply:
        path = request.path.split("?", 1)[0].rstrip("/")
        body = request.body if isinstance(request.body, dict) else {}
        if request.method == "POST" and path.endswith("/responses"):
            if body.get("tools"):
                return response_reply(self.next_turn(request))
            return response_reply(Text(self.side_text))
        if request.method == "GET" and path.endswith("/models"):
            return Reply(json_body={"object": "list", "data": [], "models": []})
        return NOT_FOUND
