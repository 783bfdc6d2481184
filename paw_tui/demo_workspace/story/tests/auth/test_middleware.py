"""Bearer tokens through the app; Basic Auth only while the legacy flag is on."""

from __future__ import annotations

import base64

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from acme_billing.auth import middleware
from acme_billing.auth.jwt_tokens import issue_token
from acme_billing.auth.keys import KeyRing
from tests.auth.test_jwt_tokens import ISSUER, rsa_key


async def whoami(request: Request) -> JSONResponse:
    return JSONResponse({"user": request.user.display_name, "account": request.user.account_id})


@pytest.fixture(scope="module")
def ring() -> KeyRing:
    return KeyRing(ISSUER, [rsa_key("2026-11")])


@pytest.fixture
def client(ring: KeyRing, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    monkeypatch.setattr(middleware, "key_ring", lambda: ring)
    app = Starlette(routes=[Route("/whoami", whoami), Route("/health", whoami)])
    app.add_middleware(middleware.ApiAuthMiddleware)
    return TestClient(app)


def test_bearer_token_authenticates(client: TestClient, ring: KeyRing) -> None:
    token = issue_token(ring, "user-42", "acct-7", ["invoices:read"])
    response = client.get("/whoami", headers={"Authorization": f"Bearer {token}"})
    assert response.json() == {"user": "user-42", "account": "acct-7"}


def test_missing_credentials_get_401(client: TestClient) -> None:
    assert client.get("/whoami").status_code == 401


def test_expired_token_gets_401_with_reason(client: TestClient, ring: KeyRing) -> None:
    token = issue_token(ring, "user-42", "acct-7", [], now=0)
    response = client.get("/whoami", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 401
    assert "expired" in response.text


def test_basic_auth_is_refused_without_the_legacy_flag(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(middleware, "legacy_auth_enabled", lambda: False)
    basic = base64.b64encode(b"user-42:secret").decode()
    assert client.get("/whoami", headers={"Authorization": f"Basic {basic}"}).status_code == 401
