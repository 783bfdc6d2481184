"""``paw-tui mcp``: MCP over stdio (newline-delimited JSON-RPC 2.0), tools only.

Why not the ``mcp`` SDK: importing it (pydantic, anyio, starlette types) took about 1.4 s on
the machines we measured, and clients start their MCP servers at session start, so the
handshake tool was often not there yet when the model first needed it. The part of the
protocol a tools-only server speaks is small: ``initialize`` (version negotiation),
``ping``, ``tools/list``, ``tools/call``, cancellation; empty ``resources``/``prompts``
listings for clients that ask without looking at the capabilities. The SDK stays the
reference: the test suite drives this server with the SDK's own client, and the real-client
tests with Claude Code, Gemini CLI and Codex.

Requests run on their own threads so a ``ping`` or a ``notifications/cancelled`` is read
while a tool works; replies are written whole, one line each, under a lock. Nothing but
protocol messages reaches stdout: ``sys.stdout`` points at stderr while the server runs.
"""

from __future__ import annotations

import json
import os
import sys
import threading

from paw_tui.mcp.tools import INSTRUCTIONS, SERVER_NAME, TOOLS_BY_NAME, PawTools, tool_listing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
"""Newest first: a client asking for one of these gets it, any other gets the newest."""
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
EMPTY_LISTINGS = {
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
}
MAX_LINE = 16 * 1024 * 1024
"""A message longer than this is refused (a runaway client must not exhaust memory)."""


def _version() -> str:
    from paw_tui import __version__

    return __version__


class StdioServer:
    """One connection: messages in from ``source``, replies out to ``sink``."""

    def __init__(self, tools: PawTools, source: BinaryIO, sink: BinaryIO) -> None:
        self.tools = tools
        self.source = source
        self.sink = sink
        self.write_lock = threading.Lock()
        self.cancelled: set[object] = set()
        self.running: list[threading.Thread] = []

    # -- the loop ----------------------------------------------------------------------------
    def serve(self) -> None:
        """Answer until the client closes stdin, then let running calls finish."""
        while True:
            line = self.source.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE:
                self.reply_error(None, INVALID_REQUEST, f"message longer than {MAX_LINE} bytes")
                self._skip_rest_of_line()
                continue
            if line.strip():
                self.receive(line)
        for thread in self.running:
            thread.join()

    def _skip_rest_of_line(self) -> None:
        while True:
            chunk = self.source.readline(MAX_LINE)
            if not chunk or chunk.endswith(b"\n"):
                return

    def receive(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except (ValueError, RecursionError) as error:
            self.reply_error(None, PARSE_ERROR, f"not JSON: {error}")
            return
        for one in message if isinstance(message, list) and message else [message]:
            self.dispatch(one)

    def dispatch(self, message: object) -> None:
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self.reply_error(_id_of(message), INVALID_REQUEST, "not a JSON-RPC 2.0 message")
            return
        method = message.get("method")
        if not isinstance(method, str):
            return  # a response to something we never ask: nothing to do
        params = message.get("params")
        params = params if isinstance(params, dict) else {}
        if "id" not in message:
            self.notification(method, params)
            return
        request_id = message["id"]
        if method == "tools/call":
            thread = threading.Thread(
                target=self.call_tool, args=(request_id, params), name=f"mcp-call-{request_id}"
            )
            self.running = [t for t in self.running if t.is_alive()]
            self.running.append(thread)
            thread.start()
            return
        self.request(request_id, method, params)

    def notification(self, method: str, params: dict[str, object]) -> None:
        if method == "notifications/cancelled":
            self.cancelled.add(params.get("requestId"))

    def request(self, request_id: object, method: str, params: dict[str, object]) -> None:
        if method == "initialize":
            wanted = params.get("protocolVersion")
            version = wanted if wanted in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0]
            self.reply(
                request_id,
                {
                    "protocolVersion": version,
                    "capabilities": {"tools": {"listChanged": False}},
                    "serverInfo": {"name": SERVER_NAME, "version": _version()},
                    "instructions": INSTRUCTIONS,
                },
            )
        elif method == "ping":
            self.reply(request_id, {})
        elif method == "tools/list":
            self.reply(request_id, {"tools": tool_listing()})
        elif method in EMPTY_LISTINGS:
            self.reply(request_id, {EMPTY_LISTINGS[method]: []})
        else:
            self.reply_error(request_id, METHOD_NOT_FOUND, f"Method not found: {method}")

    # -- tools -------------------------------------------------------------------------------
    def call_tool(self, request_id: object, params: dict[str, object]) -> None:
        from paw_tui.mcp.tools import bind_arguments

        name = params.get("name")
        arguments = params.get("arguments")
        spec = TOOLS_BY_NAME.get(name) if isinstance(name, str) else None
        if spec is None:
            self.reply_error(request_id, INVALID_PARAMS, f"Unknown tool: {name!r}")
            return
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            self.reply_error(
                request_id, INVALID_PARAMS, f"the arguments of {name} are not an object"
            )
            return
        bound = bind_arguments(spec, arguments)
        if isinstance(bound, str):
            result = self.tools.failure(bound)
        else:
            try:
                result = self.tools.call(spec.name, bound, lambda: request_id in self.cancelled)
            except Exception as error:  # a bug must not kill the server the agent relies on
                result = self.tools.failure(f"{spec.name} failed: {type(error).__name__}: {error}")
        if request_id in self.cancelled:
            self.cancelled.discard(request_id)
            return  # the client gave up on it: MCP says not to answer
        self.reply(
            request_id,
            {"content": [{"type": "text", "text": result.text}], "isError": result.is_error},
        )

    # -- writing -----------------------------------------------------------------------------
    def reply(self, request_id: object, result: dict[str, object]) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "result": result})

    def reply_error(self, request_id: object, code: int, message: str) -> None:
        self.send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})

    def send(self, message: dict[str, object]) -> None:
        data = json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n"
        with self.write_lock:
            try:
                self.sink.write(data)
                self.sink.flush()
            except (BrokenPipeError, ValueError):
                pass  # the client is gone; the loop ends at end of input


def _id_of(message: object) -> object:
    return message.get("id") if isinstance(message, dict) else None


def serve(*, hooked: bool = False) -> None:
    """Serve on this process's stdin/stdout until the client closes stdin."""
    sink = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    # Anything printed by mistake goes to stderr, never into the protocol stream.
    sys.stdout = sys.stderr
    tools = PawTools(hooked=hooked)
    try:
        StdioServer(tools, sys.stdin.buffer, sink).serve()
    finally:
        tools.release()
        sink.close()
