"""Spans as an OTLP/HTTP protobuf request body, through the OpenTelemetry SDK's own encoder.

The SDK's span processors are not used: :class:`~opentelemetry.sdk.trace.export.
BatchSpanProcessor` drops spans silently when a backend is slow, and the ledger is the buffer
here anyway. Only the data classes and the encoder are, so the wire format is the SDK's.
"""

from __future__ import annotations

import os
import socket
from typing import Any

from paw_tui import __version__
from paw_tui.core.ship.mapping import SpanData

MISSING_EXTRA = (
    "trace ship needs OpenTelemetry: install paw-tui with its 'otel' extra "
    "(pip install 'paw-tui[otel]', or the same with pipx/uv)"
)


class ExtraMissing(Exception):
    """The optional dependencies are not installed."""


def _sdk() -> tuple[Any, ...]:
    try:
        from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import ReadableSpan
        from opentelemetry.trace import SpanContext, SpanKind, Status, StatusCode, TraceFlags
    except ImportError as error:
        raise ExtraMissing(MISSING_EXTRA) from error
    return (
        encode_spans,
        Resource,
        ReadableSpan,
        SpanContext,
        SpanKind,
        Status,
        StatusCode,
        TraceFlags,
    )


class Encoder:
    """Encodes batches of :class:`SpanData` for one workspace and project."""

    def __init__(self, workspace: str, project: str) -> None:
        (
            self._encode,
            resource_class,
            self._span,
            self._context,
            kind,
            self._status,
            self._code,
            flags,
        ) = _sdk()
        attributes: dict[str, object] = {
            "service.version": __version__,
            "host.name": socket.gethostname(),
            "paw.workspace": workspace,
            "openinference.project.name": project,
        }
        if not os.environ.get("OTEL_SERVICE_NAME"):
            attributes["service.name"] = "paw-tui"
        # Resource.create merges OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME (the standard
        # variables); ours win over the former, a service name the person set wins over ours
        self._resource = resource_class.create(attributes)
        self._kind = kind.INTERNAL
        self._flags = flags(flags.SAMPLED)
        self._unset = self._status(self._code.UNSET)

    def encode(self, spans: list[SpanData]) -> bytes:
        sdk_spans = []
        for span in spans:
            context = self._context(span.trace_id, span.span_id, False, self._flags)
            parent = (
                self._context(span.trace_id, span.parent_id, False, self._flags)
                if span.parent_id is not None
                else None
            )
            status = (
                self._status(self._code.ERROR, span.error)
                if span.error is not None
                else self._unset
            )
            sdk_spans.append(
                self._span(
                    name=span.name,
                    context=context,
                    parent=parent,
                    resource=self._resource,
                    attributes=span.attributes,
                    kind=self._kind,
                    start_time=span.start_ns,
                    end_time=span.end_ns,
                    status=status,
                )
            )
        request = self._encode(sdk_spans)
        body: bytes = request.SerializeToString()
        return body


def partial_rejection(body: bytes) -> tuple[int, str] | None:
    """``(rejected spans, message)`` from an OTLP response body that reports a partial
    success; None when it reports none or cannot be read."""
    try:
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceResponse,
        )

        response = ExportTraceServiceResponse()
        response.ParseFromString(body)
    except Exception:
        return None
    partial = response.partial_success
    if partial.rejected_spans or partial.error_message:
        return int(partial.rejected_spans), str(partial.error_message)
    return None
