"""The token endpoint: grant type, client authentication, scopes."""

from __future__ import annotations

import base64

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.routing import Route
from starlette.testclient import TestClient

from acme_billing.auth import token_endpoint
from acme_billing.auth.jwt_tokens import verify_token
from acme_billing.auth.keys import KeyRing
from acme_billing.auth.legacy.basic_auth import Account
from tests.auth.test_jwt_tokens import ISSUER, rsa_key

SECRET = base64.b64encode(b"partner-1:s3cret").decode()
BASIC = {"Authorization": f"Basic {SECRET}"}


@pytest.fixture(scope="module")
def ring() -> KeyRing:
    return KeyRing(ISSUER, [rsa_key("2026-11")])


@pytest.fixture
def client(ring: KeyRing, monkeypatch: pytest.MonkeyPatch) -> TestClient:
    def check(encoded: str) -> Account | None:
        return Account("partner-1", "acct-7") if encoded == SECRET else None

    monkeypatch.setattr(token_endpoint, "check_basic_credentials", check)

    async def endpoint(request: Request):  # type: ignore[no-untyped-def]
        return await token_endpoint.token(request, ring)

    return TestClient(Starlette(routes=[Route("/oauth/token", endpoint, methods=["POST"])]))


def grant(client: TestClient, headers: dict[str, str] = BASIC, **form: str):  # type: ignore[no-untyped-def]
    return client.post("/oauth/token", data={"grant_type": "client_credentials", **form},
                       headers=headers)


def test_client_credentials_grant(client: TestClient, ring: KeyRing) -> None:
    response = grant(client)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    claims = verify_token(ring, response.json()["access_token"])
    assert (claims.account_id, claims.scopes) == ("acct-7", ("invoices:read",))


def test_other_grant_types_are_refused(client: TestClient) -> None:
    response = client.post("/oauth/token", data={"grant_type": "password"}, headers=BASIC)
    assert response.json()["error"] == "unsupported_grant_type"


def test_bad_client_credentials_get_401(client: TestClient) -> None:
    wrong = base64.b64encode(b"partner-1:wrong").decode()
    response = grant(client, headers={"Authorization": f"Basic {wrong}"})
    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"


@pytest.mark.parametrize(
    ("asked", "granted"),
    [("invoices:write invoices:read", "invoices:read invoices:write"), ("", "invoices:read")],
)
def test_granted_scopes(client: TestClient, asked: str, granted: str) -> None:
    assert grant(client, scope=asked).json()["scope"] == granted


def test_unknown_scope_is_refused(client: TestClient) -> None:
    assert grant(client, scope="admin").json()["error"] == "invalid_scope"
