"""A scriptable OTLP/HTTP endpoint on 127.0.0.1 for the tests of ``trace ship``.

It answers from a script of actions, one per request (``503``, ``429``, ``400``, ``413``,
``"drop"`` to close the connection without answering, ``"accept"``), then accepts everything;
an accepted request's spans are decoded (OpenTelemetry's own protobuf classes) and kept, or,
with ``forward_to``, passed on to a real backend and its answer returned. So the same sink is
a backend of its own and a flaky network in front of a real Phoenix.
"""

from __future__ import annotations

import gzip
import http.server
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Sink:
    url: str
    script: list[object] = field(default_factory=list)
    forward_to: str | None = None
    spans: list[dict[str, Any]] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)  # what each request got
    headers: list[dict[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def endpoint(self) -> str:
        return f"{self.url}/v1/traces"

    def next_action(self) -> object:
        with self.lock:
            return self.script.pop(0) if self.script else "accept"

    def seqs(self) -> list[int]:
        found = []
        for span in self.spans:
            attributes = span["attributes"]
            assert isinstance(attributes, dict)
            if "paw.ledger.seq" in attributes:
                found.append(int(attributes["paw.ledger.seq"]))
        return found


def decode(body: bytes) -> list[dict[str, Any]]:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    request = ExportTraceServiceRequest()
    request.ParseFromString(body)
    spans: list[dict[str, Any]] = []
    for resource_spans in request.resource_spans:
        resource = {kv.key: _value(kv.value) for kv in resource_spans.resource.attributes}
        for scope in resource_spans.scope_spans:
            for span in scope.spans:
                spans.append(
                    {
                        "name": span.name,
                        "trace_id": span.trace_id.hex(),
                        "span_id": span.span_id.hex(),
                        "parent_id": span.parent_span_id.hex() or None,
                        "start": span.start_time_unix_nano,
                        "status": span.status.code,
                        "message": span.status.message,
                        "attributes": {kv.key: _value(kv.value) for kv in span.attributes},
                        "resource": resource,
                    }
                )
    return spans


def _value(value) -> object:  # type: ignore[no-untyped-def]
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [_value(item) for item in value.array_value.values]
    return getattr(value, kind) if kind else None


@contextmanager
def otlp_sink(
    script: list[object] | None = None, forward_to: str | None = None, keep: bool = True
) -> Iterator[Sink]:
    """The sink, serving until the block ends; ``keep=False`` accepts without decoding."""
    sink: Sink | None = None

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            assert sink is not None
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            action = sink.next_action()
            sink.requests.append(str(action))
            sink.headers.append({k.lower(): v for k, v in self.headers.items()})
            if action == "drop":
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if isinstance(action, int):
                self.send_response(action)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            if sink.forward_to is not None:
                request = urllib.request.Request(
                    sink.forward_to, data=body, headers={"Content-Type": "application/x-protobuf"}
                )
                try:
                    with urllib.request.urlopen(request, timeout=30) as answer:
                        status, data = answer.status, answer.read()
                except urllib.error.HTTPError as error:
                    status, data = error.code, error.read()
            else:
                status, data = 200, b""
            if 200 <= status < 300 and keep:
                with sink.lock:
                    sink.spans.extend(decode(body))
            self.send_response(status)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    sink = Sink(f"http://127.0.0.1:{server.server_address[1]}", list(script or []), forward_to)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield sink
    finally:
        server.shutdown()
        server.server_close()
