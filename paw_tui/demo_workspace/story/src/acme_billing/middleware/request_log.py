"""Request logging: one structured line per request, with its duration and request id."""

from __future__ import annotations

import logging
import time
import uuid

from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import Response

from acme_billing.observability.json_logging import redact

logger = logging.getLogger("acme_billing.request")
REQUEST_ID_HEADER = "X-Request-ID"
LOGGED_HEADERS = frozenset({"user-agent", "x-partner-id", "authorization"})


def request_id_for(request: Request) -> str:
    """Keep the caller's id so one request can be followed across services."""
    incoming = request.headers.get(REQUEST_ID_HEADER, "").strip()
    if incoming and len(incoming) <= 128 and incoming.isprintable():
        return incoming
    return uuid.uuid4().hex


def request_fields(
    request: Request, status: int, duration_ms: float, request_id: str
) -> dict[str, object]:
    fields: dict[str, object] = {
        "method": request.method,
        "path": request.url.path,
        "status": status,
        "duration_ms": round(duration_ms, 1),
        "request_id": request_id,
    }
    if request.client is not None:
        fields["client_ip"] = request.client.host
    headers = {name: value for name, value in request.headers.items() if name in LOGGED_HEADERS}
    fields.update(redact(headers))
    return fields


class RequestLogMiddleware(BaseHTTPMiddleware):
    """Log every request once it has a status, and return the request id to the caller."""

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        request_id = request_id_for(request)
        request.state.request_id = request_id
        started = time.perf_counter()
        status = 500
        try:
            response = await call_next(request)
            status = response.status_code
        finally:
            duration_ms = (time.perf_counter() - started) * 1000
            fields = request_fields(request, status, duration_ms, request_id)
            logger.info("request", extra={"fields": fields})
        response.headers[REQUEST_ID_HEADER] = request_id
        return response
