"""Mock of the Gemini API (``GOOGLE_GEMINI_BASE_URL``) for Gemini CLI.

Agent-loop requests are ``POST …/models/<m>:streamGenerateContent`` (SSE, ``alt=sse``) calls
that offer function declarations; they follow the script. ``:generateContent`` side calls
with a ``responseJsonSchema`` (the model router, the next-speaker check, …) get a JSON text that
validates against the schema; other ``:generateContent`` calls get a short text; ``:countTokens``
a rough count. Anything else is a 404.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, ClassVar

from .mockbase import NOT_FOUND, MockServer, Reply
from .script import ModelRequest, Parallel, Text, ToolCall, Turn

MODEL_VERSION = "gemini-mock"
_ids = itertools.count(1)
# Preferred values when a schema offers a choice (an enum): keep the client on the cheap path.
PREFERRED = ("user", "flash", "false")


class GeminiRequest(ModelRequest):
    def _body(self) -> dict[str, Any]:
        return self.body if isinstance(self.body, dict) else {}

    @property
    def contents(self) -> list[dict[str, Any]]:
        return [c for c in self._body().get("contents") or [] if isinstance(c, dict)]

    @property
    def declarations(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for group in self._body().get("tools") or []:
            if isinstance(group, dict):
                found.extend(
                    d for d in group.get("functionDeclarations") or [] if isinstance(d, dict)
                )
        return found

    def tool_names(self) -> list[str]:
        return [str(d.get("name")) for d in self.declarations]

    def system_text(self) -> str:
        system = self._body().get("systemInstruction") or {}
        parts = system.get("parts") if isinstance(system, dict) else None
        return "\n".join(str(p.get("text", "")) for p in parts or [] if isinstance(p, dict))

    def tool_results(self) -> list[str]:
        """functionResponse parts of the newest user content, as JSON text."""
        for content in reversed(self.contents):
            if content.get("role") != "user":
                continue
            parts = [p for p in content.get("parts") or [] if isinstance(p, dict)]
            return [json.dumps(p["functionResponse"]) for p in parts if "functionResponse" in p]
        return []


def instance_of(schema: Any) -> Any:
    """A small value that validates against a (JSON Schema subset) ``schema``."""
    if not isinstance(schema, dict):
        return "mock"
    if "enum" in schema and schema["enum"]:
        options = list(schema["enum"])
        return next((o for o in options if str(o).lower() in PREFERRED), options[0])
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return instance_of(schema[key][0])
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    kind = str(kind).lower() if kind else ("object" if "properties" in schema else "string")
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: instance_of(sub) for name, sub in props.items()}
    if kind == "array":
        count = int(schema.get("minItems") or 0)
        return [instance_of(schema.get("items")) for _ in range(count)]
    if kind in ("integer", "number"):
        # 1, not 0: Gemini CLI's router validates "complexity_score" as >= 1 without saying so
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    return "mock"


def _parts(turn: Turn) -> list[dict[str, Any]]:
    if isinstance(turn, Text):
        return [{"text": turn.text}]
    calls = turn.calls if isinstance(turn, Parallel) else (turn,)
    parts = []
    for call in calls:
        assert isinstance(call, ToolCall)
        function_call: dict[str, Any] = {"name": call.name, "args": call.input}
        if call.call_id:
            function_call["id"] = call.call_id
        parts.append({"functionCall": function_call})
    return parts


def _chunk(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": MODEL_VERSION,
        "responseId": f"mockresp{next(_ids):04d}",
    }


class GeminiMock(MockServer):
    """``GOOGLE_GEMINI_BASE_URL`` = :attr:`url`."""

    request_class: ClassVar[type[ModelRequest]] = GeminiRequest
    name: ClassVar[str] = "gemini"
    side_text = "OK"

    def handle(self, request: ModelRequest) -> Reply:
        path = request.path.split("?", 1)[0]
        body = request.body if isinstance(request.body, dict) else {}
        if request.method != "POST" or ":" not in path:
            return NOT_FOUND
        action = path.rsplit(":", 1)[1]
        if action == "countTokens":
            return Reply(json_body={"totalTokens": max(1, len(request.raw) // 4)})
        config = body.get("generationConfig") or {}
        schema = config.get("responseJsonSchema") or config.get("responseSchema")
        if action == "generateContent":
            if schema is not None:
                text = json.dumps(instance_of(schema))
            else:
                text = self.side_text
            return Reply(json_body=_chunk([{"text": text}]))
        if action == "streamGenerateContent":
            if body.get("tools") and schema is None:
                parts = _parts(self.next_turn(request))
            elif schema is not None:
                parts = [{"text": json.dumps(instance_of(schema))}]
            else:
                parts = [{"text": self.side_text}]
            return Reply(sse=[(None, _chunk(parts))])
        return NOT_FOUND
