"""Scope checks on handlers."""

from __future__ import annotations

import pytest
from starlette.authentication import AuthCredentials
from starlette.requests import Request
from starlette.responses import PlainTextResponse

from acme_billing.auth.scopes import has_scope, requires_scope


def request_with(scopes: list[str]) -> Request:
    return Request({"type": "http", "method": "GET", "path": "/", "headers": [],
                    "auth": AuthCredentials(scopes)})


@pytest.mark.parametrize(
    ("granted", "needed", "allowed"),
    [
        (["invoices:read"], "invoices:read", True),
        (["invoices:read"], "invoices:write", False),
        (["invoices:*"], "invoices:write", True),
        (["payments:*"], "invoices:read", False),
    ],
)
def test_has_scope(granted: list[str], needed: str, allowed: bool) -> None:
    assert has_scope(request_with(granted), needed) is allowed


async def ok(request: Request) -> PlainTextResponse:
    return PlainTextResponse("ok")


@pytest.mark.anyio
async def test_missing_scope_gets_403_with_a_hint() -> None:
    response = await requires_scope("invoices:write")(ok)(request_with(["invoices:read"]))
    assert response.status_code == 403
    assert 'scope="invoices:write"' in response.headers["www-authenticate"]


@pytest.mark.anyio
async def test_granted_scope_reaches_the_handler() -> None:
    response = await requires_scope("invoices:read")(ok)(request_with(["invoices:read"]))
    assert response.status_code == 200
