"""Request logging through a real app: fields, request ids, redaction."""

from __future__ import annotations

import json
import logging

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from acme_billing.middleware.request_log import REQUEST_ID_HEADER, RequestLogMiddleware
from acme_billing.observability.json_logging import JsonFormatter


async def _ok(request):  # type: ignore[no-untyped-def]
    return PlainTextResponse("ok")


@pytest.fixture
def client() -> TestClient:
    app = Starlette(routes=[Route("/ping", _ok)])
    app.add_middleware(RequestLogMiddleware)
    return TestClient(app)


def _logged(caplog: pytest.LogCaptureFixture) -> dict[str, object]:
    record = next(r for r in caplog.records if r.name == "acme_billing.request")
    return json.loads(JsonFormatter().format(record))


def test_request_is_logged_with_timing(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        client.get("/ping")
    data = _logged(caplog)
    assert data["method"] == "GET"
    assert data["status"] == 200
    assert data["duration_ms"] >= 0


def test_incoming_request_id_is_kept(client: TestClient) -> None:
    response = client.get("/ping", headers={REQUEST_ID_HEADER: "req-123"})
    assert response.headers[REQUEST_ID_HEADER] == "req-123"


def test_authorization_is_never_logged(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        client.get("/ping", headers={"Authorization": "Bearer abc.def.ghi"})
    assert "abc.def.ghi" not in json.dumps(_logged(caplog))
