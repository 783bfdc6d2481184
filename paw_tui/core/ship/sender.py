"""One synchronous OTLP/HTTP request, and what its answer means for the batch.

A batch is sent and the cursor moves only once the backend accepted it (2xx). A refusal that
may pass (408, 429, 5xx) or a dropped connection means "send the same batch again, later";
any other 4xx means the backend will never take this batch as it is (a wrong path, a missing
header): the run stops and says so, and nothing is lost (the cursor did not move).
"""

from __future__ import annotations

import gzip
import http.client
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from paw_tui.core.ship.endpoint import Endpoint

ACCEPTED = "accepted"
RETRY = "retry"
FATAL = "fatal"
TOO_LARGE = "too_large"
RETRYABLE_STATUS = frozenset({408, 429}) | frozenset(range(500, 600))


@dataclass(frozen=True)
class Answer:
    outcome: str
    detail: str  # a person's words: "HTTP 503 at capacity", "connection refused"
    body: bytes = b""
    retry_after: float | None = None


def _connection(endpoint: Endpoint) -> http.client.HTTPConnection:
    parts = urlsplit(endpoint.url)
    if parts.scheme == "https":
        context = ssl.create_default_context(cafile=endpoint.certificate)
        if endpoint.client_certificate:
            context.load_cert_chain(endpoint.client_certificate, endpoint.client_key)
        return http.client.HTTPSConnection(parts.netloc, timeout=endpoint.timeout, context=context)
    return http.client.HTTPConnection(parts.netloc, timeout=endpoint.timeout)


def _first_line(body: bytes) -> str:
    text = body.decode("utf-8", "replace").strip().splitlines()
    return text[0][:200] if text else ""


def send(endpoint: Endpoint, body: bytes) -> Answer:
    """POST one encoded batch; never raises for a network or HTTP failure."""
    parts = urlsplit(endpoint.url)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    headers = {"Content-Type": "application/x-protobuf", "User-Agent": "paw-tui trace ship"}
    headers.update(endpoint.headers)
    if endpoint.gzip:
        body = gzip.compress(body)
        headers["Content-Encoding"] = "gzip"
    try:
        connection = _connection(endpoint)
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            status, reason = response.status, response.reason
            retry_after = response.getheader("Retry-After")
        finally:
            connection.close()
    except (OSError, http.client.HTTPException, ssl.SSLError) as error:
        return Answer(RETRY, f"no answer ({error.__class__.__name__}: {error})")
    detail = f"HTTP {status} {reason}".strip()
    said = _first_line(data)
    if said:
        detail += f": {said}"
    if 200 <= status < 300:
        return Answer(ACCEPTED, detail, data)
    if status == 413:
        return Answer(TOO_LARGE, detail)
    if status in RETRYABLE_STATUS:
        wait = None
        if retry_after and retry_after.strip().isdigit():
            wait = float(retry_after.strip())
        return Answer(RETRY, detail, retry_after=wait)
    return Answer(FATAL, detail)
