"""The threaded loopback HTTP server shared by the per-client model mocks.

A mock binds ``127.0.0.1`` on an ephemeral port, records every request (parsed JSON body, or
the raw bytes), and hands each one to its subclass's :meth:`MockServer.handle`, which answers
through a :class:`Reply`. Answers are computed at once: no handler waits on anything, so a
client can never hang on the mock. After ``deadline`` seconds the mock stops following the
script and ends every agent-loop request with a final text, so a looping client stops too.
"""

from __future__ import annotations

import gzip
import json
import threading
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

from .script import ModelRequest, Script, ScriptSpec, Text, Turn


@dataclass
class Reply:
    """An HTTP answer: a JSON body, a list of SSE events, or raw bytes."""

    status: int = 200
    json_body: Any = None
    sse: list[tuple[str | None, Any]] | None = None  # (event name or None, data object)
    raw: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)

    def encode(self) -> tuple[bytes, str]:
        if self.sse is not None:
            chunks = []
            for event, data in self.sse:
                text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
                head = f"event: {event}\n" if event else ""
                chunks.append(f"{head}data: {text}\n\n")
            return "".join(chunks).encode("utf-8"), "text/event-stream"
        if self.raw is not None:
            return self.raw, self.headers.get("Content-Type", "application/octet-stream")
        body = json.dumps(self.json_body if self.json_body is not None else {})
        return body.encode("utf-8"), "application/json"


NOT_FOUND = Reply(
    status=404, json_body={"error": {"type": "not_found", "message": "mock: no route"}}
)


class MockServer:
    """Base class: subclasses set ``request_class`` and implement :meth:`handle`."""

    request_class: ClassVar[type[ModelRequest]] = ModelRequest
    name: ClassVar[str] = "mock"

    def __init__(self, script: ScriptSpec = (), deadline: float = 120.0) -> None:
        self.script = Script(script)
        self.deadline = deadline
        self.requests: list[ModelRequest] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self._started = 0.0
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # Lifecycle ---------------------------------------------------------------------------
    def start(self) -> MockServer:
        mock = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def _serve(self) -> None:
                mock._serve(self)

            do_GET = _serve
            do_POST = _serve
            do_PUT = _serve
            do_DELETE = _serve
            do_PATCH = _serve
            do_HEAD = _serve

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._started = time.monotonic()
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> MockServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "mock not started"
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def expired(self) -> bool:
        return time.monotonic() - self._started > self.deadline

    # Reading what was recorded -------------------------------------------------------------
    def scripted(self) -> list[ModelRequest]:
        """The agent-loop requests, in order (side calls left out)."""
        with self._lock:
            return [r for r in self.requests if r.scripted]

    def paths(self) -> list[str]:
        with self._lock:
            return [f"{r.method} {r.path}" for r in self.requests]

    # Serving -----------------------------------------------------------------------------
    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        if not length and handler.headers.get("Transfer-Encoding", "").lower() == "chunked":
            raw = _read_chunked(handler)
        encoding = handler.headers.get("Content-Encoding", "").lower()
        try:
            if encoding == "gzip":
                raw = gzip.decompress(raw)
            elif encoding == "deflate":
                raw = zlib.decompress(raw)
            elif encoding == "zstd":  # pragma: no cover - not seen from these clients
                pass
        except (OSError, zlib.error):
            pass
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = None
        with self._lock:
            request = self.request_class(
                index=len(self.requests),
                method=handler.command,
                path=handler.path,
                headers={k.lower(): v for k, v in handler.headers.items()},
                raw=raw,
                body=body,
                at=time.monotonic() - self._started,
            )
            self.requests.append(request)
        try:
            reply = self.handle(request)
        except Exception as exc:  # a mock bug must not hang the client: answer 500
            self.errors.append(f"{request.method} {request.path}: {exc!r}")
            reply = Reply(status=500, json_body={"error": {"message": f"mock error: {exc!r}"}})
        request.status = reply.status
        payload, content_type = reply.encode()
        try:
            handler.send_response(reply.status)
            handler.send_header("Content-Type", reply.headers.get("Content-Type", content_type))
            for key, value in reply.headers.items():
                if key.lower() != "content-type":
                    handler.send_header(key, value)
            handler.send_header("Content-Length", str(len(payload)))
            handler.end_headers()
            if handler.command != "HEAD":
                handler.wfile.write(payload)
            handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def next_turn(self, request: ModelRequest) -> Turn:
        """Advance the script for an agent-loop request and mark the request as scripted."""
        request.scripted = True
        if self.expired:
            turn: Turn = Text("(mock deadline passed)")
            request.turn_index = None
            self.errors.append(
                f"deadline of {self.deadline}s passed: request #{request.index} ended"
            )
        else:
            try:
                request.turn_index, turn = self.script.next_turn(request)
            except Exception as exc:  # a failing dynamic step ends the session, visibly
                self.errors.append(f"script step raised {exc!r}")
                request.turn_index = self.script.position - 1
                turn = Text(f"(mock: script step raised {exc!r})")
        request.reply = turn
        return turn

    def handle(self, request: ModelRequest) -> Reply:  # pragma: no cover - abstract
        raise NotImplementedError


def _read_chunked(handler: BaseHTTPRequestHandler) -> bytes:
    parts: list[bytes] = []
    while True:
        line = handler.rfile.readline().strip()
        size = int(line.split(b";")[0] or b"0", 16)
        if size == 0:
            handler.rfile.readline()
            return b"".join(parts)
        parts.append(handler.rfile.read(size))
        handler.rfile.readline()


def sse(events: Iterable[tuple[str | None, Any]]) -> Reply:
    return Reply(sse=list(events))
